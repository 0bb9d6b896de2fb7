"""`not` and overlapping `oneOf` compile exactly (DFA differences) or are refused by name, never accepting a
value the schema rejects."""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest

from tutor.engine.dfa_grammar import compile_json_schema
from tutor.engine.json_schema import schema_to_automaton
from tutor.engine.matcher import GrammarError
from tutor.engine.vocab import Vocabulary

EXACT = [
    {"not": {"type": "string"}},
    {"type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}, "required": ["a"],
     "additionalProperties": False},
    {"type": "string", "maxLength": 3, "not": {"enum": ["a", "bc"]}},
    {"not": {"type": "object"}},
    {"type": "array", "items": {"type": "boolean"}, "not": {"maxItems": 1}},
    {"allOf": [{"not": {"type": "null"}}, {"not": {"type": "boolean"}}]},
    {"type": "string", "not": {"pattern": "^a"}},
    {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "string", "minLength": 2}]},
    {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 1}, {"type": "null"}]},
    {"oneOf": [{"type": "array", "maxItems": 1}, {"type": "array", "items": {"type": "boolean"}}]},
]
VALUES = [None, True, False, 0, 1, 1.5, -3, "", "a", "x", "bc", "abcd", "ab", "ba", "\u00e9", "a/b", [], [True],
          [True, False], [1], [[]], [[[]]], {}, {"a": "x"}, {"a": "y"}, {"a": []}, {"a": {"b": []}}, {"b": 1},
          {"a": "x", "b": 2}, [None, {"a": 1}]]


@pytest.mark.parametrize("schema", EXACT, ids=lambda s: json.dumps(s)[:40])
def test_not_accepts_exactly_the_values_jsonschema_accepts(schema: dict) -> None:
    automaton = schema_to_automaton(schema)
    validator = jsonschema.Draft202012Validator(schema)
    accepted = 0
    for value in VALUES:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        valid = validator.is_valid(value)
        got = automaton.dfa.accepts(text)
        assert not got or valid, f"{text!r} accepted, but the schema rejects it"
        assert got or not valid, f"{text!r} rejected, but the schema accepts it"
        accepted += got
    assert accepted  # the samples exercise both sides


@pytest.mark.parametrize(("schema", "message"), [
    ({"not": {"const": 1}}, "'not' over a number in 'const' is not supported at /not"),
    ({"not": {"type": "integer"}}, "'not' over 'type': 'integer' is not supported at /not"),
    ({"type": "number", "not": {"minimum": 3}}, "'not' over a number constraint ('minimum')"),
    ({"not": {"$ref": "#/$defs/x"}, "$defs": {"x": {"type": "string"}}}, "'not' over a $ref is not supported"),
    ({"not": {"type": "object", "properties": {"a": {}, "b": {}}}},
     "'not' over a schema this compiler narrows (properties come in declared order)"),
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]},
     "oneOf branches 0 and 1 may both match one value, and 'exactly one' cannot be compiled exactly here"),
])
def test_not_that_cannot_be_exact_is_refused_by_name(schema: dict, message: str) -> None:
    order = "declared" if "properties" in json.dumps(schema) else "any"
    with pytest.raises(GrammarError, match=message.replace("(", r"\(").replace(")", r"\)").replace("$", r"\$")):
        schema_to_automaton(schema, property_order=order)


def test_decoding_under_not_gives_valid_outputs(smol_vocab: Vocabulary) -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 4, "not": {"enum": ["", "a"]}},
                                               "tag": {"not": {"type": ["object", "array", "string"]}}},
              "required": ["name", "tag"], "additionalProperties": False}
    grammar = compile_json_schema(schema, smol_vocab, use_cache=False, property_order="declared")
    rng = np.random.default_rng(4)
    eog = sorted(smol_vocab.eog_ids)
    outputs = []
    for _ in range(30):
        m = grammar.matcher()
        text = bytearray()
        for _step in range(60):
            allowed = m.allowed().allowed_ids(smol_vocab.size)
            assert allowed.size, "a dead end"
            ends = allowed[np.isin(allowed, eog)]
            token = int(ends[0]) if ends.size and rng.random() < 0.5 else int(rng.choice(allowed))
            m.advance(token)
            if token in smol_vocab.eog_ids:
                outputs.append(bytes(text))
                break
            text += smol_vocab.pieces[token]
    assert len(outputs) >= 5
    for out in outputs:
        jsonschema.validate(json.loads(out), schema)
