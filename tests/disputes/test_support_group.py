"""The Support group: staff look at customers' data, work disputes through the review
workflow and unblock cards with a note; nothing more."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from disputes.roles import SUPPORT_GROUP, support_group_ensure

EXPECTED_DOMAIN_PERMISSIONS = {
    ("accounts", "view_customer"),
    ("accounts", "view_account"),
    ("accounts", "view_card"),
    ("accounts", "view_transaction"),
    ("accounts", "unblock_card"),
    ("accounts", "view_cardunblock"),
    ("disputes", "view_dispute"),
    ("disputes", "change_dispute"),
    ("disputes", "view_disputereview"),
}


def permissions(group: Group) -> set[tuple[str, str]]:
    return set(group.permissions.values_list("content_type__app_label", "codename"))


def test_it_grants_view_on_accounts_review_on_disputes_and_unblock_on_cards(staff):
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
    assert staff.has_perm("accounts.unblock_card")
    assert not staff.has_perm("disputes.add_disputereview")


def test_it_declares_no_permission_that_would_write_an_audit_record(db):
    declared = set(
        Permission.objects.filter(content_type__model__in=["disputereview", "cardunblock"]).values_list(
            "codename", flat=True
        )
    )

    assert declared == {"view_disputereview", "view_cardunblock", "unblock_card"}


def test_it_gives_a_customer_none_of_it(alice):
    for perm in (
        "disputes.view_dispute",
        "disputes.change_dispute",
        "accounts.unblock_card",
        "accounts.view_transaction",
    ):
        assert not alice.user.has_perm(perm)
    assert not alice.user.is_staff


def test_it_resets_a_group_that_was_given_more(db):
    group = support_group_ensure()
    group.permissions.add(Permission.objects.get(codename="delete_customer"))

    support_group_ensure()

    assert ("accounts", "delete_customer") not in permissions(group)
    assert permissions(group) >= EXPECTED_DOMAIN_PERMISSIONS
