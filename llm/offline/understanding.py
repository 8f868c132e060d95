"""What the customer asked for, read from their own words (English or Russian).

This is the offline model's "language understanding": a handful of tables and
regexes, deterministic by design so tests can pin every phrasing. It never sees
tool output; that is the point of the careful personality.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Literal

from accounts.categories import CATEGORIES, categories_named
from tools.grammar import misspelt_operation, plain_words, read_request

from .months import MONTH_BY_NAME, MonthMention, find_month
from .periods import Period, find_period
from .typos import corrected

# The write tools, by the names the model is shown them (the mandate reads them by their words).
BLOCK_CARD, UNBLOCK_CARD, RAISE_DISPUTE = "block_card", "unblock_card", "raise_dispute"

Intent = Literal[
    "statement",
    "total",
    "spending",
    "balance",
    "cards",
    "disputes",
    "duplicates",
    "block",
    "unblock",
    "dispute",
    "help",
]
Language = Literal["en", "ru"]

DEFAULT_REASON = "Customer does not recognise this charge"

# A request for a person ("can I talk to a human?", «позовите оператора»). The chat
# answers it itself, before any model, with the offer of a specialist
# (bankbot/person_request.py); this stand-in only keeps the lab and benchmarks, which
# play turns through it, from answering one with the list of what it can do.
PERSON_RE = re.compile(
    r"\b(?:human|operator|real person|live (?:agent|person)|specialist|representative|someone real)\b"
    r"|(?<!\w)(?:оператор\w*|живо\w+ человек\w*|специалист\w*|сотрудник\w* банка)(?!\w)",
    re.IGNORECASE,
)


def asks_for_person(text: str) -> bool:
    return bool(PERSON_RE.search(text))


# --- amounts, cards, references -----------------------------------------------

# A transaction reference: "T-10452". Customers also type a Cyrillic "Т" or
# leave out the dash; both are normalised to "T-10452".
REFERENCE_RE = re.compile(r"(?<!\w)[TТtт]-?(?P<number>\d{3,})\b")

# Amounts as people type them: 15000, 15 000, 15,000, 15000.00, 15 000,50.
# A number glued to letters ("3rd", "4242abc") is not an amount.
AMOUNT_RE = re.compile(
    r"(?<![\w.,])(?P<whole>\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d{1,3}(?:,\d{3})+|\d+)"
    r"(?:[.,](?P<cents>\d{1,2}))?(?![\d\w])"
)
CURRENCY_AFTER_RE = re.compile(r"^\s*(?:kzt|₸|тг|тенге|tenge)", re.I)
CURRENCY_BEFORE_RE = re.compile(r"(?:kzt|₸)\s*$", re.I)

# A card is named by its last four digits: "card 4242", "ending in 4242",
# "•••• 4242", "*4242", "карту 4242", "на 4242".
CARD_RE = re.compile(r"(?<![\d\w])(?P<last4>\d{4})(?!\d)")
CARD_WORD_DIGITS_RE = re.compile(r"(?:card|карт\w*)\W{0,3}(?:ending\s+(?:in\s+)?|на\s+)?\d{4}", re.I)

# "show account 12345" — only meaningful where a tool takes an account id (the
# lab's naive harness); the guarded tools have no such parameter.
ACCOUNT_RE = re.compile(
    r"\b(?:account|acct|сч[её]т\w*)\s*(?:#|no\.?|number|id|№)?\s*[:=]?\s*(?P<account>\d{3,})",
    re.I,
)


def parse_amount(raw: str) -> str | None:
    """'15 000,5' -> '15000.50'; None when it is not a number.

    Its own parser: it plays a model, which reads text its own way (the guarded side: accounts/money)."""
    match = AMOUNT_RE.search(raw)
    if not match:
        return None
    return _format_amount(match)


def _format_amount(match: re.Match[str]) -> str | None:
    whole = re.sub(r"[ \u00a0\u202f,]", "", match["whole"])
    try:
        value = Decimal(f"{whole}.{match['cents'] or '0'}")
    except InvalidOperation:
        return None
    return f"{value:.2f}"


def find_amount(text: str) -> str | None:
    """The amount of money the text states, as a decimal string like '15000.00'.

    Callers pass text with dates, references and card numbers already removed,
    so a day of the month or a card's last four is not mistaken for an amount.
    A number marked with a currency wins; otherwise the largest number does.
    """
    candidates: list[tuple[bool, Decimal, str]] = []
    for match in AMOUNT_RE.finditer(text):
        formatted = _format_amount(match)
        if formatted is None:
            continue
        marked = bool(
            CURRENCY_AFTER_RE.match(text[match.end() :]) or CURRENCY_BEFORE_RE.search(text[: match.start()])
        )
        candidates.append((marked, Decimal(formatted), formatted))
    if not candidates:
        return None
    return max(candidates, key=lambda item: (item[0], item[1]))[2]


def find_reference(text: str) -> str | None:
    match = REFERENCE_RE.search(text)
    return f"T-{match['number']}" if match else None


def find_card(text: str) -> str | None:
    """The last four-digit group: in "4242 4242 4242 1234" that is the card's tail."""
    groups = CARD_RE.findall(text)
    return groups[-1] if groups else None


