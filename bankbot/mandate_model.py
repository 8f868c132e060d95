"""Optional mandate extraction by a separate model call (BANKBOT_MANDATE_EXTRACTOR=model).

The call sees only the customer's latest message — never tool output, never the
rest of the conversation — and answers in a fixed structure. It follows the
parser's rules (tools/grammar.py): only a plain, present request counts, and
what it names is bound to the customer's objects by the same binding
(tools/mandate.py), after dropping any feature that is not literally in the
customer's text. It can add a request the parser missed ("my card was stolen,
make sure nobody can use it"); it can never overrule the parser's doubt, and
where the two disagree on one target, neither grants it (precision first).
"""

from __future__ import annotations

import functools
import logging
import re
from datetime import date
from decimal import Decimal
from typing import Literal

import openai
from django.utils import timezone
from pydantic import BaseModel, ConfigDict, Field, create_model

from accounts.models import Customer
from accounts.money import to_amount
from errors import InvalidInput
from tools.catalog import CATALOG
from tools.mandate import (
    REASONS,
    Grant,
    Mandate,
    Request,
    TargetWords,
    bind_request,
    name_words,
)

log = logging.getLogger(__name__)

INSTRUCTIONS = """You read one message a bank customer wrote and list the actions it plainly asks
the bank to do now. Operations, each a tool of the bank's:
{operations}
A question, a negation, a condition, a correction, a report of what someone said or of
the past is not a request: then list nothing. Copy card digits, transaction references (T-…),
amounts and merchant words exactly as written. reason: one of {reasons}, or null when the
customer gave none."""


def instructions() -> str:
    """The system message: the catalog's write tools, each with its own description."""
    operations = "\n".join(f"- {spec.name}: {spec.description}" for spec in CATALOG.writes())
    return INSTRUCTIONS.format(operations=operations, reasons=", ".join(REASONS))


class ExtractedRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    operation: str  # one of the catalog's writes: see extraction_format
    plain_request: bool = Field(description="true only for a plain, present request")
    cards: list[str] = Field(default_factory=list, description="last four digits")
    transactions: list[str] = Field(default_factory=list, description="references like T-10452")
    amounts: list[str] = Field(default_factory=list, description="amounts as written")
    merchant_words: list[str] = Field(default_factory=list, description="as written")
    reason: Literal[REASONS] | None = None  # type: ignore[valid-type]


class MandateExtraction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    requests: list[ExtractedRequest] = Field(default_factory=list)


@functools.cache
def _format(operations: tuple[str, ...]) -> type[MandateExtraction]:
    # A Literal of the catalog's writes, made at run time: no static type can name it.
    request = create_model(
        "ExtractedRequest",
        __base__=ExtractedRequest,
        operation=(Literal[operations], ...),  # type: ignore[arg-type]
    )
    return create_model(
        "MandateExtraction",
        __base__=MandateExtraction,
        requests=(list[request], Field(default_factory=list)),  # type: ignore[valid-type]
    )


def extraction_format() -> type[MandateExtraction]:
    """The answer's structure, with an operation enum of the catalog's writes as they are now."""
    return _format(tuple(spec.name for spec in CATALOG.writes()))


def mandate_with_model(
    client: openai.OpenAI, model: str, text: str, parsed: Mandate, *, customer: Customer, source: str
) -> Mandate:
    """``parsed`` widened by what the model read in ``text``, bound the same way.
    A failure of this optional call leaves the parser's mandate as it is."""
    if not (text or "").strip() or any(u.problem == "unsure" for u in parsed.unbound):
        return parsed
    try:
        completion = client.chat.completions.parse(
            model=model,
            response_format=extraction_format(),
            messages=[{"role": "system", "content": instructions()}, {"role": "user", "content": text}],
        )
        extraction = completion.choices[0].message.parsed
    except (openai.OpenAIError, ValueError) as error:
        # OpenAIError, not only APIError: an answer cut off by its length or withheld
        # by a content filter is raised by the SDK's parse as its own error class.
        log.warning("mandate extraction failed, using the parser alone: %s", error)
        return parsed
    if extraction is None:
        return parsed
    grants = list(parsed.grants)
    for item in extraction.requests:
        if not item.plain_request:
            continue
        bound = bind_request(customer, _request(item, text, timezone.localdate()), source)
        if isinstance(bound, Grant):
            grants.append(bound)
    return Mandate(grants=_agreed(grants), unbound=parsed.unbound, sources=parsed.sources)


def _request(item: ExtractedRequest, text: str, today: date) -> Request:
    """The model's request, keeping only features literally in the customer's text."""
    compact = re.sub(r"\s+", "", text).upper()
    words = name_words(text)
    amounts: list[Decimal] = []
    for written in item.amounts:
        if re.sub(r"\s+", "", written).upper() in compact:
            try:
                amounts.append(to_amount(written))
            except InvalidInput:
                continue
    target = TargetWords(
        references=frozenset(t.upper() for t in item.transactions if t.upper() in compact),
        cards=frozenset(c for c in item.cards if re.fullmatch(r"\d{4}", c) and c in compact),
        amounts=tuple(amounts),
        words=frozenset(w for m in item.merchant_words for w in name_words(m) if w in words),
    )
    return Request(item.operation, target, item.reason)


def _agreed(grants: list[Grant]) -> tuple[Grant, ...]:
    """One grant per target: where two readings differ on the same target (amount
    or reason), neither stands."""
    by_target: dict[tuple[str, str], set[Grant]] = {}
    for grant in grants:
        by_target.setdefault((grant.operation, grant.target), set()).add(
            Grant(grant.operation, grant.target, grant.amount, grant.reason, "")
        )
    kept: list[Grant] = []
    for grant in grants:
        variants = by_target[(grant.operation, grant.target)]
        if (
            len(variants) == 1
            and grant not in kept
            and not any((k.operation, k.target) == (grant.operation, grant.target) for k in kept)
        ):
            kept.append(grant)
    return tuple(kept)
