"""The review form on the dispute page: the only way admin changes a dispute. It calls
dispute_review and tells staff, in a sentence, what happened."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.messages import get_messages

from disputes.models import Dispute, DisputeReview

S = Dispute.Status


def review_url(dispute: Dispute) -> str:
    return f"/admin/disputes/dispute/{dispute.pk}/review/"


def change_url(dispute: Dispute) -> str:
    return f"/admin/disputes/dispute/{dispute.pk}/change/"


def told(response) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]


def test_it_moves_a_dispute_into_review_from_the_form(staff_client, staff, dispute):
    response = staff_client.post(
        review_url(dispute), {"to_status": S.IN_REVIEW, "note": "Asked the merchant"}
    )

    assert response.status_code == 302
    assert response["Location"] == change_url(dispute)
    assert Dispute.objects.get(pk=dispute.pk).status == S.IN_REVIEW
    review = DisputeReview.objects.get()
    assert (review.staff_user, review.note) == (staff, "Asked the merchant")
    assert told(response) == [("success", f"{dispute.reference} moved from Opened to In review.")]
    history = LogEntry.objects.get(object_id=str(dispute.pk))
    assert (history.user, history.get_change_message()) == (
        staff,
        f"{dispute.reference} moved from Opened to In review.",
    )


def test_it_shows_the_refusal_when_the_note_is_missing(staff_client, dispute):
    response = staff_client.post(review_url(dispute), {"to_status": S.IN_REVIEW, "note": " "})

    assert response.status_code == 302
    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    assert not DisputeReview.objects.exists()
    [(level, message)] = told(response)
    assert level == "error"
    assert message.startswith("Write a note")


def test_it_shows_the_refusal_of_an_illegal_move(staff_client, dispute):
    response = staff_client.post(review_url(dispute), {"to_status": S.RESOLVED, "note": "Skip the review"})

    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    assert not DisputeReview.objects.exists()
    assert told(response) == [
        ("error", f"{dispute.reference} is opened; it can move only to in review, not to resolved.")
    ]


def test_it_offers_only_the_legal_moves_on_the_page(staff_client, dispute):
    Dispute.objects.filter(pk=dispute.pk).update(status=S.IN_REVIEW)

    page = staff_client.get(change_url(dispute)).content.decode()

    assert f'action="{review_url(dispute)}"' in page
    assert '<option value="resolved">Resolved</option>' in page
    assert '<option value="rejected">Rejected</option>' in page
    assert '<option value="opened">' not in page
    assert '<option value="in_review">' not in page
    assert 'name="note"' in page


def test_it_offers_no_move_for_a_final_dispute(staff_client, dispute):
    Dispute.objects.filter(pk=dispute.pk).update(status=S.RESOLVED)

    page = staff_client.get(change_url(dispute)).content.decode()

    assert 'name="to_status"' not in page
    assert "resolved: that is final" in page


def test_it_answers_a_get_on_the_review_url_with_method_not_allowed(staff_client, dispute):
    response = staff_client.get(review_url(dispute))

    assert response.status_code == 405


def test_it_lets_a_superuser_review_too(admin_client, admin_user, dispute):
    admin_client.post(review_url(dispute), {"to_status": S.IN_REVIEW, "note": "Escalated"})

    assert DisputeReview.objects.get().staff_user == admin_user


def test_it_forbids_staff_outside_the_support_group_to_review(bare_staff_client, dispute):
    response = bare_staff_client.post(review_url(dispute), {"to_status": S.IN_REVIEW, "note": "Let me"})

    assert response.status_code == 403
    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    assert not DisputeReview.objects.exists()


def test_it_sends_a_customer_to_the_admin_login_and_changes_nothing(customer_client, dispute):
    response = customer_client.post(
        review_url(dispute), {"to_status": S.IN_REVIEW, "note": "I review myself"}
    )

    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    assert not DisputeReview.objects.exists()


@pytest.mark.parametrize("who", ["staff_client", "admin_client"])
def test_it_refuses_a_status_posted_to_the_change_page(request, who, dispute):
    client = request.getfixturevalue(who)

    response = client.post(
        change_url(dispute), {"status": S.RESOLVED, "amount": "1.00", "reason": "charged_twice"}
    )

    assert response.status_code == 403
    stored = Dispute.objects.get(pk=dispute.pk)
    assert (stored.status, stored.amount, stored.reason) == (S.OPENED, 15000, "not_recognised")


def test_it_records_the_note_for_the_customer_beside_the_note_for_the_record(staff_client, dispute):
    staff_client.post(
        review_url(dispute),
        {
            "to_status": S.IN_REVIEW,
            "note": "Asked the merchant",
            "customer_note": "  We asked the shop; allow a week. ",
        },
    )
    review = DisputeReview.objects.get()
    assert (review.note, review.customer_note) == ("Asked the merchant", "We asked the shop; allow a week.")
    page = staff_client.get(change_url(dispute)).content.decode()
    assert 'name="customer_note"' in page and "We asked the shop; allow a week." in page


def test_it_refuses_an_over_long_note_for_the_customer(staff_client, dispute):
    response = staff_client.post(
        review_url(dispute), {"to_status": S.IN_REVIEW, "note": "ok", "customer_note": "x" * 2001}
    )
    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    [(level, message)] = told(response)
    assert level == "error" and "too long" in message
