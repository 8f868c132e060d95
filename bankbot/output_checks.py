"""Checks on the model's final text before the customer sees it (G10).

Every amount it states must be a figure the bank wrote in this conversation (a
tool result outside its External fields, or a system message) or one the
customer typed: text a merchant wrote never vouches for an amount, and an
amount nothing vouches for is removed and flagged. Phone numbers, e-mail
addresses and links the bank did not write are removed, and so are images.
Amounts are read by ``accounts.money``, as the mandate reads them. A figure or a
status said to be a fact (the balance, a total, a row's amount, a dispute's status, a
card's state) must be that fact; where the bank's results hold it unambiguously, it is
written in the false one's place (a figure as pages write money, a status or a state
with the words the disputes table and the card chips use), else it is removed.
"""

from __future__ import annotations

import contextlib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from django.utils.translation import gettext

from accounts.money import amount_values, amounts_in, ends_in_currency, kzt_text, number_word
from accounts.text import without_hidden
from tools.catalog.raise_dispute import STATUS_WORDS
from tools.catalog.rows import CARD_STATE_WORDS

# A bare number below this is a count ("3 cards"), not an amount; with a currency,
# decimals or grouping ("99 ₸", "15.00", "2 050") it is one. Years are skipped.
_MIN_BARE = 100

_MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_MARKDOWN_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_HTML_TAG = re.compile(r"<\s*(img|a|iframe|script)\b[^>]*>", re.IGNORECASE)

_URL = re.compile(r"(?:\b[a-z][a-z0-9+.-]{1,15}:)?//[^\s<>\"')\]]+", re.IGNORECASE)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@(?:[^\W_][\w-]*\.)+[^\W\d_]{2,}")
_END = r"[^\s<>\"')\].,;:!?]"
_DOMAIN = re.compile(
    rf"(?<![\w@./-])(?P<host>(?:[^\W_][\w-]*\.)+(?P<tld>[^\W\d_]{{2,24}}))"
    rf"(?![\w@-])(?P<path>[/?#](?:[^\s<>\"')\]]*{_END})?)?"
)
# A top-level domain that makes "name.tld" a link even without "www." or a path.
# Two ASCII letters in one case (ccTLDs: "evil.kz", "EVIL.KZ", but not "card.It").
_TLDS = frozenset(
    {
        "com",
        "net",
        "org",
        "info",
        "biz",
        "app",
        "dev",
        "online",
        "site",
        "website",
        "shop",
        "store",
        "xyz",
        "top",
        "club",
        "pro",
        "bank",
        "money",
        "finance",
        "pay",
        "link",
        "click",
        "live",
        "tech",
        "cloud",
        "email",
        "support",
        "help",
        "service",
        "services",
        "page",
        "web",
        "vip",
        "win",
        "icu",
        "рф",
        "қаз",
        "рус",
        "бел",
        "укр",
        "срб",
        "онлайн",
        "сайт",
        "орг",
    }
)
_NOT_BEFORE = r"(?<![\w+.,-])"
_PHONE = re.compile(
    r"(?:(?<![\w+])\+\s?\d(?:[\s().-]{0,2}\d){9,14}"  # +7 700 123 45 67, +1 (555) 123-4567
    rf"|{_NOT_BEFORE}8[\s.-]?\(?\d{{3}}\)?[\s.-]?\d{{3}}[\s.-]?\d{{2}}[\s.-]?\d{{2}}"  # 8 (727) 123-45-67
    rf"|{_NOT_BEFORE}\(\d{{3,4}}\)\s?\d{{2,3}}[\s.-]?\d{{2}}[\s.-]?\d{{2}}"  # (727) 123-45-67
    rf"|{_NOT_BEFORE}\d{{3}}[\s.-]\d{{3}}[\s.-]\d{{2}}[\s.-]\d{{2}}"  # 700 123 45 67
    rf"|{_NOT_BEFORE}\d{{3}}[\s.-]?\d{{3}}-\d{{4}}"  # 555-123-4567
    rf"|{_NOT_BEFORE}\d{{3}}-\d{{2}}-\d{{2}}"  # 123-45-67
    r")(?![\d.,]?\d)(?!\s*(?i:₸|kzt|тг|тенге|tenge))"  # "+15 000 000 000 ₸" is money
)
# Spelt out a digit or two at a time, to slip past the formats above: "8-7-0-1-…",
# "8 7 0 1 …", "87.01.23.45.67" — ten digits or more in groups of one or two.
_SPELT_PHONE = re.compile(r"(?<![\w.,])\+?\d{1,2}(?:\s?[\s.\-/·_]\s?\d{1,2}){4,}(?![\w.,]?\d)")
# A link written so that it does not look like one: "example[.]kz", "example (dot) kz",
# "example dot com", «пример точка kz», "hxxp://": read as the link it is.
_SPOKEN_TLDS = (
    "kz|ru|com|net|org|info|io|co|me|cc|ly|tk|ua|by|uz|kg|su|us|uk|de|cn|tv|ws|to"
    "|xyz|top|online|site|shop|store|app|pro|рф|қаз"
)
_DEFANGED_DOT = re.compile(
    r"\s*[\[({]\s*(?:\.|dot|точка)\s*[\])}]\s*"
    rf"|(?<=[\w-]{{3}})\s+(?:dot|точка)\s+(?=(?:{_SPOKEN_TLDS})\b)",
    re.IGNORECASE,
)
_DEFANGED_SCHEME = re.compile(r"\bhxxp(s?)://", re.IGNORECASE)
_DEFANGED_AT = re.compile(r"\s*[\[({]\s*(?:at|собака)\s*[\])}]\s*", re.IGNORECASE)
# A number of days, hours or percent is not money: "more than 120 days", "0.5%".
_QUANTITY = re.compile(
    r"(?<![\d.,])\d+(?:[.,]\d+)?[\s-]*(?:%|(?:per ?cent|days?|hours?|minutes?"
    r"|months?|years?|процент\w*|дн(?:я|ей)|день|час\w*|минут\w*|месяц\w*"
    r"|лет|год\w*)\b)",
    re.IGNORECASE,
)
# A minus sign before a number: "-99 999 KZT" states 99 999 (money does not read signs).
_MINUS = re.compile(r"(?<![\w-])[-\u2212\u2013](?=\d)")

