"""The JSON Schema keywords real schemas use: every compiled schema accepts exactly what jsonschema accepts.

Each schema here is small and self-written. jsonschema (an independent validator) is the judge: for
each instance, the automaton accepts its compact JSON text exactly when jsonschema says it is valid,
except where a documented narrowing is asked for. A hypothesis test draws random JSON values.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.json_schema import schema_to_automaton
from tutor.engine.limits import LimitExceeded, Limits
from tutor.engine.matcher import GrammarError


def compact(value: object) -> bytes:
    """Return the compact JSON text of a value, as a model would write it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def judge(schema: object, value: object) -> bool:
    """Return jsonschema's verdict, with the validator the schema's $schema names (2020-12 by default)."""
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema).is_valid(value)


def assert_exact(schema: object, values: list, dfa=None) -> None:
    """Assert the automaton accepts each value exactly when jsonschema says it is valid (both outcomes met)."""
    dfa = dfa if dfa is not None else schema_to_automaton(schema).dfa
    verdicts = set()
    for value in values:
        valid = judge(schema, value)
        verdicts.add(valid)
        assert dfa.accepts(compact(value)) == valid, (value, valid)
    assert verdicts == {True, False}, "give both valid and invalid instances"


CASES = {
    "open object (additionalProperties absent)": (
        {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
        [{"a": 1}, {"a": 1, "b": "x"}, {"b": [1, {"c": None}], "a": 2}, {"b": 1}, {"a": "1"}, [], "a"],
    ),
    "additionalProperties true": (
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True},
        [{}, {"a": "x", "z": True}, {"a": 1}, {"z": {"a": 1}}],
    ),
    "additionalProperties schema": (
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
        [{"a": "x", "n": 1, "m": -2}, {"n": "x"}, {"a": 1}, {}],
    ),
    "annotations are ignored": (
        {"$id": "urn:x", "title": "T", "description": "d", "examples": [1], "default": 0, "$comment": "c",
         "readOnly": True, "readonly": True, "x-custom": {"type": "string"}, "format": "date-time",
         "deprecated": False, "id": "y", "type": "integer"},
        [1, -5, "2020-01-01T00:00:00Z", 1.5],
    ),
    "anyOf": (
        {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer", "minimum": 10}]},
        ["", "ab", "abc", 10, 9, None, 11.5],
    ),
    "anyOf of two strings (spelled out, no family)": (
        {"anyOf": [{"type": "string", "maxLength": 2}, {"type": "string", "pattern": "^x+$"}]},
        ["ab", "xxxxx", "abc", "", 1],
    ),
    "oneOf with disjoint types": (
        {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}]},
        ["a", [1, 2], [], ["a"], 1, None],
    ),
    "oneOf tagged by a required const": (
        {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}},
             "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"enum": ["b", "c"]}, "y": {"type": "string"}},
             "required": ["kind", "y"]},
        ]},
        [{"kind": "a"}, {"kind": "a", "x": 1}, {"kind": "b", "y": "s"}, {"kind": "b"}, {"kind": "d"},
         {"kind": "a", "x": "no"}],
    ),
    "allOf merges properties": (
        {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                   {"properties": {"b": {"type": "boolean"}}, "required": ["b"]}]},
        [{"a": 1, "b": True}, {"b": False, "a": 0, "c": 1}, {"a": 1}, {"b": True}, {"a": 1, "b": 1}],
    ),
    "allOf with a closed branch": (
        {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False},
                   {"properties": {"b": {"type": "integer"}}}]},
        [{}, {"a": 1}, {"b": 1}, {"a": 1, "b": 2}],
    ),
    "integer bounds": (
        {"type": "integer", "minimum": -3, "exclusiveMaximum": 250},
        [-3, -4, 0, 249, 250, 1000, -1000, 17],
    ),
    "draft-04 boolean exclusive bounds": (
        {"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "minimum": 0,
         "exclusiveMinimum": True, "maximum": 10},
        [0, 1, 10, 11, -1],
    ),
    "number bounds": (
        {"type": "number", "minimum": 0, "maximum": 90},
        [0, 0.5, 89.999, 90, 90.0001, -0.5, 91, 45],
    ),
    "multipleOf": (
        {"type": "integer", "multipleOf": 5, "maximum": 100},
        [0, 5, -10, 100, 105, 3, 51],
    ),
    "patternProperties": (
        {"type": "object", "patternProperties": {"^x-": {"type": "string"}, "^n[0-9]+$": {"type": "integer"}},
         "additionalProperties": False},
        [{}, {"x-a": "s", "n1": 2}, {"x-a": 1}, {"n1": "s"}, {"other": 1}, {"n12": 3, "x-": ""}],
    ),
    "patternProperties with a false schema forbid their keys": (
        {"type": "object", "patternProperties": {"^a": False, "b$": {"type": "integer"}}},
        [{"b": 1}, {"ab": 1}, {"a": 1}, {"b": "x"}, {"zz": "free"}],
    ),
    "enum and const of any JSON value": (
        {"type": "object", "properties": {"e": {"enum": [1, "two", None, [3, {"k": True}], {"a": 1, "b": [2]}]},
                                          "c": {"const": {"z": [1.5, False]}}}},
        [{"e": 1}, {"e": 1.0}, {"e": "two"}, {"e": None}, {"e": [3, {"k": True}]}, {"e": {"b": [2], "a": 1}},
         {"e": 2}, {"e": [3]}, {"c": {"z": [1.5, False]}}, {"c": {"z": [1.5]}}, {"e": {"a": 1}}],
    ),
    "$ref local, with siblings (2020-12: both apply)": (
        {"$defs": {"n": {"type": "integer", "minimum": 0}}, "type": "object",
         "properties": {"a": {"$ref": "#/$defs/n", "maximum": 5}}},
        [{"a": 0}, {"a": 5}, {"a": 6}, {"a": -1}],
    ),
    "$ref siblings ignored in draft-07": (
        {"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"n": {"type": "integer"}},
         "$ref": "#/definitions/n", "maximum": 5},
        [1, 50, "x"],
    ),
    "arrays: items, prefixItems, counts": (
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": {"type": "boolean"},
         "minItems": 1, "maxItems": 4},
        [["a"], ["a", 1], ["a", 1, True, False], ["a", 1, True, False, True], [], [1], ["a", 1, 2]],
    ),
    "draft-07 tuple items and additionalItems": (
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "array",
         "items": [{"type": "null"}], "additionalItems": False},
        [[], [None], [None, None], [1]],
    ),
    "boolean schemas": (
        {"type": "object", "properties": {"yes": True, "no": False}},
        [{"yes": [1, {"a": None}]}, {"no": 1}, {}, {"other": "x"}],
    ),
    "typeless schema: the keywords apply to their own type": (
        {"minLength": 2, "minimum": 3},
        ["ab", "a", 3, 2, None, [1], {"k": 1}],
    ),
    "min/maxProperties": (
        {"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "additionalProperties": False,
         "minProperties": 2, "maxProperties": 2},
        [{"a": 1, "b": 2}, {"c": 1, "a": 2}, {"a": 1}, {"a": 1, "b": 2, "c": 3}],
    ),
    "uniqueItems with at most one item": (
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": True, "maxItems": 1},
        [[], [1], [1, 2], ["a"]],
    ),
}


