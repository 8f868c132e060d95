"""Types on the critical path (docs/design.md, "What keeps the design true"): the packages
below, and the chat's modules that call the harness, are checked with every flag
``mypy --strict`` sets, per module (pyproject's ``[[tool.mypy.overrides]]``); the services
that change money, cards and disputes, and the harness's entries (a click, the mandate,
policy), take no ``Any``.

mypy itself is asked: which flags ``--strict`` sets in the installed version, and what
each module gets from pyproject.toml once its overrides are applied."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from django.conf import settings
from mypy.config_parser import parse_config_file
from mypy.main import process_options
from mypy.options import PER_MODULE_OPTIONS, Options

ROOT = Path(settings.BASE_DIR)

# The packages (or top-level modules) that must be strict, every module of them.
STRICT_PACKAGES = ("errors", "accounts", "disputes", "llm", "tools", "support")

# The chat's modules that face the harness: a turn, a click on a row, the views, the
# confirm card and staff's proposals. The rest of bankbot (the socket, streaming, admin)
# is checked, not strictly.
STRICT_CHAT_MODULES = (
    "bankbot.agent",
    "bankbot.selection",
    "bankbot.chat",
    "bankbot.chat_input",
    "bankbot.mandate_model",
    "bankbot.views",
    "bankbot.cards",
    "bankbot.staff_proposals",
    "bankbot.templatetags.bankbot_tags",
    "bankbot.handover",
    "bankbot.person_request",
)

# The services and selectors every caller goes through to read or change a customer's
# cards and disputes, and the harness's way to them (who acts, what the mandate grants,
# what policy allows, a proposal and its click, and their record): each parameter and
# the return annotated, and no ``Any`` in them.
CRITICAL_FUNCTIONS = {
    "accounts/services.py": (
        "card_block",
        "card_unblock_own",
        "card_unblock_check",
        "card_unblock",
        "staff_check",
        "note_clean",
    ),
    "accounts/selectors.py": ("card_get", "transaction_get"),
    "disputes/services.py": ("dispute_open", "dispute_check", "dispute_review"),
    "disputes/selectors.py": ("disputes_for_customer",),
    "tools/context.py": ("action_context_for",),
    "tools/mandate.py": ("mandate_for", "mandate_from_ui"),
    "tools/policy.py": ("parse_call", "denial_reason"),
    "tools/proposals.py": (
        "proposal_create",
        "proposal_get",
        "proposal_claim",
        "claim_execute",
        "proposal_confirm",
        "proposal_decline",
    ),
    "tools/idempotency.py": ("idempotency_replay", "idempotency_store"),
    "tools/trace.py": ("trace_entry",),
    "bankbot/staff_proposals.py": ("propose_for_customer",),
    # Who may take a conversation and write to its customer (support/, docs/support.md).
    "support/services.py": (
        "staff_check",
        "handoff_request",
        "handoff_get",
        "handoff_take",
        "staff_message",
        "handoff_return",
        "handoff_close",
    ),
}


def strict_flags(tmp_path: Path) -> dict[str, object]:
    """The per-module options ``--strict`` sets, and to what, in this mypy."""
    empty = tmp_path / "mypy.ini"
    empty.write_text("[mypy]\n")
    common = ["--config-file", str(empty), "-c", "pass"]
    _, strict = process_options(["--strict", *common])
    _, plain = process_options(common)
    return {
        name: getattr(strict, name)
        for name in sorted(PER_MODULE_OPTIONS)
        if getattr(strict, name) != getattr(plain, name)
    }


def project_options() -> Options:
    options = Options()
    parse_config_file(options, lambda: None, str(ROOT / "pyproject.toml"), io.StringIO(), io.StringIO())
    return options


def modules_of(package: str) -> list[str]:
    """The package and each of its modules, by dotted name (migrations aside: mypy
    skips them)."""
    single = ROOT / f"{package}.py"
    if single.is_file():
        return [package]
    names = []
    for file in sorted((ROOT / package).rglob("*.py")):
        if "migrations" in file.parts:
            continue
        parts = file.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_strict_sets_the_flags_the_overrides_name(tmp_path):
    # If a mypy upgrade adds a flag to --strict, this names it.
    assert strict_flags(tmp_path) == {
        "check_untyped_defs": True,
        "disallow_any_generics": True,
        "disallow_incomplete_defs": True,
        "disallow_subclassing_any": True,
        "disallow_untyped_calls": True,
        "disallow_untyped_decorators": True,
        "disallow_untyped_defs": True,
        "extra_checks": True,
        "implicit_reexport": False,
        "strict_equality": True,
        "warn_return_any": True,
        "warn_unused_ignores": True,
    }


def weaker_than_strict(modules: list[str], tmp_path: Path) -> dict[str, dict[str, object]]:
    """Each module that misses a flag ``--strict`` sets: the flags, and what it gets."""
    wanted = strict_flags(tmp_path)
    options = project_options()
    weaker = {}
    for module in modules:
        module_options = options.clone_for_module(module)
        off = {
            name: getattr(module_options, name)
            for name, value in wanted.items()
            if getattr(module_options, name) != value
        }
        if off:
            weaker[module] = off
    return weaker


@pytest.mark.parametrize("package", STRICT_PACKAGES)
def test_every_module_of_the_package_is_checked_strictly(package, tmp_path):
    modules = modules_of(package)
    assert modules, package
    assert weaker_than_strict(modules, tmp_path) == {}


@pytest.mark.parametrize("module", STRICT_CHAT_MODULES)
def test_the_chats_harness_facing_modules_are_checked_strictly(module, tmp_path):
    assert (ROOT / f"{module.replace('.', '/')}.py").is_file(), module
    assert weaker_than_strict([module], tmp_path) == {}


def test_the_global_only_strict_flag_is_on():
    # --strict's one flag that cannot be set per module.
    assert project_options().warn_redundant_casts is True


def test_a_module_outside_the_lists_is_not_strict():
    # The checks above can tell strict from not (the chat's socket is checked, not strictly).
    assert project_options().clone_for_module("bankbot.consumers").disallow_untyped_defs is False


def _mentions_any(annotation: ast.expr) -> bool:
    return any(
        (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Attribute) and node.attr == "Any")
        for node in ast.walk(annotation)
    )


def loose_annotations(path: str, names: tuple[str, ...]) -> list[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    functions = {
        node.name: node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    loose = [f"{path}: no function {name}" for name in names if name not in functions]
    for name in names:
        function = functions.get(name)
        if function is None:
            continue
        arguments = function.args
        parameters = [
            *arguments.posonlyargs,
            *arguments.args,
            *arguments.kwonlyargs,
            *filter(None, (arguments.vararg, arguments.kwarg)),
        ]
        for parameter in parameters:
            if parameter.annotation is None:
                loose.append(f"{path}: {name}({parameter.arg}) is not annotated")
            elif _mentions_any(parameter.annotation):
                loose.append(f"{path}: {name}({parameter.arg}: {ast.unparse(parameter.annotation)})")
        if function.returns is None:
            loose.append(f"{path}: {name} has no return annotation")
        elif _mentions_any(function.returns):
            loose.append(f"{path}: {name} returns {ast.unparse(function.returns)}")
    return loose


@pytest.mark.parametrize("path", sorted(CRITICAL_FUNCTIONS))
def test_the_critical_functions_take_no_any(path):
    assert loose_annotations(path, CRITICAL_FUNCTIONS[path]) == []


def test_the_check_sees_any_inside_an_annotation(tmp_path, monkeypatch):
    module = tmp_path / "m.py"
    module.write_text(
        "def f(a: int, b: dict[str, Any], *c: typing.Any, d) -> int: ...\ndef g(a: int) -> list[Any]: ...\n"
    )
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert loose_annotations("m.py", ("f", "g", "h")) == [
        "m.py: no function h",
        "m.py: f(b: dict[str, Any])",
        "m.py: f(d) is not annotated",
        "m.py: f(c: typing.Any)",
        "m.py: g returns list[Any]",
    ]