_FIGURE = re.compile(r"\d{1,15}\.\d\d")


def _marker(kind: str) -> str:
    """What the check writes where it removed something, in the customer's language
    (the active one): "amount" (a figure nothing vouches for, or one said to be a
    fact it is not), "status" (a dispute's or a card's), "link", "e-mail", "phone",
    "image", "tag"."""
    if kind in ("status", "card", "status_shown", "card_shown"):
        return gettext("[status removed]")
    if kind == "link":
        return gettext("[link removed]")
    if kind == "e-mail":
        return gettext("[e-mail removed]")
    if kind == "phone":
        return gettext("[phone number removed]")
    if kind == "image":
        return gettext("[image removed]")
    if kind == "tag":
        return gettext("[removed]")
    return gettext("[amount removed]")


def _problems(removed: Iterable[str], amounts: Iterable[Decimal]) -> list[str]:
    """What the customer is told was removed, one sentence a kind, in their language."""
    removed = set(removed)
    if not removed and not amounts:
        return []  # the common case, a sentence at a time as the answer streams
    sentences = [
        ("link", gettext("The answer linked to another website; the link was removed.")),
        ("e-mail", gettext("The answer gave an e-mail address the bank did not give; it was removed.")),
        ("phone", gettext("The answer gave a phone number the bank did not give; it was removed.")),
        ("balance", gettext("The assistant stated a balance that is not your balance; it was removed.")),
        ("total", gettext("The assistant stated a total the bank did not compute; it was removed.")),
        (
            "status",
            gettext(
                "The assistant described a dispute's status that does not match your records; it was removed."
            ),
        ),
        (
            "charge",
            gettext("The assistant gave a transaction an amount that is not its amount; it was removed."),
        ),
        (
            "balance_shown",
            gettext(
                "The assistant stated a balance that is not your balance; "
                "the bank's figure is shown in its place."
            ),
        ),
        (
            "total_shown",
            gettext(
                "The assistant stated a total the bank did not compute; "
                "the bank's total is shown in its place."
            ),
        ),
        (
            "charge_shown",
            gettext(
                "The assistant gave a transaction an amount that is not its "
                "amount; the bank's amount is shown in its place."
            ),
        ),
        (
            "status_shown",
            gettext(
                "The assistant described a dispute's status that does not "
                "match your records; the bank's status is shown in its place."
            ),
        ),
        (
            "card",
            gettext("The assistant described a card's state that does not match your cards; it was removed."),
        ),
        (
            "card_shown",
            gettext(
                "The assistant described a card's state that does not match "
                "your cards; the card's state is shown in its place."
            ),
        ),
    ]
    problems = [sentence for kind, sentence in sentences if kind in removed]
    if amounts:
        problems.append(
            gettext(
                "The assistant stated amounts that do not match your records (%(amounts)s); they "
                "were removed. Please rely on the statement table instead."
            )
            % {"amounts": ", ".join(f"{a:.2f}" for a in sorted(amounts))}
        )
    return problems


class Known(NamedTuple):
    """A message the answer may draw on. Bank text is a tool result's JSON (its
    External fields, written by a merchant, staff or another party, are skipped)
    or a system message; the customer's own words vouch for amounts, not contacts.
    A plain ``str`` given as known text is bank text."""

    text: str
    by_customer: bool = False


@dataclass
class CheckedAnswer:
    text: str
    problems: list[str] = field(default_factory=list)
    # What was removed, by kind ("link", "phone", "balance", "status", "card", "amount",
    # …; "balance_shown", "status_shown", "card_shown", …: a false fact the bank's own
    # was written in place of), and the amounts nothing vouched for: the stream's gate
    # adds them up (StreamGate).
    removed: frozenset[str] = field(default=frozenset(), compare=False)
    amounts: frozenset[Decimal] = field(default=frozenset(), compare=False)

    @property
    def flagged(self) -> bool:
        return bool(self.problems)


def check_answer(text: str, *, known_text: Iterable[str | Known]) -> CheckedAnswer:
    """``known_text``: the conversation's tool results and messages, read only as far
    as needed: once every amount and contact in the answer is found, the rest is
    not parsed (give the newest first), and an answer without any reads none."""
    return _check(text, _Replay(_Figures(item) for item in known_text))


class _Contact(NamedTuple):
    kind: str  # "link" | "e-mail" | "phone"
    start: int
    end: int
    key: str  # one spelling for one contact: a host, an address, a number's digits


class _Figures:
    """What one known message vouches for, each part read when first asked for."""

    def __init__(self, item: str | Known) -> None:
        known = item if isinstance(item, Known) else Known(item)
        self.by_customer = known.by_customer
        self._text = known.text or ""

    @cached_property
    def text(self) -> str:
        return self._text if self.by_customer else _bank_text(self._text)

    @cached_property
    def amounts(self) -> set[Decimal]:
        found = amount_values(_MINUS.sub(" ", self.text), min_bare=1)
        if not self.by_customer:
            # A bank field that is just a figure ("1.01", "5.05") is one, though alone
            # it reads like a day and a month.
            found |= {Decimal(line) for line in self.text.splitlines() if _FIGURE.fullmatch(line)}
        return found

    @cached_property
    def contacts(self) -> set[str]:
        return set() if self.by_customer else {c.key for c in _contacts_in(self.text)}

    @cached_property
    def facts(self) -> dict[str, set[str]]:
        """The bank's facts a claim must equal: balances and totals (as figures),
        statuses, transactions' amounts, cards' states and disputes ("D-881:T-1003:opened"),
        from a tool result's own fields (never External ones)."""
        found: dict[str, set[str]] = {
            "balance": set(),
            "total": set(),
            "status": set(),
            "charge": set(),
            "reference": set(),
            "card": set(),
            "dispute": set(),
        }
        if self.by_customer:
            return found
        try:
            data = json.loads(self._text)
        except ValueError:
            return found
        _collect_facts(data, found)
        return found


def _bank_text(content: str) -> str:
    """The bank-written strings of a tool result (JSON), one per line; text that is
    not JSON (a system message) is the bank's own sentence."""
    try:
        data = json.loads(content)
    except ValueError:
        return content
    pieces: list[str] = []
    if isinstance(data, dict):
        # A denial may quote the model's own call ("There is no tool called 'refund
        # 450000 KZT'", "The disputed amount 99999.00 KZT is more than …"), and so may
        # the tool's name: the model's words, not the bank's.
        data = {key: value for key, value in data.items() if key not in ("error", "tool")}
    _collect_bank_strings(data, pieces)
    return "\n|\n".join(pieces)


def _collect_bank_strings(data: Any, pieces: list[str]) -> None:
    if isinstance(data, dict):
        if "external_text" in data:
            return  # {"external_text": …, "author": …}: not the bank's words (G6)
        for value in data.values():
            _collect_bank_strings(value, pieces)
    elif isinstance(data, list):
        for value in data:
            _collect_bank_strings(value, pieces)
    elif isinstance(data, str):
        pieces.append(data)
    elif isinstance(data, int | float) and not isinstance(data, bool):
        pieces.append(str(data))


_FACT_KEYS = {"balance_kzt": "balance", "balance": "balance", "total_kzt": "total"}


_LAST4 = re.compile(r"\d{4}")
_CARD_STATES = ("active", "blocked")
_CHARGE_KEYS = ("amount_kzt", "amount")
_DISPUTE_STATUSES = frozenset(str(status) for status in STATUS_WORDS)


def _collect_facts(data: Any, found: dict[str, set[str]]) -> None:
    if isinstance(data, dict):
        if "external_text" in data:
            return
        # A transaction's amount, or an amount the bank attached to it (a dispute's
        # part): "T-5006:23760.00" — what a figure said of T-5006 may be.
        reference = next(
            (
                v
                for k in ("reference", "transaction")
                if isinstance(v := data.get(k), str) and _REFERENCE_SAID.fullmatch(v)
            ),
            None,
        )
        card, state = data.get("card"), data.get("status")
        if isinstance(card, str) and _LAST4.fullmatch(card) and state in _CARD_STATES:
            found["card"].add(f"{card}:{state}")  # "4242:active": a card row's state
        if isinstance(state, str) and state in _DISPUTE_STATUSES:
            # A dispute's row: its reference ("" if it shows none), its transaction's, its
            # status — "D-881:T-1003:opened".
            dispute = next(
                (
                    v.upper()
                    for k in ("dispute_id", "reference")
                    if isinstance(v := data.get(k), str) and _DISPUTE_SAID.fullmatch(v)
                ),
                "",
            )
            found["dispute"].add(f"{dispute}:{reference or ''}:{state}")
        if reference is not None:
            found["reference"].add(reference)
            for key in _CHARGE_KEYS:
                if isinstance(value := data.get(key), str | int | float):
                    with contextlib.suppress(ArithmeticError):
                        found["charge"].add(f"{reference}:{Decimal(str(value)):.2f}")
        for key, value in data.items():
            if key in _FACT_KEYS and isinstance(value, str | int | float):
                with contextlib.suppress(ArithmeticError):
                    found[_FACT_KEYS[key]].add(f"{Decimal(str(value)):.2f}")
            elif key == "status" and isinstance(value, str):
                found["status"].add(value)
            else:
                _collect_facts(value, found)
    elif isinstance(data, list):
        for value in data:
            _collect_facts(value, found)
    elif isinstance(data, str) and len(set(said := _REFERENCE_SAID.findall(data))) == 1:
        # A bank sentence about one transaction ("Dispute 200.00 ₸ of transaction T-5010
        # …", a proposal's summary) vouches for every figure it gives of it.
        reference = _latin_reference(said[0])
        found["reference"].add(reference)
        found["charge"].update(f"{reference}:{amount:.2f}" for amount in amount_values(data, min_bare=1))


