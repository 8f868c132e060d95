"""Who may open the Injection Lab's pages.

One decorator for every lab page, so the rule is written once: signed in, and either
bank staff or a member of the Trainee group (``lab/roles.py``). A trainee is not staff:
no admin, no customer's pages, no customer's data; the lab plays every run in a
database of its own. A run shows the bank's defences in detail, so no page is kept by a
browser or proxy cache (no-store), as with a customer's pages.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache

from accounts.models import Customer
from lab.roles import TRAINEE_GROUP


def may_open_lab(user: AbstractBaseUser | AnonymousUser) -> bool:
    """The one rule: signed in, active, and staff or in the Trainee group."""
    if not user.is_authenticated or not user.is_active:
        return False
    if getattr(user, "is_staff", False):
        return True
    groups = getattr(user, "groups", None)
    return groups is not None and groups.filter(name=TRAINEE_GROUP).exists()


def lands_on_lab(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether signing in should land ``user`` on the lab: a trainee, who is neither
    staff (they land on admin) nor a customer (they land on their chat)."""
    if not may_open_lab(user) or getattr(user, "is_staff", False) or user.pk is None:
        return False
    return not Customer.objects.filter(user_id=int(user.pk)).exists()


def lab_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @login_required
    @never_cache
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not may_open_lab(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped
