"""The hand-over on the record in admin: support staff read each hand-over's trail —
asked, taken, every staff message, handed back — and the Support group gains only what
the hand-over needs: taking a conversation, and reading that record."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission

from disputes.roles import SUPPORT_GROUP
from support.services import handoff_return, handoff_take, staff_message


def test_support_staff_read_the_trail_of_a_hand_over_in_admin(browser_for, aigerim, handoff):
    handoff_take(staff=aigerim, pk=handoff.pk)
    staff_message(staff=aigerim, pk=handoff.pk, text="Your card is blocked now.")
    handoff_return(staff=aigerim, pk=handoff.pk)
    page = browser_for(aigerim).get(f"/admin/support/handoff/{handoff.pk}/change/").content.decode()
    for shown in ("Asked for a person", "Taken", "Staff message", "Your card is blocked now.", "aigerim"):
        assert shown in page
    assert 'name="_save"' not in page  # evidence: nothing to change


def test_nobody_changes_or_deletes_the_record_from_admin(admin_client, handoff):
    assert (
        admin_client.post(f"/admin/support/handoff/{handoff.pk}/delete/", {"post": "yes"}).status_code == 403
    )
    assert admin_client.get("/admin/support/handoffevent/add/").status_code in (403, 404)


def test_the_support_group_gains_only_the_hand_overs_permissions(aigerim):
    granted = set(
        Permission.objects.filter(group__name=SUPPORT_GROUP, content_type__app_label="support").values_list(
            "codename", flat=True
        )
    )
    assert granted == {"take_handoff", "view_handoff", "view_handoffevent"}
    assert (
        Group.objects.get(name=SUPPORT_GROUP)
        .permissions.filter(codename__startswith="change_handoff")
        .count()
        == 0
    )