# Claims a sentence makes about the bank's facts: a figure said to be the balance or a
# total must be the balance or the total the bank computed (issue 23, point 1) — a
# charge's real amount stated as "your balance" is a false claim all the same.
_CLAIMS = {
    "balance": re.compile(r"\bbalance\b|\bбаланс\w*|\bостат(?:ок|ке|ка|ку)\b", re.IGNORECASE),
    "total": re.compile(r"\b(?:in )?total\b|\baltogether\b|\bвсего\b|\bитого\b|\bв сумме\b", re.IGNORECASE),
}
# A dispute's status in words, and the stored status each word claims. In Russian, the
# participle in any gender («одобрен», «решена», «отклонённый»), not the noun
# («одобрения», «решение по спору», «возвращение средств»), which claims nothing.
_PARTICIPLE = r"(?:[аоы]|н\w*)?"
_STATUS_WORDS = (
    (
        re.compile(
            r"\b(?:approved|refunded|resolved|accepted|won|compensated"
            rf"|одобрен{_PARTICIPLE}|удовлетвор[её]н{_PARTICIPLE}|реш[её]н{_PARTICIPLE}"
            rf"|возвращ[её]н{_PARTICIPLE})\b",
            re.IGNORECASE,
        ),
        "resolved",
    ),
    (
        re.compile(rf"\b(?:rejected|declined|denied|отклон[её]н{_PARTICIPLE}|отказан\w*)\b", re.IGNORECASE),
        "rejected",
    ),
)
_DISPUTE_WORD = re.compile(r"\bdisputes?\b|\bclaims?\b|\bспор\w*|\bпретензи\w*", re.IGNORECASE)
_NOT_YET = re.compile(r"\b(?:not|n't|never|yet|не|ещё не|еще не|пока не)\b\W*(?:\w+\W+){0,2}$", re.IGNORECASE)
# Not a status said to hold now: a future or a possibility just before the word ("will
# be approved", "can be fully refunded", «будет одобрен»), or a condition a few words
# before it ("if your dispute D-881 is approved", «если спор будет одобрен»).
_NOT_NOW_STATUS = re.compile(
    r"(?:\b(?:will|would|can|could|may|might|should|must|to)\s+(?:\w+\s+)?(?:be|get|become)"
    r"\s+(?:\w+\s+)?|\b(?:будет|будут|может|могут|должен|должна|должно|должны)\s+"
    r"(?:быть\s+)?(?:\w+\s+)?"
    r"|\b(?:if|once|when|unless|until|если|когда|как только)\b\W*(?:[\w-]+\W+){0,4})$",
    re.IGNORECASE,
)
# Between two false words of one fact ("approved and refunded", "blocked and frozen"): the
# fact is written once in place of both.
_JOINED = re.compile(
    r"(?:\s|&|/|\b(?:and|or|also|then|has|have|had|been|was|were|is|are|fully"
    r"|и|или|а|также|был|была|было|были)\b)*",
    re.IGNORECASE,
)
# Where a status's words fit in place of the false one: after "is", "was", "has been" (an
# adverb between: "was fully refunded") or a colon or a dash ("Status: approved"), and a
# Russian short form («одобрен», «заблокирована»). Not "The bank approved your dispute",
# "you won it", «ваш отклонённый спор»: there the false words are removed.
_STATE_FITS = re.compile(
    r"(?:\b(?:is|was|are|were|be|been|being|become|became|becomes|get|gets"
    r"|got)|[:\u2014\u2013-])\s+(?:\w+\s+)?$",
    re.IGNORECASE,
)
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_LONG_FORM = re.compile(
    r"\w*(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ого|его|ому|ему|ым|им|ом|ем|ую|юю"
    r"|ых|их|ыми|ими)",
    re.IGNORECASE,
)
# A clause: up to a full stop, a semicolon or a comma that is not inside a number.
_CLAUSE = re.compile(r"(?:[^.!?;,\n]|[.,](?=\d))+")


_REFERENCE_SAID = re.compile(r"(?<![\w-])[TТ]-\d{1,12}\b")
_DISPUTE_SAID = re.compile(r"(?<![\w-])[Dd]-\d{1,12}\b")
# A card named by its last four digits, and the state a sentence says it is in.
_CARD_SAID = re.compile(
    r"(?:\bcard|\bкарт\w*|•+|\*{2,})\s*(?:ending (?:in )?|•+\s*)?(\d{4})\b", re.IGNORECASE
)
_CARD_STATE_WORDS = (
    (re.compile(r"\b(?:blocked|frozen|locked|заблокирован\w*|заморожен\w*)\b", re.IGNORECASE), "blocked"),
    (re.compile(r"\b(?:active|unblocked|unfrozen|активн\w*|разблокирован\w*)\b", re.IGNORECASE), "active"),
)
# Not a state said to hold now: a future, a condition, an ability ("will be blocked once
# you confirm", «будет заблокирована», "can be unblocked").
_NOT_NOW = re.compile(
    r"\b(?:will|would|once|after|when|if|can|could|may|should|to be|"
    r"будет|будут|после|когда|если|можно|может|чтобы)\b",
    re.IGNORECASE,
)


def _latin_reference(said: str) -> str:
    """«Т-5006» (a Cyrillic Т) and "t-5006" are T-5006, as the bank writes it."""
    return said.upper().replace("Т", "T")


class _Claim(NamedTuple):
    kind: str  # "balance" | "total" | "status" | "charge" ("T-5006:23760.00") | "card"
    # The figure ("18760.00"), the card's state ("4242:blocked") or the status claimed, with
    # the dispute it is said of: "D-881:resolved", "T-1003:resolved" (the dispute of that
    # transaction), ":resolved" (none named), "*:resolved" (several named).
    value: str
    start: int
    end: int


def _claims_in(text: str, mentions: list[Any]) -> list[_Claim]:
    """Figures said to be a balance or a total, and statuses said of a dispute."""
    found: list[_Claim] = []
    for sentence in _CLAUSE.finditer(text):
        said = sentence.group(0)
        inside = [m for m in mentions if sentence.start() <= m.start < sentence.end()]
        for kind, pattern in _CLAIMS.items():
            word = pattern.search(said)
            if word and inside:  # the figure nearest the word is the one claimed
                at = sentence.start() + word.start()
                m = min(inside, key=lambda m: abs(m.start - at))
                found.append(_Claim(kind, f"{m.value:.2f}", m.start, m.end))
        references = set(_REFERENCE_SAID.findall(said))
        if len(references) == 1 and len(inside) == 1:
            # "T-5006 was 18,760.00 ₸": a figure said of the one transaction named must be
            # its amount (or an amount the bank attached to it), not another row's.
            m, (reference,) = inside[0], references
            found.append(_Claim("charge", f"{_latin_reference(reference)}:{m.value:.2f}", m.start, m.end))
        cards = set(_CARD_SAID.findall(said))
        if len(cards) == 1 and not _NOT_NOW.search(said):
            # "Card 4242 is blocked": the state said of one card must be its state now.
            for pattern, state in _CARD_STATE_WORDS:
                for word in pattern.finditer(said):
                    if not _NOT_YET.search(said[: word.start()]):
                        start = sentence.start() + word.start()
                        found.append(
                            _Claim("card", f"{next(iter(cards))}:{state}", start, start + len(word.group(0)))
                        )
        if not _DISPUTE_WORD.search(said):
            continue
        # The dispute said to be in that status: the one named, by its reference or else
        # by its transaction's ("the dispute on T-1003").
        named = {d.upper() for d in _DISPUTE_SAID.findall(said)} or {_latin_reference(t) for t in references}
        of = next(iter(named)) if len(named) == 1 else ("*" if named else "")
        for pattern, status in _STATUS_WORDS:
            for word in pattern.finditer(said):
                before = said[: word.start()]
                # "not approved yet", "will be approved", "if it is approved": no claim.
                if not _NOT_YET.search(before) and not _NOT_NOW_STATUS.search(before):
                    start = sentence.start() + word.start()
                    found.append(_Claim("status", f"{of}:{status}", start, start + len(word.group(0))))
    return found


