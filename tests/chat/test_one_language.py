"""One language per page (issue 15, point 7): a Russian page or answer holds no
English sentence from either catalogue — summaries, reasons, statuses, errors and
the offline model's answers included."""

from __future__ import annotations

import ast
import html
import re
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Card
from accounts.services import card_block
from disputes.models import Dispute
from disputes.services import dispute_review
from tests.factories import days_ago
from tools.models import Proposal

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
# The project's catalogues: the root one (templates, the chat) and each app's own.
CATALOGUES = sorted(ROOT.glob("*/locale/ru/LC_MESSAGES/django.po")) + [
    ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
]
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{\s*\w+\s*\}\}")


def msgids(po: Path) -> Iterator[str]:
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        text = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        match = re.search(r'^msgid ((?:"[^\n]*"\n?)+)', text, re.M)
        if match:
            yield "".join(re.findall(r'"(.*)"', match.group(1))).replace('\\"', '"')


GETTEXT = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}
SOURCES = ["accounts", "bankbot", "disputes", "tools", "support", "errors.py"]
TEMPLATE_STRINGS = re.compile(
    r'{%\s*translate\s+"([^"]+)"|{%\s*blocktranslate\b[^%]*%}(.*?){%\s*(?:plural|endblocktranslate)', re.S
)


def marked_strings() -> Iterator[str]:
    """Every string the code and templates mark for translation, whether or not a
    catalogue has it yet (a missing entry is English on a Russian page, too)."""
    for source in SOURCES:
        path = ROOT / source
        for file in [path] if path.is_file() else path.rglob("*.py"):
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in GETTEXT
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    yield str(node.args[0].value)
    for template in [
        *(ROOT / "templates").glob("*.html"),
        *(ROOT / "templates" / "bankbot").rglob("*.html"),
        *(ROOT / "templates" / "support").rglob("*.html"),
        *(ROOT / "templates" / "registration").rglob("*.html"),
    ]:
        for match in TEMPLATE_STRINGS.finditer(template.read_text(encoding="utf-8")):
            yield " ".join((match.group(1) or match.group(2)).split())


def sentence_patterns() -> dict[str, re.Pattern[str]]:
    """Each msgid (and each string marked for translation) with at least three
    English words outside its placeholders, as a pattern whose placeholders match
    any short run of text."""
    patterns = {}
    for msgid in {*marked_strings(), *(m for po in CATALOGUES for m in msgids(po))}:
        literal = PLACEHOLDER.split(msgid)
        if len(re.findall(r"[A-Za-z]+", " ".join(literal))) < 3:
            continue
        patterns[msgid] = re.compile(
            r".{1,80}?".join(r"\s+".join(re.escape(word) for word in part.split(" ")) for part in literal),
            re.S,
        )
    return patterns


def visible(page: str) -> str:
    """A page's text and attribute values, entities read, spaces made plain."""
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page + "\n" + text).replace("\u00a0", " ")


def english_in(pages: dict[str, str]) -> list[tuple[str, str]]:
    found = []
    for msgid, pattern in sentence_patterns().items():
        for name, page in pages.items():
            if pattern.search(visible(page)):
                found.append((name, msgid))
    return found


class RussianCustomer:
    """Alice on the Russian interface without JavaScript: every send runs a turn of
    the offline model and every click is a plain form post."""

    def __init__(self, client: Client, conversation) -> None:
        self.client, self.conversation = client, conversation

    def send(self, text: str = "", **ui: str) -> None:
        response = self.client.post(
            "/messages/",
            {
                "conversation": str(self.conversation.public_id),
                "text": text,
                "client_message_id": uuid.uuid4().hex,
                **ui,
            },
        )
        assert response.status_code == 302, response.content.decode()[:500]

    def latest(self, tool: str) -> Proposal:
        return Proposal.objects.filter(conversation=self.conversation, tool=tool).latest("id")

    def click(self, proposal: Proposal, verb: str = "confirm", digest: str | None = None) -> str:
        response = self.client.post(
            f"/proposals/{proposal.public_id}/{verb}",
            {"digest": digest or proposal.args_digest},
            HTTP_HX_REQUEST="true",
        )
        return response.content.decode()

    def page(self, url: str = "") -> str:
        return self.client.get(url or f"/c/{self.conversation.public_id}/").content.decode()


def expire(proposal: Proposal) -> None:
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() - timedelta(minutes=1))


@pytest.fixture
def russian(browser_for, alice, alice_conversation, monkeypatch) -> RussianCustomer:
    monkeypatch.setattr("bankbot.chat.RATE_LIMIT_MESSAGES", 1000)
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    return RussianCustomer(client, alice_conversation)


def test_the_catalogue_test_finds_an_english_sentence():
    patterns = sentence_patterns()
    assert patterns["Dispute %(amount)s of transaction %(transaction)s"].search(
        "Dispute 15 000,00 ₸ of transaction T-1001"
    )
    assert "Send" not in patterns  # a word, not a sentence


