"""Each write tool's words are its catalog entry's data (tools/catalog/<tool>.words.yaml),
and the grammar reads a new tool's words as it reads the others' (issue 22, point 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.catalog import CATALOG
from tools.lexicon import CATALOG_DIR, LEXICON, SUFFIX, load_lexicon

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
    assert lexicon.reasons["moving"].search("I am Moving abroad") and lexicon.reason_priority == (
        "moving",
        "unhappy",
    )


def test_a_reason_priority_that_does_not_list_each_reason_is_refused(tmp_path: Path):
    (tmp_path / f"odd{SUFFIX}").write_text(
        BLOCK.replace("typos:", "reasons: {a: x, b: y}\nreason_priority: [a]\ntypos:"), encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"odd\.words\.yaml: reason_priority must list each of reasons"):
        load_lexicon(tmp_path)