class _States:
    """The states the bank's results give: each card's, each dispute's (by its reference
    and by its transaction's), and every status any row carries."""

    def __init__(self, known: Iterable[_Figures]) -> None:
        self.cards: dict[str, set[str]] = {}
        self.disputes: dict[str, set[str]] = {}
        self.shown: set[str] = set()  # the disputes shown ("" for one without a reference)
        self.statuses: set[str] = set()
        for figures in known:
            facts = figures.facts
            self.statuses |= facts["status"]
            for fact in facts["card"]:
                card, state = fact.split(":")
                self.cards.setdefault(card, set()).add(state)
            for fact in facts["dispute"]:
                dispute, transaction, status = fact.split(":")
                self.shown.add(dispute)
                for key in filter(None, (dispute, transaction)):
                    self.disputes.setdefault(key, set()).add(status)

    def holds(self, claimed: str) -> bool:
        """Whether a status claim ("D-881:resolved") is true: of the dispute named, if the
        results show it; else (none named, several, one no result shows) of any row."""
        of, status = claimed.split(":")
        if of in self.disputes:
            return status in self.disputes[of]
        return status in self.statuses

    def now(self, claim: _Claim) -> str | None:
        """The stored status or state the claim's dispute or card is in, if the results
        give exactly one: of the dispute named, or of the only dispute they show."""
        key = claim.value.split(":")[0]
        if claim.kind == "card":
            found = self.cards.get(key, set())
        elif claim.kind != "status" or key == "*":
            return None
        elif key:
            found = self.disputes.get(key, set())
        elif len(self.shown) == 1 and "" not in self.shown:
            found = self.disputes[next(iter(self.shown))]
        else:
            return None
        return next(iter(found)) if len(found) == 1 else None


def _state_words(claim: _Claim, state: str, text: str) -> str | None:
    """A stored status or state in the words the disputes table and the card chips use,
    in the customer's language, cased as the words it replaces were ("Open", "open");
    None where those words would not fit in their place (``_STATE_FITS``)."""
    written = text[claim.start : claim.end]
    if _CYRILLIC.search(written):  # Russian: a short form only
        fits = not _LONG_FORM.fullmatch(written)
    else:
        fits = bool(_STATE_FITS.search(text, max(0, claim.start - 40), claim.start))
    label = (STATUS_WORDS if claim.kind == "status" else CARD_STATE_WORDS).get(state)
    if label is None or not fits:
        return None
    words = str(label)
    first = words[:1].upper() if written[:1].isupper() else words[:1].lower()
    return first + words[1:]


def _joined(
    spans: dict[tuple[int, int], _Claim], rendered: dict[tuple[int, int], str], text: str
) -> dict[tuple[int, int], _Claim]:
    """False words of one status side by side ("approved and refunded", "blocked and
    frozen") are one span, given the fact the first is given: it is written once."""
    joined: dict[tuple[int, int], _Claim] = {}
    last: tuple[int, int] | None = None
    for span in sorted(spans):
        claim = spans[span]
        if (
            last is not None
            and last in rendered
            and claim.kind in ("status", "card")
            and rendered.get(span, rendered[last]) == rendered[last]
            and joined[last].kind == claim.kind
            and joined[last].value.split(":")[0] == claim.value.split(":")[0]
            and _JOINED.fullmatch(text[last[1] : span[0]])
        ):
            merged = (last[0], span[1])
            joined[merged] = joined.pop(last)
            rendered[merged] = rendered[last]
            last = merged
            continue
        joined[span] = claim
        last = span
    return joined


def _rendered_facts(kinds: set[str], known: Iterable[_Figures]) -> dict[str, Decimal]:
    """The one balance, the one total, each transaction's one amount the bank's results
    hold ({"balance": …, "T-5006": …}); a kind with more than one value is left out."""
    values: dict[str, set[Decimal]] = {}
    for figures in known:
        for kind in kinds & {"balance", "total"}:
            values.setdefault(kind, set()).update(Decimal(v) for v in figures.facts[kind])
        if "charge" in kinds:
            for fact in figures.facts["charge"]:
                reference, amount = fact.split(":")
                values.setdefault(reference, set()).add(Decimal(amount))
    return {key: next(iter(found)) for key, found in values.items() if len(found) == 1}


