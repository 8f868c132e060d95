"""The Support group: what support staff may do in admin, and nothing more."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group, Permission

SUPPORT_GROUP = "Support"

# (app_label, codename). Staff change disputes only through the review workflow
# (change_dispute is what dispute_review checks; admin edits no field), unblock
# cards with a note, and only look at everything else.
SUPPORT_PERMISSIONS = [
    ("disputes", "view_dispute"),
    ("disputes", "change_dispute"),
    ("disputes", "view_disputereview"),
    ("accounts", "view_customer"),
    ("accounts", "view_account"),
    ("accounts", "view_card"),
    ("accounts", "unblock_card"),
    ("accounts", "view_cardunblock"),
    ("accounts", "view_transaction"),
    ("tools", "view_toolcalltrace"),
    ("tools", "view_proposal"),
    ("tools", "view_confirmation"),
    # The hand-over (support/): take a queued conversation and write to its customer;
    # read the hand-overs' record.
    ("support", "take_handoff"),
    ("support", "view_handoff"),
    ("support", "view_handoffevent"),
]


def support_group_ensure(*, using: str = "default") -> Group:
    """Create the Support group or reset it to exactly SUPPORT_PERMISSIONS."""
    group, _ = Group.objects.using(using).get_or_create(name=SUPPORT_GROUP)
    wanted = []
    for app_label, codename in SUPPORT_PERMISSIONS:
        perm = (
            Permission.objects.using(using)
            .filter(content_type__app_label=app_label, codename=codename)
            .first()
        )
        if perm is not None:  # the app may not be migrated yet
            wanted.append(perm)
    group.permissions.set(wanted)
    return group


def support_staff_ensure(*, username: str, password: str) -> AbstractBaseUser:
    """A staff user in the Support group (the demo's ``support``): made once, with
    ``password``; a second call only makes sure of the group."""
    user, made = get_user_model().objects.get_or_create(username=username, defaults={"is_staff": True})
    if made:
        user.set_password(password)
        user.save()
    user.groups.add(support_group_ensure())
    return user
