"""Whether the signed-in user may open the lab, for the top bar's links.

Lazy: the rule (``lab/access.py``) is asked only when a template reads ``lab_open``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import HttpRequest

from lab.access import may_open_lab


def lab_access(request: HttpRequest) -> dict[str, Callable[[], bool]]:
    return {"lab_open": functools.partial(may_open_lab, request.user)}
