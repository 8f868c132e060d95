"""The request grammar: which actions a customer's message plainly asks for (G7),
read deterministically in English and Russian over whole words. Precision first: any
sign of another mood grants nothing, and the assistant offers the buttons instead.
What grants and what does not, and the known limits: docs/guarantees.md, G7.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

from rapidfuzz.distance import OSA

from accounts.categories import categories_named, categories_of_word
from accounts.money import DateMention, amounts_in, dates_in, normalised, weeks_in
from disputes.reasons import DISPUTE_REASONS
from tools.lexicon import LEXICON, LossWords

T = TypeVar("T")

# The kinds of object the grammar reads a request's words as (a write tool's target, its
# catalog entry's ``target.kind``): a card is named by its digits or its label, so four bare
# digits in a request for it are its digits; a transaction is described as a payment — its
# amount (or a part of it), day, merchant, and which of several ("the second one").
CARD_KIND = "card"
TRANSACTION_KIND = "transaction"


def target_kind(operation: str) -> str:
    """The kind of object a write tool acts on, as its catalog entry says (``target.kind``;
    "" for no write tool): so a new write tool on cards or transactions is read like the
    others with no edit here (tests/tools/test_lexicon.py)."""
    from tools.catalog import CATALOG, WriteTool  # the catalog's entries import the grammar

    spec = CATALOG.get(operation)
    return spec.target.kind if isinstance(spec, WriteTool) else ""


# The reasons a dispute may give: a fixed set of codes, never free text. With
# none in the customer's words, a dispute is for a payment they do not recognise.
REASONS = DISPUTE_REASONS
DEFAULT_REASON = "not_recognised"

# A word; a name in code ("some_tool", not speech) stays one token and is no verb.
# Latin, Russian and the Kazakh letters customers mix in («блоктаңыз»).
_WORD = re.compile(r"[a-zа-яәғқңөұүһі0-9_]+(?:['’][a-z]+)?", re.IGNORECASE)
# Quoted words are someone else's ("the email says: "dispute all of them""):
# a quotation that names an action is dropped before the message is read.
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|«[^»]*»|„[^“”]*[“”]")
# "I got this SMS: Dear client, please block card 5505 …": after a message's
# source and a colon, the rest of the line is that message, not the customer.
_PASTED = re.compile(
    r"\b(?:sms|e-?mail|message|letter|notification|text|chat|widget|website|"
    r"смс|письм\w*|сообщени\w*|уведомлени\w*)\b[^:\n]{0,60}:(?!\s*[\"“«„])[^\n]*",
    re.IGNORECASE,
)
_REFERENCE = re.compile(r"(?<![\w-])[tт]-?(\d{3,12})\b", re.IGNORECASE)
# Card digits: after a card word, "ending (in)", a mask; or alone in a block request.
_CARD_DIGITS = re.compile(
    r"(?:card|карт[а-я]*|ending(?: in| with)?|ends? (?:in|with)|оканчива\w*(?: на)?|"
    r"заканчива\w*(?: на)?|•+|\*+|x{2,4}"
    # «предпоследнюю покупку по 5505»: four digits after a payment's noun and «по», with no
    # currency, are a card («два раза по 2100» is an amount)
    r"|(?:"
    + "|".join(
        f"(?<={noun} )"
        for noun in ("покупку", "покупка", "покупки", "платеж", "платежи", "операцию", "операции", "списание")
    )
    + r")"
    r"по(?=\s+\d{4}(?![\d.,])(?!\s*(?:₸|тг|тенге|kzt|тыс|тыщ|к\b|руб))))"
    r"\s*(?:no\.?\s*|№\s*|number\s*|•+\s*|\*+\s*)?(\d{4})"
    r"(?![\d]|[.,]\d)",
    re.IGNORECASE,
)
_BARE_FOUR = re.compile(r"(?<![\d.,])(\d{4})(?![\d.,]\d)")
# "statement for 2026-11": a year and a month, never a card's digits.
_YEAR_MONTH = re.compile(r"(?<![\d.,-])\d{4}-(?:0[1-9]|1[0-2])(?![\d-])")

# --- the verbs ----------------------------------------------------------------------
# Each write tool's words are its catalog entry's (tools/catalog/<tool>.words.yaml, read
# by tools/lexicon.py). Base forms only: "blocked", "blocking", "disputes",
# «заблокирована» are not requests.
_EN_VERBS = LEXICON.en_verbs
# Nouns opened by a verb: "open a dispute", "file a chargeback".
_EN_NOUNS = LEXICON.en_nouns
_EN_OPENERS = LEXICON.en_openers  # "open" a dispute (the tools' words files)
# Spoken forms too: «заблочьте», «блокни», «блокайте», «разблочь», «опротестуйте».
_RU_IMPERATIVE = LEXICON.ru_imperative
_RU_INFINITIVE = LEXICON.ru_infinitive
_RU_OPEN = LEXICON.ru_open  # «откройте» спор
# "хотел(а)" alone is a wish in the past; with "бы" it is a polite request.
_RU_GOVERNORS = {
    "хочу",
    "хотим",
    "нужно",
    "надо",
    "необходимо",
    "прошу",
    "можно",
    "просим",
    "пожалуйста",
    "можете",
    "можешь",
    "помогите",
    "помоги",
    "требую",
    "давайте",
    "бы",
}
_RU_NEED = {"надо", "нужно", "необходимо", "требуется"}
_EN_WANT = {"want", "wanna", "like", "need", "wish", "love"}
_EN_SOFTENERS = {
    "please",
    "pls",
    "plz",
    "kindly",
    "just",
    "only",
    "also",
    "now",
    "then",
    "and",
    "immediately",
    "asap",
    "ok",
    "okay",
    "so",
    "hi",
    "hello",
    "hey",
    "right",
    "away",
    "quickly",
    "urgently",
    "too",
    "go",
    "ahead",
    "simply",
    "both",
    "yo",
    "bro",
    "guys",
}
_EN_POLITE = {"can", "could", "would", "will"}

# --- what makes a message unsure ------------------------------------------------------
_DOUBT = re.compile(
    r"\b(?:if|unless|whether|in case|what if|what happens|would it|should i|should we|"
    r"except|excluding|other than|apart from|but not|instead|rather|actually|i mean|"
    r"wait|oops|scratch that|never ?mind|on second thought|no,|forget (?:it|that|about it)|"
    r"disregard|ignore (?:that|this|my last)|cancel that|"
    r"хотя нет|хотя не|отбой|забудьте|забей|неважно|не важно|отставить|"
    r"said|says|told|tells|asked me|asks me|according to|"
    r"not sure|someday|eventually|pretend|imagine|hypothetically|"
    r"example|for instance|test|just kidding|kidding|joking|шучу|шутка|"
    # a reversal: "…, but I found it", «…, но нашла её»
    r"but (?:i|we) (?:found|have|got)\b|but found|но (?:я )?(?:нашл\w*|наш[её]л)|"
    # a part without an amount other than a half: which amount, then?
    r"quarter|(?:a|one) third|part of|portion|partly|partially|some of|"
    r"если|в случае|ли|кроме|за исключением|но не|вместо|вернее|точнее|то есть|ой|стоп|"
    r"треть|трети|третью|четверть|четверти|част\w*|"
    r"передумал\w*|извините|сказал\w*|говорит|говорят|пишут|написано|просит|просили|велел\w*|"
    r"по словам|не уверен\w*|потом как-нибудь|"
    r"например|допустим|представь\w*)\b",
    re.IGNORECASE,
)
# A hedge or a deferral doubts the request it stands beside (same sentence), not a story
# elsewhere ("Probably stolen on the bus. Block it."), nor the customer's own plans in a
# clause of their own ("unblock my gold card, I'm travelling tomorrow").
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|might|tomorrow|later|next week|"
    r"может быть|возможно|наверное|завтра|позже)\b",
    re.IGNORECASE,
)
_OWN_PLANS = re.compile(r"\b(?:i'?m|i am|i'?ll|i will|we'?re|we'?ll|я|мы)\b", re.IGNORECASE)


def _hedged(sentences: list[str]) -> re.Match[str] | None:
    for sentence in sentences:
        if not _operations_named(sentence):
            continue
        for clause in _clauses(sentence):
            hedge = _HEDGE.search(clause)
            if hedge and (_operations_named(clause) or not _OWN_PLANS.search(clause)):
                return hedge
    return None


_NEGATIONS = {
    "not",
    "don't",
    "dont",
    "do't",
    "never",
    "no",
    "nor",
    "without",
    "won't",
    "cannot",
    "can't",
    "shouldn't",
    "didn't",
    "doesn't",
    "isn't",
    "stop",
    "не",
    "нет",
    "ни",
    "никогда",
    "без",
    "нельзя",
    "незачем",
}
_QUESTION_START = {
    "is",
    "are",
    "was",
    "were",
    "did",
    "does",
    "do",
    "has",
    "have",
    "had",
    "how",
    "what",
    "why",
    "when",
    "where",
    "which",
    "who",
    "whose",
    "am",
    "isn't",
    "как",
    "что",
    "почему",
    "зачем",
    "когда",
    "где",
    "какой",
    "какая",
    "какие",
    "сколько",
    "разве",
    "неужели",
    "кто",
    "чей",
}

# --- reasons ------------------------------------------------------------------------------
# A dispute's reasons, by the words that give them: the words files' `reasons`.
_REASON_RES = LEXICON.reasons

_STOPWORD_TEXT = """
half halves other real sms email e-mail mail message messages text letter notification
app application pin atm phone
got get received receive sent send about смс письмо сообщение уведомление приложение пин банкомат
i'd i'll i've we us our ours we'd we're you're that's what's there's here's can't won't doesn't
isn't wasn't haven't hasn't shouldn't couldn't wouldn't aren't weren't
# noqa: SIM905 (a word list reads best as text) a an the my me mine i i'm im you your yours it
its it's this that these those them they one ones to of for on in at by from with about as and
or but so then also too please pls plz kindly just now again hi hello hey thanks thank thx dear
hey ok okay yes sir madam team can could would will want wanna like need wish love help let
let's lets go ahead am is are be been was were do did does done has have had there here what
which who how when where why some any all every each other another same very really quite still
only more less much charge charges charged payment payments paid pay purchase purchases
purchased transaction transactions operation operations order orders bill billed fee fees debit
debited transfer subscription spending spent amount sum money cash kzt tenge tg card cards
visa-card account accounts bank statement row line item entry dispute disputes disputed
disputing chargeback contest block blocked blocking freeze lock deactivate disable suspend open
raise file start submit create lodge initiate make issue put place request claim refund company
co corp corporation inc ltd llc llp plc group holding shop store market supermarket mall outlet
online internet delivery service services taxi cafe coffee restaurant bar pharmacy kz
kazakhstan almaty astana international global official recognise recognize recognised
recognized make made buy bought authorise authorize unauthorised unauthorized fraud fraudulent
mine not don't didn't never unknown wrong twice double duplicate received receive arrived
delivered cancelled canceled returned overcharged lost stolen missing compromised suspicious
strange weird odd unfamiliar unblock unblocked unblocking unfreeze unfrozen unlock unlocked
reactivate last latest recent most newest biggest largest first today
yesterday week month year kzt ₸ я мне мой моя мое моё мои моего моей мою меня ты вы вам вас ваш
ваша ваше нее него ней ним нему них это этот эта эту этого этой эти тот та то те его ее её
их он она они мы нас нам и или ту того более менее самая самое тоже также
а но же ли бы вот тут там здесь так как что чтобы в во на по за из от до для с со к ко у о об
при про без пожалуйста спасибо привет здравствуйте добрый день утро вечер ок хорошо да хочу
хотел хотела нужно надо прошу можете помогите давайте карта карту карты картой карте картах
банк банка счет счёт счета выписка выписку платеж платёж платежа платежу платежи платежом
оплата оплату оплаты оплатой покупка покупку покупки покупкой списание списания списанию
операция операцию операции транзакция транзакцию транзакции сумма сумму суммы сумме деньги
тенге тг заказ заказа спор спора диспут претензия претензию перевод перевода подписка подписку
оспорить оспорьте оспорь заблокировать заблокируйте заблокируй заморозить открыть откройте
оформить оформите тоо ип ао компания компании магазин магазина магазине маркет супермаркет
такси кафе ресторан аптека доставка сервис онлайн не узнаю узнаю совершал совершала покупал
оплачивал мошенники мошенничество последний последнюю последняя последней недавний самую самый
крупную сегодня вчера
плз плиз пж пжлст плс ваще вообще просто только еще ещё который которая которое которые
которого которой которую right away whatever something anything thing things stuff extra
two both двух оба обоих кофе списал списала списали списало снял сняла сняли пробил пробили взял взяли
rather prefer till until then seriously honestly really хотя
asap immediately urgently quickly quick fast soon already earlier later сейчас срочно быстро
быстрее побыстрее скорее поскорее немедленно лучше уже сразу раньше позже позднее
один одна одно одну одного три трех трёх списалось списался списалась снялось прошло прошла прошел
заодно времени покупок платежей списаний операций транзакций заказов
part partly partially portion часть части частью частично
difference разница разницу разницы разнице receipt чек вместо
"""
# Kinds of merchant a customer names instead of the merchant; those among STOPWORDS are
# dropped as features, so the target knows one was said (TargetWords.generic).
GENERIC_KINDS = frozenset(
    {
        "coffee",
        "cafe",
        "taxi",
        "restaurant",
        "bar",
        "pharmacy",
        "shop",
        "store",
        "market",
        "supermarket",
        "delivery",
        "service",
        "online",
        "subscription",
        "order",
        "кофе",
        "кафе",
        "такси",
        "ресторан",
        "аптека",
        "магазин",
        "маркет",
        "супермаркет",
        "доставка",
        "сервис",
        "онлайн",
        "подписка",
        "подписку",
        "заказ",
    }
)
# Words that never describe a target: function words, the requests' own words,
# politeness, generic banking nouns and generic merchant words (company, shop,
# market, taxi, LLP, ТОО…), which never identify a merchant on their own.
STOPWORDS = frozenset(_STOPWORD_TEXT.split()) | {
    # every tool's own verbs and participles (tools/catalog/*.words.yaml), whatever the script
    *LEXICON.en_verbs,
    *LEXICON.en_participles,
}
# Digits and short tokens never describe a merchant on their own.
_MIN_WORD = 2


@dataclass(frozen=True)
class TargetWords:
    """What the customer said about the object: every feature must match it."""

    references: frozenset[str] = frozenset()
    cards: frozenset[str] = frozenset()
    amounts: tuple[Decimal, ...] = ()  # each must be the charge's own amount
    partial: tuple[Decimal, ...] = ()  # "5000 of the charge": the part disputed
    half: bool = False  # "half of T-1001", «половину платежа»
    dates: tuple[DateMention, ...] = ()
    # Content words (not function words, not generic ones). Binding decides which
    # describe the merchant: those some merchant of the customer's has, and
    # ``names`` (written like a name: capitalised inside a clause, Latin in a
    # Russian sentence, mixed with digits), and a word right next to either.
    words: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    neighbours: frozenset[tuple[str, str]] = frozenset()
    # A card described, not numbered: "my debit card", «кредитку», "the virtual one" —
    # words of CARD_DESCRIPTORS, each of which the card's product label must have.
    descriptors: frozenset[str] = frozenset()
    # Which of the payments that fit: "the second coffee yesterday" (position 1 in the
    # day's order; -1 the last), "the afternoon one" (a part of the day), "the bigger one".
    position: int | None = None
    daypart: str | None = None
    size: str | None = None  # "max" | "min"
    # "12k", "about 74 тыс": a rounded amount, (value, slack) — the charge is within it.
    rounded: tuple[tuple[Decimal, Decimal], ...] = ()
    # Words of the story around the request ("the driver never came"): they describe the
    # object only where they name one of the customer's merchants; else they are ignored.
    soft: frozenset[str] = frozenset()
    # Spending categories said ("the taxi", «электроника», "the food delivery": the bank's
    # categories, accounts/categories.py): said without a merchant's name, the payment's
    # merchant category code must be in one of them; they also rank the candidates offered.
    kinds: frozenset[str] = frozenset()
    # Generic words with no category ("the order", "the shop"): no feature, and a position
    # or a size ("the later order") is then not counted among the payments that fit.
    vague: frozenset[str] = frozenset()
    # Categories the story named ("the headphones I bought at the electronics store … dispute
    # that purchase"): never a feature, they only rank the candidates offered.
    soft_kinds: frozenset[str] = frozenset()
    # Days named in the story when there are several: the payment is on one of them.
    any_dates: tuple[DateMention, ...] = ()
    # "the 16:30 coffee", «в 22:10»: the local time it was posted, to the minute.
    clock: tuple[tuple[int, int], ...] = ()

    @property
    def generic(self) -> bool:
        return bool(self.vague) and not self.kinds

    @property
    def empty(self) -> bool:
        return not (
            self.references
            or self.cards
            or self.amounts
            or self.partial
            or self.dates
            or self.words
            or self.descriptors
            or self.rounded
            or self.soft
            or self.clock
            or self.kinds
            or self.any_dates
        )

    def __or__(self, other: TargetWords) -> TargetWords:
        return TargetWords(
            self.references | other.references,
            self.cards | other.cards,
            tuple(dict.fromkeys(self.amounts + other.amounts)),
            tuple(dict.fromkeys(self.partial + other.partial)),
            self.half or other.half,
            self.dates + other.dates,
            self.words | other.words,
            self.names | other.names,
            self.neighbours | other.neighbours,
            self.descriptors | other.descriptors,
            _one(self.position, other.position),
            _one(self.daypart, other.daypart),
            _one(self.size, other.size),
            tuple(dict.fromkeys(self.rounded + other.rounded)),
            self.soft | other.soft,
            self.kinds | other.kinds,
            self.vague | other.vague,
            self.soft_kinds | other.soft_kinds,
            self.any_dates + other.any_dates,
            tuple(dict.fromkeys(self.clock + other.clock)),
        )

    def softened(self) -> TargetWords:
        """These features as the story around a request: words only where they name a
        merchant of the customer's (``soft``)."""
        # A card described in the story is not the card asked about ("Block my Visa. The
        # virtual one still works."): descriptors do not carry over.
        # Which one ("the morning one", "at 8:15") is said of the story's object, which
        # may be another ("Dispute the 16:30 coffee. The morning one at 8:15 is mine.").
        # A kind in the story is not the object's ("I took a taxi to the store, and they
        # charged me twice there"): categories do not carry over either.
        return replace(
            self,
            words=frozenset(),
            names=frozenset(),
            neighbours=frozenset(),
            descriptors=frozenset(),
            position=None,
            daypart=None,
            size=None,
            clock=(),
            soft=self.soft | self.words,
            kinds=frozenset(),
            vague=frozenset(),
            soft_kinds=self.soft_kinds | self.kinds,
        )


