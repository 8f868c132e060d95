"""Who may open the Injection Lab's pages.

One decorator for every lab page, so the rule is written once: signed in, and bank
staff. A run shows the bank's defences in detail, so no page is kept by a browser or
proxy cache (no-store), as with a customer's pages.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache


def lab_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @login_required
    @never_cache
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped
