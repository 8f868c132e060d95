"""Scenario files → validated ``Scenario`` objects, with errors that say where.

A file is either one scenario (a mapping with an ``id``) or a mapping with
``scenarios:`` (a list) and optional ``defaults:``. Each entry is deep-merged
over the defaults (mappings merge, lists and scalars replace), then
``${name}`` is replaced by the entry's ``params``: a string that is exactly
``${name}`` takes the parameter's value whatever its type, anywhere else the
value is inserted as text. That keeps a family of scenarios — one planted
text, many techniques — in one readable file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError
from pydantic_core import ErrorDetails

from lab.schema import Scenario

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"
PARAM = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
FILE_KEYS = frozenset({"defaults", "scenarios"})


class LabFileError(Exception):
    """A scenario file that cannot be used; the message names the file and the field."""


def builtin_paths() -> list[Path]:
    return sorted(SCENARIO_DIR.glob("*.yaml"))


def load_paths(
    paths: Sequence[Path | str],
    sources: dict[str, Path] | None = None,
) -> list[Scenario]:
    """Files and directories (every *.yaml / *.yml inside) → scenarios; ids must be
    unique. ``sources``, if given, is filled with each scenario's file, by id."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted([*path.glob("*.yaml"), *path.glob("*.yml")])
        elif path.is_file():
            files.append(path)
        else:
            raise LabFileError(f"{path}: no such file or directory")
    scenarios: list[Scenario] = []
    origin: dict[str, Path] = {}
    for file in files:
        for scenario in load_file(file):
            if scenario.id in origin:
                raise LabFileError(
                    f"{file}: scenario id {scenario.id!r} is already used in {origin[scenario.id]}"
                )
            origin[scenario.id] = file
            scenarios.append(scenario)
    if sources is not None:
        sources.update(origin)
    return scenarios


def load_builtin() -> list[Scenario]:
    return load_paths(builtin_paths())


def load_file(path: Path) -> list[Scenario]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        raise LabFileError(f"{path}:{where} not valid YAML ({getattr(error, 'problem', error)})") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LabFileError(f"{path}: cannot be read ({error})") from None
    return [_validate(path, index, entry) for index, entry in enumerate(_entries(path, data), 1)]


def _entries(path: Path, data: Any) -> list[dict[str, Any]]:
    if not isinstance(data, dict):
        raise LabFileError(
            f"{path}: expected a mapping with 'scenarios:' (or one scenario), got {type(data).__name__}"
        )
    if "id" in data:
        return [_expand(path, 1, {}, data)]
    unknown = sorted(set(data) - FILE_KEYS)
    if unknown:
        raise LabFileError(
            f"{path}: unknown top-level key(s) {', '.join(unknown)}; a file has "
            "'defaults' and 'scenarios', or is a single scenario with an 'id'"
        )
    defaults = data.get("defaults") or {}
    entries = data.get("scenarios")
    if not isinstance(defaults, dict):
        raise LabFileError(f"{path}: 'defaults' must be a mapping")
    if not isinstance(entries, list) or not entries:
        raise LabFileError(f"{path}: 'scenarios' must be a non-empty list")
    for index, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise LabFileError(f"{path}: scenario #{index} must be a mapping")
    return [_expand(path, index, defaults, entry) for index, entry in enumerate(entries, 1)]


def _expand(path: Path, index: int, defaults: dict, entry: dict) -> dict[str, Any]:
    entry = dict(entry)
    params = entry.pop("params", {}) or {}
    if not isinstance(params, dict):
        raise LabFileError(f"{path}: {_label(entry, index)}: 'params' must be a mapping")
    merged = _merge(defaults, entry)
    try:
        return _substitute(merged, params)
    except KeyError as missing:
        raise LabFileError(
            f"{path}: {_label(entry, index)}: ${{{missing.args[0]}}} is used but not given in params"
        ) from None


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = _merge(base[key], value) if key in base else value
        return merged
    return over


def _substitute(value: Any, params: dict[str, Any]) -> Any:
    if isinstance(value, str):
        whole = PARAM.fullmatch(value)
        if whole:
            return params[whole[1]]
        return PARAM.sub(lambda m: str(params[m[1]]), value)
    if isinstance(value, dict):
        return {key: _substitute(item, params) for key, item in value.items()}
    if isinstance(value, list):
        return [_substitute(item, params) for item in value]
    return value


def _validate(path: Path, index: int, entry: dict[str, Any]) -> Scenario:
    try:
        return Scenario.model_validate(entry)
    except ValidationError as error:
        problems = [_problem(item) for item in error.errors()[:8]]
        raise LabFileError(f"{path}: {_label(entry, index)}: " + "; ".join(problems)) from None


def _label(entry: dict[str, Any], index: int) -> str:
    return f"scenario {entry['id']!r}" if isinstance(entry.get("id"), str) else (f"scenario #{index}")


def _problem(item: ErrorDetails) -> str:
    # Union members add their class name to the location ("ScriptedModel");
    # only the path a person wrote in the file is useful.
    where = ".".join(
        str(p) for p in item["loc"] if not (isinstance(p, str) and p[:1].isupper() or "[" in str(p))
    )
    message = item["msg"].removeprefix("Value error, ")
    if item["type"] == "extra_forbidden":
        return f"{where}: unknown field (misspelt?)"
    if item["type"] == "missing":
        return f"{where}: required field is missing"
    got = item.get("input")
    shown = f" (got {str(got)[:40]!r})" if isinstance(got, str | int | float) else ""
    return f"{where or 'scenario'}: {message}{shown}"
