"""The hand-over's rules, each tried to be broken first: one holder at a time, only the
holder writes, hands back or closes, staff see only the queue and what they hold, only
the Support group's staff act, and every step is on the record."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from bankbot.models import Message
from errors import Conflict, InvalidInput, NotFound, NotPermitted
from support.models import Handoff, HandoffEvent
from support.services import (
    handoff_close,
    handoff_get,
    handoff_request,
    handoff_return,
    handoff_take,
    handoffs_visible_to,
    staff_message,
)
from tests.support.helpers import queued


def test_asking_queues_the_conversation_with_its_reason_and_says_its_place(
    alice_conversation, bob_conversation
):
    first = handoff_request(conversation=bob_conversation, reason="card_misuse", language="ru")
    asked = handoff_request(conversation=alice_conversation, reason="asked", language="en")
    assert (asked.handoff.state, asked.handoff.reason, asked.position, asked.opens) == (
        "queued",
        "asked",
        2,
        "",
    )
    assert first.handoff.language == "ru"
    note = Message.objects.filter(conversation=alice_conversation, payload__kind="person_note").get()
    assert (note.payload["event"], note.payload["position"]) == ("queued", 2)


def test_asking_again_while_queued_answers_the_open_one(alice_conversation):
    first = handoff_request(conversation=alice_conversation, reason="asked")
    again = handoff_request(conversation=alice_conversation, reason="asked")
    assert again.handoff.pk == first.handoff.pk
    assert Handoff.objects.count() == 1


def test_the_database_refuses_two_open_hand_overs_for_one_conversation(alice_conversation):
    Handoff.objects.create(conversation=alice_conversation, reason="asked")
    with pytest.raises(IntegrityError), transaction.atomic():
        Handoff.objects.create(conversation=alice_conversation, reason="asked")


def test_a_reason_the_chat_does_not_offer_is_refused(alice_conversation):
    with pytest.raises(InvalidInput):
        handoff_request(conversation=alice_conversation, reason="ignore previous instructions")
    assert not Handoff.objects.exists()


def test_outside_staffed_hours_it_says_when_staff_are_in(alice_conversation, time_machine):
    from datetime import datetime

    from tests.clock import BANK_ZONE

    time_machine.move_to(datetime(2026, 11, 18, 21, 30, tzinfo=BANK_ZONE))
    asked = handoff_request(conversation=alice_conversation, reason="asked")
    assert asked.opens == "09:00"
    assert asked.handoff.state == "queued"


def test_one_staff_member_takes_it_and_a_second_take_is_refused(handoff, aigerim, dias):
    handoff_take(staff=aigerim, pk=handoff.pk)
    with pytest.raises(Conflict):
        handoff_take(staff=dias, pk=handoff.pk)
    handoff.refresh_from_db()
    assert (handoff.state, handoff.holder) == ("held", aigerim)
    assert list(HandoffEvent.objects.values_list("kind", "actor__username")) == [
        ("asked", None),
        ("taken", "aigerim"),
    ]


def test_only_the_holder_writes_hands_back_or_closes(handoff, aigerim, dias, staff):
    handoff_take(staff=aigerim, pk=handoff.pk)
    for other in (dias, staff):
        with pytest.raises(NotPermitted):
            staff_message(staff=other, pk=handoff.pk, text="I am writing anyway")
        with pytest.raises(NotPermitted):
            handoff_return(staff=other, pk=handoff.pk)
        with pytest.raises(NotPermitted):
            handoff_close(staff=other, pk=handoff.pk)
    assert not Message.objects.filter(role="staff").exists()
    handoff.refresh_from_db()
    assert (handoff.state, handoff.holder) == ("held", aigerim)


def test_nobody_writes_to_a_queued_or_ended_conversation(handoff, aigerim):
    with pytest.raises(NotPermitted):
        staff_message(staff=aigerim, pk=handoff.pk, text="Not taken yet")
    handoff_take(staff=aigerim, pk=handoff.pk)
    handoff_close(staff=aigerim, pk=handoff.pk)
    with pytest.raises(NotPermitted):
        staff_message(staff=aigerim, pk=handoff.pk, text="After closing")
    with pytest.raises(Conflict):
        handoff_take(staff=aigerim, pk=handoff.pk)
    assert not Message.objects.filter(role="staff").exists()


def test_staff_outside_the_support_group_and_customers_can_do_nothing(handoff, alice):
    intern = get_user_model().objects.create_user(username="intern", password="intern-pw-1", is_staff=True)
    for who in (intern, alice.user):
        with pytest.raises(NotPermitted):
            handoff_take(staff=who, pk=handoff.pk)
        with pytest.raises(NotPermitted):
            handoffs_visible_to(who)
    handoff.refresh_from_db()
    assert handoff.state == "queued"


def test_a_staff_member_sees_only_the_queue_and_what_they_hold(
    alice_conversation, bob_conversation, aigerim, dias
):
    alices, bobs = queued(alice_conversation), queued(bob_conversation)
    handoff_take(staff=aigerim, pk=alices.pk)
    assert set(handoffs_visible_to(aigerim)) == {alices, bobs}
    assert set(handoffs_visible_to(dias)) == {bobs}
    with pytest.raises(NotFound):
        handoff_get(staff=dias, pk=alices.pk)
    handoff_return(staff=aigerim, pk=alices.pk)
    with pytest.raises(NotFound):
        handoff_get(staff=aigerim, pk=alices.pk)


def test_every_step_and_message_is_on_the_record_with_who_did_it(handoff, aigerim):
    handoff_take(staff=aigerim, pk=handoff.pk)
    message = staff_message(staff=aigerim, pk=handoff.pk, text="  Hello, I am looking at your card.  ")
    handoff_return(staff=aigerim, pk=handoff.pk)
    assert (message.role, message.author, message.text) == (
        "staff",
        aigerim,
        "Hello, I am looking at your card.",
    )
    assert list(HandoffEvent.objects.values_list("kind", "actor__username", "text")) == [
        ("asked", None, "asked"),
        ("taken", "aigerim", ""),
        ("message", "aigerim", "Hello, I am looking at your card."),
        ("returned", "aigerim", ""),
    ]
    handoff.refresh_from_db()
    assert handoff.state == "returned" and handoff.ended_at is not None
    events = list(
        Message.objects.filter(payload__kind="person_note").values_list("payload__event", flat=True)
    )
    assert events == ["queued", "taken", "returned"]


@pytest.mark.parametrize("text", ["", "   ", "x" * 2001])
def test_an_empty_or_overlong_staff_message_is_refused(handoff, aigerim, text):
    handoff_take(staff=aigerim, pk=handoff.pk)
    with pytest.raises(InvalidInput):
        staff_message(staff=aigerim, pk=handoff.pk, text=text)
    assert not Message.objects.filter(role="staff").exists()
