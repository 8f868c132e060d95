"""An expired confirm card offers one click to ask again (customer issue, point 7): the
customer's request, sent again as their message. Nothing is carried out by it: the
action is proposed afresh and needs a fresh Confirm."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from bankbot.cards import proposal_card
from bankbot.models import Message
from tests.factories import make_proposal
from tools.models import Proposal

pytestmark = pytest.mark.django_db


def _asked(conversation, text):
    return Message.objects.create(conversation=conversation, role=Message.Role.CUSTOMER, text=text)


def test_an_expired_card_asks_again_with_the_request_it_answered(alice, alice_conversation):
    _asked(alice_conversation, "show my statement")
    _asked(alice_conversation, "I lost my card 4242")
    proposal = make_proposal(alice_conversation, card="4242")
    _asked(alice_conversation, "and what is my balance?")  # later: not what the card answered
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    card = proposal_card(Proposal.objects.get(pk=proposal.pk))
    assert card.state == "expired"
    assert card.ask_again == "I lost my card 4242"


def test_a_pending_card_has_no_ask_again(alice, alice_conversation):
    _asked(alice_conversation, "block my card 4242")
    assert proposal_card(make_proposal(alice_conversation, card="4242")).ask_again == ""


def test_an_expired_card_with_no_request_before_it_has_no_ask_again(alice, alice_conversation):
    proposal = make_proposal(alice_conversation, card="4242")
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert proposal_card(Proposal.objects.get(pk=proposal.pk)).ask_again == ""
