"""When the chat offers "Talk to a specialist": decided by code, from the customer's own
words in their latest message (never a tool's output, never the model's answer), or
from the assistant having failed them twice in a row.

Three reasons, each stored with the offer and, once asked for, with the queue entry:
- ``asked``: the message asks for a person — a request verb near a word for a person
  (English or Russian), or a message that is hardly more than such a word;
- ``card_misuse``: a lost or stolen card that someone else is using;
- ``failed_twice``: the assistant's last two answers in the conversation were failures.

Precision first, as the grammar of writes: a person named in passing ("the person at
the shop charged me twice") is not a request for one.
"""

from __future__ import annotations

import re

from accounts.text import without_hidden
from bankbot.models import Conversation, Message

ASKED = "asked"
CARD_MISUSE = "card_misuse"
FAILED_TWICE = "failed_twice"
REASONS = (ASKED, CARD_MISUSE, FAILED_TWICE)

_PERSON_EN = (
    r"(?:human(?:\s+being)?|(?:real|live|actual)\s+(?:person|human|agent|people)|person|people|"
    r"operator|agent|representative|rep|specialist|consultant|advisor|adviser|manager|"
    r"someone\s+(?:real|from\s+(?:the\s+)?(?:bank|support))|somebody\s+real|staff|employee|"
    r"support\s+(?:team|staff|person|agent))"
)
_ASK_EN = (
    r"(?:talk|speak|chat|connect|transfer|put|get|want|need|give|let|reach|contact|call|"
    r"escalate|switch|pass|hand|redirect|bring)"
)
_PERSON_RU = (
    r"(?:оператор\w*|человек\w*|живо\w+\s+(?:человек\w*|люд\w*|сотрудник\w*|оператор\w*)|люд(?:и|ьми|ям)|"
    r"специалист\w*|сотрудник\w*|консультант\w*|менеджер\w*|работник\w*|"
    r"кого-(?:то|нибудь)\s+из\s+(?:банка|поддержки|сотрудников))"
)
_ASK_RU = (
    r"(?:позов\w*|позв\w*|соедин\w*|переключ\w*|переведи\w*|переведите|хочу|хотел\w*|дайте|дай|"
    r"можно|нужен|нужна|нужно|свяж\w*|связать\w*|поговор\w*|говорить|пообща\w*|обща\w*|"
    r"пригласи\w*|вызов\w*|вызови\w*|подключи\w*|передай\w*|требую)"
)
_WITHIN = r"(?:\W+\w+){0,5}?\W+"  # up to five words between the request and the person

_ASKS = [
    re.compile(rf"\b{_ASK_EN}{_WITHIN}(?:an?\s+|the\s+|your\s+|some\s+)?{_PERSON_EN}\b", re.IGNORECASE),
    re.compile(rf"\b{_PERSON_EN}\s+(?:i|we)\s+(?:can|could|may)\s+(?:talk|speak|chat)\b", re.IGNORECASE),
    re.compile(rf"(?<!\w){_ASK_RU}{_WITHIN}{_PERSON_RU}(?!\w)", re.IGNORECASE),
    re.compile(
        rf"(?<!\w){_PERSON_RU}{_WITHIN}(?:пожалуйста|нужен|нужна|позовите|дайте)(?!\w)", re.IGNORECASE
    ),
    # Someone, anyone, support itself: "can I speak to someone?", «соедините с поддержкой».
    re.compile(
        r"\b(?:talk|speak|chat)\s+(?:to|with)\s+(?:someone|somebody|anyone|anybody|support|"
        r"customer\s+(?:service|support)|(?:a|the)\s+support)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?<!\w)(?:поговорить|связаться|свяжите|соедините|позовите|переключите)\s+(?:меня\s+)?(?:с\s+|на\s+)?"
        r"(?:кем-(?:то|нибудь)|поддержк\w*|служб\w+\s+поддержки)",
        re.IGNORECASE,
    ),
]
# A message that is hardly more than the word: "Operator!", "human please", «оператора».
_ALONE = re.compile(
    rf"^\W*(?:(?:a|an|the|to|please|pls|i\s+want|give\s+me)\s+)?(?:{_PERSON_EN}|{_PERSON_RU})"
    r"(?:\s+(?:please|pls|now|пожалуйста|срочно))?\W*$",
    re.IGNORECASE,
)
# Not people for the customer to talk to: their own phone operator, a person named in passing.
_NOT_A_REQUEST = re.compile(
    r"\b(?:mobile|phone|cell|network|telecom|сотов\w*|мобильн\w*)\s+(?:operator|оператор\w*)", re.IGNORECASE
)

_CARD_LOST_EN = r"\b(?:lost|stolen|stole|missing|can't\s+find|cannot\s+find|misplaced)\b"
_SOMEONE_USES_EN = (
    r"\b(?:someone|somebody|some\s+one|a\s+stranger|they|thief|thieves)\b(?:\W+\w+){0,3}?\W+"
    r"(?:is\s+|are\s+|has\s+been\s+|have\s+been\s+|was\s+)?(?:using|used|spending|spent|paying|paid|"
    r"charging|charged|withdrawing|withdrew|buying|bought)\b"
)
_CARD_LOST_RU = (
    r"(?<!\w)(?:потерял\w*|потеря\w*|украл\w*|укради\w*|похитил\w*|пропал\w*|не\s+могу\s+найти)(?!\w)"
)
_SOMEONE_USES_RU = (
    r"(?<!\w)(?:кто-то|кто\s+то|кто-нибудь|вор\w*|мошенник\w*)(?:\W+\w+){0,3}?\W+"
    r"(?:пользу\w*|расплачива\w*|плат\w*|снима\w*|снял\w*|списыва\w*|списал\w*|трат\w*|покупа\w*|купил\w*)(?!\w)"
)
_CARD_MISUSE = [
    (re.compile(_CARD_LOST_EN, re.IGNORECASE), re.compile(_SOMEONE_USES_EN, re.IGNORECASE)),
    (re.compile(_CARD_LOST_RU, re.IGNORECASE), re.compile(_SOMEONE_USES_RU, re.IGNORECASE)),
]


def asks_for_person(text: str) -> bool:
    """Whether the customer's words ask to talk to a person, in English or Russian."""
    plain = " ".join(without_hidden(text).split())
    if not plain or _NOT_A_REQUEST.search(plain):
        return False
    return bool(_ALONE.match(plain)) or any(pattern.search(plain) for pattern in _ASKS)


def reports_card_misuse(text: str) -> bool:
    """A lost or stolen card that someone is using, in the customer's words."""
    plain = " ".join(without_hidden(text).split())
    return any(lost.search(plain) and uses.search(plain) for lost, uses in _CARD_MISUSE)


def reason_in(text: str) -> str | None:
    """Why the customer's own message calls for a person (``ASKED``, ``CARD_MISUSE``), or None."""
    if asks_for_person(text):
        return ASKED
    if reports_card_misuse(text):
        return CARD_MISUSE
    return None


def failed_twice(conversation: Conversation) -> bool:
    """Whether the conversation's last two answers were both failures (each stored with
    an ``error`` payload by the agent): the assistant could not help twice in a row."""
    answers = (
        conversation.messages.filter(role=Message.Role.ASSISTANT)
        .exclude(text="")
        .order_by("-id")
        .values_list("payload", flat=True)[:2]
    )
    failures = [isinstance(payload, dict) and bool(payload.get("error")) for payload in answers]
    return len(failures) == 2 and all(failures)