def find_account(text: str) -> str | None:
    match = ACCOUNT_RE.search(text)
    return match["account"] if match else None


def language_of(text: str) -> Language:
    return "ru" if re.search(r"[а-яё]", text, re.I) else "en"


def _blank(text: str, start: int, end: int) -> str:
    """Replace a span with spaces so later patterns cannot see it, keeping offsets."""
    return text[:start] + " " * (end - start) + text[end:]


# --- intents ----------------------------------------------------------------

# Checked in this order: losing a card is the most urgent thing a message can
# say, and a dispute message often also names a month or an amount.
# "заблокирована" describes a card's state ("why is it blocked?"), not a request.
# Generous on purpose (issue 22, point 4): the offline model stands in for an LLM
# and proposes whenever the customer may be asking; the mandate refuses what was
# not asked for.
_CARD_OBJECT = r"(?:\s+(?:my|the|this|that|our|it|a))?(?:\s+\w+)?\s+card"
BLOCK_RE = re.compile(
    r"\b(?:block|lock|freeze|deactivate|disable|suspend)\b"
    rf"|\b(?:cancel|stop|kill|shut\s+down|switch\s+off|turn\s+off){_CARD_OBJECT}\b"
    r"|\b(?:за)?блок(?!ирован)\w*|\b(?:за)?блоч\w*|\bзаморо[зж]\w*"
    # A wish for the result: "I'd like card 4242 blocked", "I need it frozen".
    r"|\b(?:want|like|need|have|get)\s+(?:[\w•*]+\s+){0,4}(?:blocked|frozen|locked)\b",
    re.I,
)
# Checked before blocking: "unblock" holds no "block" at a word's start, but
# «разблокировать» must not read as «блокировать». "unblocked" is a state.
UNBLOCK_RE = re.compile(
    r"\bun(?:block|freeze|lock)(?!ed)\w*|\breactivat(?!ed)\w*"
    r"|\b(?:lift|remove|take\s+off|cancel|undo)\s+(?:the\s+|my\s+|this\s+|that\s+)?"
    r"(?:block|freeze|lock)\b"
    rf"|\bturn{_CARD_OBJECT}(?:\s+(?:ending\s+(?:in\s+)?)?\d{{4}})?\s+(?:back\s+)?on\b|\bturn\s+(?:it\s+)?back\s+on\b"
    rf"|\b(?:switch|turn)\s+on{_CARD_OBJECT}\b"
    r"|\bразблокир(?!ован)\w*|\bразблоч\w*|\bразморо[зж](?!ен)\w*"
    r"|\bсн(?:ими|имите|ять|имай|имайте)\s+(?:с\s+\w+\s+)?(?:блок|блокировк|заморозк)\w*"
    r"|\b(?:want|like|need|have|get)\s+(?:[\w•*]+\s+){0,4}(?:unblocked|unfrozen|unlocked)\b",
    re.I,
)
# Losing something only means "block" when a card (or the wallet holding it)
# is mentioned; "I lost 15000 on that charge" is a dispute.
LOSS_RE = re.compile(r"\b(?:lost|stolen|missing)\b|\b(?:по|у)теря\w*|\bукрал\w*|\bукраден\w*", re.I)
CARD_WORD_RE = re.compile(r"\b(?:card|wallet|purse|карт\w*|кошел[её]к\w*|кошельк\w*)", re.I)
DISPUTE_RE = re.compile(
    r"\b(?:dispute|chargeback|contest)\w*"
    r"|\b(?:didn'?t|did\s+not|never)\s+(?:make|made|authori[sz]e|buy|pay)"
    r"|\b(?:don'?t|do\s+not|didn'?t|can'?t)\s+recogni[sz]e|\bunauthori[sz]ed|\bfraud\w*"
    r"|\bwasn'?t\s+me\b|\bnot\s+me\b|\bnot\s+mine\b|\bcharged\s+twice\b|\bdouble\s+charge"
    r"|\b(?:get|want|need|have)\s+(?:my|the|our)\s+money\s+back\b|\bcharge[\s-]?back\b"
    r"|\bверн(?:и|ите|уть|ете)\s+(?:мне\s+|мои\s+|наши\s+)?(?:деньги|средства)"
    r"|\bэто\s+(?:был[аи]?\s+)?не\s+я\b"
    r"|\b(?:want|like|need|have|get)\s+(?:[\w•*-]+\s+){0,4}(?:disputed|contested|charged\s+back)\b"
    r"|\bоспар\w*|\bоспор\w*|\bопротест\w*|\bобжал\w*|\bдиспут\w*|\bчарджб[эе]к\w*|\bмошенни\w*"
    r"|\bне\s+(?:соверша|делал|покупал|плат|узна|оплачива)\w*"
    r"|\bне\s+мо[йяиё]\w*\s+(?:плат[её]ж|покупк|списани|операци|транзакци)\w*"
    r"|\bсписали\s+дважды|\bне\s+(?:заказыва|заказал|получил|привез|доставил)\w*",
    re.I,
)
# A dispute opened by its noun: "raise a claim", "I want a refund", «подайте претензию».
DISPUTE_OPEN_RE = re.compile(
    r"\b(?:raise|file|open|submit|lodge|start|make|put\s+in)\s+(?:a\s+|the\s+)?(?:claim|dispute|chargeback)\b"
    r"|\brefund\b|\bвозвра(?:т|щай\w*|тите)\b"
    r"|\b(?:подай|оформи|открой|создай|напиши)(?:те)?\s+(?:мне\s+)?(?:претензи|спор|диспут|возврат)\w*",
    re.I,
)
TOTAL_RE = re.compile(
    r"\bhow\s+much\b|\btotal\b|\bspen[dt]\w*|\bsum\b|\bspending\b"
    r"|\bсколько\b|\bитог\w*|\bвсего\b|\bпотрат\w*|\bтрат\w*|\bрасход\w*|\bсумм\w*",
    re.I,
)
STATEMENT_RE = re.compile(
    r"\bstatement\w*|\btransactions?\b|\bhistory\b|\bpayments\b|\bpurchases\b|\bactivity\b"
    r"|\bвыписк\w*|\bопераци\w*|\bтранзакци\w*|\bистори\w*|\bплатеж\w*|\bплатёж\w*",
    re.I,
)
# "What is my balance?", «сколько у меня денег?»: money held, not money spent.
BALANCE_RE = re.compile(
    r"\bbalances?\b|\bhow\s+much\s+(?:money\s+)?(?:do\s+i\s+have|is\s+(?:there\s+)?(?:on|in)\s+my)"
    r"|\bavailable\s+(?:funds|money|balance)|\bmoney\s+(?:do\s+i\s+have|left|on\s+my)"
    r"|\bбаланс\w*|\bостат(?:ок|ке|ка)\b|\bсколько\s+(?:у\s+меня\s+)?(?:денег|средств)"
    r"|\bсколько\s+(?:у\s+меня\s+)?на\s+(?:сч[её]т|карт)\w*",
    re.I,
)
# A dispute the customer already has: "D-881", "the status of my dispute", «мои споры».
DISPUTE_REF_RE = re.compile(r"(?<!\w)[DdДд]-?(?P<number>\d{1,12})\b")
DISPUTE_NOUN_RE = re.compile(
    r"\bdisputes?\b|\bclaims?\b|\bchargebacks?\b|\bдиспут\w*|\bспор(?:ы|а|у|ов|ом|ам|е)?\b"
    r"|\bпретензи\w*",
    re.I,
)
# Many disputes, or a Russian noun (the Russian verb, «оспорить», is another word).
DISPUTES_RE = re.compile(
    r"\bdisputes\b|\bclaims\b|\bchargebacks\b|\bдиспут\w*|\bспор(?:ы|а|у|ов|ом|ам|е)?\b"
    r"|\bпретензи\w*",
    re.I,
)
STATUS_RE = re.compile(
    r"\bstatus\b|\bprogress\b|\bupdates?\b|\bnews\b|\bhappen\w*|\bgoing\b|\boutcome\b"
    r"|\bresult\w*|\bdecision\b|\bdecided\b|\breviewed\b|\bresolved\b|\bстатус\w*|\bкак\s+там\b"
    r"|\bчто\s+с\b|\bрезультат\w*|\bрешени\w*|\bрассмотр\w*|\bновост\w*|\bответ\w*",
    re.I,
)
LIST_RE = re.compile(
    r"\bmy\b|\blist\b|\bshow\b|\bany\b|\ball\b|\bopen\b|\bмои\w*|\bпокажи\w*|\bкакие\b"
    r"|\bесть\s+ли\b|\bвсе\b|\bоткрыт\w*",
    re.I,
)
# "Why was I charged twice at X?" asks to see the charges; a dispute needs the verb.
TWICE_RE = re.compile(
    r"\bcharged\s+(?:me\s+)?twice\b|\bdouble[\s-]+charg\w*|\btwo\s+(?:identical\s+)?charges\b"
    r"|\btwice\b|\bдважды\b|\bдва\s+раза\b|\bдвойн\w+\s+списани\w*",
    re.I,
)
DISPUTE_VERB_RE = re.compile(
    r"\b(?:dispute|chargeback|contest)\w*|\bоспор\w*|\bоспар\w*|\bопротест\w*"
    r"|\brefund\b(?=\s+(?:one|it|this|that|them|the|my)\b)",
    re.I,
)
# "my cards", "is card 4242 blocked?", «какие у меня карты»: a question about cards.
CARDS_RE = re.compile(r"\bcards?\b|\bкарт(?:а|ы|у|ой|е|ам|ах|очк\w*)?\b", re.I)
GREETING_RE = re.compile(
    r"^\s*(?:hi|hello|hey|good\s+(?:morning|afternoon|evening)|привет\w*|здравствуй\w*"
    r"|добр\w+\s+(?:день|утро|вечер))\b",
    re.I,
)