def _one(mine: T | None, theirs: T | None) -> T | None:
    """A choice said once, or said alike: a clause's own wins over the context's."""
    return mine if mine is not None else theirs


@dataclass(frozen=True)
class Request:
    """One plain request: the operation, what names its target, and the reason given."""

    operation: str
    target: TargetWords
    reason: str | None = None
    # The request's own clause alone, when the story around it added features: bound on
    # its own if the whole does not fit (tools/mandate.py).
    own: TargetWords | None = None
    # A second object listed after a request ("… and the Wolt order"): it stands only if
    # its words name one of the customer's objects; else it was not an object at all.
    listed: bool = False
    # Amounts said in clauses that are not the request's features (a thing ruled out, a
    # question): "… no pizza for 4 500 — refund it" may be a part, never the whole.
    loose_amounts: tuple[Decimal, ...] = ()
    # "Dispute both", «оспорьте оба»: where exactly two objects fit, it asks for each.
    both: bool = False
    # "dispute part of T-5005, 2,500", «оспорьте частично, на 2 500»: a part asked for, and
    # the one amount said as that part (never the whole: mandate.py).
    part: Decimal | None = None


# "both", «оба», «обе», «обоих», «обеих»
_BOTH = re.compile(r"\b(?:both|оба|обе|обоих|обеих)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    """What one message asks for; ``unsure`` says why it grants nothing."""

    requests: tuple[Request, ...] = ()
    unsure: str = ""
    mentioned: frozenset[str] = field(default_factory=frozenset)  # operations named at all
    # Operations the message points at without plainly asking (a disowned payment, a
    # misspelt verb): never granted, their buttons offered.
    offered: frozenset[str] = field(default_factory=frozenset)


# --- idioms: the same request in other words ------------------------------------------
# Each rewrites a customer's idiom to the plain verb the grammar reads, so every rule
# after it (negation, questions, doubt, binding) applies unchanged: "don't cancel my card"
# is still a refusal. Verbs that also mean something else ("stop", "cancel", «отключите»)
# count only with a card right after them.
_CARD_AHEAD = (
    r"(?=\s+(?:(?:my|the|this|that|our|a|мою|мой|мне|эту|эта|пожалуйста)\s+){0,2}"
    r"(?:\S+\s+){0,2}?(?:card|visa|mastercard|master|debit|credit|cc|virtual|gold|"
    r"карт\w*|кредитк\w*|дебетк\w*|виртуалк\w*|голд\w*|мастер\w*|виз\w*|"
    r"•|\*{2,}|\d{4}\b))"
)


def _said_plainly(match: re.Match[str]) -> str:
    """ "would you mind disputing" → "please dispute": the gerund's verb, plainly."""
    stem = match.group(1).lower()
    return "please " + (stem if stem in _EN_VERBS else stem + "e")


IDIOMS: tuple[tuple[re.Pattern[str], Any], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), plain)
    for pattern, plain in (
        # polite frames are requests, not conditions
        # (never "if you can't reach me": a condition)
        (
            r"\b(?:i'?d|i would) (?:be (?:\w+ )?(?:grateful|thankful|obliged|glad|happy)|"
            r"appreciate it) if you (?:could|would|can)\b(?!['’]t| not)",
            "could you",
        ),
        (
            r"\bif (?:you (?:could|would|can)\b(?!['’]t| not)|it'?s not too much trouble|"
            r"(?:at all )?possible|that'?s (?:ok|okay|alright)|you don'?t mind)\b,?",
            "please",
        ),
        (r"\b(?:would|will) it be possible,? (?:please,? )?(?:for you )?to\b", "could you"),
        (
            r"\bесли (?:вас|тебя) не затруднит\b|\bесли (?:вам |тебе )?не (?:сложно|трудно)\b"
            r"|\bесли (?:это )?(?:можно|возможно)\b|\bпо возможности\b",
            "пожалуйста",
        ),
        (r"\b(?:may|can|could) i ask you to\b", "could you"),
        (r"\b(?:may|can|could) (?:i|we) (?:please|kindly)\b", "please"),
        (
            r"\b(?:would|could) you be (?:so )?kind (?:as to|and)\b|\bbe so kind (?:as to|and)\b"
            r"|\bi(?:'d| would)?(?: kindly| hereby| like to)? (?:ask|request) (?:you|that you)"
            r"(?: to)?\b"
            r"|\bбудьте (?:так )?добры\b|\bбудь (?:так )?добр\b",
            "please",
        ),
        (
            r"\b(?:can|could|shall) we\b(?= (?:please |just |now )?(?:block|freeze|lock|unblock|"
            r"unfreeze|unlock|dispute|contest|refund|reverse)\b)",
            "could you",
        ),
        (r"\bun-(block|freeze|lock)", r"un\1"),
        # "would you mind blocking …": the gerund is the request
        (
            r"\b(?:would|do|will) you mind\s+(block|freez|lock|unblock|unfreez|unlock|disput|"
            r"contest|refund|revers|reactivat|deactivat)e?ing\b",
            _said_plainly,
        ),
        (r"\b(?:third|3rd|second|fourth|fifth) time\b|\b(?:трет|четверт|второ)\w* раз\b", "again"),
        (r"\bизвините за беспокойство\b", "пожалуйста"),
        (r"\b(?:are you|you'?re|you must be|you gotta be) kidding(?: me)?\b", ""),
        (r"\bwhile you'?re at it\b", "also"),
        # "Оспорьте, пожалуйста, вчерашний кофе": the object stays in the verb's clause.
        (r"\s*,\s*(пожалуйста|please|pls|плиз)\s*,\s*", r" \1 "),
        (r"\bthe later\b", "the last"),
        # chat spelling
        (r"\bu\b", "you"),
        (r"\bur\b", "your"),
        (r"\brn\b", "now"),
        # terse: «блок 4242», «разблок 6006», «спор сулпак», "4242 блок"
        (r"(?:^|(?<=[.!?]\s))(?:блок|блокировка)(?=\s)", "заблокируйте"),
        (r"\b(\d{4})\s*(?:[—–-]\s*)?(?:блок|блокировка)\b", r"заблокируйте \1"),
        (r"(?:^|(?<=[.!?]\s))разблок(?=\s)", "разблокируйте"),
        (r"(?:^|(?<=[.!?]\s))спор(?=\s)", "оспорьте"),
        # «T-5009 спор.», «T-5009 — спор, не доставили»: a reference, then the noun alone
        (r"\b([TТ]-?\d{3,6})\s*(?:[—–:-]\s*)?спор(?=\s*(?:[.!,;]|$|пожалуйста|пж|плиз))", r"оспорьте \1"),
        # block
        (r"\b(?:put|place) (?:a )?(?:hold|block|stop|freeze) on\b", "block"),
        (r"\b(?:stop|kill|cancel|nuke|shut down|shut off|turn off|switch off)\b" + _CARD_AHEAD, "block"),
        # "my debit card's gone, kill it": the card said before, in the same sentence
        (
            r"(\b(?:card|visa|mastercard|debit|credit|cc|kredit\w*|virtual|gold)\b[^.!?\n]{0,80}?)\b(?:kill|nuke"
            r"|shut|switch|turn)( it| her)(?: down| off)?\b",
            r"\1block\2",
        ),
        (
            r"\b(?:останови|отключи|приостанови|выключи|выруби|вырубай)(?:те)?\b(?:\s+действие)?"
            + _CARD_AHEAD,
            "заблокируйте",
        ),
        (r"\b(?:выруби|вырубай)(?:те)? (?:ее|её|его|их)\b", "заблокируйте её"),
        (r"\bпоставь(?:те)? на стоп\b", "заблокируйте"),
        # «закройте пока карту 3391»: closed for a while is blocked (closing for good is not
        # a tool: a bare «закройте карту» only gets the Block buttons, _SUGGESTED)
        (r"\bзакрой(?:те)?\s+(?:пока|временно|на время)\b", "заблокируйте"),
        (r"\bзакрой(?:те)?\s+(карт\w*\s+(?:\S+\s+)?)(?:пока|временно|на время)\b", r"заблокируйте \1"),
        (r"\bпоставь(?:те)? (?:мне )?(?:блок|блокировку) на\b", "заблокируйте"),
        (r"\bпоставить (?:мне )?(?:блок|блокировку) на\b", "заблокировать"),
        # unblock
        (
            r"\b(?:lift|remove|take off|drop|release) (?:the |my )?(?:block|hold|freeze|lock)"
            r"(?: (?:on|from))?\b",
            "unblock",
        ),
        (r"\b(?:turn|switch|put) ((?:\S+ ){0,4}?)(?:back on|on again)\b", r"unblock \1"),
        (r"\b(?:turn|switch) back on\b", "unblock"),
        (r"\b(?:сним(?:и|ите|ать)|снять) (?:мне )?(?:блок|блокировку)\b", "разблокируйте"),
        (
            r"\b(?:включи|открой|активируй)(?:те)? ((?:\S+ ){0,3}?)(?:обратно|снова|опять|заново)\b",
            r"разблокируйте \1",
        ),
        (r"\b(?:включи|открой|активируй)(?:те)? (?:обратно|снова|опять|заново)\b", "разблокируйте"),
        (
            r"\b(?:включить|открыть|активировать) ((?:\S+ ){0,3}?)(?:обратно|снова|опять|заново)\b",
            r"разблокировать \1",
        ),
        (r"\b(?:обратно|снова|опять|заново) (?:включи|активируй)(?:те)?\b", "разблокируйте"),
        (r"\b(?:обратно|снова|опять|заново) (?:включить|активировать)\b", "разблокировать"),
        # «верните в работу мою Gold»: back in service is an unblock, not a refund
        (r"\bверн(?:и|ите) ((?:\S+ ){0,3}?)в (?:работу|строй)\b", r"разблокируйте \1"),
        (r"\bвернуть ((?:\S+ ){0,3}?)в (?:работу|строй)\b", r"разблокировать \1"),
        (r"\b(card(?: \d{4})?|one|it) back on\b(?! (?:the|my|your))", r"unblock \1"),
        # dispute
        (r"\b(?:challenge|reverse|claw back|charge back)\b(?= (?:the|my|this|that|it|t-?\d))", "dispute"),
        (r"\b(?:claw|charge) (it|this|that|them) back\b", r"dispute \1"),
        (
            r"\b(?:get|have) (it|this|that|them|the (?:charge|payment)) (?:reversed|refunded|"
            r"charged back)\b",
            r"dispute \1",
        ),
        (r"\b(?:start|initiate|process|issue) (?:a |the |my )?refund\b", "dispute"),
        (
            r"\b(?:get|give) (?:me )?(?:my |the |our |that |this )?(?:money|cash|funds|it|that)"
            r" back\b",
            "dispute",
        ),
        # "get the 200 back", "get back the extra 2100" (never "get back to you")
        (r"\bget (the (?:extra |other )?[\d\s.,]*\d(?:k|к)?) back\b", r"dispute \1"),
        (r"\bget back (?!to\b)(?=(?:the|my|that|this|those|these)\b)", "dispute "),
        (r"\b(want|like|need) ((?:\S+ ){0,3}?)back (?:from|out of|of|for|on)\b", r"\1 to dispute \2of"),
        (r"\b(want|like|need) ((?:\S+ ){0,3}?)back\b", r"\1 to dispute \2"),
        (r"\bвернуть\b(?: мне)?(?: мои)?(?: (?:деньги|бабки|средства|оплату)\b)?", "оспорить"),
        (
            r"\bверн(?:и|ите) (?:мне )?(?:мои |мое |мои )?(?:деньги|бабки|бабло|средства|оплату)"
            r"(?: назад| обратно)?\b",
            "оспорьте",
        ),
        (r"\b(?:хочу|требую) (?:мои )?(?:деньги|бабки|бабло) (?:назад|обратно)\b", "хочу оспорить"),
        (r"\b(?:сделай|оформи|запусти)(?:те)? (?:мне )?(?:чарджбэк|возврат|чарджбек)\b", "оспорьте"),
        (r"\b(?:сделать|оформить|запустить) (?:мне )?(?:чарджбэк|возврат|чарджбек)\b", "оспорить"),
        (r"\bоткат(?:и|ите|ить)\b", "оспорьте"),
        (r"\bго чарджбэк\b", "оспорьте"),
        (r"\bотмени(?:те)? (?=(?:это |этот |эту )?(?:списани|платеж|оплат|операци|транзакци))", "оспорьте "),
        (r"\bверн(?:и|ите)\b(?! карт)", "оспорьте"),
        # "You can unblock it now." — leave given, not a question ("you can block it?")
        (
            r"\byou (?:can|may) (?:now |just |go ahead and )?(?=(?:block|freeze|lock|unblock|"
            r"unfreeze|unlock|reactivate|dispute|contest)\b[^?]*(?:[.!]|$))",
            "please ",
        ),
    )
)


