"""A card support staff proposed reaches every open view of the conversation once it
is committed — appended to the messages, labelled with who proposed it, in each
socket's language — and no other customer's socket (bankbot/staff_proposals.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from bankbot.staff_proposals import StaffProposalRefused, propose_for_customer

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def propose(conversation, staff, card="4242", *, name="Aigerim"):
    staff.first_name = name
    staff.save(update_fields=["first_name"])
    return propose_for_customer(
        conversation=conversation, staff=staff, tool="block_card", arguments={"card": card}
    )


@pytest.mark.parametrize(
    ("lang", "label"),
    [("en", "Proposed by Aigerim from support"), ("ru", "Предлагает Aigerim из поддержки")],
)
async def test_the_card_is_pushed_to_every_open_view_of_the_conversation(
    connect, alice, bob, alice_conversation, bob_conversation, staff, lang, label
):
    tab, connected = await connect(alice_conversation, user=alice.user, lang=lang)
    other_tab, _ = await connect(alice_conversation, user=alice.user, lang=lang)
    bobs, _ = await connect(bob_conversation, user=bob.user)
    assert connected

    proposal = await propose(alice_conversation, staff)

    for view in (tab, other_tab):
        pushed = await view.receive_from(timeout=5)
        assert 'hx-swap-oob="beforeend:#messages"' in pushed
        assert f'id="proposal-{proposal.public_id}"' in pushed and "proposal--pending" in pushed
        assert f'<p class="proposal__by" role="note">{label}</p>' in pushed
        assert f"/proposals/{proposal.public_id}/confirm" in pushed
    assert await bobs.receive_nothing(timeout=0.3)
    for view in (tab, other_tab, bobs):
        await view.disconnect()


async def test_nothing_is_pushed_before_the_commit_nor_for_a_refusal(
    connect, alice, alice_conversation, staff
):
    tab, _ = await connect(alice_conversation, user=alice.user)

    @database_sync_to_async
    def propose_then_roll_back():
        with pytest.raises(RuntimeError), transaction.atomic():
            propose_for_customer(
                conversation=alice_conversation, staff=staff, tool="block_card", arguments={"card": "4242"}
            )
            raise RuntimeError("the caller's transaction fails")

    await propose_then_roll_back()
    with pytest.raises(StaffProposalRefused):
        await propose(alice_conversation, staff, card="9999")

    assert await tab.receive_nothing(timeout=0.3)
    await tab.disconnect()


async def test_a_socket_back_after_a_drop_is_sent_the_card_it_missed_once(
    connect, alice, alice_conversation, staff
):
    """The push went while the socket was away: on connecting again it is sent the card,
    first removed where the page may have it already, so it shows once."""
    rendered = int(timezone.now().timestamp()) - 1  # the page, before the proposal
    proposal = await propose(alice_conversation, staff)

    back, _ = await connect(alice_conversation, user=alice.user, lang=f"ru&rendered={rendered}")
    caught_up = await back.receive_from(timeout=5)

    removed = f'<div id="staff-proposal-{proposal.public_id}" hx-swap-oob="delete"></div>'
    assert caught_up.index(removed) < caught_up.index('hx-swap-oob="beforeend:#messages"')
    assert f'id="proposal-{proposal.public_id}"' in caught_up
    assert "Предлагает Aigerim из поддержки" in caught_up
    assert await back.receive_nothing(timeout=0.2)
    await back.disconnect()
    first, _ = await connect(alice_conversation, user=alice.user)  # a page rendered after it
    assert await first.receive_nothing(timeout=0.2)
    await first.disconnect()
