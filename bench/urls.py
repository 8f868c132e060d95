"""The app's URLs plus ``POST /bench/bare-insert``: the bare Django view of
benchmark (b) — same server, same middleware (session, CSRF, auth), one INSERT."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.http import require_POST

from bankbot.urls import urlpatterns as app_urlpatterns

BARE_TABLE = "bench_bare_insert"


@require_POST
@login_required
def bare_insert(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {BARE_TABLE} (user_id, body) VALUES (%s, %s)",  # noqa: S608
                       [request.user.pk, request.POST.get("digest", "")])
    return HttpResponse("ok")


urlpatterns = [path("bench/bare-insert", bare_insert), *app_urlpatterns]
