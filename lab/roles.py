"""The Trainee group: people who study the Injection Lab, and nothing more.

A trainee opens the lab's pages (``lab/access.py``) and no other: the group holds no
permission, its members are not staff (no admin) and have no customer record (the
chat and the statement show them nothing). The group is made after every migrate
(``lab/apps.py``), as the Support group is (``disputes/roles.py``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group

TRAINEE_GROUP = "Trainee"


def trainee_group_ensure(*, using: str = "default") -> Group:
    """Create the Trainee group or reset it to no permissions at all."""
    group, _ = Group.objects.using(using).get_or_create(name=TRAINEE_GROUP)
    group.permissions.clear()
    return group


def trainee_ensure(*, username: str, password: str) -> AbstractBaseUser:
    """A trainee login (the demo's ``trainee``): made once, with ``password``, not staff;
    a second call only makes sure of the group."""
    user, made = get_user_model().objects.get_or_create(username=username, defaults={"is_staff": False})
    if made:
        user.set_password(password)
        user.save()
    user.groups.add(trainee_group_ensure())
    return user
