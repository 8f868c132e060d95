"""``GET /healthz``: whether this worker reaches its database."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

log = logging.getLogger(__name__)


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 when it does not. The endpoint is public
    (a load balancer asks it without signing in), so the database's error, which
    names its host, port and user, goes to the log and never into the answer."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        log.warning("healthz: the database is unavailable", exc_info=True)
        return JsonResponse({"status": "unavailable"}, status=503)
    return JsonResponse({"status": "ok", "database": connection.vendor})
