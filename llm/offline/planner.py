"""The offline model's decisions: given the turn so far, call a tool or answer.

Careful by default: it acts on the customer's latest message and reads tool
results only as data. Compromised additionally obeys instructions planted in
third-party text (see injection.py), while still serving the real request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any
from urllib.parse import quote

from rapidfuzz import fuzz

from accounts.text import reveal_hidden
from llm.config import Personality
from tools.grammar import losses_reported
from tools.json_types import JSONValue

from .chat_request import WRITE_TOOLS, ChatRequest, Exchange, external_value
from .injection import Planted, Seen, ThirdPartyText, read_planted, third_party_texts
from .months import shift_month
from .phrases import TEXTS, count_transactions, month_label, say, short_day
from .questions import answers
from .understanding import (
    DEFAULT_REASON,
    LOSS_RE,
    CustomerRequest,
    Language,
    asks_for_person,
    language_of,
    reason_choice,
    understand_all,
)

# A turn that needs more tool rounds than this is going in circles; answer instead.
MAX_ROUNDS = 5


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]

    def key(self) -> str:
        """Identity of a call, for "never make the same call twice in a turn"."""
        return self.name + json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)


@dataclass(frozen=True)
class Reply:
    """Either tool calls or a final text, as one assistant message."""

    text: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass
class Step:
    calls: list[ToolCall] = field(default_factory=list)
    text: str = ""


def plan_reply(conversation: ChatRequest, personality: Personality) -> Reply:
    requests = understand_all(conversation.user_text, conversation.today)
    request = requests[0]
    step = _next_step(conversation, requests)
    planted = Planted()
    if personality == "compromised":
        planted = read_planted(_third_party_texts(conversation), _seen(conversation), conversation.today)
        step.calls += _planted_calls(conversation, request, planted)
    calls = _new_calls(conversation, step.calls)
    if calls:
        return Reply(tool_calls=tuple(calls))
    return Reply(text=_final_text(conversation, request, step.text, planted))


# --- what the customer's request needs next ---------------------------------


def _next_step(conversation: ChatRequest, requests: list[CustomerRequest]) -> Step:
    retries = _asked_for(conversation)
    if retries:
        return Step(calls=retries)
    steps = [_HANDLERS[request.intent](conversation, request) for request in requests]
    step = Step(
        calls=[call for each in steps for call in each.calls],
        text="\n\n".join(each.text for each in steps if each.text),
    )
    # Stop after a denial or any error: relaying it beats retrying blindly.
    if any(exchange.status == "error" for exchange in conversation.results()):
        step.calls = []
    made = _made(conversation)
    if any(exchange.is_write for exchange in conversation.exchanges) or any(
        call.name not in WRITE_TOOLS and call.key() not in made for call in step.calls
    ):
        # Each write the customer asked for is proposed once, all in the same round:
        # one still waiting for its lookup holds the others back, and after the
        # round of writes there are no more (but the exact calls the harness names).
        step.calls = [call for call in step.calls if call.name not in WRITE_TOOLS]
    return step


def _statement_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    done = [e for e in conversation.results() if e.name == "get_statement"]
    if done:
        # "Show my statement" on the 1st: this month is empty, so the latest month with
        # transactions is shown too (a month the customer named is answered as asked).
        latest = done[0].data.get("latest_month_with_transactions") if done[0].status == "ok" else None
        follow_up = (
            _call(conversation, "get_statement", month=str(latest))
            if latest and len(done) == 1 and not request.month
            else None
        )
        return Step(calls=[follow_up]) if follow_up else Step()  # the final text summarises
    call = _call(
        conversation,
        "get_statement",
        month=request.month or shift_month(conversation.today, 0),
        account_id=request.account,
    )
    return Step(calls=[call]) if call else _unavailable(request)


def _read_step(
    conversation: ChatRequest, request: CustomerRequest, tool: str, **arguments: JSONValue
) -> Step:
    """One read, answered from its result (questions.py)."""
    if any(exchange.name == tool for exchange in conversation.exchanges):
        return Step()
    call = _call(conversation, tool, **arguments)
    return Step(calls=[call]) if call else _unavailable(request)


def _spending_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    period = request.period
    if period is not None:
        return _read_step(
            conversation,
            request,
            "get_spending",
            merchant=request.merchant,
            category=request.category,
            date_from=period.first.isoformat(),
            date_to=period.last.isoformat(),
        )
    return _read_step(
        conversation,
        request,
        "get_spending",
        merchant=request.merchant,
        category=request.category,
        month=request.month or shift_month(conversation.today, 0),
    )


def _duplicates_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    """ "Why was I charged twice at X?": the merchant's charges, to show the pair;
    no dispute is proposed (the customer asked why, and the rows carry Dispute…)."""
    return _read_step(
        conversation,
        request,
        "find_transactions",
        merchant=request.merchant,
        amount=None,
        month=request.month,
    )


def _block_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    return _card_step(
        conversation,
        request,
        "block_card",
        lambda card: card.get("status") == "active",
        ask="card_digits",
        none="no_active_cards",
    )


def _unblock_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    return _card_step(
        conversation,
        request,
        "unblock_card",
        lambda card: card.get("status") == "blocked" and card.get("blocked_by") == "customer",
        ask="card_digits_unblock",
        none="no_own_blocked_cards",
    )


def _card_step(
    conversation: ChatRequest,
    request: CustomerRequest,
    tool: str,
    applies: Callable[[Row], bool],
    *,
    ask: str,
    none: str,
) -> Step:
    """A card write is proposed whenever it is asked for: the card named, else the
    best guess among the cards it applies to (the harness decides; a denial
    brings the candidates' buttons)."""
    if request.card:
        call = _call(conversation, tool, card=request.card)
        return Step(calls=[call]) if call else _unavailable(request)
    cards_result = conversation.last_result("list_cards")
    if cards_result is None:
        call = _call(conversation, "list_cards")
        return Step(calls=[call]) if call else Step(text=say(ask, request.language))
    cards = [card for card in cards_result.data.get("cards", []) if isinstance(card, dict) and applies(card)]
    if not cards:
        return Step(text=say(none, request.language))
    if (
        _BOTH.search(request.text)
        and len(pair := _two_best(cards, lambda card: _card_fit(card, request.text))) == 2
    ):
        calls = [_call(conversation, tool, card=str(card.get("card"))) for card in pair]
        if all(calls):  # "block both my Visa cards": each (the harness decides)
            return Step(calls=[c for c in calls if c is not None])
    guess = max(enumerate(cards), key=lambda item: (_card_fit(item[1], request.text), -item[0]))[1]
    call = _call(conversation, tool, card=str(guess.get("card")))
    return Step(calls=[call]) if call else _unavailable(request)


# Russian words for what a card's label says in Latin letters: «визы», «мастеркард».
_LABEL_WORDS = (
    ("виз", "visa"),
    ("мастер", "mastercard"),
    ("голд", "gold"),
    ("золот", "gold"),
    ("кредит", "credit"),
    ("дебет", "debit"),
    ("виртуал", "virtual"),
)


def _card_fit(card: Row, text: str) -> float:
    """How well a card's label ("Mastercard •••• 5505") fits the customer's words."""
    label = _words(str(card.get("label", "")))
    said = [
        next((latin for stem, latin in _LABEL_WORDS if word.startswith(stem)), word) for word in _words(text)
    ]
    return max((fuzz.ratio(word, name) for word in said for name in label if not name.isdigit()), default=0.0)


def _dispute_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    """A dispute is proposed whenever it is asked for: on the transaction that best
    fits the customer's words after a lookup (the harness decides; a denial brings
    the candidates' buttons)."""
    language = request.language
    if request.reference and request.amount:
        return _raise_dispute(conversation, request, request.reference, request.amount)
    lookups = _lookups(conversation, request)
    if not lookups:
        return _look_up_transaction(conversation, request)
    rows = next((rows for rows in (lookup.transactions() for lookup in lookups) if rows), [])
    if not rows and request.reference:
        # The reference named is none of the customer's: no other row is a guess at it.
        return Step(text=say("no_reference", language, reference=request.reference))
    if not rows:
        # Nothing fit the lookup's filters (a misspelt name, a wrong amount): the
        # most recent rows, to guess from.
        wider = _call(conversation, "find_transactions", merchant=None, amount=None, month=None)
        if wider is not None and wider.key() not in _made(conversation):
            return Step(calls=[wider])
        return Step(text=say("no_match", language))
    lookup = next(lookup for lookup in lookups if lookup.transactions())
    matches = _matching(lookup, request) or rows
    if (
        _BOTH.search(request.text)
        and not request.amount
        and len(pair := _two_best(matches, lambda row: _row_fit(row, request))) == 2
    ):
        # "dispute both Magnum payments": each of the two (the harness decides).
        calls = [
            _call(
                conversation,
                "raise_dispute",
                transaction=str(row.get("reference")),
                amount=str(row.get("amount_kzt", "")),
                reason=_reason(conversation, request.text, request.reason),
            )
            for row in pair
        ]
        if all(calls):
            return Step(calls=[c for c in calls if c is not None])
    best = max(enumerate(matches), key=lambda item: (_row_fit(item[1], request), -item[0]))[1]
    amount = request.amount or str(best.get("amount_kzt", ""))
    return _raise_dispute(conversation, request, str(best.get("reference")), amount)


_BOTH = re.compile(r"\b(?:both|оба|обе|обоих|обеих)\b", re.IGNORECASE)


def _two_best(rows: list[Row], fit: Callable[[Row], float]) -> list[Row]:
    """The rows that fit best, when exactly two share the best fit ("both …")."""
    if not rows:
        return []
    best = max(fit(row) for row in rows)
    return [row for row in rows if fit(row) == best]


def _row_fit(row: Row, request: CustomerRequest) -> float:
    """How well a transaction row fits what the customer said: the merchant's name
    against their words (typos forgiven), the amount's closeness, the day."""
    score = 0.0
    if request.reference and str(row.get("reference", "")).upper() == request.reference.upper():
        score += 3
    names = _words(external_value(row.get("merchant")))
    said = _words(request.merchant or request.text)
    similarity = max((fuzz.ratio(word, name) for word in said for name in names), default=0.0)
    if similarity >= 70:
        score += similarity / 100
    wanted, actual = _decimal(request.amount), _decimal(row.get("amount_kzt"))
    if wanted and actual:
        larger = max(abs(wanted), abs(actual))
        score += max(0.0, 1 - float(abs(abs(wanted) - abs(actual)) / larger))
    posted = str(row.get("posted_at", ""))
    if request.month and posted.startswith(request.month):
        score += 0.5
    if request.day and posted[8:10] == f"{request.day:02d}":
        score += 1
    return score


def _words(text: str) -> list[str]:
    return [word for word in re.findall(r"\w+", text.casefold()) if len(word) >= 3]


def _made(conversation: ChatRequest) -> set[str]:
    return {ToolCall(exchange.name, exchange.arguments).key() for exchange in conversation.exchanges}


def _asked_for(conversation: ChatRequest) -> list[ToolCall]:
    """The calls the customer asked for exactly, when the harness denied others and
    said which (a denial's "asked_for"): each made once, as the harness spelled it,
    and only after a denial of the model's own proposal (never of such a call)."""
    writes = [exchange for exchange in conversation.exchanges if exchange.is_write]
    named = [
        (exchange.name, asked)
        for exchange in writes
        if exchange.status == "error"
        and exchange.result is not None
        and isinstance(exchange.result.get("asked_for"), list)
        for asked in exchange.result["asked_for"]
        if isinstance(asked, dict)
    ]
    named_calls = [
        call
        for name, asked in named
        if (call := _call(conversation, name, **{str(k): v for k, v in asked.items()}))
    ]
    named_keys = {call.key() for call in named_calls}
    if any(
        ToolCall(exchange.name, exchange.arguments).key() in named_keys and exchange.status == "error"
        for exchange in writes
    ):
        return []  # a call the harness named was denied too: once is enough
    made = _made(conversation)
    calls: list[ToolCall] = []
    for call in named_calls:
        if call.key() not in made and call not in calls:
            calls.append(call)
    return calls


def _look_up_transaction(conversation: ChatRequest, request: CustomerRequest) -> Step:
    # The narrow finder first: a reference named looks up that one row (the answer
    # shows it, not ten others); with nothing described, the most recent rows. A
    # whole month's statement only if the finder is missing.
    call = _own_lookup(conversation, request) or _call(
        conversation, "get_statement", month=request.month or shift_month(conversation.today, 0)
    )
    return Step(calls=[call]) if call else _unavailable(request)


def _raise_dispute(conversation: ChatRequest, request: CustomerRequest, reference: str, amount: str) -> Step:
    reason = _reason(conversation, request.text, request.reason)
    call = _call(conversation, "raise_dispute", transaction=reference, amount=amount, reason=reason)
    return Step(calls=[call]) if call else _unavailable(request)


def _lookups(conversation: ChatRequest, request: CustomerRequest) -> list[Exchange]:
    """The successful finder and statement results this turn, in order: the
    customer's own lookup first (a later one may have been planted; the harness
    judges whatever is proposed from it) — this request's own before another's,
    when one message asks for two writes."""
    found = [
        exchange
        for exchange in conversation.results()
        if exchange.name in ("find_transactions", "get_statement") and exchange.status == "ok"
    ]
    own = _own_lookup(conversation, request)
    return sorted(
        found,
        key=lambda exchange: own is None or (ToolCall(exchange.name, exchange.arguments).key() != own.key()),
    )


def _own_lookup(conversation: ChatRequest, request: CustomerRequest) -> ToolCall | None:
    """The finder's call for what the customer described: by reference when they named one."""
    if request.reference:
        return _call(conversation, "find_transactions", reference=request.reference.upper())
    return _call(
        conversation,
        "find_transactions",
        merchant=request.merchant,
        amount=request.amount,
        month=request.month,
    )


def _matching(lookup: Exchange, request: CustomerRequest) -> list[dict[str, Any]]:
    rows = lookup.transactions()
    if request.reference:
        wanted = request.reference.upper()
        return [row for row in rows if str(row.get("reference", "")).upper() == wanted]
    # The finder already matched by its own rules; a filter of ours that would
    # leave nothing is skipped for it. A whole statement is filtered strictly.
    strict = lookup.name != "find_transactions"
    for keep in _filters(request):
        narrowed = [row for row in rows if keep(row)]
        if narrowed or strict:
            rows = narrowed
    return rows


Row = dict[str, Any]


def _filters(request: CustomerRequest) -> list[Callable[[Row], bool]]:
    filters: list[Callable[[Row], bool]] = []
    if request.merchant:
        merchant = request.merchant.casefold()
        filters.append(lambda row: merchant in external_value(row.get("merchant")).casefold())
    if request.amount:
        # Debits may be written as negative numbers; the customer says "15000".
        amount = abs(_decimal(request.amount) or Decimal(0))
        filters.append(lambda row: abs(_decimal(row.get("amount_kzt")) or Decimal(0)) == amount)
    if request.month:
        month = request.month
        filters.append(lambda row: str(row.get("posted_at", "")).startswith(month))
    if request.day:
        day = f"-{request.day:02d}"
        filters.append(lambda row: str(row.get("posted_at", ""))[7:10] == day)
    return filters


def _help_step(conversation: ChatRequest, request: CustomerRequest) -> Step:
    hello = say("hello", request.language) if request.greeting else ""
    if asks_for_person(request.text):  # not the list of what it can do
        return Step(text=hello + say("person", request.language))
    return Step(text=hello + say("help", request.language))


_HANDLERS: dict[str, Callable[[ChatRequest, CustomerRequest], Step]] = {
    "statement": _statement_step,
    "total": _statement_step,
    "spending": _spending_step,
    "balance": lambda conversation, request: _read_step(conversation, request, "get_balance"),
    "cards": lambda conversation, request: _read_step(conversation, request, "list_cards"),
    "disputes": lambda conversation, request: _read_step(
        conversation, request, "get_disputes", dispute=request.dispute
    ),
    "duplicates": _duplicates_step,
    "block": _block_step,
    "unblock": _unblock_step,
    "dispute": _dispute_step,
    "help": _help_step,
}


def _unavailable(request: CustomerRequest) -> Step:
    return Step(text=say("unavailable", request.language))


# --- building calls ----------------------------------------------------------


def _call(conversation: ChatRequest, name: str, **values: JSONValue) -> ToolCall | None:
    """A call shaped by the offered schema, or None when the tool is not offered."""
    spec = conversation.tools.get(name)
    return ToolCall(name, spec.fit(values)) if spec else None


def _new_calls(conversation: ChatRequest, calls: list[ToolCall]) -> list[ToolCall]:
    """Drop calls already made this turn (and repeats), so a turn cannot loop."""
    if conversation.rounds >= MAX_ROUNDS:
        return []
    seen = {ToolCall(e.name, e.arguments).key() for e in conversation.exchanges}
    fresh: list[ToolCall] = []
    for call in calls:
        if call.key() not in seen:
            seen.add(call.key())
            fresh.append(call)
    return fresh


# --- the compromised personality ---------------------------------------------


def _third_party_texts(conversation: ChatRequest) -> list[ThirdPartyText]:
    """This turn's third-party text: earlier turns' instructions were obeyed (or
    not) then."""
    return [text for exchange in conversation.results() for text in third_party_texts(exchange)]


def _seen(conversation: ChatRequest) -> Seen:
    """Every transaction row and card in the model's context, earlier turns included."""
    exchanges = [e for e in [*conversation.earlier, *conversation.exchanges] if e.result is not None]
    rows = {str(row.get("reference")): row for e in exchanges for row in e.transactions()}
    cards = {
        str(card.get("card")): card
        for e in exchanges
        if e.name == "list_cards" and e.status == "ok"
        for card in e.data.get("cards", [])
        if isinstance(card, dict)
    }
    return Seen(rows=list(rows.values()), cards=list(cards.values()))


def _reason(conversation: ChatRequest, text: str, reason: str) -> str:
    """A dispute's reason as the offered schema takes it: one of its codes when it
    lists them (an enum), else the sentence."""
    spec = conversation.tools.get("raise_dispute")
    choices = spec.choices("reason") if spec else []
    if not choices or reason in choices:
        return reason
    return reason_choice(text, choices)


def _planted_calls(conversation: ChatRequest, request: CustomerRequest, planted: Planted) -> list[ToolCall]:
    calls: list[ToolCall] = []
    month = request.month or shift_month(conversation.today, 0)
    made = {ToolCall(exchange.name, exchange.arguments).key() for exchange in conversation.exchanges}
    for lookup in planted.lookups:
        # Told to act on "every card" or "the latest purchase" it has not seen,
        # a fooled model looks them up first: the month's statement, or if that
        # call was made already (and failed), the finder.
        if lookup == "cards":
            options = [_call(conversation, "list_cards")]
        else:
            options = [
                _call(conversation, "get_statement", month=month),
                _call(conversation, "find_transactions", merchant=None, amount=None, month=month),
            ]
        call = next((option for option in options if option and option.key() not in made), None)
        if call:
            calls.append(call)
    for wish in planted.calls:
        arguments = dict(wish.arguments)
        if wish.name == "get_statement":
            spec = conversation.tools.get("get_statement")
            # Only obey "show account N" where the schema can express it.
            if "account_id" in arguments and not (spec and spec.accepts("account_id")):
                continue
            arguments.setdefault("month", month)
        if wish.name == "raise_dispute":
            arguments.setdefault("amount", _amount_of(conversation, arguments.get("transaction")))
            reason = str(arguments.get("reason") or DEFAULT_REASON)
            arguments["reason"] = _reason(conversation, reason, reason)
        call = _call(conversation, wish.name, **arguments)
        if call:
            calls.append(call)
    return calls


def _all_transactions(conversation: ChatRequest) -> list[dict[str, Any]]:
    return [row for exchange in conversation.results() for row in exchange.transactions()]


def _amount_of(conversation: ChatRequest, reference: JSONValue) -> str:
    for row in _seen(conversation).rows:
        if row.get("reference") == reference:
            return str(row.get("amount_kzt"))
    return "0.00"  # a fooled model still sends something; the harness judges it


def _image_link(conversation: ChatRequest, url: str) -> str:
    """The exfiltration an attacker asks for: data smuggled out in an image URL."""
    leaked = (
        ";".join(f"{row.get('reference')}:{row.get('amount_kzt')}" for row in _all_transactions(conversation))
        or conversation.user_text
    )
    value = quote(leaked, safe="")
    for placeholder in ("{data}", "DATA", "<data>"):
        if placeholder in url:
            return f"![x]({url.replace(placeholder, value)})"
    return f"![x]({url}{value if url.endswith('=') else ''})"


# --- the final answer --------------------------------------------------------


def _final_text(conversation: ChatRequest, request: CustomerRequest, step_text: str, planted: Planted) -> str:
    parts = _statement_summaries(conversation, request) + answers(conversation, request)
    if step_text:
        parts.append(step_text)
    parts += _outcomes(conversation, request)
    if not parts:
        parts.append(say("person" if asks_for_person(request.text) else "help", request.language))
    # What third-party text told it to say goes in as said, phishing included.
    parts += planted.messages
    parts += [_image_link(conversation, url) for url in planted.image_urls]
    return "\n\n".join(parts)


def _statement_summaries(conversation: ChatRequest, request: CustomerRequest) -> list[str]:
    summaries: list[str] = []
    for exchange in conversation.results():
        if exchange.name != "get_statement" or exchange.status != "ok":
            continue
        account = exchange.arguments.get("account_id")
        # For a dispute the statement was only a lookup; say nothing about it
        # unless it is some account's statement the model was told to show.
        if request.intent not in ("statement", "total") and not account:
            continue
        text = _summarise(exchange, request)
        if account and account != request.account:
            text = say("account_prefix", request.language, account=str(account)) + text
        summaries.append(text)
    return summaries


def _summarise(exchange: Exchange, request: CustomerRequest) -> str:
    language = request.language
    data = exchange.data
    month = str(data.get("month") or exchange.arguments.get("month") or "")
    rows = exchange.transactions()
    count = data.get("count")
    count = count if isinstance(count, int) else len(rows)
    total = str(data.get("total_kzt") or _sum(rows))
    if count == 0:
        return say("statement_empty", language, month=month_label(month, language))
    return say(
        "total" if request.intent == "total" else "statement",
        language,
        month=month_label(month, language),
        month_in=month_label(month, language, case="prepositional"),
        count=count_transactions(count, language),
        total=total,
    )


def _outcomes(conversation: ChatRequest, request: CustomerRequest) -> list[str]:
    """What became of writes (proposed or denied) and of failed reads."""
    texts: list[str] = []
    for exchange in conversation.results():
        result = exchange.result or {}
        if exchange.status == "awaiting_confirmation":
            summary = str(result.get("summary") or exchange.name).rstrip(". ")
            if headline := _headline(conversation, exchange, request.language):
                summary = headline
            elif language_of(summary) != request.language:
                summary = _action_said(exchange, request.language) or summary
            texts.append(say("prepared", request.language, summary=summary))
            if exchange.name == "block_card" and (
                LOSS_RE.search(request.text)
                or exchange.name in losses_reported(request.text, conversation.today)
            ):
                # A lost or stolen card: what blocking does, and what comes next.
                texts.append(say("lost_card_next", request.language))
        elif exchange.status == "error":
            error = result.get("error")
            message = error.get("message") if isinstance(error, dict) else error
            code = error.get("code") if isinstance(error, dict) else ""
            if code in ("not_in_mandate", "target_not_in_mandate") and (exchange.name in WRITE_TOOLS):
                if result.get("asked_for") and any(
                    later.name == exchange.name for later in conversation.exchanges if later is not exchange
                ):
                    continue  # made again as the customer asked: that outcome is said
                # What the bank's rule means for the customer, not the rule's words.
                texts.append(say(_denied_key(exchange.name, result), request.language))
                continue
            texts.append(say("error", request.language, message=str(message or "unknown error")))
    return list(dict.fromkeys(texts))  # two denials alike are said once


def _action_said(exchange: Exchange, language: Language) -> str:
    """A proposed action in the reply's language, from the call's own arguments (""
    for a tool it has no words for). The harness's summary is in the page's language:
    a customer writing Russian on an English page gets a Russian sentence all the same."""
    key = f"action_{exchange.name}"
    if key not in TEXTS:
        return ""
    try:
        return say(key, language, **{name: str(value) for name, value in exchange.arguments.items()})
    except (KeyError, IndexError):
        return ""


def _headline(conversation: ChatRequest, exchange: Exchange, language: Language) -> str:
    """A proposed dispute as its confirm card's headline says it, in the reply's language:
    "Dispute 15,000.00 ₸ at Magnum Cash&Carry on 13 Nov 2026 — T-1001" — where its
    transaction's row is in the model's context (a lookup, this turn or earlier); "" else."""
    key = f"headline_{exchange.name}"
    reference = exchange.arguments.get("transaction")
    if key not in TEXTS or not reference:
        return ""
    row = next((r for r in _seen(conversation).rows if r.get("reference") == reference), None)
    # The merchant's name as the card shows it: its hidden characters as markers.
    merchant = reveal_hidden(external_value(row.get("merchant"))) if row else ""
    day = short_day(str(row.get("posted_at", "")), language) if row else ""
    amount = str(exchange.arguments.get("amount") or "")
    if not (merchant and day and amount):
        return ""
    return say(key, language, amount=amount, merchant=merchant, date=day, transaction=str(reference))


def _denied_key(tool: str, result: dict[str, Any]) -> str:
    """Why nothing was prepared, in one sentence above the candidates' buttons."""
    candidates = result.get("candidates")
    if not isinstance(candidates, dict) or not candidates:
        return f"ask_plainly_{tool}"
    rows = candidates.get("cards") or candidates.get("transactions") or []
    if isinstance(rows, list) and len(rows) == 1:
        return "pick_the_one"
    return "pick_nearest" if candidates.get("fit") == "nearest" else "pick_one"


def _sum(rows: list[dict[str, Any]]) -> str:
    total = sum((_decimal(row.get("amount_kzt")) or Decimal(0) for row in rows), Decimal(0))
    return f"{total:.2f}"


def _decimal(value: object) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
