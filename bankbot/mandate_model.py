"""Optional mandate extraction by a separate model call (BANKBOT_MANDATE_EXTRACTOR=model).

The call sees only the customer's own words — never tool output, never the
conversation's other messages — and answers in a fixed structure. What it
returns can only add operations the customer asked for in other words ("my
card was stolen"); a target it names counts only if those very characters are
in the customer's text, so a model that invents a card or a transaction adds
nothing. The deterministic parser (tools/mandate.py) always runs too.
"""

from __future__ import annotations

import logging
from decimal import Decimal, InvalidOperation
from typing import Literal

import openai
from pydantic import BaseModel, ConfigDict, Field

from tools.mandate import BLOCK_CARD, RAISE_DISPUTE, Mandate

log = logging.getLogger(__name__)

INSTRUCTIONS = """You read a bank customer's messages and say what they ask the bank to do.
Operations: block_card (block, freeze, lost or stolen card) and raise_dispute (dispute,
unrecognised or wrong charge). List only what the customer asks for now, not questions about
the past. Copy card digits, transaction references (T-…) and amounts exactly as written."""


class MandateExtraction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    operations: list[Literal["block_card", "raise_dispute"]] = Field(default_factory=list)
    cards: list[str] = Field(default_factory=list, description="last four digits")
    transactions: list[str] = Field(default_factory=list, description="references like T-10452")
    amounts: list[str] = Field(default_factory=list, description="amounts as written")


def mandate_with_model(client: openai.OpenAI, model: str, texts: list[str]) -> Mandate:
    """The model's reading of the customer's texts, limited to what the texts contain.
    A failure of this optional call gives an empty mandate (the parser's stands)."""
    words = "\n".join(t for t in texts if t)
    if not words.strip():
        return Mandate()
    try:
        completion = client.chat.completions.parse(
            model=model, response_format=MandateExtraction,
            messages=[{"role": "system", "content": INSTRUCTIONS},
                      {"role": "user", "content": words}],
        )
        extraction = completion.choices[0].message.parsed
    except (openai.OpenAIError, ValueError) as error:
        # OpenAIError, not only APIError: an answer cut off by its length or withheld
        # by a content filter is raised by the SDK's parse as its own error class.
        log.warning("mandate extraction failed, using the parser alone: %s", error)
        return Mandate()
    if extraction is None:
        return Mandate()
    compact = words.replace(" ", "").replace("\u00a0", "").upper()
    cards = {c for c in extraction.cards if c.isdigit() and len(c) == 4 and c in compact}
    references = {t.upper() for t in extraction.transactions if t.upper() in compact}
    amounts = set()
    for amount in extraction.amounts:
        digits = amount.replace(" ", "").replace(",", "")
        if digits and digits.split(".")[0] in compact:
            try:
                amounts.add(Decimal(digits).quantize(Decimal("0.01")))
            except InvalidOperation:
                continue
    operations = frozenset(extraction.operations) & {BLOCK_CARD, RAISE_DISPUTE}
    return Mandate(operations=operations, cards=frozenset(cards),
                   transactions=frozenset(references), amounts=frozenset(amounts),
                   any_card=BLOCK_CARD in operations and not cards, sources=("model",))
