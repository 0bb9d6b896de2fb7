"""JSON Schema → DFA: the accepted texts are exactly the schema-valid JSON of the supported subset."""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.json_schema import body_automaton, schema_to_automaton, schema_to_dfa
from tutor.engine.matcher import GrammarError

VALID_A13 = {
    "original": "She go to school yesterday.",
    "verb": "go",
    "tense": "past simple",
    "person": "3rd singular",
    "correct_form": "went",
    "spanish": "fue",
}


def compact(value: object, ascii_only: bool = False) -> bytes:
    """Return the canonical compact JSON text of a value."""
    return json.dumps(value, ensure_ascii=ascii_only, separators=(",", ":")).encode("utf-8")


@pytest.fixture(scope="module")
def a13_dfa(a13_schema: dict):
    return schema_to_dfa(a13_schema, property_order="declared")


def test_a13_accepts_valid_outputs(a13_dfa, a13_schema) -> None:
    for value in (
        VALID_A13,
        {**VALID_A13, "original": "x"},
        {**VALID_A13, "original": "é" * 1000, "spanish": "€" * 30},
        {**VALID_A13, "original": 'He said "hi"\\\n\t\u0001/', "correct_form": "a\u00e9😀"},
    ):
        jsonschema.validate(value, a13_schema)
        assert a13_dfa.accepts(compact(value)), value
        assert a13_dfa.accepts(compact(value, ascii_only=True)), value


@pytest.mark.parametrize(
    "text",
    [
        compact({**VALID_A13, "original": ""}),  # minLength 1
        compact({**VALID_A13, "original": "é" * 1001}),  # maxLength counts characters
        compact({**VALID_A13, "spanish": "\\n" * 31}),  # 31 characters (escapes count as one)
        compact({**VALID_A13, "verb": "goes"}),
        compact({**VALID_A13, "tense": "future"}),
        compact({k: v for k, v in VALID_A13.items() if k != "spanish"}),
        compact({**VALID_A13, "extra": 1}),
        compact(dict(reversed(list(VALID_A13.items())))),  # properties in declared order only
        compact(VALID_A13).replace(b"fue", b"f\tue"),  # raw control character
        compact(VALID_A13).replace(b"fue", b"f\x00ue"),
        compact(VALID_A13).replace(b"fue", b"f\\xue"),  # not a JSON escape
        compact(VALID_A13).replace(b"fue", b"f\\u12ue"),
        compact(VALID_A13).replace(b"fue", b"\\ud800"),  # lone surrogate escape
        compact({**VALID_A13, "spanish": "😀" * 31}, ascii_only=True),  # 31 characters as 31 pairs
        compact(VALID_A13).replace(b"fue", b"f\xc3"),  # truncated UTF-8
        compact(VALID_A13).replace(b"fue", b"\xed\xa0\x80"),  # UTF-8 surrogate
        compact(VALID_A13).replace(b"fue", b"\xc0\xaf"),  # overlong
        compact(VALID_A13).replace(b"fue", b'f"ue'),
        compact(VALID_A13).replace(b'{"', b'{ "'),  # no whitespace by default
        compact(VALID_A13) + b" ",
    ],
)
def test_a13_rejects_invalid_outputs(a13_dfa, text: bytes) -> None:
    assert not a13_dfa.accepts(text)


def test_string_lengths_count_characters_and_escapes() -> None:
    dfa = schema_to_dfa({"type": "string", "minLength": 2, "maxLength": 3})
    for ok in ['"ab"', '"abc"', '"é€😀"', '"\\n\\t"', '"a\\u00e9b"', '"\\"\\\\\\/"', '"\\ud83d\\ude00ab"']:
        assert dfa.accepts(ok.encode()), ok
    for bad in ['"a"', '"abcd"', '"é€😀a"', '"\\n\\t\\r\\b"', '"\\u00e9"']:
        assert not dfa.accepts(bad.encode()), bad


def test_every_escape_and_no_raw_control_characters() -> None:
    dfa = schema_to_dfa({"type": "string"})
    for esc in ['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0041", "\\uFFFD", "\\ud7ff",
                "\\ud83d\\ude00", "\\uDBFF\\uDFFF"]:
        assert dfa.accepts(f'"{esc}"'.encode()), esc
    for lone in ["\\ud83d", "\\ude00", "\\ud83da", "\\ude00\\ud83d", "\\ud83d\\u0041"]:
        assert not dfa.accepts(f'"{lone}"'.encode()), lone
    for b in range(0x20):
        assert not dfa.accepts(b'"' + bytes([b]) + b'"'), b
    assert dfa.accepts(b'"\x7f"')
    assert dfa.accepts(b'""')


def test_maxlength_families_stay_linear() -> None:
    n_q = body_automaton().n_states
    small = schema_to_automaton({"type": "string", "maxLength": 10})
    big = schema_to_automaton({"type": "string", "maxLength": 1000})
    assert big.dfa.n_states - small.dfa.n_states == 990 * n_q
    assert [(f.min, f.max) for f in big.families] == [(0, 1000)]
    assert big.dfa.accepts(compact("x" * 1000)) and not big.dfa.accepts(compact("x" * 1001))


def test_unbounded_string_with_min_length() -> None:
    dfa = schema_to_dfa({"type": "string", "minLength": 3})
    assert dfa.accepts(b'"abc"') and dfa.accepts(compact("y" * 500)) and not dfa.accepts(b'"ab"')


def test_whitespace_is_bounded() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "integer"}}},
              "required": ["a"]}
    none = schema_to_dfa(schema)
    two = schema_to_dfa(schema, whitespace=2)
    assert none.accepts(b'{"a":[1,2]}') and not none.accepts(b'{"a": [1,2]}')
    spaced = b'{ \n"a" : [ 1 ,\t2 ]\r\n}'
    assert two.accepts(spaced) and not none.accepts(spaced)
    assert not two.accepts(b'{   "a":[1,2]}')  # three bytes in one gap
    with pytest.raises(GrammarError, match="whitespace must be an integer from 0 to 16"):
        schema_to_dfa(schema, whitespace=100)


FEATURES = {
    "$defs": {"point": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "number"}},
                        "required": ["x"], "additionalProperties": False}},
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 5},
        "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]?$"},
        "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 3},
                 "minItems": 1, "maxItems": 3},
        "flag": {"type": "boolean"},
        "nothing": {"type": "null"},
        "maybe": {"type": ["integer", "null"]},
        "kind": {"enum": ["a", 1, None, True, {"k": [1]}, "quote\"d"]},
        "fixed": {"const": "v1"},
        "point": {"$ref": "#/$defs/point"},
        "points": {"type": "array", "items": {"$ref": "#/$defs/point"}, "maxItems": 2},
    },
    "required": ["name", "kind"],
    "additionalProperties": False,
}

_point = st.fixed_dictionaries({"x": st.integers(-10**6, 10**6)},
                               optional={"y": st.floats(allow_nan=False, allow_infinity=False, width=32)},
                               ).map(lambda d: {k: d[k] for k in ("x", "y") if k in d})
_optional = {
    "code": st.from_regex(r"[A-Z]{2}[0-9]?", fullmatch=True),
    "tags": st.lists(st.text(min_size=1, max_size=3), min_size=1, max_size=3),
    "flag": st.booleans(),
    "nothing": st.none(),
    "maybe": st.one_of(st.none(), st.integers()),
    "fixed": st.just("v1"),
    "point": _point,
    "points": st.lists(_point, max_size=2),
}
instances = st.fixed_dictionaries(
    {"name": st.text(max_size=5), "kind": st.sampled_from(FEATURES["properties"]["kind"]["enum"])},
    optional=_optional,
).map(lambda d: {k: d[k] for k in FEATURES["properties"] if k in d})  # declared order


@pytest.fixture(scope="module")
def features_dfa():
    return schema_to_dfa(FEATURES, property_order="declared")  # ten properties: any order would need 2^10 subsets


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=instances, ascii_only=st.booleans())
def test_valid_instances_are_accepted(features_dfa, value: dict, ascii_only: bool) -> None:
    jsonschema.validate(value, FEATURES)
    assert features_dfa.accepts(compact(value, ascii_only)), value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=instances, cut=st.integers(0, 400), insert=st.sampled_from([b" ", b'"', b",", b"\\", b"1", b"\n"]))