# Why the customer disputes: an explicit clause ("because …", "потому что …").
REASON_RE = re.compile(
    r"(?:\bbecause\b|\breason\s*[:\-]|\bпотому\s+что\b|\bтак\s+как\b|\bпричина\s*[:\-])\s*(?P<reason>[^.!?\n]+)",
    re.I,
)
# Or a common situation, named in words staff recognise in the dispute queue,
# with the code a tool offering a fixed set of reasons (an enum) expects. A cue
# without a sentence only picks a code.
REASON_CUES: tuple[tuple[re.Pattern[str], str | None, str], ...] = (
    (
        re.compile(r"charged\s+twice|double\s+charge|дважды", re.I),
        "Charged twice for the same purchase",
        "charged_twice",
    ),
    (
        re.compile(r"(?:didn'?t|did\s+not|never)\s+(?:receive|get)|не\s+получил\w*", re.I),
        "Goods or service not received",
        "not_received",
    ),
    (
        re.compile(
            r"(?:didn'?t|did\s+not|never)\s+(?:make|made|authori[sz]e)|wasn'?t\s+me|unauthori[sz]ed"
            r"|fraud|не\s+(?:соверша|делал|покупал|оплачива)\w*|мошенни\w*",
            re.I,
        ),
        "Customer did not make this payment",
        "not_recognised",
    ),
    (
        re.compile(r"wrong\s+amount|overcharged|too\s+much|неверн\w*\s+сумм\w*|переплат\w*", re.I),
        None,
        "wrong_amount",
    ),
    (re.compile(r"\bcancel\w*|отмен\w*", re.I), None, "cancelled"),
)
DEFAULT_REASON_CODE = "not_recognised"