def _contacts_in(text: str) -> list[_Contact]:
    """Links (with or without a scheme), e-mail addresses and phone numbers, in order."""
    found: list[_Contact] = []

    def add(kind: str, start: int, end: int, key: str) -> None:
        if not any(c.start < end and start < c.end for c in found):
            found.append(_Contact(kind, start, end, key))

    for m in _URL.finditer(text):
        add("link", m.start(), m.end(), _host(m.group(0)))
    for m in _EMAIL.finditer(text):
        add("e-mail", m.start(), m.end(), m.group(0).lower())
    for m in _DOMAIN.finditer(text):
        host, tld = m["host"], m["tld"]
        if (
            host.lower().startswith("www.")
            or m["path"]
            or tld.lower() in _TLDS
            or (len(tld) == 2 and tld.isascii() and (tld.islower() or tld.isupper()))
        ):
            add("link", m.start(), m.end(), _host(m.group(0)))
    spelt = [m for m in _SPELT_PHONE.finditer(text) if len(re.sub(r"\D", "", m.group(0))) >= 10]
    for m in [*_PHONE.finditer(text), *spelt]:  # spelt: ten digits at least, not a date
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) == 11 and digits.startswith("8"):
            digits = "7" + digits[1:]  # 8 700 … and +7 700 … are one number in Kazakhstan
        add("phone", m.start(), m.end(), digits[-10:])
    return sorted(found, key=lambda c: c.start)


def _host(link: str) -> str:
    try:
        host = urlsplit(link if "//" in link else f"//{link}").hostname or link
    except ValueError:
        host = link
    host = host.lower()
    return host[4:] if host.startswith("www.") else host


def _claims_possible(text: str) -> bool:
    return (
        any(p.search(text) for p in _CLAIMS.values())
        or bool(_REFERENCE_SAID.search(text))
        or bool(_CARD_SAID.search(text))
    ) or bool(_DISPUTE_WORD.search(text) and any(p.search(text) for p, _ in _STATUS_WORDS))


def _check(text: str, known: Iterable[_Figures]) -> CheckedAnswer:
    shown = without_hidden(text or "")  # a zero-width space must not split a number
    # A defanged link is a link: written back as one, so it is judged (and cut) as one.
    shown = _DEFANGED_AT.sub("@", _DEFANGED_SCHEME.sub(r"http\1://", _DEFANGED_DOT.sub(".", shown)))
    cleaned = _MARKDOWN_IMAGE.sub(lambda m: _marker("image"), shown)
    cleaned = _MARKDOWN_LINK.sub(lambda m: f"{m.group(1)} {_marker('link')}", cleaned)
    cleaned = _HTML_TAG.sub(lambda m: _marker("tag"), cleaned)
    removed = {"link"} if cleaned != shown else set()

    contacts = _contacts_in(cleaned)
    blanked = cleaned
    for contact in contacts:  # a phone number's digits are not amounts
        blanked = blanked[: contact.start] + " " * (contact.end - contact.start) + blanked[contact.end :]
    blanked = _MINUS.sub(" ", _QUANTITY.sub(" ", blanked))
    mentions = amounts_in(blanked, min_bare=_MIN_BARE)
    unfound = {m.value for m in mentions}
    unvouched = {c.key for c in contacts}
    # A figure said to be the balance or a total, a status said of a dispute: each must be
    # that fact in the bank's results, not only a figure the bank wrote somewhere.
    claims = _claims_in(cleaned, mentions) if _claims_possible(cleaned) else []
    # A status is judged with every dispute the results show (_States), below.
    unmet = {(c.kind, c.value) for c in claims if c.kind != "status"}
    named = {value.split(":")[0] for kind, value in unmet if kind == "charge"}
    cards = {value.split(":")[0] for kind, value in unmet if kind == "card"}
    for figures in known if unfound or unvouched or unmet else ():
        unfound -= figures.amounts if unfound else set()
        unvouched -= figures.contacts if unvouched else set()
        unmet -= {(kind, value) for kind, value in unmet if value in figures.facts[kind]}
        named -= figures.facts["reference"] if named else set()
        cards -= {fact.split(":")[0] for fact in figures.facts["card"]} if cards else set()
        if not unfound and not unvouched and not unmet:
            break
    # A figure said of a transaction no result shows is judged as any amount is; a state
    # said of a card the bank's data never showed is not judged.
    unmet -= {
        (kind, value)
        for kind, value in unmet
        if (kind == "charge" and value.split(":")[0] in named)
        or (kind == "card" and value.split(":")[0] in cards)
    }

    # An amount the records do not hold is removed, not only flagged: a false
    # "refund of fifteen thousand tenge" must not be read, even under a warning.
    cuts = [(c.start, c.end, c.kind) for c in contacts if c.key in unvouched]
    states = _States(known) if any(c.kind in ("status", "card") for c in claims) else None
    false = [
        c
        for c in claims
        if (c.kind, c.value) in unmet
        and not (c.kind not in ("status", "card") and Decimal(c.value.split(":")[-1]) in unfound)
    ]
    false += [c for c in claims if c.kind == "status" and states and not states.holds(c.value)]
    spans = {(c.start, c.end): c for c in reversed(false)}  # one cut a span
    # Where the bank holds exactly one such fact (the balance, the total, the row's
    # amount, the dispute's status, the card's state), it is written in the false one's
    # place — a figure as pages write money, a status as the disputes table and the card
    # chips word it; else the marker.
    shown_facts = _rendered_facts({c.kind for c in false}, known) if false else {}
    rendered: dict[tuple[int, int], str] = {}
    for (start, end), claim in spans.items():
        if claim.kind in ("status", "card"):
            state = states.now(claim) if states else None
            words = _state_words(claim, state, cleaned) if state else None
        else:
            fact = shown_facts.get(claim.kind if claim.kind != "charge" else claim.value.split(":")[0])
            words = kzt_text(fact) if fact is not None else None
        if words is not None:
            rendered[(start, end)] = words
    spans = _joined(spans, rendered, cleaned)
    removed |= {f"{claim.kind}_shown" if span in rendered else claim.kind for span, claim in spans.items()}
    cuts += [(start, end, claim.kind) for (start, end), claim in spans.items()]
    removed |= {c.kind for c in contacts if c.key in unvouched}
    cuts += [(m.start, m.end, "amount") for m in mentions if m.value in unfound]
    for start, end, kind in sorted(cuts, reverse=True):
        cleaned = cleaned[:start] + rendered.get((start, end), _marker(kind)) + cleaned[end:]
    if unfound:
        removed.add("amount")
    return CheckedAnswer(
        text=cleaned,
        problems=_problems(removed, unfound),
        removed=frozenset(removed),
        amounts=frozenset(unfound),
    )


