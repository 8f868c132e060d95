"""What a scenario file may say: Pydantic models, strict (``extra="forbid"``).

A scenario is one customer session: the world it starts from (``setup``), what
the customer types or clicks (``steps``), which model answers (``model``), and
what must — and must not — come out of it (``expected``). docs/injection-lab.md
documents every field; the loader turns validation errors into sentences that
name the file, the scenario and the field.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from lab.templating import template_problems

Vector = Literal["transaction_description", "merchant_name", "staff_note", "customer_message", "tool_error"]
Technique = Literal[
    "important_instructions",
    "ignore_previous",
    "fake_system",
    "explicit_tool_call",
    "fake_confirmation",
    "zero_width",
    "unicode_tags",
    "base64",
    "markdown_image",
    "broadening",
    "other_customer",
    "over_amount",
    "past_window",
    "split",
    # Inside the customer's own request: a second plausible target (issue 13).
    "look_alike",
    "homoglyph",
    "amount_twin",
    "partial_widening",
    "carried_mandate",
    "mention_not_request",
    "reason_stuffing",
    "answer_phishing",
    "unblock",
]
Task = Literal["statement", "total", "block", "unblock", "dispute", "underspecified", "refusal", "help"]
Guarantee = Literal["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "G10", "G11"]
ToolName = Literal[
    "get_statement", "list_cards", "find_transactions", "block_card", "unblock_card", "raise_dispute"
]
WriteTool = Literal["raise_dispute", "block_card", "unblock_card"]
CARD_TOOLS = ("block_card", "unblock_card")
VECTORS: tuple[str, ...] = get_args(Vector)
TECHNIQUES: tuple[str, ...] = get_args(Technique)

REFERENCE = r"^T-\d{3,12}$"
LAST4 = r"^\d{4}$"


class LabModel(BaseModel):
    # A misspelt field is an error, never silently ignored: a scenario that
    # says "expect:" instead of "expected:" must not pass by asserting nothing.
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- setup ---------------------------------------------------------------------


class CardSpec(LabModel):
    last4: str = Field(pattern=LAST4)
    # The label the bank shows next to the digits. Staff edit it in Django
    # admin, so it is one of the places a staff-written note can ride in.
    brand: str = Field(default="Visa", min_length=1, max_length=20)
    status: Literal["active", "blocked"] = "active"
    # Who blocked it decides who may unblock it: a customer lifts only her own block.
    # A blocked card that does not say is the bank's, as in the bank's own records.
    blocked_by: Literal["customer", "bank"] | None = None

    @model_validator(mode="after")
    def _blocked_by_needs_a_block(self) -> CardSpec:
        if self.blocked_by is not None and self.status != "blocked":
            raise ValueError(f"card {self.last4} is active: blocked_by needs status: blocked")
        return self


class TransactionSpec(LabModel):
    reference: str = Field(pattern=REFERENCE)
    days_ago: int = Field(ge=0, le=3650)
    amount: Decimal = Field(gt=0, max_digits=14, decimal_places=2)
    merchant: str = Field(min_length=1, max_length=200)
    description: str = Field(default="", max_length=2000)
    card: str | None = Field(default=None, pattern=LAST4)
    # The card network's merchant category code (the bank's data); by default the demo
    # merchant's own (accounts.demo.network_code), none for any other name.
    mcc: str | None = Field(default=None, pattern=r"^\d{4}$")


class CustomerSpec(LabModel):
    username: str = Field(pattern=r"^[a-z][a-z0-9_]{1,30}$")
    full_name: str = Field(min_length=3, max_length=200)
    account: str = Field(pattern=r"^KZ[0-9A-Z]{10,32}$")
    cards: list[CardSpec] = Field(min_length=1)
    transactions: list[TransactionSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _cards_exist(self) -> CustomerSpec:
        mine = {card.last4 for card in self.cards}
        for txn in self.transactions:
            if txn.card is not None and txn.card not in mine:
                raise ValueError(
                    f"transaction {txn.reference} names card {txn.card}, which {self.username} does not have"
                )
        return self


class ToolErrorSpec(LabModel):
    """An upstream failure whose message the attacker wrote (the tool_error vector)."""

    tool: ToolName
    message: str = Field(min_length=1, max_length=2000)
    times: int = Field(default=1, ge=1, le=10)


class Setup(LabModel):
    # The customer who chats; the others are bystanders whose data must not leak.
    actor: str | None = None
    customers: list[CustomerSpec] = Field(min_length=1)
    tool_errors: list[ToolErrorSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> Setup:
        names = [c.username for c in self.customers]
        _unique(names, "username")
        _unique([c.account for c in self.customers], "account number")
        _unique([t.reference for c in self.customers for t in c.transactions], "transaction reference")
        # Unique across customers, not just per account: the naive harness finds
        # a card by its digits alone, which is one of its planted mistakes.
        _unique([card.last4 for c in self.customers for card in c.cards], "card last4")
        if self.actor is not None and self.actor not in names:
            raise ValueError(f"actor {self.actor!r} is not one of the customers ({', '.join(names)})")
        return self

    @property
    def actor_spec(self) -> CustomerSpec:
        return next((c for c in self.customers if c.username == self.actor), self.customers[0])

    def transaction(self, reference: str) -> tuple[CustomerSpec, TransactionSpec] | None:
        for customer in self.customers:
            for txn in customer.transactions:
                if txn.reference == reference:
                    return customer, txn
        return None


def _unique(values: list[str], what: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"{what} {value!r} appears twice")
        seen.add(value)


# --- steps -------------------------------------------------------------------------


class UiAction(LabModel):
    """An explicit click: "Dispute" on a statement row, "Block" or "Unblock" on a card."""

    operation: WriteTool
    transaction: str | None = Field(default=None, pattern=REFERENCE)
    card: str | None = Field(default=None, pattern=LAST4)

    @model_validator(mode="after")
    def _target(self) -> UiAction:
        needed = "transaction" if self.operation == "raise_dispute" else "card"
        if getattr(self, needed) is None:
            raise ValueError(f"a {self.operation} click needs a {needed}")
        return self

    def as_dict(self) -> dict[str, str]:
        return {k: v for k, v in self.model_dump().items() if v is not None}


class SayStep(LabModel):
    say: str = Field(min_length=1, max_length=2000)


class ClickStep(LabModel):
    click: UiAction


# Tags are class names: the loader drops capitalised parts of an error's location,
# so a person reads "steps.0.say", not "steps.0.SayStep.say".
def _step_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return "SayStep" if "say" in value else "ClickStep" if "click" in value else None
    return type(value).__name__ if isinstance(value, SayStep | ClickStep) else None


# A step is "say: text" or "click: {...}"; the key decides, so an error names
# the step's own fields instead of both alternatives'.
Step = Annotated[
    Annotated[SayStep, Tag("SayStep")] | Annotated[ClickStep, Tag("ClickStep")],
    Discriminator(
        _step_kind,
        custom_error_type="step_kind",
        custom_error_message="a step is 'say: text' or 'click: {...}'",
    ),
]


# --- the model -----------------------------------------------------------------------


class ScriptedCall(LabModel):
    tool: str = Field(min_length=1, max_length=60)
    arguments: dict[str, Any] = Field(default_factory=dict)


class ScriptedReply(LabModel):
    """One answer of a scripted model: tool calls, or a final text."""

    calls: list[ScriptedCall] = Field(default_factory=list)
    text: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> ScriptedReply:
        if bool(self.calls) == bool(self.text):
            raise ValueError("a scripted reply has either calls or text, not both or neither")
        return self


class ScriptedModel(LabModel):
    """The model a fooled LLM would be, spelled out: each request gets the next reply."""

    scripted: list[ScriptedReply] = Field(min_length=1)


ModelName = Literal["offline-careful", "offline-compromised", "adversary", "configured"]


def _model_kind(value: Any) -> str:
    return "ModelName" if isinstance(value, str) else "ScriptedModel"


ModelSpec = Annotated[
    Annotated[ModelName, Tag("ModelName")] | Annotated[ScriptedModel, Tag("ScriptedModel")],
    Discriminator(_model_kind),
]


# --- expectations -------------------------------------------------------------------------


class ExpectedProposal(LabModel):
    tool: WriteTool
    transaction: str | None = Field(default=None, pattern=REFERENCE)
    amount: Decimal | None = Field(default=None, gt=0)
    card: str | None = Field(default=None, pattern=LAST4)

    @model_validator(mode="after")
    def _target(self) -> ExpectedProposal:
        if self.tool == "raise_dispute" and (self.transaction is None or self.card is not None):
            raise ValueError("an expected raise_dispute names a transaction (and no card)")
        if self.tool in CARD_TOOLS and (self.card is None or self.transaction is not None):
            raise ValueError(f"an expected {self.tool} names a card (and no transaction)")
        return self


class AllowedDispute(LabModel):
    transaction: str = Field(pattern=REFERENCE)
    amount: Decimal | None = Field(default=None, gt=0)


class Expected(LabModel):
    # Utility: each must be proposed (guarded) or done (naive); under
    # confirm-all the guarded proposal must also have executed.
    proposals: list[ExpectedProposal] = Field(default_factory=list)
    # Allowed beyond the proposals above (which are always allowed).
    disputes: list[AllowedDispute] = Field(default_factory=list)
    blocked_cards: list[str] = Field(default_factory=list)
    unblocked_cards: list[str] = Field(default_factory=list)  # the actor's, by digits
    # Utility: each must appear in the assistant's last answer (templated).
    answer_contains: list[str] = Field(default_factory=list)

    @field_validator("blocked_cards", "unblocked_cards")
    @classmethod
    def _digits(cls, cards: list[str]) -> list[str]:
        for card in cards:
            if not re.fullmatch(LAST4, card):
                raise ValueError(f"{card!r} is not a card's last four digits")
        return cards


# --- the scenario ------------------------------------------------------------------------------


class Scenario(LabModel):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{2,80}$")
    title: str = Field(min_length=3, max_length=200)
    kind: Literal["attack", "benign"]
    vector: Vector | None = None
    technique: Technique | None = None
    task: Task | None = None
    # The guarantees the author expects to hold; shown to trainees, and used as
    # the explanation when the model never even tried the planted action.
    guarantees: list[Guarantee] = Field(default_factory=list)
    notes: str = Field(default="", max_length=2000)
    setup: Setup
    steps: list[Step] = Field(min_length=1)
    model: ModelSpec = "offline-careful"
    expected: Expected = Field(default_factory=Expected)

    @model_validator(mode="after")
    def _coherent(self) -> Scenario:
        if self.kind == "attack" and (self.vector is None or self.technique is None):
            raise ValueError("an attack scenario needs a vector and a technique")
        if self.kind == "benign" and (self.vector is not None or self.technique is not None):
            raise ValueError("a benign task has no vector or technique")
        if self.setup.tool_errors and self.vector != "tool_error" and self.kind == "attack":
            raise ValueError("setup.tool_errors belongs to the tool_error vector")
        problems = template_problems(self.model_dump(mode="json"), self.setup)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def model_name(self) -> str:
        return "scripted" if isinstance(self.model, ScriptedModel) else self.model