# Where a merchant is named. Each pattern captures the name itself.
MERCHANT_PATTERNS: tuple[re.Pattern[str], ...] = (
    # Quoted: "Magnum", «Магнум», 'Yandex Go'. A single quote only counts at a
    # word's edge, or "don't … wasn't" would quote everything in between.
    re.compile(r"[\"«“]([^\"»”\n]{2,40})[\"»”]"),
    re.compile(r"(?<!\w)'([^'\n]{2,40})'(?!\w)"),
    # "the Magnum charge", "that Wolt payment".
    re.compile(
        r"\b(?:the|that|this|my)\s+(?P<m>[\w&'.-]+(?:\s+[\w&'.-]+)?)\s+"
        r"(?:charge|payment|transaction|purchase|debit|order)\b",
        re.I,
    ),
    # "at Magnum", "from Yandex Go", "в Magnum", "от Kaspi": a capitalised or
    # Latin-script name right after a preposition.
    re.compile(
        r"\b(?:at|from|to|by|with|in|в|во|на|от|у|из)\s+"
        r"(?P<m>[A-ZА-ЯЁ][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)?)"
    ),
    re.compile(r"\b(?:в|во|на|от|у|из)\s+(?P<m>[A-Za-z][\w&'.-]*(?:\s+[A-Za-z][\w&'.-]*)?)"),
    # "dispute Magnum", "оспорь Magnum".
    re.compile(r"\b(?:dispute|оспор\w*)\s+(?P<m>[A-Z][\w&'.-]+)"),
)

