from __future__ import annotations

import pytest

from bankbot.agent import run_turn
from bankbot.chat import message_customer_add

# The customer of the question tests, on fixed dates.
from tests.agent.questions_world import dana, dana_conversation, model_today  # noqa: F401


@pytest.fixture
def say():
    """say(conversation, "text", client=None) → (assistant message, events)."""

    def run(conversation, text, client=None, ui_action=None):
        message, _ = message_customer_add(conversation=conversation, text=text, ui_action=ui_action)
        events = []
        reply = run_turn(
            user=conversation.customer.user,
            conversation=conversation,
            customer_message=message,
            on_event=events.append,
            client=client,
        )
        return reply, events

    return run