def test_accepted_texts_are_schema_valid(features_dfa, value: dict, cut: int, insert: bytes) -> None:
    text = compact(value)
    cut %= len(text) + 1
    for mutated in (text[:cut] + insert + text[cut:], text[:cut] + text[cut + 1 :]):
        if features_dfa.accepts(mutated):
            jsonschema.validate(json.loads(mutated), FEATURES)


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ({"type": "object", "properties": {"x": {"type": "integer", "not": {"const": 3}}}},
         "'not' over a number in 'const' is not supported at /properties/x/not"),
        ({"type": "object", "properties": {"x": {"type": "string", "dependentRequired": {}}}},
         "unsupported keyword 'dependentRequired' at /properties/x"),
        ({"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 3}]},
         "oneOf branches 0 and 1 may both match one value"),
        ({"type": "number", "minimum": 0.5}, "a non-integral bound (0.5) on a number is not supported at the root"),
        ({"type": "array", "items": {"type": "string"}, "uniqueItems": True},
         "unsupported keyword 'uniqueItems' at the root"),
        ({"type": "object", "properties": {"a/b": {"type": "object", "properties": {"c~": {"not": {"minimum": 1}}}}}},
         "'not' over a number constraint ('minimum') is not supported at /properties/a~1b/properties/c~0/not"),
        ({"type": "array", "items": [{"type": "string"}]}, "'items' as a list is draft 2019-09 syntax"),
        ({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}},
         "recursive $ref '#/$defs/a' is not supported at /$defs/b"),
        ({"$ref": "other.json#/x"}, "only local $ref ('#/...') is supported, not 'other.json#/x' at the root"),
        ({"$ref": "#/$defs/missing"}, "$ref '#/$defs/missing' does not resolve at the root"),
        ({"$ref": "#node"}, "$ref to an anchor ('#node') is not supported"),
        ({"$ref": "#/$defs/a", "type": "string", "$defs": {"a": {"type": "null"}}},
         "the schema accepts no JSON value"),
        ({"type": "object", "properties": {"a": []}}, "a schema must be an object or a boolean, not list at"
         " /properties/a"),
        ({"type": "date"}, "unknown type 'date' at the root"),
        ({"type": []}, "'type' must be a type name or a non-empty list of names at the root"),
        ({"type": "string", "minLength": 5, "maxLength": 2}, "maxLength 2 is below minLength 5 at the root"),
        ({"type": "string", "maxLength": -1}, "'maxLength' must be a non-negative integer, not -1 at the root"),
        ({"type": "string", "minLength": 1.5}, "'minLength' must be a non-negative integer, not 1.5"),
        ({"type": "array", "items": {"type": "null"}, "minItems": 3, "maxItems": 1},
         "maxItems 1 is below minItems 3 at the root"),
        ({"type": "object", "required": "a"}, "'required' must be a list of property names at the root"),
        ({"type": "object", "properties": []}, "'properties' must be an object at the root"),
        ({"enum": []}, "'enum' must be a non-empty list at the root"),
        ({"type": "object", "minProperties": 2}, "minProperties 2 on an object that allows undeclared properties"),
        ({"exclusiveMinimum": True, "minimum": 1}, "a boolean 'exclusiveMinimum' is draft-04 syntax"),
        ({"enum": ["a"], "type": "integer"}, "no 'enum' value has the schema's 'type' at the root"),
        ({"type": "string", "pattern": 5}, "'pattern' must be a string at the root"),
        ({"type": "object", "properties": {"p": {"type": "string", "pattern": "a(?=b)"}}},
         "in 'pattern': unsupported regex syntax: lookahead '(?=' at position 1 in 'a(?=b)' at /properties/p"),
    ],
)
def test_errors_name_the_problem_and_its_pointer(schema: dict, message: str) -> None:
    with pytest.raises(GrammarError) as info:
        schema_to_dfa(schema)
    assert message in str(info.value)


def test_ambiguous_string_position_is_reported() -> None:
    import numpy as np

    from tutor.engine.json_schema import _expand

    # State 0 reads either the byte 'a' or a string body (placeholder symbol 256): not expandable.
    table = np.full((2, 257), -1, dtype=np.int32)
    table[0, ord("a")] = 1
    table[0, 256] = 1
    with pytest.raises(GrammarError, match="shares its position with another value"):
        _expand(table, np.array([False, True]), [(0, None)])