# In a Russian message, a run of Latin-script words is almost always a brand:
# "оспорь платёж Magnum на 15000".
# Whole words only, so the "T" of "T-10452" is not taken for a name.
LATIN_WORD = r"[A-Za-z](?:[A-Za-z&'.-]*[A-Za-z])?"
LATIN_NAME_RE = re.compile(rf"(?<![\w-])(?P<m>{LATIN_WORD}(?:\s+{LATIN_WORD})*)(?![\w-])")

# Words a merchant pattern may catch that are not merchants.
# fmt: off
NOT_MERCHANTS = frozenset(MONTH_BY_NAME) | {
    "i", "my", "me", "the", "a", "an", "on", "this", "last", "previous",
    "kzt", "tenge", "amount", "card", "charge", "payment", "transaction",
    "purchase", "statement", "visa", "mastercard", "bank", "bankbot",
}
# fmt: on


@dataclass(frozen=True)
class CustomerRequest:
    """What the customer asked for in one message."""

    intent: Intent
    language: Language
    text: str
    month: str | None = None  # "YYYY-MM"
    day: int | None = None
    card: str | None = None  # last four digits
    reference: str | None = None  # "T-10452"
    amount: str | None = None  # "15000.00"
    merchant: str | None = None
    reason: str = DEFAULT_REASON
    account: str | None = None  # only for the naive harness's account_id
    greeting: bool = False
    period: Period | None = None  # a run of days: "yesterday", "last week"
    category: str | None = None  # a spending category: "taxi"
    dispute: str | None = None  # an existing dispute's reference: "D-881"


def understand(text: str, today: date) -> CustomerRequest:
    """Read one customer message into a CustomerRequest. Misspelt words are read
    as meant (typos.py); names (merchants) are read from the words as typed; the
    request is read from the words said plainly (``plainly``)."""
    return _understood(text, today, None)


def _understood(text: str, today: date, intent: Intent | None) -> CustomerRequest:
    """``understand``, or with ``intent`` given: that write, read from these words."""
    typed, text = text, corrected(text)
    plain = plainly(text)
    language = language_of(text)
    mention = find_month(text, today)
    month = mention.month if mention else None
    day = mention.day if mention else None
    account = find_account(text)
    base = CustomerRequest(intent="help", language=language, text=text, month=month, day=day, account=account)
    # A write the mandate reads as asked for is one, however it is worded («можно открыть
    # спор по оплате в Глово?», "I'd rather it's blocked till then"): the model is at least
    # as generous as the mandate.
    asked = {r.operation for r in read_request(typed, today=today).requests}
    intent = intent or write_intent(text, plain, loss=True) or _card_write_asked(asked)
    if intent in ("unblock", "block"):
        return replace(base, intent=intent, card=find_card(_without_dates(text, mention)))
    if _about_disputes(text) and not DISPUTE_OPEN_RE.search(plain) and RAISE_DISPUTE not in asked:
        found = DISPUTE_REF_RE.search(text)
        return replace(base, intent="disputes", dispute=f"D-{found['number']}" if found else None)
    if (
        TWICE_RE.search(text)
        and not DISPUTE_VERB_RE.search(plain)
        and intent != "dispute"
        and (RAISE_DISPUTE not in asked)
    ):
        return replace(base, intent="duplicates", merchant=find_merchant(typed) or _capitalised_name(typed))
    if (
        DISPUTE_RE.search(plain)
        or DISPUTE_OPEN_RE.search(plain)
        or find_reference(text)
        or (intent == "dispute")
        or RAISE_DISPUTE in asked
    ):
        return replace(_dispute(text, mention, base), merchant=find_merchant(typed))
    if BALANCE_RE.search(text):
        return replace(base, intent="balance")
    return _reads(text, typed, mention, base, find_period(text, today))