@pytest.fixture(scope="module")
def compiled_cases() -> dict:
    return {name: schema_to_automaton(schema).dfa for name, (schema, _) in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_each_keyword_accepts_exactly_the_valid_instances(compiled_cases: dict, name: str) -> None:
    schema, values = CASES[name]
    assert_exact(schema, values, compiled_cases[name])


def test_any_order_is_the_default_and_declared_order_is_asked_for() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
              "required": ["a", "b"], "additionalProperties": False}
    shuffled = compact({"b": 2, "a": 1})
    assert schema_to_automaton(schema).dfa.accepts(shuffled)
    declared = schema_to_automaton(schema, property_order="declared")
    assert not declared.dfa.accepts(shuffled) and declared.dfa.accepts(compact({"a": 1, "b": 2}))
    assert "properties come in declared order" in declared.narrowings
    assert not schema_to_automaton(schema).dfa.accepts(b'{"a":1,"a":2}')  # each declared key at most once


def test_strict_closes_open_objects() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    assert schema_to_automaton(schema).dfa.accepts(compact({"a": 1, "z": 0}))
    strict = schema_to_automaton(schema, strict=True)
    assert not strict.dfa.accepts(compact({"a": 1, "z": 0})) and strict.dfa.accepts(compact({"a": 1}))
    assert "objects are closed (strict)" in strict.narrowings


