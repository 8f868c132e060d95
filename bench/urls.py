"""The app's URLs plus two bench-only views, never in the app's own urls:

- ``POST /bench/unguarded-dispute``: what a naive app would do instead of the
  confirm card, benchmark (b)'s comparison — the same service (``dispute_open``)
  straight away on the posted transaction and amount, no proposal, no
  confirmation, no idempotency record, no trace; the same server and middleware
  (session, CSRF, auth).
- ``POST /bench/bare-insert``: the bare Django view (b) compared with before, one INSERT.
"""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.http import require_POST

from accounts.models import Customer
from config.urls import urlpatterns as app_urlpatterns
from disputes.services import dispute_open

BARE_TABLE = "bench_bare_insert"


@require_POST
@login_required
def bare_insert(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {BARE_TABLE} (user_id, body) VALUES (%s, %s)",  # noqa: S608
            [request.user.pk, request.POST.get("digest", "")],
        )
    return HttpResponse("ok")


@require_POST
@login_required
def unguarded_dispute(request: HttpRequest) -> HttpResponse:
    """The service on the spot, as a naive app runs it: a fresh key per request
    (so a second click disputes twice if the service allowed it), nothing on record."""
    customer = Customer.objects.get(user=request.user)
    result = dispute_open(
        customer=customer,
        transaction_reference=request.POST.get("transaction", ""),
        amount=request.POST.get("amount", ""),
        reason=request.POST.get("reason", "not_recognised"),
        idempotency_key=uuid.uuid4(),
    )
    return JsonResponse(result.as_dict())


urlpatterns = [
    path("bench/bare-insert", bare_insert),
    path("bench/unguarded-dispute", unguarded_dispute),
    *app_urlpatterns,
]