def _card_write_asked(asked: set[str]) -> Intent | None:
    """The one card write the mandate reads as asked for, if it reads exactly one."""
    card_writes = asked & {BLOCK_CARD, UNBLOCK_CARD}
    if len(card_writes) != 1:
        return None
    return "block" if BLOCK_CARD in card_writes else "unblock"


def understand_all(text: str, today: date) -> list[CustomerRequest]:
    """Every write one message asks for, each read from its own words ("block 4242
    and dispute yesterday's taxi" is two): one request per write asked for. A message
    asking for at most one write is ``understand``'s one request."""
    groups = _write_groups(text)
    if len(groups) < 2:
        return [understand(text, today)]
    return [_understood(", ".join(clauses), today, intent) for intent, clauses in groups]


# Where one request ends and the next may begin: a sentence's end, a comma or a dash
# (not inside "23,760"), and the words that join two requests.
_CLAUSE_SPLIT_RE = re.compile(
    r"[.!?;:]+(?:\s+|$)|\n+|,(?!\d)\s*|\s+[-—–+]+\s+"
    r"|\s+(?:and|also|then|plus|и|а|также|ещ[её]|потом|заодно)\s+",
    re.I,
)
_LEADING_JOINER_RE = re.compile(r"^(?:(?:and|also|then|plus|и|а|также|ещ[её]|потом|заодно)\s+)+", re.I)
# A clause that is nothing but another card or transaction: "… and 5505", "и T-5004 тоже".
_BARE_TARGET_RE = re.compile(
    r"(?:(?:the|my|card|карту|карта|transaction|операцию|too|also|тоже|также)\s+)*"
    r"(?:\d{4}|[TТtт]-?\d{3,})(?:\s+(?:too|also|as\s+well|тоже|также))?",
    re.I,
)
# "… dispute it", «разблокируйте её»: the object is in the clause before.
_BACK_REFERENCE_RE = re.compile(
    r"\b(?:it|that|this|them|that\s+one|его|е[её]|н[её]е|него|это|эту|этот)\b", re.I
)


def _write_intent_of_clause(clause: str) -> Intent | None:
    text = corrected(clause)
    plain = plainly(text)
    intent = write_intent(text, plain, loss=False)
    if intent is None and (DISPUTE_RE.search(plain) or DISPUTE_OPEN_RE.search(plain)):
        return "dispute"
    return intent


def _write_groups(text: str) -> list[tuple[Intent, list[str]]]:
    """The message's clauses, grouped by the write each belongs to: a clause asking
    for a write starts its group (unless it asks again for the write just before),
    a clause of nothing but another target is the write before it again, and the
    other clauses join the write before them — or the one after, for words that
    come first, or that a later "it" points back at."""
    parts = _split_clauses(text)
    groups: list[tuple[Intent, list[str]]] = []
    pending: list[str] = []  # words before the first write
    loose: str | None = None  # the last clause that joined a group without asking
    for joined, clause in parts:
        if not _LEADING_JOINER_RE.sub("", clause + " ").strip():
            continue  # a joining word alone: "… . И ещё …"
        intent = _write_intent_of_clause(clause)
        if intent is None:
            if groups and (
                _BARE_TARGET_RE.fullmatch(clause.strip(" .!")) or (joined and _another_object(clause))
            ):
                groups.append((groups[-1][0], [clause]))
                loose = None
            elif groups:
                groups[-1][1].append(clause)
                loose = clause
            else:
                pending.append(clause)
            continue
        if groups and groups[-1][0] == intent and not _names_target(clause):
            groups[-1][1].append(clause)
            loose = None
            continue
        words = [*pending, clause]
        if loose is not None and _BACK_REFERENCE_RE.search(clause) and not _names_target(clause):
            groups[-1][1].remove(loose)
            words.insert(0, loose)
        groups.append((intent, words))
        pending, loose = [], None
    return groups


def _split_clauses(text: str) -> list[tuple[bool, str]]:
    """The clauses, each with whether a joining word ("and", «и») put it beside the one
    before (rather than a comma or a sentence's end)."""
    parts: list[tuple[bool, str]] = []
    start, joined = 0, False
    for match in _CLAUSE_SPLIT_RE.finditer(text):
        parts.append((joined, _LEADING_JOINER_RE.sub("", text[start : match.start()].strip())))
        joined = bool(match.group(0).strip(" ,")) and match.group(0)[:1].isspace()
        start = match.end()
    parts.append((joined, _LEADING_JOINER_RE.sub("", text[start:].strip())))
    return parts


