"""The Support group: staff look at customers' data and work disputes, nothing more."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from disputes.roles import SUPPORT_GROUP, support_group_ensure

EXPECTED_DOMAIN_PERMISSIONS = {
    ("accounts", "view_customer"),
    ("accounts", "view_account"),
    ("accounts", "view_card"),
    ("accounts", "view_transaction"),
    ("disputes", "view_dispute"),
    ("disputes", "change_dispute"),
}


def permissions(group: Group) -> set[tuple[str, str]]:
    return set(group.permissions.values_list("content_type__app_label", "codename"))


def test_it_grants_view_on_accounts_and_view_change_on_disputes(staff):
    granted = permissions(Group.objects.get(name=SUPPORT_GROUP))

    domain = {(app, code) for app, code in granted if app in ("accounts", "disputes")}
    assert domain == EXPECTED_DOMAIN_PERMISSIONS


def test_it_grants_no_add_or_delete_anywhere(staff):
    codenames = {code for _app, code in permissions(Group.objects.get(name=SUPPORT_GROUP))}

    assert not {c for c in codenames if c.startswith(("add_", "delete_"))}
    assert "change_customer" not in codenames


def test_it_gives_the_staff_user_exactly_these_permissions(staff):
    assert staff.has_perm("disputes.change_dispute")
    assert staff.has_perm("accounts.view_transaction")
    assert not staff.has_perm("accounts.change_customer")
    assert not staff.has_perm("accounts.change_card")
    assert not staff.has_perm("disputes.add_dispute")
    assert not staff.has_perm("disputes.delete_dispute")


def test_it_resets_a_group_that_was_given_more(db):
    group = support_group_ensure()
    group.permissions.add(Permission.objects.get(codename="delete_customer"))

    support_group_ensure()

    assert ("accounts", "delete_customer") not in permissions(group)
    assert permissions(group) >= EXPECTED_DOMAIN_PERMISSIONS