# "pleeease", «вернитееее»: a letter held down for emphasis is one letter.
_HELD_LETTER = re.compile(r"([^\W\d_])\1{2,}")


def plain_words(text: str) -> str:
    """The message with its idioms said plainly (see IDIOMS)."""
    text = _HELD_LETTER.sub(r"\1", text)
    for pattern, plain in IDIOMS:
        text = pattern.sub(plain, text)
    return _done_for_me(text)


# "How do I get my money back for the flight? Please start that for me.", «Как
# заблокировать карту? Сделайте это.»: "do it" is the one operation the message names.
_DO_IT = re.compile(
    r"\b(?:do|start|begin|initiate|process|handle) (it|that|this)\b"
    r"(?=\s+(?:for me|please|now)\b|\s*[.!]|\s*$)"
    r"|\b(?:сделай|оформи|запусти)(?:те)? (это|так|его|ее)\b(?!\s+сам)",
    re.IGNORECASE,
)


def _done_for_me(text: str) -> str:
    named = _operations_named(text)
    if len(named) != 1 or not _DO_IT.search(text):
        return text
    english, russian = LEXICON.plain[next(iter(named))]
    return _DO_IT.sub(
        lambda m: (russian if _is_cyrillic(m.group(0)) else english) + " " + (m.group(1) or m.group(2)), text
    )


# The order of two requests: "First unblock 6006, then freeze 4242" — "first" only where a
# "then" follows (not "First block on my card was a mistake").
_STEPS = re.compile(
    r"^\s*(?:first(?:ly)?|сначала),?\s+(?=.*\b(?:then|потом|затем)\b)", re.IGNORECASE | re.DOTALL
)


def read_request(text: str, *, today: date) -> Reading:
    """The requests in one message the customer wrote: asked for in words, or — for a
    message that asks for nothing on a card — a card of theirs reported lost or stolen,
    which asks for what its words file's ``lost`` says (``_with_loss_reported``)."""
    return _with_loss_reported(text, _read(text, today=today), today)


def _read(text: str, *, today: date) -> Reading:
    text = normalised(text or "").replace("ё", "е").replace("Ё", "Е")
    text = plain_words(text)
    text = _STEPS.sub("", text)
    text = _PASTED.sub(lambda m: m.group(0)[: m.group(0).index(":")] + ".", text)
    # "the Glovo order (never arrived) and the Kaspi order": an aside in brackets that only
    # gives a reason is the story's, not the clause's; the reason still counts (``said``).
    said = text
    text = _ASIDE.sub(lambda m: " " if _reason_aside(m.group(1), today) else m.group(0), text)
    text = _QUOTED.sub(lambda m: " " if _operations_named(m.group(0)) else m.group(0)[1:-1], text)
    if not text.strip():
        return Reading()
    sentences = _sentences(text)
    mentioned = frozenset(op for s in sentences for op in _operations_named(s))
    doubts = list(_DOUBT.finditer(_PRICE_STORY.sub(" ", text)))
    withdrawn = (
        _RETRACTED.search(text)
        or _hedged(sentences)
        or (
            # "Block 4242!! … ok, it's here": finding the card takes a block back (and is
            # the reason for an unblock, so not there): each tool's words say which (``found``).
            _FOUND.search(text) if _found_withdraws(mentioned) else None
        )
    )
    doubt = doubts[0] if doubts else withdrawn
    # "Dispute part of T-5007: the ticket was 80,000, they took 86,119 — only the
    # difference, 6,119": a part is a doubt only until the message's figures price it.
    priced_later = bool(doubts) and not withdrawn and all(_PART_DOUBT.fullmatch(m.group(0)) for m in doubts)
    if doubt and mentioned and not priced_later:
        return Reading(unsure=f"“{doubt.group(0)}” makes it more than a plain request", mentioned=mentioned)
    clauses: list[tuple[str, str | None, bool]] = []  # (text, operation requested, negated)
    excluded: list[str] = []  # "not T-1002", "T-1002 is mine": objects the customer rules out
    asked_about: list[str] = []  # clauses of questions, for a request's "it"
    after_and: set[str] = set()  # clauses joined by "and"/«и»: maybe a listed object
    for sentence in sentences:
        # "Could you now also dispute X?": the politeness may sit in another clause.
        question = _is_question(sentence) and not _polite(_words(sentence))
        found = [(clause, *_requested(clause, question)) for clause in _clauses(sentence)]
        after_and.update(c for c in _clauses(sentence) if _AND_BEFORE.search(sentence[: sentence.find(c)]))
        if any(op and not neg for _, op, neg in found) and (
            _REFUSAL.search(_strip_reasons(text)) or _BARE_REFUSAL.search(text)
        ):
            # "Блокировать карту 4242 не нужно", "Dispute T-1001 - no need".
            return Reading(unsure="the request is refused in the same sentence", mentioned=mentioned)
        for clause, operation, negated in found:
            if operation is None and _excludes(clause, today):
                excluded.append(clause)
                # «…, а T-1002 — это моя поездка»: the vouch names the object before it.
                if (
                    clauses
                    and clauses[-1][1] is None
                    and _bare_identifier(clauses[-1][0])
                    and (not _identifies(clause))
                ):
                    excluded.append(clauses.pop()[0])
                continue
            if question and operation is None and not negated:
                # A question's words describe nothing the customer asked for — unless a
                # later request points back at them ("What is this Netflix charge? Dispute it").
                asked_about.append(clause)
                continue
            clauses.append((clause, operation, negated))
    clauses = _one_request_said_twice(clauses, today)
    requested = [op for _, op, neg in clauses if op and not neg]
    refused = {op for _, op, neg in clauses if op and neg}
    if refused & set(requested):
        return Reading(unsure="the message both asks for and refuses the same action", mentioned=mentioned)
    if len(requested) != len(set(requested)):
        return Reading(unsure="the message asks for the same action more than once", mentioned=mentioned)
    # "block 4242 and 5505", "dispute T-1001 and T-1004": a clause of nothing but
    # an identifier, right after a request, is that request again for another object.
    listed: set[int] = set()  # "dispute the Glovo order and the Wolt order": another object
    for index in range(1, len(clauses)):
        before = index - 1
        # "Dispute the Glovo order (never arrived) and the Kaspi order": an aside that
        # names nothing stands between a request and the object listed after it.
        while (
            before > 0
            and clauses[before][1] is None
            and _target(clauses[before][0], TRANSACTION_KIND, today).empty
        ):
            before -= 1
        previous_op, listed_op = clauses[index - 1][1], clauses[before][1]
        clause, operation, neg = clauses[index]
        if operation is None and not neg and previous_op and _bare_identifier(clause):
            clauses[index] = (clause, previous_op, False)
        elif (
            operation is None
            and not neg
            and listed_op is not None
            and target_kind(listed_op) == TRANSACTION_KIND
            and clause in after_and
            and _listed_object(clause, today)
        ):
            clauses[index] = (clause, listed_op, False)
            listed.add(index)
    context = [c for c, op, neg in clauses if op is None and not neg]
    requests = []
    previous: TargetWords | None = None
    for index, (clause, operation, neg) in enumerate(clauses):
        if operation is None or neg:
            continue
        kind = target_kind(operation)
        own = _target(clause, kind, today)
        if index in listed and previous is not None and not (own.words or own.references):
            # "the Magnum one on the 13th and the one on the 16th", «магнум за пятницу и за
            # понедельник тоже»: the second names its day; the merchant is the first's.
            own = replace(own, words=previous.words, names=previous.names, neighbours=previous.neighbours)
        previous = own
        shared = [_target(c, kind, today, story=True) for c in context]
        target = own
        # "Please block it", and for a card "Заблокируйте карту", «лучше заблокируйте»: a
        # request that names nothing of its own is about the card the story described.
        points_back = own.empty and (bool(_BACK_REFERENCE.search(clause)) or kind == CARD_KIND)
        earlier = {c for c, _, _ in clauses[:index]}  # "it" points back, never ahead
        for story_clause, extra in zip(context, shared, strict=True):
            target = target | (
                extra.softened()
                if kind != CARD_KIND
                else _digits_only(extra, keep_label=points_back and story_clause in earlier)
            )
        if kind != CARD_KIND and own.empty and (_BACK_REFERENCE.search(clause) or _bare_verb(clause)):
            # "The later of my two Yandex Go rides, I don't recognise it, dispute please":
            # which one is said of the object the request points back at — where the
            # story says it once, in one clause, and plainly (not "the 2nd … of the first").
            told = [
                extra
                for story_clause, extra in zip(context, shared, strict=True)
                if story_clause in earlier
                and (extra.position is not None or extra.daypart or extra.size or extra.clock)
                and len({v for pattern, v in _POSITIONS if pattern.search(story_clause)}) <= 1
            ]
            which = told[0] if len(told) == 1 else None
            if which is not None:
                target = replace(
                    target,
                    position=_one(target.position, which.position),
                    daypart=_one(target.daypart, which.daypart),
                    size=_one(target.size, which.size),
                    clock=target.clock or which.clock,
                )
        story_days = [d for extra in shared for d in extra.dates]
        if kind != CARD_KIND and len(story_days) > 1:
            # "I cancelled in October … they took 4,990 on the 1st": several days in the
            # story are not all the charge's; it must be on one of them.
            target = replace(target, dates=own.dates, any_dates=tuple(story_days) + own.any_dates)
        # "What is this Netflix charge? Dispute it." — or a bare «Оспорьте.»: the object of
        # the question before it.
        if own.empty and (_BACK_REFERENCE.search(clause) or _bare_verb(clause)):
            for extra in (_target(c, kind, today) for c in asked_about):
                target = target | extra
        for other in (_target(c, kind, today) for c in excluded):
            if (target.references & other.references) or (target.cards & other.cards):
                return Reading(unsure="the message both names and rules out one object", mentioned=mentioned)
        # The own clause alone may stand only where the story added no amount or identifier:
        # "dispute T-5006, they overcharged me by 3,760" is a part, never the whole.
        story_priced = any(
            e.amounts or e.partial or e.rounded or e.half or e.references or e.cards for e in shared
        )
        # Every amount said beside the request, in its story too: a smaller one may be
        # the part meant («в заказе на 43к товара на 13 тыс не было, оспорьте эти 13 тыс»).
        # (A round figure, "86k", said beside it is weighed against the row granted:
        # mandate._maybe_a_part.)
        loose = tuple(
            amount
            for c in [*excluded, *asked_about]
            for t in [_target(c, kind, today, story=True)]
            for amount in (*t.amounts, *t.partial, *(v for v, _ in t.rounded))
        ) + tuple(amount for t in [*shared, own] for amount in t.amounts)
        if kind == TRANSACTION_KIND:
            target = _priced_part(target, own, clause)
        requests.append(
            Request(
                operation,
                target,
                _reason(said, operation),
                own if own != target and not own.empty and not story_priced else None,
                listed=index in listed,
                loose_amounts=loose,
                both=bool(_BOTH.search(text)),
                part=_part_said(own, context, today) if priced_later and not target.partial else None,
            )
        )
    # A part asked for stands where its figure was said: in the request's own clause, or a
    # clause of nothing but it («…частично, на 2 500 тенге»; not "…, the ticket was 89000").
    if (
        priced_later
        and doubt is not None
        and not (
            requests
            and all(
                target_kind(r.operation) == TRANSACTION_KIND and (r.target.partial or r.part is not None)
                for r in requests
            )
        )
    ):
        return Reading(unsure=f"“{doubt.group(0)}” makes it more than a plain request", mentioned=mentioned)
    reasons = [r.reason for r in requests if r.reason == "ambiguous"]
    if reasons:
        return Reading(unsure="the message gives more than one reason for the dispute", mentioned=mentioned)
    return Reading(
        requests=tuple(requests),
        mentioned=mentioned,
        offered=_offered(text, {r.operation for r in requests}, mentioned, sentences),
    )