# "Dispute the Air Astana charge and the Technodom one", «оспорьте глово и нетфликс»: a
# second object joined to a request, with no verb or subject of its own, is that request
# again. Only proposed: the mandate decides whether it was asked for.
_OBJECT_START_RE = re.compile(r"^(?:(?i:the|my|our|that|this|those|these|both)\b|[A-Z0-9])")
_SUBJECT_RE = re.compile(r"\b(?:i|we|you|he|she|they|it|i'm|i've|я|мы|вы|ты|он|она|они|оно)\b", re.I)
_RU_VERB_RE = re.compile(r"\w(?:те|ть|ла|ли|ло|ал|ил|ел)\b", re.I)


def _another_object(clause: str) -> bool:
    words = clause.split()
    if not words or len(words) > 8 or _SUBJECT_RE.search(clause):
        return False
    if language_of(clause) == "ru":
        return len(words) <= 3 and not _RU_VERB_RE.search(clause)
    return bool(_OBJECT_START_RE.match(clause))


def _names_target(clause: str) -> bool:
    """Names its own card or transaction by number ("block 5505", "dispute T-5004")."""
    return bool(CARD_RE.search(clause) or REFERENCE_RE.search(clause))


def write_intent(text: str, plain: str, *, loss: bool) -> Intent | None:
    """The card write a message asks for (``loss``: a lost card is a block too), or
    None. Disputes are read after the questions about disputes (``_understood``)."""
    if UNBLOCK_RE.search(plain):
        return "unblock"
    if BLOCK_RE.search(plain) or (loss and LOSS_RE.search(text) and CARD_WORD_RE.search(text)):
        return "block"
    return None


# The plain verb a misspelt one means ("blok", «заблакируйте»), as the patterns above read it.
_PLAIN_VERB: dict[str, dict[Language, str]] = {
    "block_card": {"en": "block", "ru": "заблокируйте"},
    "unblock_card": {"en": "unblock", "ru": "разблокируйте"},
    "raise_dispute": {"en": "dispute", "ru": "оспорьте"},
}
_ANY_WORD_RE = re.compile(r"[A-Za-zА-Яа-яЁё]+")


def plainly(text: str) -> str:
    """The message with its idioms said plainly ("put a hold on" is "block", «верните
    деньги» is «оспорьте») and its misspelt verbs read as meant ("blok", "dispuet").

    The words are the mandate's own (tools.grammar: ``plain_words``,
    ``misspelt_operation``): a model that reads more requests than the customer made
    only proposes more, and the mandate refuses what was not asked for (issue 22, point 4)."""
    plain = plain_words(text.replace("ё", "е").replace("Ё", "Е"))

    def verb(match: re.Match[str]) -> str:
        word = match.group(0)
        operation = misspelt_operation(word.lower())
        return _PLAIN_VERB[operation][language_of(word)] if operation else word

    return _ANY_WORD_RE.sub(verb, plain)


def _about_disputes(text: str) -> bool:
    """A question about disputes the customer has, not a request for a new one."""
    if DISPUTE_REF_RE.search(text):
        return True
    if find_reference(text):
        return False
    return bool(
        DISPUTE_NOUN_RE.search(text)
        and STATUS_RE.search(text)
        or DISPUTES_RE.search(text)
        and LIST_RE.search(text)
    )


def _reads(
    text: str, typed: str, mention: MonthMention | None, base: CustomerRequest, period: Period | None
) -> CustomerRequest:
    """Statements, totals, spending and cards."""
    category = find_category(text)
    spent = bool(TOTAL_RE.search(text))
    merchant = find_spending_merchant(typed) if spent else None
    listed = spent or bool(STATEMENT_RE.search(text) or BOUGHT_RE.search(text))
    if (
        period
        and mention is None
        and (listed or category or len(text.split()) <= 3)
        or (listed and (category or merchant))
    ):
        return replace(
            base,
            intent="spending",
            period=None if mention else period,
            category=None if merchant else category,
            merchant=merchant,
        )
    if category and (mention or period):
        return replace(base, intent="spending", period=None if mention else period, category=category)
    if spent:
        return replace(base, intent="total")
    if mention or STATEMENT_RE.search(text) or base.account:
        return replace(base, intent="statement")
    if CARDS_RE.search(text):
        return replace(base, intent="cards", card=find_card(text))
    return replace(base, greeting=bool(GREETING_RE.search(text)))


