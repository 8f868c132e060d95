"""What each recall case gets, two ways, and how that compares with what it asked for.

*Mandate*: the message's mandate alone, as under a customer who confirms every card
(tests/tools/test_mandate_table.py): every write the tools accept on every object in
the world is put through policy, and what policy allows is what the case got; when
the mandate cannot bind a request, the candidates it keeps are the buttons offered.
*End to end*: one real turn through the offline model: the proposals it created, and
the buttons on the candidates the chat showed.

Outcomes: *exact* (what was granted or proposed is exactly the expected set; reasons
are reported apart; an expected action understood exactly that a rule of the bank refuses,
the customer told why — a dispute past its window — counts here, and is counted apart),
*one click* (nothing wrong, and every expected action not
granted is among the buttons offered, by its tool and target), *nothing*, *wrong*
(anything granted or proposed that was not asked for).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import openai
import time_machine
from django.db import connection
from django.db import transaction as db
from django.test import override_settings
from django.utils import translation
from pydantic import ValidationError

from accounts.models import Customer
from accounts.money import amount_values
from bankbot.agent import TurnEvent, run_turn
from bankbot.chat import message_customer_add, tool_calls_of
from bankbot.fragments import tool_extras
from bankbot.models import Conversation
from llm.config import ModelConfig
from tests.recall.cases import FULL, Action, Case, load_cases
from tests.recall.world import ALL_CARDS, FULL_AMOUNTS, NOW, build_world
from tools.catalog import CATALOG, candidate_rows, ui_actions_for
from tools.context import ActionContext, action_context_for
from tools.grammar import REASONS
from tools.mandate import Grant, Mandate, mandate_for
from tools.models import Proposal
from tools.policy import Denial, denial_reason

OUTCOMES = ("exact", "one_click", "nothing", "wrong")
# Refusals by the bank's own rules, which the customer is told (policy's service checks):
# the request was understood exactly, and no action can exist.
BANK_RULES = frozenset({"dispute_window_closed"})
# A grant whose arguments no tool call could carry (an amount out of range).
_UNCARRIED = Denial("invalid_arguments", "no valid call carries it")
WAYS = ("mandate", "end_to_end")
Button = tuple[str, str]  # (tool, target): what a click on a row's button asks for
Progress = Callable[[int, int, Case], None]


@dataclass(frozen=True)
class Seen:
    """What one way gave a case."""

    granted: frozenset[Action]  # allowed by policy (mandate) or proposed (end to end)
    buttons: frozenset[Button]  # on the candidates offered when a request did not bind
    # End to end: buttons on the rows of a read's table (a statement, a search). Not
    # counted as one click: the customer has to search the table (issue 22).
    tables: frozenset[Button] = frozenset()
    notes: str = ""  # why, for --failures: the mandate's reading, or the turn's tools and reply
    # Bound exactly, then refused by a rule of the bank (not of the mandate) whose reason
    # the customer reads: a dispute past its window. Nothing else could have been done.
    refused: frozenset[Action] = frozenset()


@dataclass(frozen=True)
class Verdict:
    outcome: str  # one of OUTCOMES
    # An exact case whose author named a reason: was it the reason granted? (None: no reason named)
    reason_as_asked: bool | None
    seen: Seen


@dataclass(frozen=True)
class Result:
    case: Case
    mandate: Verdict
    end_to_end: Verdict

    def way(self, name: str) -> Verdict:
        return self.mandate if name == "mandate" else self.end_to_end


# --- outcome ---------------------------------------------------------------------------


def classify(case: Case, seen: Seen) -> Verdict:
    expected = {a.key for a in case.expect}
    got = {a.key for a in seen.granted}
    if got - expected:  # for a message that asks for nothing, anything at all
        outcome = "wrong"
    elif got == expected or got | {a.key for a in seen.refused} == expected:
        outcome = "exact"
    elif all((tool, target) in seen.buttons for tool, target, _ in expected - got):
        outcome = "one_click"
    else:
        outcome = "nothing"
    return Verdict(outcome, _reason_as_asked(case, seen) if outcome == "exact" else None, seen)


def _reason_as_asked(case: Case, seen: Seen) -> bool | None:
    asked = [a for a in case.expect if a.reason]
    if not asked:
        return None
    return all(
        any(g.key == a.key and g.reason == a.reason for g in seen.granted | seen.refused) for a in asked
    )


# --- the mandate alone -----------------------------------------------------------------


def by_mandate(customer: Customer, conversation: Conversation, case: Case) -> Seen:
    mandate = mandate_for(customer=customer, text=case.text)
    ctx = action_context_for(customer.user, conversation, mandate=mandate)
    allowed = set()
    for tool, raw, action in _every_write(case, mandate):
        spec = CATALOG[tool]
        try:
            args = spec.args.model_validate(raw)
        except ValidationError:  # an amount no tool call could carry
            continue
        if denial_reason(ctx, spec, args) is None:
            allowed.add(action)
    buttons = set()
    for unbound in mandate.unbound:
        buttons |= row_buttons(
            candidate_rows(customer, unbound.operation, unbound.candidates).get("candidates", {})
        )
    denials = _grant_denials(ctx, mandate)
    refused = {
        _action_of(grant.operation, _grant_args(grant))
        for grant, denial in denials
        if denial is not None and denial.code in BANK_RULES
    }
    return Seen(
        frozenset(allowed),
        frozenset(buttons),
        notes=_mandate_notes(denials, mandate),
        refused=frozenset(refused),
    )


def _grant_denials(ctx: ActionContext, mandate: Mandate) -> list[tuple[Grant, Denial | None]]:
    """Each grant with what the rules say of it: None (allowed), a denial, or — for a grant
    no valid call carries — ``_UNCARRIED``."""
    found: list[tuple[Grant, Denial | None]] = []
    for grant in mandate.grants:
        spec = CATALOG[grant.operation]
        try:
            found.append((grant, denial_reason(ctx, spec, spec.args.model_validate(_grant_args(grant)))))
        except ValidationError:
            found.append((grant, _UNCARRIED))
    return found


def _every_write(case: Case, mandate: Mandate) -> Iterator[tuple[str, dict[str, str], Action]]:
    """Every write the tools accept on every card and transaction in the world (the
    neighbour's too): each dispute for its full amount, half of it, every amount the
    message states or the case expects, and every amount a grant names, with each reason."""
    for tool in ("block_card", "unblock_card"):
        for last4 in ALL_CARDS:
            yield tool, {"card": last4}, Action(tool, last4)
    parts = (
        amount_values(case.text, min_bare=1)
        | {Decimal(a.amount) for a in case.expect if a.amount not in ("", FULL)}
        | {g.amount for g in mandate.grants if g.amount is not None}
    )
    for reference, full in FULL_AMOUNTS.items():
        for amount in {full, (full / 2).quantize(Decimal("0.01"))} | {p for p in parts if p > 0}:
            label = FULL if amount == full else f"{amount:.2f}"
            for reason in REASONS:
                yield (
                    "raise_dispute",
                    {"transaction": reference, "amount": f"{amount:.2f}", "reason": reason},
                    Action("raise_dispute", reference, label, reason),
                )


def _mandate_notes(denials: list[tuple[Grant, Denial | None]], mandate: Mandate) -> str:
    """The mandate's reading in one line: its grants (and any the rules refuse) and
    what it understood but could not bind."""
    parts = []
    for grant, denial in denials:
        refused = (
            " (no valid call carries it)"
            if denial is _UNCARRIED
            else f" (refused: {denial.code})"
            if denial is not None
            else ""
        )
        parts.append(
            f"grant {grant.operation} {grant.target}"
            f"{'' if grant.amount is None else f' {grant.amount:.2f}'}"
            f"{f' {grant.reason}' if grant.reason else ''}{refused}"
        )
    for unbound in mandate.unbound:
        candidates = f" [{', '.join(unbound.candidates)}]" if unbound.candidates else ""
        parts.append(f"unbound {unbound.operation} {unbound.problem}: {unbound.detail}{candidates}")
    return "; ".join(parts) or "no request read"


def _grant_args(grant: Grant) -> dict[str, str]:
    if grant.operation != "raise_dispute":
        return {"card": grant.target}
    amount = grant.amount if grant.amount is not None else FULL_AMOUNTS[grant.target]
    return {"transaction": grant.target, "amount": f"{amount:.2f}", "reason": grant.reason or ""}


def row_buttons(rows_by_kind: Mapping[str, Any]) -> set[Button]:
    """The buttons the chat puts on these rows ({"cards": […]} or {"transactions": […]}):
    each write tool whose button the row offers (not one its rules withhold)."""
    buttons = set()
    for kind, plural in (("card", "cards"), ("transaction", "transactions")):
        for row in rows_by_kind.get(plural) or []:
            for spec in ui_actions_for(kind, row):
                assert spec.target is not None
                buttons.add((spec.name, str(row.get(spec.target.key, ""))))
    return buttons


# --- end to end ------------------------------------------------------------------------


def end_to_end(customer: Customer, case: Case, client: openai.OpenAI | None = None) -> Seen:
    """One turn in a fresh conversation, rolled back: each case meets the world as built.
    ``client``: the settings' model when None (the offline one, under ``offline()``)."""
    with db.atomic():
        conversation = Conversation.objects.create(customer=customer)
        message, _ = message_customer_add(conversation=conversation, text=case.text)
        events: list[TurnEvent] = []
        reply = run_turn(
            user=customer.user,
            conversation=conversation,
            customer_message=message,
            on_event=events.append,
            client=client,
        )
        proposed = frozenset(_proposed(p) for p in Proposal.objects.filter(conversation=conversation))
        calls = [
            call["function"] for row in conversation.messages.order_by("id") for call in tool_calls_of(row)
        ]
        db.set_rollback(True)
    answers = [e.data for e in events if e.kind == TurnEvent.Kind.TOOL and e.data is not None]
    buttons: set[Button] = set()
    tables: set[Button] = set()
    for answer in answers:
        for extra in tool_extras(answer):
            found = row_buttons(extra.get("result") or {})
            (buttons if extra["kind"] == "candidates" else tables).update(found)
    # The harness answers each call in order, one tool event per call.
    said = ", ".join(_call_note(call, answer) for call, answer in zip(calls, answers, strict=False))
    notes = f"tools: {said or 'none'}; reply: {' '.join(reply.text.split())[:160]!r}"
    refused = frozenset(
        _action_of(call["name"], json.loads(call.get("arguments") or "{}"))
        for call, answer in zip(calls, answers, strict=False)
        if (answer.get("error") or {}).get("code") in BANK_RULES
    )
    return Seen(proposed, frozenset(buttons), frozenset(tables), notes, refused)


def _proposed(proposal: Proposal) -> Action:
    return _action_of(proposal.tool, proposal.args)


def _action_of(tool: str, args: Mapping[str, Any]) -> Action:
    if tool != "raise_dispute":
        return Action(tool, str(args["card"]))
    amount = Decimal(str(args["amount"]))
    label = FULL if amount == FULL_AMOUNTS.get(args["transaction"]) else f"{amount:.2f}"
    return Action(tool, str(args["transaction"]), label, str(args["reason"]))


def _call_note(call: Mapping[str, Any], answer: Mapping[str, Any]) -> str:
    """``raise_dispute(T-5009 20000.00 not_recognised) → error target_not_in_mandate``."""
    try:
        args = json.loads(call.get("arguments") or "{}")
    except ValueError:
        args = call.get("arguments")
    shown = " ".join(str(v) for v in args.values() if v is not None) if isinstance(args, dict) else str(args)
    error = answer.get("error") or {}
    code = f" {error.get('code')}" if error else ""
    return f"{call.get('name')}({shown}) → {answer.get('status')}{code}"


# --- the whole table ---------------------------------------------------------------------


def measure_case(customer: Customer, conversation: Conversation, case: Case) -> Result:
    with translation.override(case.language):  # as the chat runs a customer's turn
        return Result(
            case,
            classify(case, by_mandate(customer, conversation, case)),
            classify(case, end_to_end(customer, case)),
        )


@contextmanager
def recall_clock() -> Iterator[None]:
    """The world's "now", nested inside whatever clock runs (the suite pins its own)."""
    with time_machine.travel(NOW, tick=True):
        yield


def _refuse_a_real_database() -> None:
    """The world is written before it is rolled back: never on a database that is not
    a test database (pytest-django sets one up only for a session with a db test)."""
    found = connection.settings_dict
    name = str(found["NAME"])
    if not (
        name == str((found.get("TEST") or {}).get("NAME")) or name.startswith("test_") or "memory" in name
    ):
        raise RuntimeError(f"the recall table runs on a test database only, not {name!r}")


def offline() -> override_settings:
    """The offline model, and the parser alone building mandates, whatever the
    environment names: the table measures the demo's stand-in, never a real endpoint."""
    return override_settings(
        BANKBOT_MODEL_CONFIG=ModelConfig(model="offline"), BANKBOT_MANDATE_EXTRACTOR="parser"
    )


def measure(cases: tuple[Case, ...] | None = None, progress: Progress | None = None) -> list[Result]:
    """Build the world at its "now", measure every case, and roll the world back.
    Needs database access (a test database: this writes and then rolls back)."""
    _refuse_a_real_database()
    cases = load_cases() if cases is None else cases
    results = []
    with recall_clock(), offline(), db.atomic():
        customer = build_world()
        conversation = Conversation.objects.create(customer=customer)
        for done, case in enumerate(cases, start=1):
            results.append(measure_case(customer, conversation, case))
            if progress is not None:
                progress(done, len(cases), case)
        db.set_rollback(True)
    return results
