"""Least privilege in admin, per role: nobody — superusers included — adds or deletes a
dispute, edits its amount, key, reference, customer or transaction, or touches the
trace and the review record; customers have no way in at all."""

from __future__ import annotations

import pytest
from django.contrib import admin

from disputes.models import Dispute, DisputeReview
from disputes.services import dispute_review
from tools.models import Confirmation, Proposal, ToolCallTrace

ROLES = ["staff_client", "admin_client"]
FROZEN = [
    "reference",
    "customer",
    "transaction",
    "amount",
    "reason",
    "idempotency_key",
    "created_at",
    "status",
]


@pytest.fixture
def trail(alice_conversation, chat_dispute, staff) -> Dispute:
    """A dispute from the chat, reviewed once: a row in every evidence table."""
    dispute = chat_dispute(
        alice_conversation,
        "Dispute the Magnum charge",
        merchant="Magnum",
        transaction="T-1001",
        amount="15000.00",
        reason="not_recognised",
    )
    dispute_review(dispute=dispute, to_status="in_review", note="Looking", staff_user=staff)
    return dispute


def evidence_rows(dispute: Dispute) -> list[tuple[str, int]]:
    confirmation = Confirmation.objects.get(idempotency_key=dispute.idempotency_key)
    trace = ToolCallTrace.objects.filter(proposal=confirmation.proposal).first()
    return [
        ("tools/toolcalltrace", trace.pk),
        ("tools/proposal", confirmation.proposal_id),
        ("tools/confirmation", confirmation.pk),
        ("disputes/disputereview", DisputeReview.objects.get().pk),
    ]


def snapshot() -> list[object]:
    return [
        list(ToolCallTrace.objects.values()),
        list(Proposal.objects.values()),
        list(Confirmation.objects.values()),
        list(DisputeReview.objects.values()),
        list(Dispute.objects.values()),
    ]


def test_it_makes_every_dispute_field_read_only_for_everyone(rf, admin_user):
    model_admin = admin.site._registry[Dispute]
    request = rf.get("/")
    request.user = admin_user

    assert set(model_admin.get_readonly_fields(request)) >= set(FROZEN)
    assert model_admin.has_change_permission(request) is False
    assert model_admin.has_add_permission(request) is False
    assert model_admin.has_delete_permission(request) is False


@pytest.mark.parametrize("who", ROLES)
def test_it_forbids_adding_or_deleting_a_dispute(request, who, dispute):
    client = request.getfixturevalue(who)

    assert client.get("/admin/disputes/dispute/add/").status_code == 403
    assert client.post("/admin/disputes/dispute/add/", {"amount": "1"}).status_code == 403
    assert client.post(f"/admin/disputes/dispute/{dispute.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = client.post(
        "/admin/disputes/dispute/",
        {"action": "delete_selected", "_selected_action": [dispute.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert Dispute.objects.filter(pk=dispute.pk).exists()


@pytest.mark.parametrize("who", ROLES)
def test_it_shows_the_dispute_page_without_a_save_button(request, who, dispute):
    page = request.getfixturevalue(who).get(f"/admin/disputes/dispute/{dispute.pk}/change/").content.decode()

    assert 'name="_save"' not in page
    assert 'name="amount"' not in page
    assert 'name="status"' not in page


@pytest.mark.parametrize("who", ROLES)
def test_it_keeps_the_trace_and_the_review_record_append_only_in_admin(request, who, trail):
    client = request.getfixturevalue(who)
    before = snapshot()

    for model, pk in evidence_rows(trail):
        assert client.get(f"/admin/{model}/{pk}/change/").status_code == 200  # may look
        assert client.post(f"/admin/{model}/{pk}/change/", {"decision": "x", "note": "x"}).status_code == 403
        assert client.post(f"/admin/{model}/{pk}/delete/", {"post": "yes"}).status_code == 403
        assert client.get(f"/admin/{model}/add/").status_code == 403

    assert snapshot() == before


def test_it_sends_a_customer_away_from_every_staff_page(customer_client, trail):
    pages = [
        "/admin/disputes/dispute/",
        f"/admin/disputes/dispute/{trail.pk}/change/",
        "/admin/disputes/disputereview/",
        "/admin/tools/toolcalltrace/",
        "/admin/accounts/card/",
        "/admin/accounts/transaction/",
        "/admin/accounts/cardunblock/",
    ]

    for url in pages:
        response = customer_client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/admin/login/"), url


def test_it_shows_staff_outside_the_support_group_nothing(bare_staff_client, trail):
    for url in (
        "/admin/disputes/dispute/",
        f"/admin/disputes/dispute/{trail.pk}/change/",
        "/admin/tools/toolcalltrace/",
        "/admin/accounts/transaction/",
    ):
        assert bare_staff_client.get(url).status_code == 403, url