def find_category(text: str) -> str | None:
    """The first category the customer named, in the bank's order ("taxis", «такси»;
    the words are the bank's, accounts/categories.py)."""
    named = categories_named(text)
    return next((category for category in CATEGORIES if category in named), None)


# "What did I buy yesterday?": a run of days with these words asks for its rows.
BOUGHT_RE = re.compile(
    r"\b(?:buy|bought|paid|pay|charged|purchased?)\b|\bкупил\w*|\bоплатил\w*"
    r"|\bсписан\w*|\bсписал\w*|\bбыло\b",
    re.I,
)
# "on Yandex Go", "for Coffee Boom": where a spending question names a merchant.
SPENT_ON_RE = re.compile(r"\b(?:on|for)\s+(?P<m>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)?)")


def find_spending_merchant(text: str) -> str | None:
    """A merchant named in a spending question, unless the name is a category's
    ("on Taxis"); a name with more in it ("Coffee Boom") is a merchant's."""
    for name in (find_merchant(text), _spent_on(text), _capitalised_name(text)):
        if name and not (find_category(name) and len(name.split()) == 1):
            return name
    return None


# "why did Yandex Go charge me twice?": capitalised words after a sentence's first.
CAPITALISED_RE = re.compile(r"(?<=[\w,]\s)(?P<m>[A-Z][\w&'.-]*(?:\s+[A-Z][\w&'.-]*)*)")


def _capitalised_name(text: str) -> str | None:
    for match in CAPITALISED_RE.finditer(text):
        name = match["m"].strip(" .,'")
        if name != "I" and _looks_like_merchant(name) and not REFERENCE_RE.search(name):
            return name
    return None


def _spent_on(text: str) -> str | None:
    for match in SPENT_ON_RE.finditer(text):
        name = match["m"].strip(" .,'")
        if _looks_like_merchant(name):
            return name
    return None


def _dispute(text: str, mention: MonthMention | None, base: CustomerRequest) -> CustomerRequest:
    reference = find_reference(text)
    # Blank out everything numeric that is not money before looking for the amount.
    rest = _without_dates(text, mention)
    rest = REFERENCE_RE.sub(" ", rest)
    rest = CARD_WORD_DIGITS_RE.sub(" ", rest)
    rest = ACCOUNT_RE.sub(" ", rest)
    return replace(
        base,
        intent="dispute",
        reference=reference,
        amount=find_amount(rest),
        merchant=find_merchant(text),
        reason=find_reason(text),
    )


def _without_dates(text: str, mention: MonthMention | None) -> str:
    return _blank(text, mention.start, mention.end) if mention else text


def find_merchant(text: str) -> str | None:
    patterns = MERCHANT_PATTERNS
    if language_of(text) == "ru":
        patterns += (LATIN_NAME_RE,)
    for pattern in patterns:
        for match in pattern.finditer(text):
            name = (match.groupdict().get("m") or match.group(1)).strip(" .,'")
            if _looks_like_merchant(name):
                return name
    return None


def _looks_like_merchant(name: str) -> bool:
    words = name.split()
    if not words or words[0].lower() in NOT_MERCHANTS:
        return False
    if all(word.lower() in NOT_MERCHANTS for word in words):
        return False
    # "the 15000 payment" / "the 2500.50 KZT payment" name an amount, not a shop;
    # "the T-1 charge" names a reference.
    return not any(AMOUNT_RE.fullmatch(word) or REFERENCE_RE.fullmatch(word) for word in words)


def find_reason(text: str) -> str:
    match = REASON_RE.search(text)
    if match:
        reason = match["reason"].strip(" ,;:-")
        if reason:
            return reason[:1].upper() + reason[1:120]
    for pattern, reason, _code in REASON_CUES:
        if reason and pattern.search(text):
            return reason
    return DEFAULT_REASON


def reason_choice(text: str, choices: list[str]) -> str:
    """The one of a tool's fixed reasons (its enum) that fits the text best."""
    for pattern, _reason, code in REASON_CUES:
        if code in choices and pattern.search(text):
            return code
    return DEFAULT_REASON_CODE if DEFAULT_REASON_CODE in choices else choices[0]