# --- the answer as it streams: a sentence at a time, each checked before it is shown ---

# A piece of the answer is a sentence: it ends after a full stop, "!", "?" or "…" (and
# any closing quotes or brackets) and the space after it, or at a line break.
_SENTENCE_END = re.compile(r"[.!?\u2026]+[\"'\u00bb\u201d\u2019)\]]*\s+|\n\s*")
_CLOSERS = "\"'\u00bb\u201d\u2019)]"
# A sentence that runs on is cut at STREAM_PIECE_CHARS or after, between two words.
STREAM_PIECE_CHARS = 200
_GAP = re.compile(r"\s+")
_LAST_WORD = re.compile(r"[^\W\d_]+$")
_FIRST_WORD = re.compile(r"[^\W\d_]+")
# Words that join what is around them into one figure or one link: no cut beside them
# ("fifteen | thousand", "one hundred and | twenty", "example | dot kz", "name at | site").
_HOLDS = frozenset({"and", "и", "a", "half", "пол", "dot", "точка", "at", "собака"})
# What may begin the text after a sentence's end: a word, a digit, a quote or a list's
# mark. Not a bracket: "example\n(dot) kz" is one link, read across the line.
_STARTS = "\"'\u00ab\u201c\u2018*-\u2013\u2014\u2022#>"
# A long sentence's cut is looked for this far back from the end of the text held.
_CUT_LOOKS_BACK = 1024
# A sentence is checked with what was shown of it before, up to this much (a sentence
# longer than that is checked from the last piece that reached it).
_CONTEXT_CHARS = 2000
# The end of one model call's text that is a sentence's end: shown before the next call.
_FINISHED = re.compile(r"(?:[.!?\u2026]+[\"'\u00bb\u201d\u2019)\]]*|:)$")


def _holds(word: str) -> bool:
    return word.lower() in _HOLDS or number_word(word)


def _ends_a_sentence(text: str, match: re.Match[str]) -> bool | None:
    """Whether ``match`` (of _SENTENCE_END) ends a sentence that may be shown alone:
    nothing read across it can be one figure, number or link (None: not known until
    the next word is written). Not after a digit or a separator ("15.", "8-7-0.",
    "(727)\n"), not after a number word ("fifteen.") or a currency that a figure after
    it would belong to ("тенге\n", "тг. "); and a line break only before a word that
    does not join ("example\ndot kz" is a link: the check reads across a line break,
    not across a full stop)."""
    start = match.start()
    if start == 0:
        return False  # what came before is not known here
    before = text[start - 1]
    line_break = match.group(0)[0] == "\n"
    if line_break:
        fits = before.isalpha() or before in ':*"\u00bb\u201d\u2019' or _is_currency(before)
    else:
        fits = before.isalpha() or before in _CLOSERS or _is_currency(before)
    if not fits:
        return False
    word = _LAST_WORD.search(text, max(0, start - 40), start)
    if (word is not None and _holds(word.group(0))) or ends_in_currency(
        text[max(0, start - 8) : match.end()]
    ):
        return False  # "fifteen.", "тенге\n99", "тг. 99": one amount, read across
    if not line_break:
        return True
    return None if match.end() >= len(text) else _may_start(text, match.end())


def _may_start(text: str, at: int) -> bool | None:
    """Whether the text from ``at`` may begin a piece of its own: its first word does
    not join (None: the word is still being written), or it begins with a digit, a
    quote or a list's mark."""
    first = text[at]
    if first.isalpha():
        word = _FIRST_WORD.match(text, at)
        if word is None or word.end() >= len(text):
            return None
        return not _holds(word.group(0))
    return first.isdigit() or first in _STARTS


def _unclosed(text: str) -> bool:
    """Whether ``text`` ends inside a tag, a markdown link or an image: the check reads
    "<img …>" and "[…](…)" whole, across a sentence's end."""
    return (
        text.rfind("<") > text.rfind(">")
        or text.rfind("[") > text.rfind("]")
        or text.rfind("](") > text.rfind(")")
    )


def _is_currency(char: str) -> bool:
    return unicodedata.category(char) == "Sc"


def _run_on_cut(text: str) -> int:
    """Where a sentence that runs on may be cut (0: nowhere yet): between two whole
    words, neither of which joins, and never beside a digit, a separator or a bracket."""
    for gap in reversed(list(_GAP.finditer(text, max(0, len(text) - _CUT_LOOKS_BACK)))):
        start = gap.start()
        if start == 0 or gap.end() >= len(text) or not text[start - 1].isalpha():
            continue
        word = _LAST_WORD.search(text, max(0, start - 40), start)
        if (
            word is not None
            and not _holds(word.group(0))
            and text[gap.end()].isalpha()
            and _may_start(text, gap.end()) is True
        ):
            return gap.end()
    return 0


