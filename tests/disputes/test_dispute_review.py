"""dispute_review: staff move a dispute opened → in review → resolved or rejected, one
step at a time, each with a note on record; anything else is refused and writes nothing."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from disputes.models import Dispute, DisputeReview
from disputes.services import dispute_open, dispute_review, dispute_review_moves
from errors import Conflict, InvalidInput, NotPermitted, RuleViolation

S = Dispute.Status
LEGAL = [(S.OPENED, S.IN_REVIEW), (S.IN_REVIEW, S.RESOLVED), (S.IN_REVIEW, S.REJECTED)]
ILLEGAL = [(start, end) for start in S.values for end in S.values if (start, end) not in LEGAL]


def in_status(dispute: Dispute, status: str) -> Dispute:
    Dispute.objects.filter(pk=dispute.pk).update(status=status)
    dispute.refresh_from_db()
    return dispute


def test_it_offers_exactly_the_legal_moves_from_each_status():
    offered = {(start, move) for start in S.values for move, _label in dispute_review_moves(start)}

    assert offered == set(LEGAL)


@pytest.mark.parametrize(("start", "end"), LEGAL)
def test_it_makes_every_legal_move_and_records_who_when_and_why(dispute, staff, start, end):
    dispute = in_status(dispute, start)
    before = timezone.now()

    review = dispute_review(dispute=dispute, to_status=end, note="  Receipt checked.  ", staff_user=staff)

    assert Dispute.objects.get(pk=dispute.pk).status == end
    assert dispute.status == end
    stored = DisputeReview.objects.get()
    assert stored == review
    assert (stored.dispute, stored.from_status, stored.to_status) == (dispute, start, end)
    assert stored.staff_user == staff
    assert stored.note == "Receipt checked."
    assert before <= stored.created_at <= timezone.now()


def test_it_walks_the_whole_workflow_with_one_row_per_step(dispute, staff):
    dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note="Looking", staff_user=staff)
    dispute_review(dispute=dispute, to_status=S.RESOLVED, note="Refunded", staff_user=staff)

    steps = list(
        DisputeReview.objects.filter(dispute=dispute).values_list("from_status", "to_status", "note")
    )
    assert steps == [(S.OPENED, S.IN_REVIEW, "Looking"), (S.IN_REVIEW, S.RESOLVED, "Refunded")]


@pytest.mark.parametrize(("start", "end"), ILLEGAL)
def test_it_refuses_an_illegal_move_and_writes_nothing(dispute, staff, start, end):
    dispute = in_status(dispute, start)

    with pytest.raises(RuleViolation) as caught:
        dispute_review(dispute=dispute, to_status=end, note="Trying", staff_user=staff)

    assert caught.value.code == "illegal_transition"
    assert dispute.reference in caught.value.message
    assert Dispute.objects.get(pk=dispute.pk).status == start
    assert not DisputeReview.objects.exists()


def test_it_says_in_a_sentence_why_a_resolved_dispute_cannot_reopen(dispute, staff):
    dispute = in_status(dispute, S.RESOLVED)

    with pytest.raises(RuleViolation) as caught:
        dispute_review(dispute=dispute, to_status=S.OPENED, note="Reopen", staff_user=staff)

    assert (
        caught.value.message == f"{dispute.reference} is resolved, which is final; it cannot move to opened."
    )


def test_it_says_an_opened_dispute_must_be_reviewed_before_it_is_resolved(dispute, staff):
    with pytest.raises(RuleViolation) as caught:
        dispute_review(dispute=dispute, to_status=S.RESOLVED, note="Quick", staff_user=staff)

    assert "can move only to in review, not to resolved" in caught.value.message


@pytest.mark.parametrize("note", ["", "   \n ", None])
def test_it_refuses_a_move_without_a_note(dispute, staff, note):
    with pytest.raises(InvalidInput) as caught:
        dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note=note, staff_user=staff)

    assert caught.value.code == "note_required"
    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    assert not DisputeReview.objects.exists()


def test_it_refuses_a_note_that_is_too_long(dispute, staff):
    with pytest.raises(InvalidInput) as caught:
        dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note="x" * 2001, staff_user=staff)

    assert caught.value.code == "note_too_long"
    assert not DisputeReview.objects.exists()


@pytest.mark.parametrize("status", ["closed", "", "OPENED"])
def test_it_refuses_a_status_that_does_not_exist(dispute, staff, status):
    with pytest.raises(InvalidInput) as caught:
        dispute_review(dispute=dispute, to_status=status, note="Hm", staff_user=staff)

    assert caught.value.code == "invalid_status"
    assert not DisputeReview.objects.exists()


def test_it_lets_one_of_two_staff_win_when_both_move_the_same_dispute(dispute, staff):
    other = get_user_model().objects.create_superuser(username="boss", password="boss-pw-123")
    seen_by_staff = Dispute.objects.get(pk=dispute.pk)
    seen_by_other = Dispute.objects.get(pk=dispute.pk)

    dispute_review(dispute=seen_by_staff, to_status=S.IN_REVIEW, note="Mine", staff_user=staff)
    with pytest.raises(Conflict) as caught:
        dispute_review(dispute=seen_by_other, to_status=S.IN_REVIEW, note="No, mine", staff_user=other)

    assert caught.value.code == "dispute_changed"
    assert "in review" in caught.value.message
    review = DisputeReview.objects.get()
    assert (review.staff_user, review.note) == (staff, "Mine")
    assert Dispute.objects.get(pk=dispute.pk).status == S.IN_REVIEW


def test_it_refuses_a_stale_resolve_after_another_staff_rejected(dispute, staff):
    dispute = in_status(dispute, S.IN_REVIEW)
    stale = Dispute.objects.get(pk=dispute.pk)
    dispute_review(dispute=dispute, to_status=S.REJECTED, note="Merchant proved it", staff_user=staff)

    with pytest.raises(Conflict):
        dispute_review(dispute=stale, to_status=S.RESOLVED, note="Refund", staff_user=staff)

    assert Dispute.objects.get(pk=dispute.pk).status == S.REJECTED
    assert list(DisputeReview.objects.values_list("to_status", flat=True)) == [S.REJECTED]


def test_it_refuses_a_customer(dispute, alice):
    with pytest.raises(NotPermitted):
        dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note="I review myself", staff_user=alice.user)

    assert Dispute.objects.get(pk=dispute.pk).status == S.OPENED
    assert not DisputeReview.objects.exists()


def test_it_refuses_staff_outside_the_support_group(dispute):
    intern = get_user_model().objects.create_user(username="intern", password="pw-intern-1", is_staff=True)

    with pytest.raises(NotPermitted):
        dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note="Hi", staff_user=intern)

    assert not DisputeReview.objects.exists()


def test_it_lets_a_closed_dispute_make_room_for_a_new_one(dispute, staff, alice):
    dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note="Looking", staff_user=staff)
    dispute_review(dispute=dispute, to_status=S.REJECTED, note="Card present", staff_user=staff)

    again = dispute_open(
        customer=alice,
        transaction_reference="T-1001",
        amount="100.00",
        reason="not_recognised",
        idempotency_key=uuid.uuid4(),
    )

    assert again.dispute.status == S.OPENED


def test_it_keeps_review_steps_append_only(dispute, staff):
    review = dispute_review(dispute=dispute, to_status=S.IN_REVIEW, note="Looking", staff_user=staff)
    review.note = "Rewritten"

    with pytest.raises(PermissionError):
        review.save()
    with pytest.raises(PermissionError):
        review.delete()
    with pytest.raises(PermissionError):
        DisputeReview.objects.update(note="x")
    with pytest.raises(PermissionError):
        DisputeReview.objects.all().delete()
    stored = DisputeReview.objects.get()
    assert stored.note == "Looking"
    assert stored.created_at > timezone.now() - timedelta(minutes=1)
