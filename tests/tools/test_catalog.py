"""The tool catalog is the one place a tool is described: a throwaway tool registered
there alone is checked by policy, proposed by the harness, carried out by the confirm,
traced, and shown on its confirm card with its own words — nothing else edited."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from django.test import Client
from pydantic import Field

from accounts.models import Card
from bankbot.agent import run_turn
from bankbot.chat import message_customer_add
from bankbot.models import Conversation
from tests.agent.fakes import ScriptedModel, call, text
from tools.binding import Grant, bind_card
from tools.catalog import (
    CARD,
    CATALOG,
    ArgLabel,
    Outcome,
    Sentences,
    ToolArgs,
    UiAction,
    WriteTool,
    openai_tools,
)
from tools.models import Proposal, ToolCallTrace
from tools.scopes import READ_CARDS

pytestmark = pytest.mark.django_db

CARRIED_OUT: list[tuple[str, uuid.UUID]] = []


class PolishCardArgs(ToolArgs):
    """Propose polishing one of the customer's cards."""

    card: str = Field(pattern=r"^\d{4}$", description="The card's last four digits.")


def _run(ctx: Any, args: PolishCardArgs, *, idempotency_key: uuid.UUID) -> dict[str, Any]:
    CARRIED_OUT.append((args.card, idempotency_key))
    return {"card": args.card, "polished": True}


POLISH = WriteTool(
    name="polish_card",
    args=PolishCardArgs,
    scopes=frozenset({READ_CARDS}),
    run=_run,
    target=CARD,
    check=lambda ctx, args: None,
    grant=lambda ctx, args: ctx.mandate.grant_for("polish_card", args.card),
    bind=lambda customer, request, source: bind_card(customer, request, source, default=lambda c: True),
    from_click=lambda action, source: Grant("polish_card", action["card"], source=source),
    summary=lambda ctx, args: f"Polish card {args.card}",
    describe_grant=lambda g: f"polish card {g.target}",
    sentences=Sentences(
        not_asked="Nobody asked for a polish.",
        offer="Offer Polish.",
        ambiguous="Which card?",
        not_identified="No such card.",
    ),
    ui=UiAction(
        label="Polish…",
        aria_label="Polish card %(target)s…",
        style="btn-outline",
        text=lambda a: f"Polish card {a['card']}",
        history=lambda a: f"Please polish card {a['card']}.",
    ),
    action="Polish the card ending %(card)s",
    outcome=lambda result: Outcome(f"Card {result['card']} shines."),
    arg_labels={"card": ArgLabel("Card to polish", "card")},
)


def turn(
    conversation: Conversation, text_: str, model: ScriptedModel, ui_action: Mapping[str, str] | None = None
) -> None:
    message, _ = message_customer_add(
        conversation=conversation, text=text_, ui_action=dict(ui_action) if ui_action else None
    )
    run_turn(
        user=conversation.customer.user,
        conversation=conversation,
        customer_message=message,
        client=model.client(),
    )


@pytest.fixture
def polish():
    CARRIED_OUT.clear()
    with CATALOG.registered(POLISH) as spec:
        yield spec
    assert "polish_card" not in CATALOG


def test_a_tool_registered_in_the_catalog_alone_goes_through_every_guarantee(
    polish, alice, alice_conversation
):
    client = Client()
    client.force_login(alice.user)
    assert "polish_card" in [t["function"]["name"] for t in openai_tools()]

    # Policy: not asked for, so not proposed, in the tool's own sentence.
    turn(alice_conversation, "hello", ScriptedModel(call("polish_card", {"card": "4242"}), text("Sorry.")))
    assert not Proposal.objects.exists()
    denied = ToolCallTrace.objects.get(tool="polish_card", event="denied")
    assert denied.reason_code == "not_in_mandate"

    # Its button: the chat reads the click from the catalog entry and writes its text.
    page = client.post(
        "/messages/",
        {"conversation": str(alice_conversation.public_id), "operation": "polish_card", "target": "4242"},
    )
    assert page.status_code in (200, 302)
    clicked = alice_conversation.messages.filter(role="customer").last()
    assert (clicked.text, clicked.ui_action) == (
        "Polish card 4242",
        {"operation": "polish_card", "card": "4242"},
    )

    # The harness proposes it on the click's mandate (another card is refused).
    Proposal.objects.all().delete()
    turn(
        alice_conversation,
        "",
        ScriptedModel(
            call("polish_card", {"card": "5505"}),
            call("polish_card", {"card": "4242"}, "call_2"),
            text("Please confirm."),
        ),
        ui_action={"operation": "polish_card", "card": "4242"},
    )
    proposal = Proposal.objects.get()
    assert (proposal.tool, proposal.args, proposal.summary) == (
        "polish_card",
        {"card": "4242"},
        "Polish card 4242",
    )
    assert not CARRIED_OUT

    # The confirm runs it once, with its key; the card shows the tool's own words.
    first = client.post(
        f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest}, HTTP_HX_REQUEST="true"
    )
    again = client.post(
        f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest}, HTTP_HX_REQUEST="true"
    )
    proposal.refresh_from_db()
    assert [("4242", proposal.confirmation.idempotency_key)] == CARRIED_OUT
    assert "Card 4242 shines." in first.content.decode()
    assert "Card 4242 shines." in again.content.decode()

    # Traced like any write: proposed, executed (naming who clicked), replayed.
    events = set(ToolCallTrace.objects.filter(tool="polish_card").values_list("event", flat=True))
    assert {"denied", "proposed", "executed", "replayed"} <= events


def test_its_confirm_card_and_button_come_from_the_catalog(polish, alice, alice_conversation):
    from bankbot.cards import proposal_card, row_actions

    turn(
        alice_conversation,
        "",
        ScriptedModel(call("polish_card", {"card": "4242"}), text("Confirm?")),
        ui_action={"operation": "polish_card", "card": "4242"},
    )
    card = proposal_card(Proposal.objects.get())
    assert card.action == "Polish the card ending 4242"
    # The card names its target as the customer knows it, from their own data.
    assert card.rows == [("Card to polish", "Visa •••• 4242")]

    row = {"card": "4242", "label": "Visa •••• 4242", "status": Card.Status.ACTIVE}
    buttons = {a.operation: a for a in row_actions("card", row)}
    assert buttons["polish_card"].aria_label == "Polish card 4242…"
    assert set(buttons) == {"block_card", "polish_card"}


def test_it_leaves_the_catalog_as_it_found_it():
    before = list(CATALOG)
    with CATALOG.registered(POLISH):
        assert list(CATALOG) == [*before, "polish_card"]
        with pytest.raises(ValueError), CATALOG.registered(POLISH):
            pass
    assert list(CATALOG) == before
    assert "polish_card" not in [t["function"]["name"] for t in openai_tools()]


def test_a_write_tool_is_not_made_without_what_a_write_needs():
    with pytest.raises(TypeError, match="target"):
        WriteTool(name="half_a_tool", args=PolishCardArgs, scopes=frozenset({READ_CARDS}), run=_run)
    # Its class is its effect: the catalog's writes are exactly its WriteTools.
    assert {spec.effect for spec in CATALOG.values()} == {"read", "write"}
    assert CATALOG.writes() == [spec for spec in CATALOG.values() if spec.effect == "write"]