class StreamGate:
    """The answer reaches the customer a sentence at a time, each sentence checked
    before it is shown (G10; issue 23, point 4). A sentence the check would change is
    shown as the check leaves it — an amount the records do not hold, a false balance,
    total or status, a link, phone number or address the bank did not give replaced by
    the check's note ("[amount removed]", in the customer's language) — and the
    sentences after it stream on. What was shown is never taken back: the stored
    answer is ``text``, exactly what was shown, and ``problems`` what the customer is
    told was removed.

    A sentence is checked with what was shown of it before (a sentence that runs on
    past ``piece_chars`` goes in pieces, cut between two words): a piece that would
    make text already shown false ("… is your balance" after the figure) is replaced
    whole by a note. A sentence ends only where nothing read across the end could be
    one figure or one link (``_ends_a_sentence``); hidden characters are taken out as
    the text comes, as the check takes them out.

    One gate per turn, since the browser joins every model call's text in one bubble:
    text held at the end of one call waits for the next call's (:meth:`end_call`
    shows a finished sentence at once), and only :meth:`finish`, at the end of the
    turn, shows the last piece without an end. ``known_text`` is read lazily, once,
    newest first (as ``check_answer`` reads it), and only if the text states an
    amount, a contact or a claim; :meth:`know` replaces it when tool results have
    been added.
    """

    def __init__(self, known_text: Iterable[str | Known], *, piece_chars: int = STREAM_PIECE_CHARS) -> None:
        self.know(known_text)
        self.piece_chars = piece_chars
        self.raw = ""  # everything the model wrote, as it wrote it
        self.text = ""  # everything shown, checked
        self._sentence = 0  # where, in ``text``, the sentence being shown began
        self._pending = ""
        self._looked = 0  # ``_pending`` before this holds no sentence's end
        self._call_ended = False
        self._removed: set[str] = set()
        self._amounts: set[Decimal] = set()

    def know(self, known_text: Iterable[str | Known]) -> None:
        self._known = _Replay(_Figures(item) for item in known_text)

    @property
    def problems(self) -> list[str]:
        return _problems(self._removed, self._amounts)

    @property
    def flagged(self) -> bool:
        return bool(self._removed)

    def feed(self, delta: str) -> str:
        """Add streamed text; return what may be shown now ("" for nothing yet)."""
        self.raw += delta
        delta = without_hidden(delta)
        if not delta:
            return ""
        if (
            self._call_ended
            and not self._pending
            and self.text
            and not self.text[-1].isspace()
            and not delta[0].isspace()
        ):
            delta = "\n" + delta  # another call's text: on a line of its own
        self._call_ended = False
        self._pending += delta
        shown = []
        while end := self._piece_end():
            piece, self._pending = self._pending[: end[0]], self._pending[end[0] :]
            self._looked = 0
            shown.append(self._release(piece, ends_sentence=end[1]))
        return "".join(shown)

    def end_call(self) -> str:
        """One model call's text has ended (another call may follow): a finished
        sentence ("… that up.", "Here it is:") is shown now, not after the next call."""
        self._call_ended = True
        said = self._pending.rstrip()
        finished = _FINISHED.search(said)
        if finished is None:
            return ""
        probe = said + "\nX "  # as if a sentence followed: may this one end here?
        ended = _SENTENCE_END.search(probe, finished.start())
        if (
            ended is None
            or ended.end() != len(said) + 1
            or not _ends_a_sentence(probe, ended)
            or _unclosed(self.text[self._sentence :] + said)
        ):
            return ""
        piece, self._pending = self._pending, ""
        self._looked = 0
        return self._release(piece, ends_sentence=True)

    def finish(self) -> str:
        """The turn's answer is complete: the rest, checked."""
        rest, self._pending = self._pending, ""
        self._looked = 0
        return self._release(rest, ends_sentence=True) if rest else ""

    def _piece_end(self) -> tuple[int, bool] | None:
        """Where the next piece of ``_pending`` ends, and whether it ends a sentence."""
        settled = True  # every end looked at so far is not one, whatever follows
        for match in _SENTENCE_END.finditer(self._pending, self._looked):
            ends = _ends_a_sentence(self._pending, match)
            if ends and _unclosed(self.text[self._sentence :] + self._pending[: match.start()]):
                ends = False
            if ends:
                return match.end(), True
            settled = settled and ends is not None  # None: the next word may decide it
            if settled:
                self._looked = match.end()
        if len(self._pending) >= self.piece_chars and (cut := _run_on_cut(self._pending)):
            return cut, False
        return None

    def _release(self, piece: str, *, ends_sentence: bool) -> str:
        if len(self.text) - self._sentence > _CONTEXT_CHARS:
            self._sentence = len(self.text)
        before = self.text[self._sentence :]
        checked = _check(before + piece, self._known)
        if checked.text.startswith(before):
            shown = checked.text[len(before) :]
            removed = set(checked.removed)
        else:  # it would change what was shown: the piece goes, its note stays
            # and no fact was shown in anything's place ("balance_shown" is "balance").
            removed = {kind.removesuffix("_shown") for kind in checked.removed}
            kinds = sorted(removed, key=_NOTE_ORDER.index) or ["tag"]
            lead = piece[: len(piece) - len(piece.lstrip())]
            shown = lead + _marker(kinds[0]) + piece[len(piece.rstrip()) :]
        self._removed |= removed
        self._amounts |= checked.amounts
        self.text += shown
        if ends_sentence:
            self._sentence = len(self.text)
        return shown


_NOTE_ORDER = [
    "phone",
    "link",
    "e-mail",
    "amount",
    "balance",
    "total",
    "charge",
    "balance_shown",
    "total_shown",
    "charge_shown",
    "status",
    "status_shown",
    "card",
    "card_shown",
    "image",
    "tag",
]


class _Replay:
    """An iterable read at most once from its source and replayed after that, so
    every check sees the same known figures without reading or parsing them twice."""

    def __init__(self, source: Iterable[_Figures]) -> None:
        self._source = iter(source)
        self._seen: list[_Figures] = []

    def __iter__(self) -> Iterator[_Figures]:
        index = 0
        while True:
            if index == len(self._seen):
                item = next(self._source, None)
                if item is None:
                    return
                self._seen.append(item)
            yield self._seen[index]
            index += 1
