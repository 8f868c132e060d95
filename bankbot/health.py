"""``GET /healthz``: whether this worker reaches its database."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, 503 (with the reason) when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return JsonResponse({"status": "unavailable", "database": str(exc)}, status=503)
    return JsonResponse({"status": "ok", "database": connection.vendor})