def test_free_form_values_nest_only_as_deep_as_asked() -> None:
    schema = {"type": "object", "properties": {"v": True}}  # v: any JSON value
    shallow = schema_to_automaton(schema, free_depth=1)
    assert shallow.dfa.accepts(b'{"v":[1,2]}') and not shallow.dfa.accepts(b'{"v":[[1]]}')
    assert schema_to_automaton(schema, free_depth=2).dfa.accepts(b'{"v":[{"a":1}]}')
    assert any("nested at most 1 deep" in n for n in shallow.narrowings)


def test_a13_keeps_its_automaton_in_declared_order(a13_schema: dict) -> None:
    automaton = schema_to_automaton(a13_schema, property_order="declared")
    assert automaton.automaton.n_states == 21_374  # the count before the compiler honoured any order
    with pytest.raises(LimitExceeded, match="property_order='declared'"):
        schema_to_automaton(a13_schema)  # six long strings in any order: 2^5 copies of each family


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, "oneOf branches 0 and 1 may both match"),
        ({"type": "object", "properties": {"a": {"type": "integer"}}, "dependentRequired": {"a": ["b"]}},
         "unsupported keyword 'dependentRequired'"),
        ({"type": "number", "multipleOf": 0.01}, "'multipleOf' 0.01 is not supported"),
        ({"if": {"type": "string"}, "then": {"minLength": 1}}, "unsupported keyword 'if'"),
        ({"type": "object", "patternProperties": {"^a": {"type": "string"}, "b$": {"type": "integer"}}},
         "patternProperties '^a' and 'b$' overlap with different schemas"),
        ({"$ref": "#", "type": "object"}, "recursive $ref '#' is not supported"),
        ({"$schema": "http://json-schema.org/draft-03/schema#", "type": "string"}, "draft-03"),
        ({"type": "string", "pattern": "^\\D+$"}, "'\\\\D' in 'pattern' is not supported"),
        ({"type": "object", "patternProperties": {"^[^\\s]": {}}}, "'\\\\s' in patternProperties"),
        ({"type": "object", "properties": {f"p{i}": {"type": "integer"} for i in range(20)}},
         "20 properties in any order"),
    ],
)
def test_refusals_name_the_construct(schema: dict, message: str) -> None:
    with pytest.raises(GrammarError) as info:
        schema_to_automaton(schema)
    assert message in str(info.value)


def test_a_schema_that_would_blow_up_stops_with_the_limit_error() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string", "maxLength": 200} for i in range(8)}}
    with pytest.raises(LimitExceeded, match="property_order='declared'"):
        schema_to_automaton(wide, limits=Limits(max_seconds=5.0))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.sampled_from([0.5, -2.25, 90.0, 1e-7])
    | st.sampled_from(["", "a", "ab", "x-1", "kind", "é"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["a", "b", "kind", "x-1", "n1", "z"]), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON)
def test_random_values_are_accepted_exactly_when_valid(compiled_cases: dict, value: object) -> None:
    for name, dfa in compiled_cases.items():
        schema = CASES[name][0]
        assert dfa.accepts(compact(value)) == judge(schema, value), (json.dumps(schema)[:200], value)
