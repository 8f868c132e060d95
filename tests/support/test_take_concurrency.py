"""Taking is atomic: staff clicking "take" at once, each on their own connection, leave
exactly one holder — proven on PostgreSQL, whose READ COMMITTED lets two transactions read
the same queued row (SQLite serialises writers, so it could not show a race)."""

from __future__ import annotations

import pytest

from errors import Conflict
from support.models import Handoff, HandoffEvent
from support.services import handoff_request, handoff_take
from tests.support.helpers import make_support_staff
from tests.threads import run_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

STAFF = 8


def test_staff_taking_at_once_leave_one_holder(alice_conversation):
    handoff = handoff_request(conversation=alice_conversation, reason="asked").handoff
    staff = [make_support_staff(f"staff{n}", f"Staff {n}") for n in range(STAFF)]

    results, errors = run_at_once([lambda who=who: handoff_take(staff=who, pk=handoff.pk) for who in staff])

    assert len(results) == 1, errors
    assert len(errors) == STAFF - 1 and all(isinstance(error, Conflict) for error in errors), errors
    held = Handoff.objects.get()
    assert held.state == "held" and held.holder == results[0].holder
    assert HandoffEvent.objects.filter(kind="taken").count() == 1
    assert (
        alice_conversation.messages.filter(payload__kind="person_note", payload__event="taken").count() == 1
    )


def test_two_tabs_asking_at_once_queue_the_conversation_once(alice_conversation):
    results, errors = run_at_once(
        [lambda: handoff_request(conversation=alice_conversation, reason="asked") for _ in range(2)]
    )
    assert errors == []
    assert Handoff.objects.count() == 1
    assert {result.handoff.pk for result in results} == {Handoff.objects.get().pk}