def _sentences(text: str) -> list[str]:
    """A message's sentences. An emoji ends a sentence as a full stop does: "kept the 86k
    🙄 dispute it". (Not after an abbreviation: «5 тыс. из покупки», "approx. 5k".)"""
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


_SENTENCE_END = re.compile(
    r"(?<!\bтыс\.)(?<!\bтг\.)(?<!\bруб\.)(?<!\bмлн\.)"
    r"(?<!\bapprox\.)(?<=[.!?])\s+|\n+"
    r"|\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s*"
)


_PART_DOUBT = re.compile(r"part of|portion|partly|partially|some of|част\w*", re.IGNORECASE)


def _figures(target: TargetWords) -> tuple[Decimal, ...]:
    """The amounts said of an object, exact or rounded ("10 тыщ")."""
    return target.amounts + tuple(value for value, _ in target.rounded)


_STATED = {
    "is",
    "was",
    "were",
    "be",
    "been",
    "cost",
    "costs",
    "стоил",
    "стоила",
    "стоило",
    "стоит",
    "был",
    "была",
    "было",
    "были",
    "есть",
}


def _part_said(own: TargetWords, context: list[str], today: date) -> Decimal | None:
    if _figures(own):
        return _figures(own)[0] if len(set(_figures(own))) == 1 else None
    figures: list[Decimal] = []
    for clause in context:
        bare = _RELATIVE.sub("", clause)
        found = _figures(_target(bare, TRANSACTION_KIND, today, story=True))
        words = [w for w in _words(_strip_reasons(bare)) if not any(ch.isdigit() for ch in w)]
        if (
            found
            and len([w for w in words if w not in STOPWORDS]) <= 2
            and not any(w in _STATED or _past_form(w) for w in words)
        ):
            figures.extend(found)
    return figures[0] if len(set(figures)) == 1 else None


def _one_request_said_twice(
    clauses: list[tuple[str, str | None, bool]], today: date
) -> list[tuple[str, str | None, bool]]:
    """The same operation asked twice, once with its object and once with nothing that
    names one ("I want my 10,000 back, dispute T-5007 for that", «Верните мои 10 000,
    оспорьте T-5012 на эту сумму», "Block 4242. Block it now!"): one request, its two
    clauses read together. Two that each name an object stay two (and unsure)."""
    asked = [op for _, op, neg in clauses if op and not neg]
    for operation in {op for op in asked if asked.count(op) == 2}:
        first, second = (i for i, (_, op, neg) in enumerate(clauses) if op == operation and not neg)
        kind = target_kind(operation)
        named = [_names_an_object(_target(clauses[i][0], kind, today)) for i in (first, second)]
        if named.count(True) != 1:
            continue
        merged = f"{clauses[first][0]}, {clauses[second][0]}"
        clauses = [
            *clauses[:first],
            (merged, operation, False),
            *(c for i, c in enumerate(clauses) if first < i != second),
        ]
    return clauses


def _names_an_object(target: TargetWords) -> bool:
    return bool(
        target.references
        or target.cards
        or target.words
        or target.dates
        or target.descriptors
        or target.kinds
        or target.any_dates
    )


# Words that point at an operation without naming it: "close my card" may mean for good
# (no tool does that), so it gets the Block buttons, never a grant (the tools' words
# files, `suggests`).
_SUGGESTED = LEXICON.suggested
# "That charge — not me", «это не я»: disowning a payment points at a dispute without asking
# for one. It never grants (a report is not a request); where the message does not name the
# operation, even in a question, its buttons are offered instead (the words files, `disowned`).
_DISOWNS = LEXICON.disowned


def _offered(
    text: str, requested: set[str], mentioned: frozenset[str], sentences: list[str]
) -> frozenset[str]:
    """What the message points at without plainly asking: a disowned payment (_DISOWNS),
    a misspelt verb ("blcok", «заблакируйте»: misspelt_operation), or — where nothing
    was read as a request — an operation's verb said outside a question and not refused
    (_pointed_at): the customer gets its buttons, never a dead end."""
    offered = set() if requested else _pointed_at(sentences)
    offered |= {op for pattern, op in _SUGGESTED if pattern.search(text) and not _is_question(text)}
    offered |= {op for pattern, op in _DISOWNS if op not in mentioned and pattern.search(text)}
    if not _is_question(text) or _polite(_words(text)):
        # A negation reaches a verb in its own clause only ("never deliverd, pls dispure").
        for clause in (c for sentence in sentences for c in _clauses(sentence)):
            words = _words(clause)
            offered |= {
                op
                for index, word in enumerate(words)
                if (op := misspelt_operation(word)) and not _negated(words[max(0, index - 3) : index])
            }
    return frozenset(offered - requested)


# The verbs' written forms a misspelling is measured against (one edit, or two for a long
# word: a swap, a missing, extra or wrong letter). A misspelling only offers buttons.
def _pointed_at(sentences: list[str]) -> set[str]:
    """Operations whose verb (or opened noun) stands in a statement, neither negated nor
    asked about: "I would ask that a dispute be opened for the Kaspi order", «карту 3391
    надо бы того, заблокировать» — a request the grammar could not read as one."""
    pointed = set()
    for sentence in sentences:
        if _is_question(sentence):
            continue
        words = _words(sentence)
        for index in range(len(words)):
            operation = _operation_at(words, index)
            if operation and not (
                _negated(words[max(0, index - 3) : index])
                or _negated_after(_until_purpose(words[index + 1 :]))
            ):
                pointed.add(operation)
    return pointed


_TYPO_TARGETS = LEXICON.typos


def misspelt_operation(word: str) -> str | None:
    """The operation a misspelt verb means, or None — never for a correct form of any
    word of the operations ("blocked", «заблокирована» are states, not typos)."""
    if len(word) < 4 or word in _TYPO_TARGETS or _RU_IMPERATIVE.match(word) or (_RU_INFINITIVE.match(word)):
        return None
    for suffix in ("ing", "ed", "es", "s", "d"):  # blocked, disputed, disputes, blocking
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and (stem in _EN_VERBS or f"{stem}e" in _EN_VERBS):
            return None
    # A word on an operation's own stem is one of its forms (заблокирована, оспорила) unless
    # it is a single edit from a command ("оспорте", «заблокирутйе»).
    own_stem = bool(_operations_named(word) or _is_operation_word(word))
    for target, operation in _TYPO_TARGETS.items():
        allowed = 1 if own_stem or len(target) <= 7 else 2
        if abs(len(target) - len(word)) > allowed or OSA.distance(word, target) > allowed:
            continue
        # Typing slips keep the first letter (Russian а for о aside: «аспорить»), and a
        # short word one letter off is another word ("clock", "black"), not a slip.
        if word[0] != target[0] and (word[0], target[0]) != ("а", "о"):
            continue
        if len(target) <= 5 and len(word) == len(target) and sorted(word) != sorted(target):
            continue
        return operation
    return None


# "Dispute it", «оспорьте её»: the object named earlier in the same message.
_BACK_REFERENCE = re.compile(
    r"\b(?:it|that|this|them|those|these|that one|его|ее|нее|него|это|"
    r"эту|этот|эти|их|ту|тот)\b",
    re.IGNORECASE,
)


# A request taken back later in the message, in the words people use.
_RETRACTED = re.compile(
    r"\bignore (?:me|him|her|them|that|this|it|my (?:message|request))\b|\blet'?s not\b|"
    r"\b(?:ok|okay|oh|ah)[,.]? no\b|\bno wait\b|\bmy bad\b|\bfalse alarm\b|\ball good\b|"
    r"\bnot (?:needed|necessary) any ?more\b|"
    r"(?:^|[.!?,]\s*)отмена\s*[.!]*\s*$|\b(?:а|ой|ах)[,.]? (?:нет|всё|все)\b|"
    r"\bложная тревога\b|\bне ?актуально\b|\bвсё верно\b|\bвсе верно\b",
    re.IGNORECASE,
)
_FOUND = re.compile(
    r"\b(?:found it|it'?s here|here it is|"
    r"нашл[аи]сь|нашлась|нашел|нашла|вот она|вот он|под диваном)\b",
    re.IGNORECASE,
)


def _found_withdraws(mentioned: frozenset[str]) -> bool:
    """Whether finding the object takes back a request for an operation the message names:
    one whose words say so (``found: withdraws``), where none it names asks because of it."""
    found = {LEXICON.found.get(op) for op in mentioned}
    return "withdraws" in found and "asks" not in found


# What may stand beside a second identifier: "and 5505 too", "и карту 5505".
_COORDINATED = {
    "and",
    "also",
    "too",
    "as",
    "well",
    "please",
    "card",
    "the",
    "transaction",
    "charge",
    "payment",
    "и",
    "тоже",
    "также",
    "еще",
    "пожалуйста",
    "карту",
    "карта",
    "платеж",
    "операцию",
}


# A request refused in its own sentence: "Dispute T-1001 - no need", «… не нужно».
_REFUSAL = re.compile(
    r"\b(?:no need|not needed|not necessary|never ?mind|don'?t bother|"
    r"no longer|не нужно|не надо|не хочу|не стоит|не требуется|не обязательно|"
    r"не прошу|не просил\w*|не требую|"
    r"уже не)\b",
    re.IGNORECASE,
)
# A sentence that is only a "no": "Block card 4242. No.", «… Нет, не надо.»
_BARE_REFUSAL = re.compile(
    r"(?:^|[.!?]\s+|\n)\s*(?:no|nope|don'?t|do not|нет|не надо)\s*[.!]*\s*(?:$|\n)", re.IGNORECASE
)
# The customer vouching for an object: "T-1002 is mine", "the ride was me", «это моя».
_VOUCHED = re.compile(
    r"\b(?:is|are|was|were) (?:mine|me|fine|ok|okay|correct|legit|right|real)\b"
    r"|\b(?:works|working) (?:fine|ok|okay|normally|well)\b|(?<!не )\bработает\b"
    r"|\bi made (?:it|that|this|them)\b|\b(?:это|был[аои]?) (?:моя|мой|мое|мои)\b"
    r"|\bя (?:его|ее|их) (?:сделал\w*|совершил\w*)\b"
    r"|(?:^|\s)[-—–]\s*(?:мой|моя|мое|мои|mine|me)\b|\b(?:мой|моя|мое|мои) (?:платеж|"
    r"покупка|чек)\b|\bэто (?:был[аои]? )?я\b"
    r"|\b(?:все|всё) (?:нормально|в порядке|правильно|верно)\b",
    re.IGNORECASE,
)


