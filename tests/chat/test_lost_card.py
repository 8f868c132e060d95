"""A lost or stolen card, said in the customer's words, without JavaScript: the block is
proposed for that card, and once confirmed the card says it is blocked, what that means and
where a replacement is ordered — in the page's language."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from accounts.models import Card
from tools.catalog import CATALOG
from tools.models import Proposal

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

SAYS = {
    "en": {
        "lost": "I lost my card 4242",
        "blocked": "Card Visa •••• 4242 is blocked.",
        "means": "No new payments or cash withdrawals can be made with it.",
        "found": "If you find the card, you can unblock it here.",
        "next": "order a replacement in the bank's app or at a branch",
    },
    "ru": {
        "lost": "Я потеряла карту 4242",
        "blocked": "Карта Visa •••• 4242 заблокирована.",
        "means": "Новых платежей и снятия наличных по ней больше не будет.",
        "found": "Если карта найдётся, её можно разблокировать здесь.",
        "next": "Новую карту закажите в приложении банка или в отделении",
    },
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_card_reported_lost_is_proposed_and_once_blocked_says_what_comes_next(
    browser_for, alice, alice_conversation, lang
):
    says = SAYS[lang]
    client = browser_for(alice)
    client.post("/i18n/setlang/", {"language": lang, "next": "/"})
    client.post("/messages/", {"conversation": str(alice_conversation.public_id), "text": says["lost"]})

    proposal = Proposal.objects.get(conversation=alice_conversation)  # proposed, not buttons
    assert (proposal.tool, proposal.args, proposal.status) == ("block_card", {"card": "4242"}, "pending")
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE  # nothing done before the click

    response = client.post(
        f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200 and "proposal--executed" in html
    for sentence in ("blocked", "means", "found", "next"):
        assert escape(says[sentence]) in html, sentence
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED


def test_a_block_that_found_the_card_blocked_already_says_only_that():
    outcome = CATALOG["block_card"].outcome({"changed": False, "label": "Visa •••• 4242"})
    assert (outcome.sentence, outcome.after) == ("Card Visa •••• 4242 was already blocked.", "")


def test_the_fact_is_said_apart_from_what_it_means():
    # The card shows the fact in bold and what comes next below it, in plain weight.
    outcome = CATALOG["block_card"].outcome({"changed": True, "label": "Visa •••• 4242"})
    assert outcome.sentence == "Card Visa •••• 4242 is blocked."
    assert outcome.after.startswith("No new payments") and "replacement" in outcome.after
