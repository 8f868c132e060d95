"""The words of the write tools, as their catalog entries keep them (issue 22, point 2).

Each write tool's vocabulary is data beside its catalog entry —
``tools/catalog/<tool>.words.yaml``: its English verbs, nouns and participles, its
Russian imperatives, infinitives, stems and nouns, the words that mention it, the forms a
misspelling is measured against, and, where it has them, the verbs that open its nouns,
the words that point at it without naming it (``suggests``, ``disowned``), the reasons its
argument takes (``reasons``, ``reason_priority``), what finding its object says of a
request for it (``found``) and the verbs that report its object lost, which ask for it
(``lost``). The request grammar (tools/grammar.py) reads them all through
one ``Lexicon``; its rules — command position, negation, doubt, binding — stay code, the
same for every tool, and what a request's object is read as (a card's digits, a payment's
amount, day and merchant) is the kind of the tool's target, asked of its catalog entry. A
new write tool brings its words file and is read like the others
(tests/tools/test_lexicon.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CATALOG_DIR = Path(__file__).resolve().parent / "catalog"
SUFFIX = ".words.yaml"


@dataclass(frozen=True)
class LossWords:
    """The verbs that report an object lost, by the shape of the sentence they make (a
    words file's ``lost``): "I *lost* my card" (``done``), "someone *stole* my card"
    (``taken``), "my card was *stolen*" (``state``), "I can't *find* my card" (``unfound``);
    the same four for Russian («потеряла карту», «украли карту», «карта пропала», «не могу
    найти карту»). Who lost what, and whether it was said plainly, is the grammar's rule."""

    en_done: frozenset[str]
    en_taken: frozenset[str]
    en_state: frozenset[str]
    en_unfound: frozenset[str]
    ru_done: frozenset[str]
    ru_taken: frozenset[str]
    ru_state: frozenset[str]
    ru_unfound: frozenset[str]


@dataclass(frozen=True)
class Lexicon:
    operations: tuple[str, ...]
    en_verbs: dict[str, str]  # "freeze" → block_card
    en_nouns: dict[str, str]  # "chargeback" → raise_dispute ("file a chargeback")
    en_participles: dict[str, str]  # "blocked" → block_card ("I want it blocked")
    ru_imperative: re.Pattern[str]  # «заблокируй(те)», «оспорь(те)»
    ru_infinitive: re.Pattern[str]
    ru_wished: re.Pattern[str]  # «…, чтобы вы заблокировали»
    ru_stems: tuple[tuple[str, str], ...]  # longest first: «разблок» before «блок»
    ru_nouns: tuple[tuple[re.Pattern[str], str], ...]  # «спор» in «откройте спор»
    mentions: tuple[tuple[str, str], ...]  # prefixes that name an operation at all
    operation_stems: tuple[str, ...]  # prefixes of words that never describe an object
    typos: dict[str, str]  # the forms a misspelling is one edit from
    plain: dict[str, tuple[str, str]]  # block_card → ("block", «заблокируйте»): its plain verb
    en_openers: frozenset[str]  # "open" a dispute, "file" a claim, "put" a block on
    ru_open: re.Pattern[str]  # «откройте» спор, «подать» претензию
    suggested: tuple[tuple[re.Pattern[str], str], ...]  # "close my card" → block_card's buttons
    disowned: tuple[tuple[re.Pattern[str], str], ...]  # "that wasn't me" → raise_dispute's buttons
    reasons: dict[str, re.Pattern[str]]  # a dispute's reason code → the words that give it
    # each operation's reason codes, in the order a story's first cause wins (those with none: absent)
    reason_priority: dict[str, tuple[str, ...]]
    found: dict[str, str]  # "found it" of the object: "withdraws" a request for it, or "asks" for it
    # The verbs of a report that asks for an operation: its object lost ("I lost my card"),
    # by the shape of the sentence (``LossWords``); those with none: absent.
    lost: dict[str, LossWords]

    def ru_operation(self, word: str) -> str | None:
        """The operation a Russian verb form is of, by its stem."""
        return next((op for stem, op in self.ru_stems if word.startswith(stem)), None)

    def ru_noun(self, word: str) -> str | None:
        return next((op for pattern, op in self.ru_nouns if pattern.fullmatch(word)), None)

    def mentioned(self, word: str) -> str | None:
        if word in self.en_verbs:
            return self.en_verbs[word]
        return next((op for stem, op in self.mentions if word.startswith(stem)), None)


def load_lexicon(directory: Path = CATALOG_DIR) -> Lexicon:
    """Every ``*.words.yaml`` in ``directory``: the operation is the file's name."""
    words = {path.name.removesuffix(SUFFIX): _read(path) for path in sorted(directory.glob(f"*{SUFFIX}"))}
    if not words:
        raise ValueError(f"no {SUFFIX} files in {directory}")

    def pairs(language: str, key: str) -> list[tuple[str, str]]:
        return [(word, op) for op, data in words.items() for word in data[language][key]]

    def optional(language: str, key: str) -> list[tuple[str, str]]:
        return [(word, op) for op, data in words.items() for word in data[language].get(key) or []]

    def alternation(key: str, ending: str = "") -> re.Pattern[str]:
        forms = sorted((w for w, _ in pairs("ru", key)), key=len, reverse=True)
        return re.compile(rf"^(?:{'|'.join(f'(?:{w}){ending}' for w in forms)})$")

    en_verbs = dict(pairs("en", "verbs"))
    lexicon = Lexicon(
        operations=tuple(words),
        en_verbs=en_verbs,
        en_nouns=dict(pairs("en", "nouns")),
        en_participles=dict(pairs("en", "participles")),
        ru_imperative=alternation("imperatives", "(?:те)?"),
        ru_infinitive=alternation("infinitives"),
        ru_wished=alternation("wished"),
        ru_stems=tuple(sorted(pairs("ru", "stems"), key=lambda p: -len(p[0]))),
        ru_nouns=tuple((re.compile(w), op) for w, op in pairs("ru", "nouns")),
        mentions=tuple(sorted(pairs("ru", "mentions"), key=lambda p: -len(p[0]))),
        operation_stems=tuple(w for w, _ in pairs("ru", "operation_words")),
        typos={
            **{w: op for w, op in en_verbs.items() if len(w) >= 4},
            **{w: op for op, data in words.items() for w in data["typos"]},
        },
        plain={
            op: (data["en"]["verbs"][0], data["ru"]["imperatives"][0] + "те") for op, data in words.items()
        },
        en_openers=frozenset(w for w, _ in optional("en", "openers")),
        ru_open=re.compile(rf"^(?:{'|'.join(w for w, _ in optional('ru', 'openers'))})$"),
        suggested=_patterns(words, "suggests"),
        disowned=_patterns(words, "disowned"),
        reasons={
            code: re.compile(pattern, re.IGNORECASE)
            for data in words.values()
            for code, pattern in (data.get("reasons") or {}).items()
        },
        reason_priority={
            op: tuple(data["reason_priority"]) for op, data in words.items() if data.get("reason_priority")
        },
        found={op: data["found"] for op, data in words.items() if "found" in data},
        lost={op: _loss_words(data["lost"]) for op, data in words.items() if "lost" in data},
    )
    # A Russian verb form is read as the operation of the longest stem it begins with: each
    # tool's forms must begin with a stem of its own, or they would be read as another's.
    for op, data in words.items():
        strays = [w for key in _VERB_FORMS for w in data["ru"][key] if lexicon.ru_operation(w) != op]
        if strays:
            raise ValueError(f"{op}{SUFFIX}: ru: {', '.join(strays)} begin with no stem of its own")
    return lexicon


def _patterns(words: dict[str, dict[str, Any]], key: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each tool's regular expressions under ``key``, case-insensitive, with the tool."""
    return tuple(
        (re.compile(pattern, re.IGNORECASE), op)
        for op, data in words.items()
        for pattern in data.get(key) or []
    )


def _loss_words(lost: dict[str, dict[str, list[str]]]) -> LossWords:
    def forms(language: str, shape: str) -> frozenset[str]:
        return frozenset(word.lower() for word in lost[language][shape])

    return LossWords(**{f"{language}_{shape}": forms(language, shape) for language, shape in _LOSS_KEYS})


_LOSS_KEYS = tuple(
    (language, shape) for language in ("en", "ru") for shape in ("done", "taken", "state", "unfound")
)
_VERB_FORMS = ("imperatives", "infinitives", "wished")
_FOUND = ("withdraws", "asks")
_KEYS = {
    "en": ("verbs", "nouns", "participles"),
    "ru": ("imperatives", "infinitives", "stems", "wished", "nouns", "mentions", "operation_words"),
}


def _read(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    for language, keys in _KEYS.items():
        missing = [k for k in keys if not isinstance((data.get(language) or {}).get(k), list)]
        if missing:
            raise ValueError(f"{path.name}: {language}: each of {', '.join(missing)} must be a list")
    if not isinstance(data.get("typos"), list):
        raise ValueError(f"{path.name}: typos must be a list")
    for key, kind in (("suggests", list), ("disowned", list), ("reasons", dict), ("reason_priority", list)):
        if key in data and not isinstance(data[key], kind):
            raise ValueError(f"{path.name}: {key} must be a {kind.__name__}")
    lost = data.get("lost")
    if lost is not None and not (
        isinstance(lost, dict)
        and all(isinstance((lost.get(language) or {}).get(shape), list) for language, shape in _LOSS_KEYS)
    ):
        raise ValueError(
            f"{path.name}: lost must give en and ru each of done, taken, state, unfound as lists"
        )
    if "found" in data and data["found"] not in _FOUND:
        raise ValueError(f"{path.name}: found must be one of {', '.join(_FOUND)}")
    if set(data.get("reason_priority") or []) != set(data.get("reasons") or {}):
        raise ValueError(f"{path.name}: reason_priority must list each of reasons once")
    return dict(data)


LEXICON = load_lexicon()