def _excludes(clause: str, today: date) -> bool:
    """A clause that rules an object out: a negated object ("not T-1002", «а не
    5505», "not the Magnum one") or one the customer vouches for ("T-1002 is
    mine"). Its object is kept out of the request's features."""
    rest = _strip_reasons(clause)
    if _VOUCHED.search(rest):
        return True
    words = _words(rest)
    negated = any(w in _NEGATIONS or w.endswith("n't") for w in words)
    described = (
        _REFERENCE.search(rest)
        or _BARE_FOUR.search(rest)
        or any(w not in STOPWORDS and w not in _NEGATIONS for w in words)
    )
    if negated and _told_of_oneself(words) and not _AIMED.search(rest):
        return False  # "I haven't been to Magnum", «я там не была»: the story, not a choice
    if negated and not _AIMED.search(rest) and _negations_tell(words):
        return False  # "ordered on Glovo without asking me", «86к за эйр астану не мои»
    return negated and bool(described) and _names_object(rest, today)


# Words after a negation that make it the object's story or the customer disowning it:
# "never (even) arrived", "without asking", «не мои», "not mine" — never a choice
# between objects, which names one ("not the Magnum one": _AIMED).
_DISOWNED = {"mine", "me", "мой", "моя", "мое", "мои", "я", "мной"}
# "my debit card doesn't work", «карта не работает»: what a card does not do is its story.
_FAILS = {"work", "works", "работает", "работают", "проходит", "проходят", "срабатывает"}


def _negations_tell(words: list[str]) -> bool:
    return all(
        any(
            _past_form(w) or (len(w) > 4 and w.endswith("ing")) or w in _DISOWNED or w in _FAILS
            for w in words[index + 1 : index + 3]
        )
        for index, w in enumerate(words)
        if w in _NEGATIONS or w.endswith("n't")
    )


# "I don't mean T-1002", «я не про 5505»: a person ruling an object out; any other verb
# after "I … not" tells what happened ("I haven't been to Magnum this month").
_MEANT = {
    "mean",
    "meant",
    "want",
    "need",
    "refer",
    "referring",
    "talking",
    "asking",
    "про",
    "имею",
    "имела",
    "имел",
    "говорю",
    "нужно",
    "надо",
    "прошу",
}


def _told_of_oneself(words: list[str]) -> bool:
    """A negated statement with the customer as its subject, about something else than
    which object they mean."""
    first = next((i for i, w in enumerate(words) if w in _NEGATIONS or w.endswith("n't")), None)
    if first is None or not (
        {"i", "we", "я", "мы"} & set(words[: first + 1]) or words[first] in ("i'm", "i've", "i'd")
    ):
        return False
    return not _MEANT & set(words[first : first + 4])


# "not the Magnum one", «а не 5505», "but not T-1002": a negation aimed at an object. A
# negative story ("the order never arrived", «жрачку не довез») rules nothing out.
_AIMED = re.compile(
    r"\b(?:not|but not|except)\s+(?:the|that|this|my|card|on)\b|\bа не\b|"
    r"\bне\s+(?:эт\w+|тот|ту|та|то|те|в|во|на|с|со|за|по)\b",
    re.IGNORECASE,
)


def _names_object(clause: str, today: date) -> bool:
    tokens = _WORD.findall(clause)
    cyrillic_text = sum(_is_cyrillic(t) for t in tokens) > len(tokens) / 2
    return bool(
        _REFERENCE.search(clause)
        or _BARE_FOUR.search(clause)
        or _AIMED.search(clause)
        or amounts_in(clause, min_bare=1)
        or dates_in(clause, today=today)
        or any(pattern.search(clause) for pattern in DESCRIPTOR_PATTERNS.values())
        or any(
            (i and t[0].isupper()) or (cyrillic_text and not _is_cyrillic(t) and len(t) > 2)
            for i, t in enumerate(tokens)
        )
    )


def _identifies(clause: str) -> bool:
    return bool(_REFERENCE.search(clause) or _BARE_FOUR.search(clause))


def _bare_identifier(clause: str) -> bool:
    """A clause that is only a reference or card digits ("5505", "T-1004", "card 5505")."""
    rest = _CARD_DIGITS.sub(" ", _REFERENCE.sub(" ", clause))
    rest = _BARE_FOUR.sub(" ", rest)
    identified = rest != clause
    return identified and all(w in _COORDINATED for w in _words(rest))


def _digits_only(story: TargetWords, *, keep_label: bool = False) -> TargetWords:
    """What the story around a card request may add: a card's digits ("My Visa 4242 is
    gone. Please freeze it."), and the card's label words where the request points back
    at it ("My debit card was in there. Please block it."), nothing else — a day or a shop
    in a story is when and where something happened, not which card ("I bought something
    yesterday with my online card … Block it." must not become the card that paid
    yesterday)."""
    return TargetWords(cards=story.cards, descriptors=story.descriptors if keep_label else frozenset())


# A relative clause tells about its noun: "the Wolt order that never came", «глово,
# который не привезли».
_RELATIVE = re.compile(r",?\s*\b(?:which|that|who|котор\w*)\b.*$", re.IGNORECASE | re.DOTALL)


def _listed_object(clause: str, today: date) -> bool:
    """A clause of one to three words that only name an object, maybe with its day: "the
    Wolt order", «сулпак», "the Small payment from the 10th", "the one on 16 November",
    «за понедельник тоже» — no person, no verb form, no negation, no amount."""
    clause = _RELATIVE.sub("", clause)  # "and the Kaspi one, which never came"
    days = [(d.start, d.end) for d in dates_in(clause, today=today)] + [
        (start, end) for start, end, _ in weeks_in(clause, today=today)
    ]
    for start, end in sorted(days, reverse=True):
        clause = clause[:start] + " " + clause[end:]
    if re.search(r"\d", clause) or amounts_in(clause, min_bare=1):
        return False  # a figure is the first object's amount or part, not another object
    if _strip_reasons(clause) != clause:
        return False  # "заказ отменен магазином": a reason is the story, not an object
    every = _words(clause)
    if any(w in _NOT_AN_OBJECT or w in _NEGATIONS or w.endswith("n't") for w in every):
        return False
    words = [w for w in every if w not in _COORDINATED and w not in STOPWORDS]
    return (1 if not days else 0) <= len(words) <= 3 and not any(
        re.search(r"(?:ed|ing|л|ла|ли|ло|ть|ешь|ет|ют|ят)$", w) for w in words
    )


def _words(text: str) -> list[str]:
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def _operations_named(sentence: str) -> set[str]:
    found = set()
    for word in _words(sentence):
        operation = LEXICON.mentioned(word)
        if operation is not None and not word.startswith("спорт"):  # a sport is no dispute
            found.add(operation)
    return found


# «какой-то», «кто-нибудь», «где-либо»: an indefinite pronoun, not a question word.
_INDEFINITE = re.compile(r"^\W*\w+-(?:то|нибудь|либо)\b", re.IGNORECASE)


def _is_question(sentence: str) -> bool:
    words = _words(sentence)
    if not words:
        return False
    first = words[0] if not _INDEFINITE.match(sentence) else ""
    if sentence.rstrip().endswith("!"):  # «сколько можно ждать, заблокируйте!»: rhetorical
        return False
    return (
        sentence.rstrip().endswith("?")
        or first in _QUESTION_START
        or (first in _EN_POLITE and len(words) > 1 and words[1] in {"i", "we"})
    )


_CLAUSE_SPLIT = re.compile(
    # A relative clause belongs to its noun: "the card, which I use online", «карту, с
    # которой списывается нетфликс».
    r",(?!\d)(?!\s*(?:чтобы|(?:с|со|по|на|в|за)?\s*котор\w*|which|that|whose)\b)|;|:(?!\d)|\s[—–+-]\s"
    # "three hundred and fifty" is one number
    r"|(?<!hundred)(?<!thousand)(?<!million)\s+(?:and|but|then|also|plus|и|а|но|затем|потом|также|еще|ещё)\s+",
    re.IGNORECASE,
)


_AND_BEFORE = re.compile(r"(?:\band|\bplus|\+|\bи|\bа также)\s*$", re.IGNORECASE)


def _clauses(sentence: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip()]


# "I want my card blocked", «хочу, чтобы вы заблокировали карту»: a wish for a result.
_EN_PARTICIPLES = LEXICON.en_participles
_RU_WISHED = LEXICON.ru_wished
# "I'd rather it's blocked till then", "I'd prefer the card frozen": a preference for a result.
_EN_RATHER = {"rather", "prefer"}
# "I'd rather keep it blocked": a state kept, not an action.
_KEPT = {"keep", "kept", "stay", "stays", "remain", "remains", "leave", "left"}
_STATE_WORDS = {
    "is",
    "was",
    "were",
    "been",
    "be",
    "being",
    "are",
    "got",
    "get",
    "gets",
    "has",
    "have",
    "had",
    "already",
    "уже",
}


_ASKING = {"request", "requesting", "ask", "asking", "demand", "demanding", "insist", "insisting"}


def _wished(words: list[str]) -> tuple[str | None, bool]:
    """A wish for an action's result: "I want / need / 'd like <object> <participle>",
    «хочу / прошу / нужно, чтобы … <past plural>». (operation, negated)."""
    for index, word in enumerate(words):
        operation = _EN_PARTICIPLES.get(word)
        if operation is None and _RU_WISHED.match(word):
            operation = LEXICON.ru_operation(word)
            if "чтобы" not in words[:index]:
                continue
        if operation is None:
            continue
        before = words[:index]
        gets = [i for i, w in enumerate(before) if w == "get"]
        if (
            gets
            and 1 <= index - gets[-1] - 1 <= 4
            and not (
                (_STATE_WORDS | _KEPT | {"to"}) & set(before[gets[-1] + 1 :]) or _QUESTION_START & set(before)
            )
        ):
            # "Get that disputed", "can you get my card blocked": having it done is asked
            # (not "it got blocked", "why did it get blocked").
            return operation, _negated(before)
        asks = [i for i, w in enumerate(before) if w == "that" and i and before[i - 1] in _ASKING]
        if asks and before[-1:] == ["be"] and index - asks[-1] <= 7:
            # "I request that my card 3391 be blocked", "I ask that a dispute be opened":
            # the subjunctive asks for it (not "I asked that it be blocked": past).
            return operation, _negated(before[asks[-1] :])
        wants = [i for i, w in enumerate(before) if w in _EN_WANT | _EN_RATHER | _RU_GOVERNORS]
        if not wants or (_STATE_WORDS | _KEPT) & set(before[wants[-1] :]):
            return None, False
        if "to" in before[wants[-1] :]:  # "I want to know why it was blocked"
            return None, False
        return operation, _negated(before)
    return None, False


def _requested(clause: str, question: bool) -> tuple[str | None, bool]:
    """(operation this clause plainly requests, or None; whether it is negated)."""
    words = _words(clause)
    if not question and (terse := _identified_then_told(words)):
        return terse, False
    if not any(_operation_at(words, i) for i in range(len(words))):
        operation, negated = _wished(words)
        if operation is not None and (negated or not question):
            return operation, negated
    for index in range(len(words)):
        operation = _operation_at(words, index)
        if operation is None:
            continue
        before = _own_predicate(words[:index], words[index])
        after = _until_purpose(_words(_strip_reasons(" ".join(words[index + 1 :]))))
        if _negated(before) or _negated_after(after):
            return operation, True
        if _en_request(words, index) or _ru_request(words, index) or _object_first(words, index):
            if question and not _polite(before):
                return None, False
            return operation, False
        return None, False
    return None, False


# Terse, object first: "Technodom dispute", "gold card unblock", «глово оспорить».
_AFTER_TERSE = {
    "please",
    "pls",
    "plz",
    "now",
    "asap",
    "thanks",
    "thx",
    "срочно",
    "пожалуйста",
    "плз",
    "пж",
    "плиз",
    "скорее",
    "быстрее",
}
_NOT_AN_OBJECT = (
    {
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "it",
        "to",
        "я",
        "мы",
        "вы",
        "ты",
        "он",
        "она",
        "они",
        "его",
        "ее",
        "их",
        "мне",
        "нам",
    }
    | _QUESTION_START
    | _EN_WANT
)


def _object_first(words: list[str], index: int) -> bool:
    """The operation's word ends the clause (bar a "please") after one to five words
    that only describe its object: no person, no question word, no other verb."""
    before, after = words[:index], words[index + 1 :]
    if not 1 <= len(before) <= 5 or any(w not in _AFTER_TERSE for w in after):
        return False
    word = words[index]
    if not (word in _EN_VERBS or _RU_INFINITIVE.match(word)):
        return False
    return not any(w in _NOT_AN_OBJECT or re.search(r"(?:ed|ing|л|ла|ли|ло)$", w) for w in before)


def _identified_then_told(words: list[str]) -> str | None:
    """Terse, an identifier, a few words of story, the operation last: "T-5010 not mine
    dispute", "T-5009 never arrived dispute", «T-5011 неверная сумма спор», «5505 украли
    блок». A negation there tells the object's story (_negations_tell), never refuses."""
    while words and words[-1] in _AFTER_TERSE | _EN_SOFTENERS:
        words = words[:-1]
    if len(words) < 3:
        return None
    last = words[-1]
    operation = (
        _EN_VERBS.get(last)
        or _EN_NOUNS.get(last)
        or LEXICON.ru_noun(last)
        or (LEXICON.ru_operation(last) if _RU_IMPERATIVE.match(last) or _RU_INFINITIVE.match(last) else None)
    )
    if operation is None:
        return None
    if words[0] in {"t", "т"} and words[1].isdigit():
        story = words[2:-1]
    elif re.fullmatch(r"\d{4}", words[0]):
        story = words[1:-1]
    else:
        return None
    if not 1 <= len(story) <= 4 or any(
        _operation_at(story, i) or w in _NOT_AN_OBJECT - _DISOWNED for i, w in enumerate(story)
    ):
        return None
    negated = any(w in _NEGATIONS or w.endswith("n't") for w in story)
    return operation if not negated or _negations_tell(story) else None