def test_a_russian_customer_reads_no_english_sentence(russian, alice, staff):
    pages: dict[str, str] = {}
    month = f"{timezone.localdate(days_ago(5)):%Y-%m}"
    # Questions the offline model answers, and requests it relays refusals of.
    for question in (
        f"покажи выписку за {month}",
        "покажи мои карты",
        "какой у меня баланс",
        f"сколько я потратил в {month}",
        "оспорь T-1002, я её не совершала",
        "заблокируй карту 9999",
    ):
        russian.send(question)
    # Each write tool: pending, executed, failed, declined and expired cards.
    russian.send(operation="block_card", target="4242")
    pages["block executed"] = russian.click(russian.latest("block_card"))
    russian.send("заблокируй карту 4242")  # already blocked: the model relays the refusal
    russian.send(operation="block_card", target="4242")  # a button's refusal
    russian.send(operation="unblock_card", target="4242")
    first_unblock = russian.latest("unblock_card")
    russian.send(operation="unblock_card", target="4242")
    second_unblock = russian.latest("unblock_card")
    pages["unblock executed"] = russian.click(first_unblock)
    # Blocked again, by the bank this time: the second unblock fails.
    card_block(customer=alice, last4="4242", idempotency_key=uuid.uuid4())
    Card.objects.filter(last4="4242").update(blocked_by=Card.BlockedBy.BANK)
    pages["unblock failed"] = russian.click(second_unblock)
    assert "proposal--failed" in pages["unblock failed"]
    russian.send(operation="raise_dispute", target="T-1001")
    first_dispute = russian.latest("raise_dispute")
    russian.send(operation="raise_dispute", target="T-1001", reason="charged_twice")
    second_dispute = russian.latest("raise_dispute")
    pages["dispute executed"] = russian.click(first_dispute)
    pages["dispute failed"] = russian.click(second_dispute)
    russian.send(operation="raise_dispute", target="T-1003")
    pages["dispute declined"] = russian.click(russian.latest("raise_dispute"), "decline")
    russian.send(operation="raise_dispute", target="T-1004", reason="wrong_amount")
    russian.send(operation="block_card", target="5505")
    expire(russian.latest("block_card"))
    card_block(customer=alice, last4="5505", idempotency_key=uuid.uuid4())
    russian.send(operation="unblock_card", target="5505")
    expire(russian.latest("unblock_card"))
    russian.send(operation="raise_dispute", target="T-1003", reason="not_received")
    expired_dispute = russian.latest("raise_dispute")
    expire(expired_dispute)
    pages["expired click"] = russian.click(expired_dispute)
    pages["changed click"] = russian.click(russian.latest("raise_dispute"), digest="0" * 64)
    # The bank's news, and the model's answer about the dispute.
    dispute = Dispute.objects.get()
    dispute_review(
        dispute=dispute,
        to_status=Dispute.Status.IN_REVIEW,
        note="Checking.",
        staff_user=staff,
        customer_note="",
    )
    russian.send(f"какой статус спора {dispute.reference}?")
    pages["chat"] = russian.page()
    pages["statement"] = russian.page(f"/statement/?month={month}")
    pages["old statement"] = russian.page(f"/statement/?month={timezone.localdate(days_ago(200)):%Y-%m}")
    pages["statement error"] = russian.page("/statement/?month=1999-01")
    assert "Выписка" in pages["statement"] and "проверьте" in pages["chat"].lower()
    found = english_in(pages)
    assert found == [], "\n".join(f"{name}: {msgid}" for name, msgid in found)


def test_amounts_read_the_russian_way_in_answers_cards_and_tables(russian):
    month = f"{timezone.localdate(days_ago(5)):%Y-%m}"
    russian.send(f"покажи выписку за {month}")
    russian.send(operation="raise_dispute", target="T-1001")
    page = russian.page()
    # The bank's words (not a merchant's): answers, the card's action and values, totals.
    said = [
        html.unescape(text)
        for text in re.findall(
            r'class="(?:bubble__text|proposal__summary|statement__total|panel__meta)"[^>]*>(.*?)<'
            r"|<dd>(.*?)</dd>",
            page,
            re.S,
        )
        for text in text
        if text
    ]
    assert [
        text
        for text in said
        if re.fullmatch("В выписке за .+ 2 операции на сумму 17\u00a0500,50\u00a0₸.", text)
    ]
    # The card's headline: amount, merchant, date and reference (customer issue, point 4).
    assert [
        text
        for text in said
        if re.fullmatch("Оспорить 15\u00a0000,00\u00a0₸ в Magnum Cash&Carry от .+ — T-1001", text)
    ]
    assert "15\u00a0000,00\u00a0₸" in said
    assert not [text for text in said if re.search(r"\d\.\d\d\b|KZT", text)]
