"""The lab's guarded loop is a copy of bankbot.agent.run_turn (until run_turn takes a
harness factory): it must send the model exactly what run_turn sends, and leave the
same conversation behind."""

from __future__ import annotations

import json
import re

import pytest
from django.test import override_settings
from django.utils import timezone

from bankbot.agent import run_turn
from bankbot.chat import conversation_start, message_customer_add
from bankbot.llm import ModelConfig
from tools.lab.clients import RequestLog, client_for
from tools.lab.isolation import isolated_database
from tools.lab.loader import load_builtin
from tools.lab.loop import TurnRecord, UpstreamFaults, lab_turn
from tools.lab.templating import Renderer
from tools.lab.world import world_build

# Proposal references are random UUIDs, and the offline model's ids hash the request.
RANDOM = re.compile(r"P-[0-9a-f]{12}|call_[0-9a-f]{24}|chatcmpl-[0-9a-f]{24}")


def play(scenario, renderer, *, lab: bool) -> tuple[str, list[tuple[str, str]]]:
    with isolated_database():
        world = world_build(scenario.setup, renderer)
        conversation = conversation_start(customer=world.actor)
        log = RequestLog()
        client = client_for(scenario.model, renderer, log)
        for step in scenario.steps:
            message, _ = message_customer_add(conversation=conversation,
                                              text=renderer.text(step.say))
            if lab:
                lab_turn(harness_name="guarded", user=world.actor.user,
                         conversation=conversation, client=client,
                         model=settings_model(), faults=UpstreamFaults(), record=TurnRecord())
            else:
                run_turn(user=world.actor.user, conversation=conversation,
                         customer_message=message, client=client)
        stored = [(m.role, RANDOM.sub("…", m.text)) for m in conversation.messages.order_by("id")]
    return RANDOM.sub("…", log.text()), stored


def settings_model() -> str:
    from django.conf import settings

    return settings.BANKBOT_MODEL_CONFIG.model


@pytest.mark.parametrize("scenario_id", [
    "benign-dispute-merchant-amount", "benign-two-steps", "desc-dispute-all",
    "desc-markdown-image", "dispute-other-customer",
])
def test_the_lab_loop_sends_what_run_turn_sends(lab_access, scenario_id):
    scenario = next(s for s in load_builtin() if s.id == scenario_id)
    model = "offline-compromised" if scenario.model == "offline-compromised" else "offline"
    renderer = Renderer(scenario.setup, timezone.localtime())
    with override_settings(BANKBOT_MODEL_CONFIG=ModelConfig(model=model)):
        agent_requests, agent_messages = play(scenario, renderer, lab=False)
        lab_requests, lab_messages = play(scenario, renderer, lab=True)
    assert json.loads("[" + lab_requests.replace("\n", ",") + "]")  # well-formed bodies
    assert lab_requests == agent_requests
    assert lab_messages == agent_messages