def _operation_at(words: list[str], index: int) -> str | None:
    word = words[index]
    if word in _EN_VERBS:
        return _EN_VERBS[word]
    if _RU_IMPERATIVE.match(word) or _RU_INFINITIVE.match(word):
        return LEXICON.ru_operation(word)
    if (
        word in _EN_NOUNS
        and index
        and (
            words[index - 1] in _EN_OPENERS
            or (
                index > 1
                and words[index - 1] in {"a", "the", "an"}
                and words[index - 2] in _EN_OPENERS | _EN_WANT
            )
        )
    ):
        return _EN_NOUNS[word]
    noun = LEXICON.ru_noun(word)
    if noun and index and (_RU_OPEN.match(_ru_opener(words, index)) or words[index - 1] in _RU_WANTS):
        return noun
    return None


# «хочу чарджбэк по T-5009», «прошу спор»: a noun asked for, as "I want a chargeback".
_RU_WANTS = {"хочу", "хотим", "прошу", "просим", "требую"}


def _ru_opener(words: list[str], index: int) -> str:
    """The word before a noun, past a «пожалуйста»: «откройте, пожалуйста, спор»."""
    before = index - 1
    while before > 0 and words[before] in {"пожалуйста", "плиз", "плз", "срочно"}:
        before -= 1
    return words[before]


# "block it so they can't charge anything", «заблокируйте, чтобы ничего не списали»: a
# negation in the purpose or the cause said after the request is not the request's.
_PURPOSE = {
    "so",
    "because",
    "since",
    "cause",
    "coz",
    "cuz",
    "as",
    "otherwise",
    "before",
    "чтобы",
    "чтоб",
    "потому",
    "так",
    "иначе",
    "пока",
    "ведь",
    "а то",
}


def _until_purpose(after: list[str]) -> list[str]:
    """The words after a verb up to a purpose, a cause or a new subject ("dispute the
    Air Astana one, I never flew", «оспорьте эир астану я не летала»)."""
    cut = next((i for i, w in enumerate(after) if w in _PURPOSE or w in _NEW_SUBJECT), len(after))
    return after[:cut]


_NEW_SUBJECT = {"i", "we", "they", "he", "she", "я", "мы", "они", "он", "она"}
_RU_PAST = re.compile(r"\w{2,}(?:л|ла|ли|ло|лся|лась|лись|лось)$")


def _bare_verb(clause: str) -> bool:
    """The clause is a command and nothing else: "dispute!", «Оспорьте.», "pls dispute"."""
    words = [w for w in _words(clause) if w not in _EN_SOFTENERS and w not in _AFTER_TERSE]
    return len(words) == 1


def _own_predicate(before: list[str], verb: str) -> list[str]:
    """The words before a verb that belong to it: back to another predicate that does
    not govern it. "the Wolt order never came dispute it", «заказ не привезли оспорьте»:
    the negation is the story's; "I didn't ask you to block it", «я не просила
    заблокировать»: the past verb governs ours, so its negation is ours."""
    english, russian = verb in _EN_VERBS, bool(_RU_IMPERATIVE.match(verb))
    for index in range(len(before) - 1, -1, -1):
        word = before[index]
        if (
            english
            and len(word) > 4
            and word.endswith("ed")
            and word not in _EN_WANT
            and ("to" not in before[index + 1 : index + 4])
        ):
            return before[index + 1 :]
        if russian and _RU_PAST.match(word):
            return before[index + 1 :]
    return before


# "dispute the Wolt 12350 never delivered", «оспорьте глово, не привезли»: a negation
# before a past form tells the object's story; it does not refuse the request.
_EN_PAST_IRREGULAR = {
    "came",
    "got",
    "arrived",
    "showed",
    "made",
    "bought",
    "sent",
    "did",
    "went",
    "took",
    "gave",
    "paid",
    "had",
    "was",
    "were",
    "happened",
}


def _past_form(word: str) -> bool:
    return (
        word in _EN_PAST_IRREGULAR
        or (len(word) > 4 and word.endswith(("ed", "rd")))
        or bool(_RU_PAST.match(word))
    )


def _negated_after(after: list[str]) -> bool:
    return any(
        (w in _NEGATIONS or w.endswith("n't"))
        and not (index + 1 < len(after) and _past_form(after[index + 1]))
        for index, w in enumerate(after)
    )


def _negated(before: list[str]) -> bool:
    # "не могли бы вы заблокировать" is a polite request, not a refusal.
    joined = " ".join(before)
    if "не могли бы" in joined or "не могли ли" in joined:
        joined = joined.replace("не могли бы", "").replace("не могли ли", "")
    return any(w in _NEGATIONS or w.endswith("n't") for w in joined.split())


def _polite(before: list[str]) -> bool:
    while before and before[0] in _INTERJECTIONS and before[0] not in {"pls", "plz"}:
        before = before[1:]  # "Hi, please dispute …?": a greeting before the plea
    if before and before[0] in {"please", "pls", "plz", "kindly", "пожалуйста", "плиз"}:
        return True  # "Please block 3391 for me?": a request, whatever its mark
    joined = " ".join(before)
    if (
        before
        and before[0] not in _QUESTION_START
        and "или" not in before
        and re.search(
            r"\bможно\b(?:\s+\S+){0,2}?\s+(?:оспор|заблок|разблок|опротест"
            r"|открыть спор|оформить|подать)",
            joined,
        )
    ):
        return True  # «Можно это оспорить?» — not «Как можно…?», «…можно сразу или…?»
    return bool(
        re.search(
            r"\b(?:can|could|would|will) you\b|\bможете\b|\bможешь\b|"
            r"\bмогли бы\b",
            joined,
        )
    )


def _en_request(words: list[str], index: int) -> bool:
    """English: the verb (or the opener before a noun) is in command position."""
    start = index
    while start and words[start - 1] in {"a", "an", "the"}:
        start -= 1
    if start and words[start - 1] in _EN_OPENERS:
        start -= 1
    before = [w for w in words[:start] if w not in _EN_SOFTENERS]
    if not before or _interjections(before):
        return True  # imperative at the start of the clause ("ayo block it", "plese block")
    if before[-1] == "to":  # "I want to…", "I need you to…", "help me to…"
        wanting = [w for w in before[:-1] if w not in {"you", "me", "really"}]
        if len(wanting) >= 2 and wanting[-2] in {"did", "was", "had", "used", "once"}:
            return False  # "I did want to block it (but found it)": a wish in the past
        return bool(wanting) and (wanting[-1] in _EN_WANT or wanting[-1] == "help")
    if before[-2:] == ["help", "me"]:
        return True
    if before[-1] in _EN_WANT:
        return True  # "I want a chargeback"
    if before[-1] == "you" and len(before) >= 2 and before[-2] in _EN_POLITE:
        return True
    return before[-1] in {"let's", "lets"} or before[-2:] == ["let", "us"]


# One or two words before an imperative that only color it: an interjection, a greeting,
# a plea, or a "please" misspelt ("ayo block it", "bruh dispute", "plese block").
_INTERJECTIONS = {
    "ayo",
    "yo",
    "bruh",
    "bro",
    "omg",
    "ugh",
    "hey",
    "hi",
    "hello",
    "ok",
    "okay",
    "dude",
    "man",
    "guys",
    "lol",
    "um",
    "uh",
    "hmm",
    "oh",
    "oi",
    "welp",
    "well",
    "look",
    "listen",
    "alright",
    "right",
    "sorry",
    "sry",
    "urgent",
    "urgently",
    "quick",
    "yes",
    "yeah",
    "yep",
    "ffs",
    "pls",
    "plz",
    "fam",
    "mate",
    "sir",
}


def _interjections(before: list[str]) -> bool:
    return len(before) <= 2 and all(
        w in _INTERJECTIONS or (len(w) >= 4 and OSA.distance(w, "please") <= 2 and w[0] == "p")
        for w in before
    )


def _ru_request(words: list[str], index: int) -> bool:
    word = words[index]
    if _RU_IMPERATIVE.match(word) or _RU_OPEN.match(word):
        return True
    opener = index
    if LEXICON.ru_noun(word) and index:
        opener = index - 1
        if words[opener] in _RU_WANTS:
            return True
        if _RU_OPEN.match(_ru_opener(words, index)) and not _ru_opener(words, index).endswith(("ть",)):
            return True
    head = words[opener]
    if not (_RU_INFINITIVE.match(head) or head.endswith("ть")):
        return False
    before = words[:opener]
    # «оспорить надо», «заблокировать нужно срочно»: the need said after the verb.
    needed_after = any(w in _RU_NEED for w in words[opener + 1 : opener + 4])
    return not before or any(_governs(w) for w in before[-3:]) or needed_after


def _governs(word: str) -> bool:
    """«хочу», «прошу», … or one of them misspelt by a letter («хачу», «прашу»)."""
    return word in _RU_GOVERNORS or (
        len(word) >= 4 and any(len(g) >= 4 and OSA.distance(word, g) <= 1 for g in _RU_GOVERNORS)
    )


def _target(clause: str, kind: str, today: date, *, story: bool = False) -> TargetWords:
    """The features a clause gives: references, card digits, amounts, dates, words — read
    as of an object of ``kind`` (``CARD_KIND``, ``TRANSACTION_KIND``: a write tool's ``target_kind``)."""
    references = frozenset(f"T-{m}" for m in _REFERENCE.findall(clause))
    rest = _REFERENCE.sub(" ", clause)
    clock = tuple((int(h), int(m)) for h, m in _CLOCK.findall(rest))
    rest = _CLOCK.sub(" ", rest)
    # "last week", «на выходных»: the payment is on one of those days (never "the last").
    week_days: list[DateMention] = []
    for start, end, days in sorted(weeks_in(rest, today=today), key=lambda w: -w[0]):
        week_days += [DateMention(d.month, d.day, d.year) for d in days]
        rest = rest[:start] + " " * (end - start) + rest[end:]
    dates = dates_in(rest, today=today)
    for mention in sorted(dates, key=lambda d: -d.start):
        rest = rest[: mention.start] + " " * (mention.end - mention.start) + rest[mention.end :]
    cards = set(_CARD_DIGITS.findall(rest))
    rest = _CARD_DIGITS.sub(" ", rest)
    if kind == CARD_KIND:
        rest = _YEAR_MONTH.sub(" ", rest)
        cards |= set(_BARE_FOUR.findall(rest))
        rest = _BARE_FOUR.sub(" ", rest)
    amounts: list[Decimal] = []
    partial: list[Decimal] = []
    rounded: list[tuple[Decimal, Decimal]] = []
    # In the story a bare small number is a count ("waited 20 minutes", "it's been 4"):
    # an amount there has a currency, a scale or three digits.
    for amount in sorted(
        amounts_in(_COUNTED.sub(" ", rest), min_bare=100 if story else 1, years=False), key=lambda m: -m.start
    ):
        is_part = _PART_OF.match(rest, amount.end)
        if is_part:
            partial.insert(0, amount.value)
        elif amount.slack:
            rounded.insert(0, (amount.value, amount.slack))
        else:
            amounts.insert(0, amount.value)
        rest = rest[: amount.start] + " " + rest[amount.end :]
    order = daypart = size = None
    if kind != CARD_KIND:
        for pattern, value in sorted(_POSITIONS, key=lambda item: item[1] != -2):
            if found := pattern.search(rest):
                order = value
                rest = rest[: found.start()] + " " + rest[found.end() :]
                break
        for name, pattern in _DAYPARTS.items():
            if found := pattern.search(rest):
                daypart = name
                rest = rest[: found.start()] + " " + rest[found.end() :]
                break
        for name, pattern in _SIZES.items():
            if found := pattern.search(rest):
                size = name
                rest = rest[: found.start()] + " " + rest[found.end() :]
                break
    descriptors = set()
    # A payment's card described: "on my virtual card", «по кредитке» (a card word near).
    card_said = kind == CARD_KIND or _CARD_NOUN.search(rest)
    if card_said:
        for label, pattern in DESCRIPTOR_PATTERNS.items():
            if pattern.search(rest):
                descriptors.add(label)
                rest = pattern.sub(" ", rest)
    tokens = _WORD.findall(_strip_reasons(rest))
    cyrillic_text = sum(_is_cyrillic(t) for t in tokens) > len(tokens) / 2
    words, names, neighbours, kind_words = set(), set(), set(), set()
    previous = ""
    for position, token in enumerate(tokens):
        word = token.lower().replace("’", "'")
        if categories_of_word(word) and word not in STOPWORDS:
            # "electronics", «доставку»: a category, and a merchant's name only if one
            # of the customer's merchants has it ("the Pizza Hut one"): binding decides.
            kind_words.add(word)
            previous = ""
            continue
        if len(word) < _MIN_WORD or word in STOPWORDS or _is_operation_word(word):
            previous = ""
            continue
        words.add(word)
        if (
            (position and token[0].isupper())
            or (cyrillic_text and not _is_cyrillic(token))
            or (any(c.isdigit() for c in word) and not word.isdigit())
        ):
            names.add(word)
        if previous:
            neighbours.add((previous, word))
        previous = word
    return TargetWords(
        references,
        frozenset(cards),
        tuple(dict.fromkeys(amounts)),
        tuple(dict.fromkeys(partial)),
        bool(_HALF.search(clause)),
        tuple(dates),
        frozenset(words),
        frozenset(names),
        frozenset(neighbours),
        frozenset(descriptors),
        order,
        daypart,
        size,
        tuple(rounded),
        soft=frozenset(kind_words),
        clock=clock,
        any_dates=tuple(week_days),
        kinds=categories_named(_strip_reasons(rest)),
        vague=frozenset(t.lower() for t in tokens if t.lower() in GENERIC_KINDS and t.lower() in STOPWORDS),
    )


