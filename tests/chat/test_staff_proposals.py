"""Support staff may propose a write for the customer (bankbot/staff_proposals.py); only
the customer's click executes it. Each rule of ``propose_for_customer``: what it
accepts (a block, an unblock, a dispute of a row named by its reference, on the
conversation customer's own objects) and refuses, the labelled card, the trace naming
both people, and that no staff request can confirm it."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone, translation

from accounts.models import Card
from accounts.services import card_block
from bankbot.fragments import timeline
from bankbot.models import Message
from bankbot.staff_proposals import StaffProposalRefused, propose_for_customer
from errors import NotFound
from tests.factories import make_proposal
from tools.models import Confirmation, Proposal, ToolCallTrace
from tools.proposals import proposal_confirm

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
Event = ToolCallTrace.Event


@pytest.fixture
def aigerim(staff):
    staff.first_name = "Aigerim"
    staff.save(update_fields=["first_name"])
    return staff


def propose(conversation, staff, tool="block_card", **arguments):
    return propose_for_customer(
        conversation=conversation, staff=staff, tool=tool, arguments=arguments or {"card": "4242"}
    )


def refusal(conversation, staff, tool="block_card", arguments=None):
    with pytest.raises(StaffProposalRefused) as refused:
        propose_for_customer(
            conversation=conversation,
            staff=staff,
            tool=tool,
            arguments={"card": "4242"} if arguments is None else arguments,
        )
    assert not Proposal.objects.exists()  # nothing was proposed
    assert not conversation.messages.exists()  # and nothing joined the conversation
    return refused.value


def confirm(client, proposal):
    return client.post(f"/proposals/{proposal.public_id}/confirm", {"digest": proposal.args_digest}, **HTMX)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- what staff may propose -----------------------------------------------------------


def test_staff_propose_a_block_of_the_customers_card_and_nothing_happens_yet(alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim, card="4242")

    assert proposal.status == Proposal.Status.PENDING
    assert proposal.customer == alice_conversation.customer
    assert proposal.proposed_by == aigerim
    assert proposal.tool == "block_card" and proposal.args == {"card": "4242"}
    assert proposal.summary == "Block card Visa •••• 4242"
    assert len(proposal.args_digest) == 64 and proposal.expires_at > proposal.created_at
    # Proposed only: the card is active, and nobody has confirmed anything.
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
    assert not Confirmation.objects.exists()
    note = alice_conversation.messages.get()
    assert note.role == Message.Role.SYSTEM
    assert note.payload == {"kind": "staff_proposal", "proposal": proposal.reference, "staff": "Aigerim"}
    assert "not from the customer" in note.text and "only the customer's click" in note.text


def test_staff_propose_an_unblock_of_a_card_the_customer_blocked(alice_conversation, aigerim):
    card_block(customer=alice_conversation.customer, last4="5505", idempotency_key=uuid.uuid4())

    proposal = propose(alice_conversation, aigerim, "unblock_card", card="5505")

    assert (proposal.tool, proposal.args, proposal.proposed_by) == ("unblock_card", {"card": "5505"}, aigerim)


def test_staff_cannot_propose_lifting_a_block_the_bank_made(alice_conversation, aigerim):
    Card.objects.filter(last4="5505").update(
        status=Card.Status.BLOCKED, blocked_at=timezone.now(), blocked_by=Card.BlockedBy.BANK
    )

    refused = refusal(alice_conversation, aigerim, "unblock_card", {"card": "5505"})

    assert refused.code == "card_blocked_by_bank"


def test_staff_propose_a_dispute_of_a_row_named_by_its_reference(alice_conversation, aigerim):
    proposal = propose(
        alice_conversation,
        aigerim,
        "raise_dispute",
        transaction="T-1001",
        amount="15000.00",
        reason="cancelled",
    )

    assert proposal.tool == "raise_dispute"
    assert proposal.args == {"transaction": "T-1001", "amount": "15000.00", "reason": "cancelled"}
    assert proposal.summary.startswith("Dispute 15,000.00")


# --- what staff may not -----------------------------------------------------------------


def test_a_foreign_card_is_refused_exactly_like_an_unknown_one(alice_conversation, bob, aigerim):
    foreign = refusal(alice_conversation, aigerim, arguments={"card": "1111"})  # Bob's
    unknown = refusal(alice_conversation, aigerim, arguments={"card": "9999"})

    assert foreign.code == unknown.code == "target_not_found"
    assert foreign.message == "The customer has no card ending in 1111. Only their own cards can be named."
    assert unknown.message == foreign.message.replace("1111", "9999")


def test_a_dispute_of_a_row_not_the_customers_is_refused(alice_conversation, bob, aigerim):
    refused = refusal(
        alice_conversation,
        aigerim,
        "raise_dispute",
        {"transaction": "T-2001", "amount": "7000.00", "reason": "not_recognised"},  # Bob's
    )

    assert refused.code == "target_not_found"
    assert "The customer has no transaction T-2001" in refused.message


def test_a_dispute_names_its_row_by_reference_not_by_description(alice_conversation, aigerim):
    refused = refusal(
        alice_conversation,
        aigerim,
        "raise_dispute",
        {"transaction": "Magnum Cash&Carry", "amount": "15000.00", "reason": "not_recognised"},
    )

    assert refused.code == "invalid_arguments" and "transaction" in refused.message


def test_an_unknown_tool_is_refused(alice_conversation, aigerim):
    refused = refusal(alice_conversation, aigerim, "transfer_money", {"amount": "1"})

    assert refused.code == "unknown_tool"
    assert refused.message == (
        "There is no action called “transfer_money”. "
        "Staff can propose: block_card, unblock_card, raise_dispute."
    )


def test_a_read_tool_is_refused(alice_conversation, aigerim):
    refused = refusal(alice_conversation, aigerim, "get_balance", {})

    assert refused.code == "read_tool"
    assert "only reads the customer's data" in refused.message


@pytest.mark.parametrize(
    ("tool", "arguments", "named"),
    [
        ("block_card", {"card": "42"}, "card"),
        ("block_card", {}, "card"),
        ("block_card", {"card": "4242", "account_id": "1"}, "account_id"),
        ("raise_dispute", {"transaction": "T-1001", "amount": "lots", "reason": "not_recognised"}, "amount"),
        ("raise_dispute", {"transaction": "T-1001", "amount": "15000.00", "reason": "because"}, "reason"),
        ("block_card", ["4242"], "named fields"),
    ],
)
def test_malformed_arguments_are_refused(alice_conversation, aigerim, tool, arguments, named):
    refused = refusal(alice_conversation, aigerim, tool, arguments)

    assert refused.code == "invalid_arguments"
    assert named in refused.message


def test_a_business_rule_refuses_as_it_does_the_model(alice_conversation, aigerim):
    card_block(customer=alice_conversation.customer, last4="4242", idempotency_key=uuid.uuid4())

    refused = refusal(alice_conversation, aigerim)

    assert refused.code == "card_already_blocked"


def test_only_active_staff_may_propose(alice_conversation, bob, aigerim):
    assert refusal(alice_conversation, bob.user).code == "not_staff"  # a customer
    aigerim.is_active = False
    assert refusal(alice_conversation, aigerim).code == "not_staff"


def test_staff_cannot_propose_in_their_own_conversation_as_a_customer(alice, alice_conversation):
    alice.user.is_staff = True
    alice.user.save(update_fields=["is_staff"])

    assert refusal(alice_conversation, alice.user).code == "own_conversation"


def test_a_refusal_is_in_the_staff_members_language_and_on_the_record(alice_conversation, aigerim):
    with translation.override("ru"):
        refused = refusal(alice_conversation, aigerim, arguments={"card": "9999"})
        said = refused.message

    assert (
        said == "У клиента нет карты с последними цифрами 9999. Можно указать только его собственные карты."
    )
    row = ToolCallTrace.objects.get()
    assert (row.event, row.decision, row.reason_code) == (Event.DENIED, "deny", "target_not_found")
    assert row.proposer == aigerim and row.conversation_id == alice_conversation.pk
    assert row.reason.endswith("The customer has no card ending in 9999. Only their own cards can be named.")


# --- the card ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "name", "label"),
    [
        ("en", "Aigerim", "Proposed by Aigerim from support"),
        ("ru", "Айгерим", "Предлагает Айгерим из поддержки"),
    ],
)
def test_the_card_is_labelled_with_who_proposed_it_in_the_pages_language(
    alice, alice_conversation, aigerim, lang, name, label
):
    aigerim.first_name = name
    aigerim.save(update_fields=["first_name"])
    proposal = propose(alice_conversation, aigerim)
    client = signed_in(alice.user)
    client.cookies["django_language"] = lang

    html = client.get(f"/c/{alice_conversation.public_id}/").content.decode()

    assert f'id="proposal-{proposal.public_id}"' in html and "proposal--pending" in html
    assert f'<p class="proposal__by" role="note">{label}</p>' in html
    assert f"/proposals/{proposal.public_id}/confirm" in html  # the same confirm card


def test_the_label_falls_back_to_the_login_name_and_is_escaped(alice, alice_conversation, staff):
    staff.username = "<b>sup</b>"
    staff.save(update_fields=["username"])
    propose(alice_conversation, staff)

    html = signed_in(alice.user).get(f"/c/{alice_conversation.public_id}/").content.decode()

    assert "Proposed by &lt;b&gt;sup&lt;/b&gt; from support" in html


def test_an_expired_staff_card_offers_no_ask_again(alice, alice_conversation, aigerim):
    """ "Ask again" sends the customer's own request again; a staff card answered none."""
    alice_conversation.messages.create(role=Message.Role.CUSTOMER, text="Hello, is anyone there?")
    proposal = propose(alice_conversation, aigerim)
    Proposal.objects.filter(pk=proposal.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    html = signed_in(alice.user).get(f"/c/{alice_conversation.public_id}/").content.decode()

    assert "proposal--expired" in html and "Proposed by Aigerim from support" in html
    assert "proposal__again" not in html and 'value="Hello, is anyone there?"' not in html


def test_a_card_the_assistant_proposed_has_no_such_label(alice, alice_conversation):
    make_proposal(alice_conversation, card="4242")

    html = signed_in(alice.user).get(f"/c/{alice_conversation.public_id}/").content.decode()

    assert "proposal__by" not in html


def test_a_reload_shows_the_card_where_it_was_proposed(alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim)

    items = timeline(alice_conversation)

    assert [item["kind"] for item in items] == ["staff_proposal"]
    assert items[0]["proposal"] == proposal


# --- only the customer's click ------------------------------------------------------------


def test_the_customers_click_executes_it_and_the_trace_names_both(alice, alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim)

    response = confirm(signed_in(alice.user), proposal)

    assert response.status_code == 200
    html = response.content.decode()
    assert "proposal--executed" in html and "Proposed by Aigerim from support" in html
    assert Card.objects.get(last4="4242").status == Card.Status.BLOCKED
    proposed = ToolCallTrace.objects.get(event=Event.PROPOSED)
    assert (proposed.proposer, proposed.approver, proposed.proposal) == (aigerim, None, proposal)
    assert proposed.result["proposed_by"] == "Aigerim" and proposed.reason_code == "staff_proposal"
    executed = ToolCallTrace.objects.get(event=Event.EXECUTED)
    assert (executed.proposer, executed.approver) == (aigerim, alice.user)
    assert Confirmation.objects.get(proposal=proposal).approver == alice.user


def test_confirming_twice_is_one_action_with_identical_responses(alice, alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim)
    client = signed_in(alice.user)

    first = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    again = proposal_confirm(user=alice.user, public_id=proposal.public_id, digest=proposal.args_digest)
    via_the_page = confirm(client, proposal)

    assert (first.replayed, again.replayed) == (False, True)
    assert first.response == again.response
    assert via_the_page.status_code == 200 and "proposal--executed" in via_the_page.content.decode()
    assert Confirmation.objects.count() == 1
    replayed = ToolCallTrace.objects.filter(event=Event.REPLAYED)
    assert replayed.count() == 2
    assert {(row.proposer, row.approver) for row in replayed} == {(aigerim, alice.user)}


def test_proposing_executes_nothing(alice_conversation, aigerim):
    propose(alice_conversation, aigerim)
    propose(
        alice_conversation,
        aigerim,
        "raise_dispute",
        transaction="T-1001",
        amount="15000.00",
        reason="cancelled",
    )

    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
    assert not alice_conversation.customer.disputes.exists()
    assert set(ToolCallTrace.objects.values_list("event", flat=True)) == {Event.PROPOSED}


def test_a_staff_session_posting_the_confirm_is_refused_and_nothing_is_executed(alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim)

    response = confirm(signed_in(aigerim), proposal)

    assert response.status_code == 403  # staff have no customer: the chat's views are not theirs
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.PENDING
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
    assert not Confirmation.objects.exists()


def test_staff_who_are_customers_too_confirming_it_get_not_found(alice_conversation, bob):
    bob.user.is_staff = True
    bob.user.save(update_fields=["is_staff"])
    proposal = propose(alice_conversation, bob.user)

    response = confirm(signed_in(bob.user), proposal)

    assert response.status_code == 404
    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.PENDING
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
    denied = ToolCallTrace.objects.get(event=Event.DENIED)
    assert (denied.reason_code, denied.approver, denied.proposer) == ("not_owner", bob.user, bob.user)


def test_the_confirm_refuses_the_staff_user_whoever_calls_it(alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim)

    with pytest.raises(NotFound):
        proposal_confirm(user=aigerim, public_id=proposal.public_id, digest=proposal.args_digest)

    proposal.refresh_from_db()
    assert proposal.status == Proposal.Status.PENDING
    assert Card.objects.get(last4="4242").status == Card.Status.ACTIVE
    assert not Confirmation.objects.exists()


# --- the trail in admin ---------------------------------------------------------------------


def test_the_conversations_trail_in_admin_names_the_proposer(alice_conversation, aigerim):
    proposal = propose(alice_conversation, aigerim)
    admin = get_user_model().objects.create_superuser(username="root", password="root-pw-123")

    page = signed_in(admin).get(f"/admin/bankbot/conversation/{alice_conversation.pk}/change/")
    proposals = signed_in(aigerim).get("/admin/tools/proposal/")
    trace = signed_in(aigerim).get("/admin/tools/toolcalltrace/")

    assert page.status_code == proposals.status_code == trace.status_code == 200
    html = re.sub(r"\s+", " ", page.content.decode())
    assert proposal.reference in html
    assert (
        f'<td class="field-proposed_by"> <p><a href="/admin/auth/user/{aigerim.pk}/change/">support</a></p>'
        in html
    )
    assert "support staff member Aigerim proposed" in html  # the note among the messages
    assert '<td class="field-proposed_by nowrap">support</td>' in proposals.content.decode()
    assert '<td class="field-proposer nowrap">support</td>' in trace.content.decode()


def test_a_disputes_trail_in_admin_names_who_proposed_it_and_who_confirmed_it(
    alice, alice_conversation, aigerim
):
    proposal = propose(
        alice_conversation,
        aigerim,
        "raise_dispute",
        transaction="T-1001",
        amount="15000.00",
        reason="cancelled",
    )
    confirm(signed_in(alice.user), proposal)
    dispute = alice.disputes.get()

    html = signed_in(aigerim).get(f"/admin/disputes/dispute/{dispute.pk}/change/").content.decode()

    assert "<tr><th>Proposed by</th><td>support (support staff)</td></tr>" in html
    assert "<tr><th>Confirmed by</th><td>alice</td></tr>" in html
    assert html.count("<td>support</td>") == 2  # the trace: proposed, executed
