"""Every request the mandate cannot bind offers candidates, never a dead end (issue 22,
point 1): the customer's objects of that kind that best fit what they said, best first,
at most five. Offering grants nothing; only a click does (G7)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from accounts.models import Transaction
from bankbot.models import Conversation
from tools.mandate import Grant, Unbound, mandate_for


def unbound(customer, text: str, operation: str = "raise_dispute") -> Unbound:
    mandate = mandate_for(customer=customer, text=text)
    assert not mandate.grants, mandate
    found = mandate.unbound_for(operation)
    assert found is not None, mandate
    return found


def test_it_offers_the_merchant_a_misspelt_name_is_nearest_to(cara):
    found = unbound(cara, "please dispute the Magnm charge")
    assert found.problem == "no_match"
    assert set(found.candidates[:2]) == {"T-3003", "T-3008"}  # both Magnum rows first
    assert len(found.candidates) <= 5
    assert "nearest" in found.detail


def test_it_offers_the_most_recent_disputable_rows_when_nothing_was_described(cara):
    found = unbound(cara, "I want to dispute a payment")
    assert found.problem == "no_target"
    assert found.candidates == ("T-3009", "T-3004", "T-3001", "T-3002", "T-3010")


def test_it_never_offers_a_row_too_old_to_dispute(cara):
    found = unbound(cara, "please dispute the Sulpk charge")  # Sulpak: 200 days ago
    assert "T-3007" not in found.candidates
    assert found.candidates


def test_it_ranks_the_nearest_amount_first_when_the_amount_is_wrong(cara):
    found = unbound(cara, "please dispute the 98000 charge")  # Air Astana was 99000
    assert found.problem == "no_match"
    assert found.candidates[0] == "T-3005"


def test_it_ranks_the_nearest_day_first_when_the_date_is_wrong(cara):
    day = timezone.localdate() - timedelta(days=13)  # Yandex Go was 12 days ago
    found = unbound(cara, f"please dispute the Yandex Go charge on {day.day} {day:%B}")
    assert found.problem == "no_match"
    assert found.candidates[0] == "T-3006"


def test_it_keeps_only_the_matching_rows_when_several_match(cara):
    found = unbound(cara, "please dispute the Magnum charge")
    assert found.problem == "ambiguous"
    assert found.candidates == ("T-3003", "T-3008")
    assert found.detail.endswith("which one?")


def test_it_offers_what_a_message_that_is_not_a_plain_request_describes(cara):
    found = unbound(cara, "maybe dispute the Magnum charge?")
    assert found.problem == "unsure"
    assert set(found.candidates) == {"T-3003", "T-3008"} or set(found.candidates[:2]) == {"T-3003", "T-3008"}


def test_it_offers_the_active_cards_when_a_block_is_not_a_plain_request(cara):
    found = unbound(cara, "maybe block the Mastercard", "block_card")
    assert found.problem == "unsure"
    assert found.candidates == ("5505", "4242")  # the Mastercard first; never 7777 or 6006


def test_it_offers_only_the_cards_the_customer_blocked_for_an_unblock(cara):
    found = unbound(cara, "please unblock card 6660", "unblock_card")
    assert found.problem == "no_match"
    assert found.candidates == ("6006",)  # 7777 is the bank's block


def test_it_still_grants_exactly_one_action_when_the_words_fit_one(cara):
    mandate = mandate_for(customer=cara, text="please dispute the Air Astana charge")
    assert mandate.grants == (
        Grant("raise_dispute", "T-3005", Decimal("99000.00"), "not_recognised", "message"),
    )
    assert not mandate.unbound


def test_the_denial_carries_the_nearest_candidates_and_says_so(cara, harness_for):
    conversation = Conversation.objects.create(customer=cara)
    outcome = harness_for(conversation, "please dispute the Magnm charge").call(
        "raise_dispute", {"transaction": "T-3001", "amount": "15000.00", "reason": "not_recognised"}
    )
    answer = outcome.message()
    assert answer["error"]["code"] == "target_not_in_mandate"
    assert "do not identify exactly one" in answer["error"]["message"]
    assert answer["candidates"]["fit"] == "nearest"
    rows = answer["candidates"]["transactions"]
    assert [r["reference"] for r in rows][:2] in (["T-3003", "T-3008"], ["T-3008", "T-3003"])
    assert len(rows) <= 5


def test_the_denial_names_the_exact_call_the_customer_asked_for(cara, harness_for):
    conversation = Conversation.objects.create(customer=cara)
    outcome = harness_for(conversation, "please dispute 5000 of the Air Astana charge").call(
        "raise_dispute", {"transaction": "T-3003", "amount": "15000.00", "reason": "not_recognised"}
    )
    answer = outcome.message()
    assert answer["asked_for"] == [{"transaction": "T-3005", "amount": "5000.00", "reason": "not_recognised"}]
    again = harness_for(conversation, "please dispute 5000 of the Air Astana charge").call(
        "raise_dispute", answer["asked_for"][0]
    )
    assert again.status == "awaiting_confirmation"


def test_a_block_denied_for_another_card_names_the_card_asked_for(cara, harness_for):
    conversation = Conversation.objects.create(customer=cara)
    outcome = harness_for(conversation, "block card 4242").call("block_card", {"card": "5505"})
    assert outcome.message()["asked_for"] == [{"card": "4242"}]


def test_a_denial_beside_a_grant_also_offers_the_other_requests_candidates(cara, harness_for):
    conversation = Conversation.objects.create(customer=cara)
    outcome = harness_for(conversation, "dispute T-3001 and the Magnum one").call(
        "raise_dispute", {"transaction": "T-3009", "amount": "43000.00", "reason": "not_recognised"}
    )
    answer = outcome.message()
    assert [call["transaction"] for call in answer["asked_for"]] == ["T-3001"]
    assert set(outcome.error.candidates) == {"T-3003", "T-3008"}


def test_a_kind_said_ranks_that_category_first_and_a_row_without_a_code_keeps_it_open(cara):
    # One coffee by its merchant category code, and Acme Company's row has none (it
    # could be anything): buttons, the coffee first; nothing granted.
    mandate = mandate_for(customer=cara, text="dispute the coffee")
    assert not mandate.grants
    assert mandate.unbound[0].candidates[0] == "T-3004"  # Coffee Boom
    assert "T-3010" in mandate.unbound[0].candidates  # Acme Company, no code


def test_a_kind_binds_by_the_banks_category_never_by_the_merchants_words(cara):
    # "taxi": Acme Rides and Yandex Go by their codes; the 4200 twins are both taxis.
    assert not mandate_for(customer=cara, text="dispute the 4200 taxi charge").grants
    Transaction.objects.filter(reference="T-3002").update(mcc="5812")  # now a restaurant
    granted = mandate_for(customer=cara, text="dispute the 4200 taxi charge").grants
    assert [g.target for g in granted] == ["T-3006"]
    # A merchant that calls itself a taxi in its description is not one.
    Transaction.objects.filter(reference="T-3003").update(description="Taxi, best taxi")
    assert [g.target for g in mandate_for(customer=cara, text="dispute the 15000 taxi charge").grants] == []


def test_a_reference_said_exactly_is_offered_first_whatever_else_was_said(cara):
    # 4200 is Acme Rides' and Yandex Go's amount; the customer named T-3005 and a part.
    found = unbound(cara, "chargeback on T-3005 please, they overcharged me by 4,200")
    assert found.candidates[0] == "T-3005"


def test_a_request_that_names_nothing_is_offered_what_the_whole_message_describes(cara):
    # The request («хочу бабки назад») names no object; the story before it does.
    found = unbound(cara, "акме фуд за 15 тыщ жрачку не довез, хочу бабки назад")
    assert found.problem == "no_target"
    assert found.candidates[0] == "T-3001"
    recent = unbound(cara, "I want to dispute a payment").candidates
    assert found.candidates != recent


def test_the_biggest_is_offered_first_when_size_is_all_that_was_said(cara):
    found = unbound(cara, "Оспорьте самую крупную покупку, я её не совершала")
    assert found.candidates[0] == "T-3005"  # 99 000 (Sulpak's 8 000 is too old anyway)
    smallest = unbound(cara, "dispute the smallest payment")
    assert smallest.candidates[0] == "T-3010"  # 1 200