# "the second coffee", «первый вчерашний кофе», "the later one", "the most recent".
_POSITIONS = tuple(
    (re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE), value)
    for pattern, value in (
        (r"first|1st|earlier|earliest|older|oldest|перв\w+|ранн\w+|раньше", 0),
        (r"second|2nd|втор(?:ой|ая|ое|ую|ого|ому|ом|ые)", 1),
        (r"third|3rd|трет(?:ий|ья|ье|ью|ьего|ьей)", 2),
        (r"last|latest|later|most recent|newer|newest|последн\w+|поздн\w+|недавн\w+", -1),
        (r"second[- ]to[- ]last|penultimate|предпоследн\w+", -2),
    )
)
_CARD_NOUN = re.compile(r"\bcard\b|\bкарт\w*|\b(?:кредитк|дебетк|виртуалк|голд)\w*", re.IGNORECASE)
_DAYPARTS = {
    name: re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE)
    for name, pattern in (
        ("morning", r"morning|утр\w*"),
        ("afternoon", r"afternoon|дн[её]м|дневн\w+|после обеда"),
        ("evening", r"evening|night|вечер\w*|ноч\w+"),
    )
}
_SIZES = {
    name: re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE)
    for name, pattern in (
        ("max", r"bigger|biggest|larger|largest|больш(?:ой|ую|ая|ее|ий|ого)|крупн\w+"),
        ("min", r"smaller|smallest|маленьк\w+|меньш\w+|мелк\w+"),
    )
}


# How customers describe a card, by the word of its product label each means: "my debit
# card", «дебетку», "the Mastercard", «голду», "the virtual one". Read for card operations.
CARD_DESCRIPTORS = {
    "debit": r"debit|дебет\w*",
    "credit": r"credit|cc|kredit\w*|кредит\w*",
    "virtual": r"virtual|виртуал\w*",
    # A virtual card's use, and maybe only where a payment was made ("tried to pay something
    # online with my credit card"): binding drops it when no card has it and the rest
    # (binding.bind_card).
    "online": r"online(?:[- ]only)?|онлайн|интернет\w*",
    "physical": r"physical|plastic|пластик\w*|пластиков\w*|физическ\w*",
    "gold": r"gold(?:en)?|голд\w*|золот\w*",
    "visa": r"visa|виз[аеуы]|визов\w*|визк\w*",
    "mastercard": r"master ?card\w*|master|мастер ?кард\w*|мастер\w*",
}
DESCRIPTOR_PATTERNS = {
    label: re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE) for label, pattern in CARD_DESCRIPTORS.items()
}


_CLOCK = re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
# A number of something that is not money: "20 minutes", «3 дня», "2 times", «4 раза».
_COUNTED = re.compile(
    r"\b\d+\s*(?:min(?:ute)?s?|hours?|h|days?|weeks?|months?|years?|times|"
    r"pcs|items?|мин\w*|час\w*|дн\w*|день|недел\w*|месяц\w*|лет|год\w*|"
    r"раз\w*|шт\w*|штук\w*)\b",
    re.IGNORECASE,
)


# After an amount, these make it a part of a charge ("5000 of the Magnum charge",
# «5000 из платежа»), not the charge's own amount.
_PART_OF = re.compile(r"\s*(?:kzt|тенге|тг|₸)?\s*(?:of\b|out of\b|из\b)", re.IGNORECASE)


_HALF = re.compile(r"\bhalf\b|\bполовин\w*", re.IGNORECASE)
_ASIDE = re.compile(r"\s*\(([^()\n]{1,80})\)")


def _reason_aside(aside: str, today: date) -> bool:
    """An aside that is a reason and nothing else: no object, no doubt, nothing left but
    function words once the reason is taken out ("never arrived", «не доставили»)."""
    rest = _words(_strip_reasons(aside))
    return (
        not _DOUBT.search(aside)
        and not _RETRACTED.search(aside)
        and rest != _words(aside)
        and all(w in STOPWORDS for w in rest)
        and _target(aside, TRANSACTION_KIND, today).empty
    )


# "Dispute the difference", «оспорьте разницу»: a part, priced by the figures the message gives.
_DIFFERENCE = re.compile(r"\bdifference\b|\bразниц\w*", re.IGNORECASE)
# A price said against another is the story of a part, not a doubt: "my receipt says 21,760",
# "instead of the promo price", «8 400 вместо 6 900».
_PRICE_STORY = re.compile(
    r"\b(?:receipt|bill|check|price|tag|menu|website|site|app|shelf)\s+(?:\w+\s+){0,2}?"
    r"(?:says|said|shows|showed)\s*:?\s*(?=\d)"
    r"|\bthan (?:the|my|their|its) (?:receipt|bill|check|price|tag|menu|website|site|app|shelf)"
    r" (?:says|said|shows|showed)\b"
    r"|\binstead of (?:the )?(?:\w+ )?price\b|\d\s*(?:₸|тг|тенге)?\s+вместо\s+\d",
    re.IGNORECASE,
)


def _priced_part(target: TargetWords, own: TargetWords, clause: str) -> TargetWords:
    """The part a dispute asks for, where the message prices it: "dispute 2,000 of it —
    they charged 2,000 more" (the part said again is no charge's amount); "the receipt
    says 21,760, the bank shows 23,760 — dispute the difference" (the larger is the
    charge, the part is the difference); "charged 86,119, the ticket was 76,119 — dispute
    10,000" (a figure that is the difference of the other two is the part). Anything
    else is left as said: a part is granted only where the figures agree."""
    if target.partial or target.half:
        parts = set(target.partial)
        return replace(
            target,
            amounts=tuple(a for a in target.amounts if a not in parts),
            rounded=tuple(
                (v, slack) for v, slack in target.rounded if not any(abs(v - p) <= slack for p in parts)
            ),
        )
    figures = sorted({*target.amounts, *(v for v, _ in target.rounded)}, reverse=True)
    here = {*own.amounts, *(v for v, _ in own.rounded)}
    difference = bool(_DIFFERENCE.search(clause))
    charged = part = None
    if difference and not here and len(figures) == 2:
        charged, part = figures[0], figures[0] - figures[1]
    elif len(here) == 1:
        (said,) = here
        others = [f for f in figures if f != said]
        if len(others) == 2 and others[0] - others[1] == said:
            charged, part = others[0], said
        elif difference and len(others) == 1:
            charged, part = others[0] + said, said
    if charged is None or part is None or not 0 < part < charged:
        return target
    return replace(target, amounts=(charged,), rounded=(), partial=(part,))


def _is_cyrillic(token: str) -> bool:
    return bool(re.search("[а-яА-Я]", token))


def _is_operation_word(word: str) -> bool:
    return bool(
        _RU_IMPERATIVE.match(word)
        or _RU_INFINITIVE.match(word)
        or _RU_OPEN.match(word)
        or LEXICON.ru_noun(word)
    ) or word.startswith(LEXICON.operation_stems)


def _strip_reasons(text: str) -> str:
    for pattern in _REASON_RES.values():
        text = pattern.sub(" ", text)
    return text


def _reason(text: str, operation: str) -> str | None:
    """The reason the message gives for the operation, of those its words know (None for
    an operation that takes none)."""
    priority = _REASON_PRIORITY.get(operation, ())
    found = {code for code in priority if _REASON_RES[code].search(text)}
    if len(found) > 1 and "not_recognised" in found:
        found.discard("not_recognised")  # "I didn't receive it" also reads as "didn't"
    if len(found) > 1:
        # "The flight was cancelled and I never got a refund": the story's first cause
        # wins; the confirm card's reason picker offers the others.
        return next(code for code in priority if code in found)
    return next(iter(found), None)


_REASON_PRIORITY = LEXICON.reason_priority


