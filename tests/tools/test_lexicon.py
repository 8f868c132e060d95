"""Each write tool's words are its catalog entry's data (tools/catalog/<tool>.words.yaml),
and the grammar reads a new tool's words as it reads the others' (issue 22, point 2)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from django.utils import timezone

from tools import grammar
from tools.catalog import CATALOG, TRANSACTION, WriteTool
from tools.grammar import read_request
from tools.lexicon import CATALOG_DIR, LEXICON, SUFFIX, load_lexicon
from tools.mandate import mandate_for

BLOCK = (CATALOG_DIR / f"block_card{SUFFIX}").read_text(encoding="utf-8")


def test_every_write_tool_has_its_words_and_no_other_file_does():
    assert set(LEXICON.operations) == {spec.name for spec in CATALOG.writes()}
    assert sorted(p.name for p in CATALOG_DIR.glob(f"*{SUFFIX}")) == sorted(
        f"{spec.name}{SUFFIX}" for spec in CATALOG.writes()
    )


def test_a_new_tools_words_are_read_like_the_others(tmp_path: Path):
    (tmp_path / f"block_card{SUFFIX}").write_text(BLOCK, encoding="utf-8")
    (tmp_path / f"close_account{SUFFIX}").write_text(
        "en: {verbs: [close], nouns: [closure], participles: [closed]}\n"
        "ru: {imperatives: [закрой], infinitives: [закрыть], stems: [закр], wished: [закрыли],\n"
        "     nouns: [закрытие], mentions: [закр], operation_words: [закр]}\n"
        "typos: [закройте]\n",
        encoding="utf-8",
    )
    lexicon = load_lexicon(tmp_path)
    assert lexicon.operations == ("block_card", "close_account")
    assert lexicon.en_verbs["close"] == "close_account" and lexicon.en_verbs["freeze"] == "block_card"
    assert lexicon.ru_imperative.match("закройте") and lexicon.ru_operation("закройте") == "close_account"
    assert lexicon.ru_noun("закрытие") == "close_account" and lexicon.mentioned("закрыт") == "close_account"
    assert lexicon.typos["закройте"] == "close_account"


def test_stems_are_tried_longest_first_so_unblocking_is_not_blocking():
    assert LEXICON.ru_operation("разблокируйте") == "unblock_card"
    assert LEXICON.ru_operation("заблокируйте") == "block_card"
    assert LEXICON.mentioned("разморозьте") == "unblock_card"
    assert LEXICON.mentioned("заморозьте") == "block_card"


def test_a_words_file_missing_a_list_is_refused_by_name(tmp_path: Path):
    (tmp_path / f"broken{SUFFIX}").write_text("en: {verbs: [x]}\nru: {}\ntypos: []\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.words\.yaml: en: each of nouns, participles"):
        load_lexicon(tmp_path)


def test_openers_suggestions_and_reasons_are_the_tools_words_too(tmp_path: Path):
    (tmp_path / f"block_card{SUFFIX}").write_text(BLOCK, encoding="utf-8")
    (tmp_path / f"close_account{SUFFIX}").write_text(
        "en: {verbs: [close], nouns: [closure], participles: [closed], openers: [request]}\n"
        "ru: {imperatives: [закрой], infinitives: [закрыть], stems: [закр], wished: [закрыли],\n"
        "     nouns: [закрытие], mentions: [закр], operation_words: [закр], openers: [оформите]}\n"
        "typos: [закройте]\n"
        "suggests: ['\\bterminate my account\\b']\n"
        "reasons: {moving: '\\bmoving abroad\\b', unhappy: '\\bunhappy\\b'}\n"
        "reason_priority: [moving, unhappy]\n",
        encoding="utf-8",
    )
    lexicon = load_lexicon(tmp_path)
    assert "request" in lexicon.en_openers and lexicon.ru_open.match("оформите")
    assert [op for pattern, op in lexicon.suggested if pattern.search("Terminate my account")] == [
        "close_account"
    ]
    assert lexicon.suggested[0][1] == "block_card"  # "close my card": the block's buttons
    assert lexicon.reasons["moving"].search("I am Moving abroad") and lexicon.reason_priority == {
        "close_account": ("moving", "unhappy")
    }


def test_a_reason_priority_that_does_not_list_each_reason_is_refused(tmp_path: Path):
    (tmp_path / f"odd{SUFFIX}").write_text(
        BLOCK.replace("typos:", "reasons: {a: x, b: y}\nreason_priority: [a]\ntypos:"), encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"odd\.words\.yaml: reason_priority must list each of reasons"):
        load_lexicon(tmp_path)


def test_what_finding_the_object_means_and_a_disowned_payment_are_the_tools_words():
    assert LEXICON.found == {"block_card": "withdraws", "unblock_card": "asks"}
    assert [op for pattern, op in LEXICON.disowned if pattern.search("That wasn't me")] == ["raise_dispute"]
    assert LEXICON.reason_priority.keys() == {"raise_dispute"}


def test_a_russian_verb_form_on_another_tools_stem_is_refused_by_name(tmp_path: Path):
    (tmp_path / f"block_card{SUFFIX}").write_text(BLOCK, encoding="utf-8")
    (tmp_path / f"close_account{SUFFIX}").write_text(
        "en: {verbs: [close], nouns: [], participles: [closed]}\n"
        "ru: {imperatives: [закрой, заблокируй], infinitives: [закрыть], stems: [закр], wished: [],\n"
        "     nouns: [], mentions: [закр], operation_words: [закр]}\n"
        "typos: []\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"close_account\.words\.yaml: ru: заблокируй begin with no stem"):
        load_lexicon(tmp_path)


def test_the_grammar_the_mandate_and_the_context_name_no_write_tool():
    for module in ("grammar", "mandate", "context"):
        source = (CATALOG_DIR.parent / f"{module}.py").read_text(encoding="utf-8")
        assert [spec.name for spec in CATALOG.writes() if spec.name in source] == [], module


@pytest.fixture
def new_write_tools(monkeypatch):
    """Two write tools registered as a new one is — a catalog entry, and its words: a card
    tool that "freeze"s and a transaction tool that "contest"s (the words are taken from
    block_card's and raise_dispute's files, so the words read when the grammar loaded —
    its stop words — already hold them). Nothing in the grammar is edited."""
    freeze = replace(CATALOG["block_card"], name="freeze_card")
    contest = replace(CATALOG["raise_dispute"], name="contest_payment")
    assert isinstance(freeze, WriteTool) and freeze.target.kind == "card"
    assert isinstance(contest, WriteTool) and contest.target is TRANSACTION
    monkeypatch.setitem(LEXICON.en_verbs, "freeze", "freeze_card")
    monkeypatch.setitem(LEXICON.en_verbs, "contest", "contest_payment")
    with CATALOG.registered(freeze), CATALOG.registered(contest):
        yield


def _read(text: str) -> grammar.Request:
    (request,) = read_request(text, today=timezone.localdate()).requests
    return request


def test_a_registered_write_tool_is_read_by_its_targets_kind_with_no_grammar_edit(new_write_tools):
    # On a card: four bare digits are its digits, and a request that names nothing is
    # about the card the story described.
    freeze = _read("Please freeze 4242")
    assert (freeze.operation, freeze.target.cards) == ("freeze_card", {"4242"})
    freeze = _read("I lost my card 4242 on the bus. Freeze it")
    assert (freeze.operation, freeze.target.cards) == ("freeze_card", {"4242"})
    # On a transaction: the same four digits are no card's, and which of several is said.
    contest = _read("Please contest 4242")
    assert (contest.operation, contest.target.cards) == ("contest_payment", frozenset())
    contest = _read("Please contest the second Magnum payment")
    assert (contest.operation, contest.target.position) == ("contest_payment", 1)  # from 0
    # It takes no reasons of its own: raise_dispute's are not read for it.
    assert _read("Contest T-1002, it never arrived").reason is None
    assert _read("Dispute T-1002, it never arrived").reason == "not_received"


def test_a_registered_write_tool_is_granted_as_its_catalog_entry_binds(new_write_tools, alice):
    grants = mandate_for(customer=alice, text="Please freeze 4242").grants
    assert [(g.operation, g.target) for g in grants] == [("freeze_card", "4242")]
    grants = mandate_for(customer=alice, text="Please contest the Sulpak payment").grants
    assert [(g.operation, g.target) for g in grants] == [("contest_payment", "T-1002")]
