"""Scenario files are validated strictly, and errors name the file, the scenario and the field."""

from __future__ import annotations

import pytest

from lab.loader import LabFileError, load_builtin, load_file, load_paths
from lab.schema import Scenario
from tests.lab.helpers import WORLD, scenario


def error_for(write_yaml, data) -> str:
    path = write_yaml(data)
    with pytest.raises(LabFileError) as raised:
        load_paths([path])
    message = str(raised.value)
    assert str(path) in message
    return message


def test_it_loads_a_single_scenario_file(write_yaml):
    [loaded] = load_file(write_yaml(scenario()))
    assert isinstance(loaded, Scenario) and loaded.id == "probe"


def test_it_names_an_unknown_field(write_yaml):
    message = error_for(write_yaml, scenario(expect={"disputes": []}))
    assert "scenario 'probe'" in message and "expect: unknown field" in message


def test_it_names_a_nested_field_that_is_wrong(write_yaml):
    world = {"customers": [{**WORLD["customers"][0], "cards": [{"last4": "42"}]}]}
    message = error_for(write_yaml, scenario(setup=world))
    assert "setup.customers.0.cards.0.last4" in message


def test_an_attack_needs_a_vector_and_a_technique(write_yaml):
    message = error_for(write_yaml, scenario(kind="attack"))
    assert "needs a vector and a technique" in message


def test_a_benign_task_has_no_technique(write_yaml):
    assert "no vector or technique" in error_for(write_yaml, scenario(technique="base64"))


def test_an_unknown_vector_is_refused(write_yaml):
    message = error_for(write_yaml, scenario(kind="attack", vector="carrier_pigeon", technique="base64"))
    assert "vector" in message and "carrier_pigeon" not in message.split("vector")[0]


def test_it_refuses_a_template_naming_a_missing_transaction(write_yaml):
    message = error_for(write_yaml, scenario(steps=[{"say": "dispute {{ date_of T-9999 }}"}]))
    assert "no transaction 'T-9999'" in message


def test_it_refuses_an_unknown_template_function(write_yaml):
    assert "unknown template function" in error_for(
        write_yaml, scenario(steps=[{"say": "{{ rot13 hello }}"}])
    )


def test_card_digits_must_be_unique_across_customers(write_yaml):
    bob = {**WORLD["customers"][1], "cards": [{"last4": "4242"}]}
    message = error_for(write_yaml, scenario(setup={"customers": [WORLD["customers"][0], bob]}))
    assert "card last4 '4242' appears twice" in message


def test_a_transaction_must_use_its_owners_card(write_yaml):
    alice = {
        **WORLD["customers"][0],
        "transactions": [
            {"reference": "T-1001", "days_ago": 1, "amount": "10", "merchant": "M", "card": "1111"}
        ],
    }
    assert "does not have" in error_for(write_yaml, scenario(setup={"customers": [alice]}))


def test_a_step_is_say_or_click(write_yaml):
    message = error_for(write_yaml, scenario(steps=[{"type": "hello"}]))
    assert "a step is 'say: text' or 'click: {...}'" in message


def test_a_click_needs_its_target(write_yaml):
    message = error_for(write_yaml, scenario(steps=[{"click": {"operation": "block_card"}}]))
    assert "needs a card" in message


def test_a_scripted_reply_is_calls_or_text(write_yaml):
    model = {"scripted": [{"text": "hi", "calls": [{"tool": "list_cards"}]}]}
    assert "either calls or text" in error_for(write_yaml, scenario(model=model))


def test_an_unknown_model_is_refused(write_yaml):
    assert "model" in error_for(write_yaml, scenario(model="gpt-7-turbo"))


def test_yaml_syntax_errors_give_the_line(write_yaml):
    message = error_for(write_yaml, "scenarios:\n  - id: x\n    title: [unclosed\n")
    assert "line" in message and "not valid YAML" in message


def test_defaults_and_params_expand_into_each_scenario(write_yaml):
    path = write_yaml(
        {
            "defaults": {**scenario(), "steps": [{"say": "${text}"}]},
            "scenarios": [
                {"id": "one", "params": {"text": "hello"}},
                {"id": "two", "params": {"text": "hi there"}},
            ],
        }
    )
    loaded = load_file(path)
    assert [(s.id, s.steps[0].say) for s in loaded] == [("one", "hello"), ("two", "hi there")]


def test_a_missing_param_is_named(write_yaml):
    path = write_yaml(
        {"defaults": {**scenario(), "steps": [{"say": "${text}"}]}, "scenarios": [{"id": "one"}]}
    )
    with pytest.raises(LabFileError, match=r"\$\{text\} is used but not given"):
        load_file(path)


def test_ids_must_be_unique_across_files(write_yaml):
    first = write_yaml(scenario(), "a.yaml")
    second = write_yaml(scenario(), "b.yaml")
    with pytest.raises(LabFileError, match="already used in"):
        load_paths([first, second])


def test_a_missing_path_is_an_error(tmp_path):
    with pytest.raises(LabFileError, match="no such file"):
        load_paths([tmp_path / "nope.yaml"])


def test_the_builtin_corpus_is_valid_and_big_enough():
    scenarios = load_builtin()
    attacks = [s for s in scenarios if s.kind == "attack"]
    benign = [s for s in scenarios if s.kind == "benign"]
    assert len(attacks) >= 60 and len(benign) >= 20
    assert {s.vector for s in attacks} == {
        "transaction_description",
        "merchant_name",
        "staff_note",
        "customer_message",
        "tool_error",
    }
    from lab.schema import TECHNIQUES

    assert {s.technique for s in attacks} == set(TECHNIQUES)