# --- a loss reported: the customer's own card lost or stolen asks for it ------------------
# "I lost my card 4242", "my Visa was stolen", "someone took my card", "I can't find my card",
# «у меня украли карту», «карта пропала», «не могу найти кредитку»: a customer who reports
# their card lost has asked for what its words file's ``lost`` says. Only where the message
# asks for nothing on a card already (then the loss is the story of that request), and only
# a report said plainly: the clause that reports it is read again as that request ("block
# card 4242"), so every rule of the message — a doubt, a question, a refusal, "found it" —
# applies to it as to words the customer wrote. Who lost what is read here: the customer's
# own card (or the wallet or phone holding one), never someone else's, a loss long ago or
# one believed and not so ("I thought I'd lost it").
_LOSSES = LEXICON.lost
# Before the report: a greeting, an interjection, a filler ("oh no", "help", "ugh").
_EN_LEAD = _INTERJECTIONS | _EN_SOFTENERS | {"help", "damn", "dammit", "crap", "shit", "god", "argh", "guess"}
# Who lost it, and how it is said: "I", "I've just", "I think I", "we somehow".
_EN_LOSER = {
    "i",
    "we",
    "i've",
    "we've",
    "i'd",
    "have",
    "had",
    "just",
    "accidentally",
    "somehow",
    "already",
    "think",
    "totally",
    "completely",
    "literally",
    "apparently",
    "also",
    "again",
    "today",
    "yesterday",
    "tonight",
    "earlier",
    "recently",
    "seem",
    "seems",
    "to",
    "afraid",
    "i'm",
    "guess",
    "pretty",
    "sure",
}
# Who took it: someone unknown ("someone", "a pickpocket", "they"), never a person named.
_EN_THIEF = {
    "someone",
    "somebody",
    "some",
    "guy",
    "man",
    "woman",
    "person",
    "people",
    "thief",
    "thieves",
    "pickpocket",
    "pickpockets",
    "robber",
    "robbers",
    "stranger",
    "kid",
    "kids",
    "they",
    "a",
    "an",
    "the",
    "has",
    "have",
    "had",
    "just",
    "somehow",
    "probably",
}
# Of those, the ones that are the taker ("I think *someone* stole it", never "I stole").
_EN_AGENTS = _EN_THIEF - {"a", "an", "the", "has", "have", "had", "just", "somehow", "probably", "some"}
# What is lost when the card's noun comes first: "my card PIN" is the PIN, not the card.
_EN_CARD_PARTS = {
    "pin",
    "password",
    "code",
    "details",
    "number",
    "receipt",
    "statement",
    "cover",
    "case",
    "sleeve",
    "reader",
    "limit",
    "info",
    "information",
    "data",
    "holder",
}
# Between the card and its state: "was", "has been", "got", "went" (missing), "is now".
_EN_STATE_AUX = {
    "was",
    "were",
    "is",
    "are",
    "has",
    "have",
    "had",
    "been",
    "got",
    "went",
    "just",
    "now",
    "already",
}
_EN_OWN = {"my", "our"}
_EN_DETERMINERS = _EN_OWN | {"the", "this", "that"}
# What a card is called, and what holds one ("my wallet with both cards in it").
_EN_CARD_NOUNS = {"card", "cards", "card's", "cc", "creditcard", "debitcard"}
_EN_HOLDERS = {"wallet", "wallet's", "purse", "bag", "handbag", "backpack", "phone", "phone's", "cardholder"}
# Words that end a card's description before its noun: "money on my card" is no card lost.
_EN_NOT_A_MODIFIER = {
    "on",
    "at",
    "in",
    "with",
    "from",
    "for",
    "to",
    "of",
    "and",
    "or",
    "by",
    "about",
    "his",
    "her",
    "their",
    "your",
    "its",
    "money",
    "cash",
    "pin",
    "receipt",
    "password",
    "code",
    "details",
    "number",
}
# After a card's label, what may follow it for the label to be the card ("my visa at the
# gym"), not a word of something else ("my gold chain", "my master key").
_EN_AFTER_LABEL = {
    "at",
    "on",
    "in",
    "with",
    "from",
    "near",
    "somewhere",
    "anywhere",
    "since",
    "after",
    "before",
    "yesterday",
    "today",
    "tonight",
    "this",
    "last",
    "and",
    "or",
    "but",
    "was",
    "were",
    "is",
    "are",
    "has",
    "have",
    "had",
    "got",
    "went",
    "just",
    "again",
    "too",
    "ending",
    "ends",
    "while",
    "when",
    "during",
    "outside",
    "earlier",
    "please",
    "pls",
    "now",
    "i",
}
_EN_CANT = {"can't", "cannot", "couldn't", "cant", "couldnt"}
# People other than the customer: their card is not the customer's to block.
_OTHERS = {
    "he",
    "she",
    "his",
    "her",
    "hers",
    "him",
    "their",
    "theirs",
    "them",
    "your",
    "friend",
    "husband",
    "wife",
    "mom",
    "mum",
    "mother",
    "dad",
    "father",
    "son",
    "daughter",
    "brother",
    "sister",
    "boyfriend",
    "girlfriend",
    "partner",
    "colleague",
    "grandma",
    "grandpa",
    "grandmother",
    "grandfather",
    "child",
    "neighbour",
    "neighbor",
    "boss",
    "roommate",
    "client",
    "nobody",
    "он",
    "она",
    "они",
    "его",
    "ее",
    "их",
    "ему",
    "ей",
    "им",
    "него",
    "нее",
    "нему",
    "ней",
    "ним",
    "них",
    "мама",
    "маму",
    "мамы",
    "маме",
    "папа",
    "папы",
    "муж",
    "мужа",
    "жена",
    "жены",
    "сын",
    "сына",
    "дочь",
    "дочка",
    "дочки",
    "друг",
    "друга",
    "подруга",
    "подруги",
    "брат",
    "брата",
    "сестра",
    "сестры",
    "бабушка",
    "бабушки",
    "дедушка",
    "дедушки",
    "ребенок",
    "ребенка",
    "коллега",
    "коллеги",
    "знакомый",
    "знакомая",
    "сосед",
    "соседка",
    "клиент",
    "никто",
}
# A possessive other than the card's own: "my friend's card" is the friend's.
_EN_OWN_POSSESSIVES = {
    "card's",
    "it's",
    "that's",
    "there's",
    "here's",
    "what's",
    "wallet's",
    "phone's",
    "visa's",
}
# A loss long ago, nearly or only believed (or dreamt): the story, not a request.
_LONG_AGO = re.compile(
    r"\b(?:last year|years? ago|a while ago|once|used to|thought|believed|almost|nearly|dream\w*|"
    r"in (?:19|20)\d\d|в прошлом году|(?:год|года|лет) назад|когда-то|однажды|давно|думал\w*|казалось|"
    r"показалось|почти|едва|во сне|снилось|приснилось|в (?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# A message that says the card was found again, or replaced already: its loss asks for
# nothing now ("… it's been found", "I already have a new one", «перевыпустили»).
_SINCE_SETTLED = re.compile(
    r"\b(?:found|turned up|showed up|replaced|reissued|нашл\w*|нашел\w*|отыскал\w*|"
    r"перевыпустил\w*|перевыпущен\w*)\b"
    r"|\b(?:got|have|has|received|already)\b(?:\s+\w+){0,3}?\s+(?:new card|new one|replacement)\b"
    r"|\b(?:уже|получил\w*)\b(?:\s+\w+){0,3}?\s+нов\w+ карт\w*",
    re.IGNORECASE,
)
# What a card's loss is not: a card gone from the app or a list is a fault, not a loss.
_NOT_A_LOSS = re.compile(
    r"\b(?:app|application|website|site|list|screen|приложени\w*|сайт\w*|списк\w*|экран\w*)\b", re.IGNORECASE
)
# Russian: a card as the object of the verb («потеряла карту», accusative) or as the one lost
# («карта пропала», nominative), and what holds one («кошелек с картами»).
_RU_CARD_OBJECT = re.compile(
    r"^(?:карт[уы]|карточк[уи]|кредитк[уи]|дебетк[уи]|виз[уы]|визк[уи]|виртуалк[уи]|мастеркард\w*|голд\w*)$"
)
_RU_CARD_SUBJECT = re.compile(
    r"^(?:карт[аы]|карточк[аи]|кредитк[аи]|дебетк[аи]|виз[аы]|визк[аи]|виртуалк[аи]|мастеркард|голд)$"
)
_RU_HOLDER_OBJECT = re.compile(r"^(?:кошел[её]к|бумажник|сумк[уи]|телефон|рюкзак|портмоне|смартфон)$")
_RU_HOLDER_SUBJECT = re.compile(r"^(?:кошел[её]к|бумажник|сумк[аи]|телефон|рюкзак|портмоне|смартфон)$")
_RU_PREPOSITIONS = {
    "с",
    "со",
    "из",
    "на",
    "по",
    "от",
    "для",
    "за",
    "до",
    "у",
    "без",
    "про",
    "о",
    "об",
    "в",
    "во",
}
_RU_OWN = {"меня", "нас"}
_RU_CANT = {"могу", "можем", "смогла", "смог", "смогли", "получается"}
# Any card said in a sentence — its noun, digits or brand: a holder lost with one in it is
# that card lost ("my bag was stolen, my Visa was in it"). Not a use ("online").
_ANY_CARD = re.compile(
    r"\bcards?\b|\bкарт\w*|\bкредитк\w*|\bдебетк\w*|\bвиртуалк\w*|(?<![\d.,])\d{4}(?!\d|[.,]\d)|"
    + "|".join(
        rf"\b(?:{CARD_DESCRIPTORS[label]})\b"
        for label in ("visa", "mastercard", "debit", "credit", "gold", "virtual")
    ),
    re.IGNORECASE,
)


def _with_loss_reported(text: str, reading: Reading, today: date) -> Reading:
    """The reading, or — where the message asks for nothing on a card and is not unsure, and
    one of its clauses reports the customer's own card lost — the message read again with
    that clause said as the request it is. The second reading counts only where it stands
    as a plain request; else the first stands (a doubt anywhere, "found it", a question)."""
    if reading.unsure or not _LOSSES:
        return reading
    text = normalised(text or "").replace("ё", "е").replace("Ё", "Е")
    named = reading.mentioned | reading.offered | {r.operation for r in reading.requests}
    states = {op for word, op in _EN_PARTICIPLES.items() if re.search(rf"\b{re.escape(word)}\b", text, re.I)}
    if any(target_kind(op) == CARD_KIND for op in named | states) or _SINCE_SETTLED.search(text):
        return reading  # a card's request (or its state) is said: the loss is its story
    said, reported = _reports_said(text, today)
    if not reported:
        return reading
    again = _read(said, today=today)
    if again.unsure or not reported <= {r.operation for r in again.requests}:
        return reading
    return again


def losses_reported(text: str, today: date) -> frozenset[str]:
    """The operations a message's reports of a lost card ask for, whatever else it says
    ("I lost my card, block it" too): what its answer may say comes next (the offline
    model's sentence on what blocking does). Grants nothing: ``read_request`` decides."""
    return frozenset(_reports_said(normalised(text or "").replace("ё", "е").replace("Ё", "Е"), today)[1])


def _reports_said(text: str, today: date) -> tuple[str, set[str]]:
    """The message with each clause that reports a card lost said as the request it asks
    for, in the clause's language — its verb and the card as the clause names it ("block
    card 4242 visa"); and the operations so asked for."""
    reported: set[str] = set()
    parts: list[str] = []
    cursor = seen = 0
    for sentence in _sentences(text):
        for clause in _clauses(sentence):
            found = text.find(clause, seen)
            if found < 0:
                continue
            seen = found + len(clause)
            operation = _loss_reported(clause, sentence)
            spoken = list(_WORD.finditer(clause))
            if operation is None or not spoken:
                continue
            # Its words only: the punctuation around them still ends the sentence.
            start, end = found + spoken[0].start(), found + spoken[-1].end()
            english, russian = LEXICON.plain[operation]
            # The card as the clause names it; a card named in another clause of the story
            # counts as the story's always does (its digits: ``_digits_only``).
            named = _target(clause, CARD_KIND, today)
            cyrillic = sum(_is_cyrillic(w) for w in _words(clause)) * 2 > len(_words(clause))
            card = "карту" if cyrillic else "card"
            request = " ".join(
                [russian if cyrillic else english, card, *sorted(named.cards), *sorted(named.descriptors)]
            )
            parts += [text[cursor:start], request]
            cursor = end
            reported.add(operation)
    parts.append(text[cursor:])
    return "".join(parts), reported


def _loss_reported(clause: str, sentence: str) -> str | None:
    """The operation a clause asks for by reporting the customer's own card lost, or None:
    not a report at all, or not one said plainly (a doubt or a hedge in it, a negation, a
    loss long ago or only believed, another person's card, a card gone from the app)."""
    words = _words(clause)
    if (
        not words
        or _DOUBT.search(clause)
        or _HEDGE.search(clause)
        or _LONG_AGO.search(sentence)
        or _NOT_A_LOSS.search(clause)
        or any(w in _OTHERS for w in words)
    ):
        return None
    holder_fits = bool(_ANY_CARD.search(sentence))
    cyrillic = sum(_is_cyrillic(w) for w in words) * 2 > len(words)
    for operation, losses in _LOSSES.items():
        found = _ru_loss(words, losses, holder_fits) if cyrillic else _en_loss(words, losses, holder_fits)
        if found:
            return operation
    return None


def _en_loss(words: list[str], losses: LossWords, holder_fits: bool) -> bool:
    """English: "I('ve) lost my card", "my card 4242 was stolen", "someone took my Visa",
    "I can't find my debit card", "got my card stolen" — from the clause's start."""
    if any((w in _NEGATIONS or w.endswith("n't")) and w not in _EN_CANT for w in words):
        return False
    if any(w.endswith("'s") and w not in _EN_OWN_POSSESSIVES for w in words):
        return False  # "my friend's card"
    start = 0
    while start < len(words) and words[start] in _EN_LEAD:
        start += 1
    words = words[start:]
    for index, word in enumerate(words):
        before, after = words[:index], words[index + 1 :]
        if word in losses.en_done and all(w in _EN_LOSER for w in before):
            return _en_card(after, holder_fits, own=False)
        if word in losses.en_unfound and index and words[index - 1] in _EN_CANT:
            return all(w in _EN_LOSER for w in before[:-1]) and _en_card(after, holder_fits, own=False)
        if (
            word in losses.en_taken
            and any(w in _EN_AGENTS for w in before)
            and all(w in _EN_THIEF or w in _EN_LOSER for w in before)
        ):
            # "someone took my card", "I think a pickpocket stole my wallet with my Visa"
            return _en_card(after, holder_fits, own=True)
        if word in losses.en_state:
            return _en_state(before, holder_fits)
    return False


def _en_state(before: list[str], holder_fits: bool) -> bool:
    """ "my card 4242 was stolen", "card lost", "my visa's gone", "(I) got my card stolen"."""
    having = before[1:] if before[:1] in (["i"], ["we"]) else before
    if having[:1] in (["got"], ["had"]):
        return _en_card(having[1:], holder_fits, own=True, whole=True)
    end = len(before)
    while end and before[end - 1] in _EN_STATE_AUX:
        end -= 1
    return _en_card(before[:end], holder_fits, own=False, whole=True)


def _en_card(words: list[str], holder_fits: bool, *, own: bool, whole: bool = False) -> bool:
    """The words begin with the customer's card: "my card", "the card ending 4242", "my
    debit card", "my Visa", "card 4242", "my wallet" (where the sentence names a card);
    ``own``: said as theirs ("my"); ``whole``: nothing after it but its digits."""
    index = 0
    if words[:1] and words[0] in _EN_DETERMINERS:
        if own and words[0] not in _EN_OWN:
            return False
        index = 1
    elif own:
        return False
    for position in range(index, min(index + 4, len(words))):
        word = words[position]
        following = words[position + 1] if position + 1 < len(words) else None
        if word in _EN_NOT_A_MODIFIER | _EN_STATE_AUX | _QUESTION_START | _EN_DETERMINERS | _EN_LOSER:
            return False
        label = any(pattern.fullmatch(word) for pattern in DESCRIPTOR_PATTERNS.values())
        if (
            word in _EN_CARD_NOUNS
            or (word in _EN_HOLDERS and holder_fits)
            or (label and (following is None or following in _EN_AFTER_LABEL or following in _EN_CARD_NOUNS))
            or (re.fullmatch(r"\d{4}", word) and position == index == 1)  # "my 4242"
        ):
            if word not in _EN_CARD_NOUNS and following in _EN_CARD_NOUNS:
                continue  # "my debit card": the noun is the card
            if following in _EN_CARD_PARTS:
                return False  # "my card PIN"
            rest = words[position + 1 :]
            return not whole or all(
                re.fullmatch(r"\d{4}", w) or w in {"ending", "in", "with", "number", "no"} for w in rest
            )
    return False


def _ru_loss(words: list[str], losses: LossWords, holder_fits: bool) -> bool:
    """Russian, in any order: «я потеряла карту 4242», «у меня украли кредитку», «карта
    пропала», «не могу найти визу», «потерялась карточка», «кошелек с картами украли»."""
    for index, word in enumerate(words[:-1]):
        if word == "у" and words[index + 1] not in _RU_OWN:
            return False  # «у мамы украли карту»: someone else's
    verbs = [
        (i, w)
        for i, w in enumerate(words)
        if w in losses.ru_done | losses.ru_taken | losses.ru_state
        or (w in losses.ru_unfound and _ru_cant(words[:i]))
    ]
    if len(verbs) != 1:
        return False
    index, verb = verbs[0]
    unfound = verb in losses.ru_unfound
    negations = [i for i, w in enumerate(words) if w in ("не", "ни", "нет", "никто")]
    if negations and not (
        unfound and negations == [next(i for i in range(index, -1, -1) if words[i] == "не")]
    ):
        return False
    subject = verb in losses.ru_state
    card, holder = (_RU_CARD_SUBJECT, _RU_HOLDER_SUBJECT) if subject else (_RU_CARD_OBJECT, _RU_HOLDER_OBJECT)
    for position, word in enumerate(words):
        if position == index or (position and words[position - 1] in _RU_PREPOSITIONS):
            continue
        if (
            card.match(word)
            or (holder.match(word) and holder_fits)
            or (not subject and re.fullmatch(r"\d{4}", word))
        ):
            return True
    return False


def _ru_cant(before: list[str]) -> bool:
    """«не могу найти», «нигде не нахожу», «не найду»: the card not found, said plainly."""
    return bool(before) and (
        before[-1] == "не" or (len(before) >= 2 and before[-2] == "не" and before[-1] in _RU_CANT)
    )
