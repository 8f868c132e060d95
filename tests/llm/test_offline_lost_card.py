"""A lost or stolen card (customer issue, point 7): after the block is proposed, the
offline model says what blocking does and that a replacement is ordered in the bank's
app or at a branch (this chat cannot order one), in the customer's language."""

from __future__ import annotations

import pytest

from tests.llm.offline_chat import Chat, tool_result

PROPOSED = tool_result(
    "awaiting_confirmation", tool="block_card", proposal="P-1", summary="Block card Visa •••• 4242"
)


@pytest.mark.parametrize(
    ("said", "words"),
    [
        (
            "I lost my card 4242",
            ["blocked at once", "replacement in the bank's app or at a branch", "Confirm"],
        ),
        ("my card 4242 was stolen", ["no payments or cash withdrawals", "can't order one from this chat"]),
        ("Я потерял карту 4242", ["заблокирована сразу", "в приложении банка или в отделении"]),
        ("у меня украли карту 4242", ["нельзя будет платить", "из этого чата заказать её я не могу"]),
        # Said in words the mandate reads as a loss (tools/grammar.py, losses_reported).
        ("I can't find my card 4242 anywhere", ["blocked at once", "replacement in the bank's app"]),
        ("someone took my card 4242", ["blocked at once", "replacement in the bank's app"]),
        ("карта 4242 пропала", ["заблокирована сразу", "в приложении банка или в отделении"]),
        ("не могу найти карту 4242", ["заблокирована сразу", "в приложении банка или в отделении"]),
    ],
)
def test_a_lost_card_block_says_what_comes_next(careful: Chat, said: str, words: list[str]) -> None:
    message = careful.reply(careful.turn(said, ("block_card", {"card": "4242"}, PROPOSED)))
    for word in words:
        assert word in (message.content or "")


@pytest.mark.parametrize("said", ["block my card 4242", "заблокируй карту 4242"])
def test_a_plain_block_says_nothing_of_a_replacement(careful: Chat, said: str) -> None:
    message = careful.reply(careful.turn(said, ("block_card", {"card": "4242"}, PROPOSED)))
    assert "replacement" not in (message.content or "")
    assert "приложении банка" not in (message.content or "")
