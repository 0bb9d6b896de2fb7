"""The exported per-request JSON Schema, compiled by llguidance, accepts exactly the candidate strings."""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest

from tutor.server.structured import completion_request, constraint, constraint_schema

llguidance = pytest.importorskip("llguidance")  # in the [test] extra

pytestmark = pytest.mark.model

# Sentences whose facts leave one answer, and ones that leave several (present or past, noun or verb).
SENTENCES = [
    "She have went to the bank",
    "My brother eat rice every day",
    "On Saturday the baby eat a banana",
    "I have work in the morning",
    "Yesterday I goed to school and I watch TV",
    "Ayer yo go to the park with my amigos",
    "My cousin, who lives in Quito, work in a hotel",
]
EOS = 256


class _ByteTokenizer:
    """One token per byte, plus EOS: llguidance's language is then exactly a set of byte strings."""

    def __init__(self) -> None:
        self.tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
        self.eos_token_id = EOS
        self.bos_token_id = None
        self.special_token_ids = [EOS]

    def __call__(self, data: bytes) -> list[int]:
        return list(data)


@pytest.fixture(scope="module")
def byte_tokenizer():
    return llguidance.LLTokenizer(llguidance.TokenizerWrapper(_ByteTokenizer()))


def _allowed(matcher) -> list[int]:
    words = np.frombuffer(matcher.compute_bitmask(), dtype=np.uint32)
    return [t for t in range(EOS + 1) if words[t // 32] >> (t % 32) & 1]


def _language(matcher, limit: int = 200) -> set[bytes]:
    """Return every complete string the matcher accepts, by walking its masks (the language is finite)."""
    done: set[bytes] = set()
    stack = [(matcher, b"")]
    while stack:
        m, prefix = stack.pop()
        while True:  # follow forced bytes without copying
            allowed = _allowed(m)
            if len(allowed) == 1 and allowed[0] != EOS:
                assert m.consume_token(allowed[0])
                prefix += bytes(allowed[:1])
                continue
            break
        for token in allowed:
            if token == EOS:
                done.add(prefix)
                continue
            branch = m.deep_copy()
            assert branch.consume_token(token)
            stack.append((branch, prefix + bytes([token])))
        assert len(done) + len(stack) < limit, "the schema's language is not the finite answer set"
    return done


def _compile(schema: dict, tokenizer):
    matcher = llguidance.LLMatcher(tokenizer, llguidance.LLMatcher.grammar_from_json_schema(json.dumps(schema)),
                                   log_level=0)
    assert not matcher.is_error(), matcher.get_error()
    return matcher


@pytest.mark.parametrize("sentence", SENTENCES)
def test_llguidance_accepts_exactly_the_candidates(sentence: str, tutor_engine, byte_tokenizer) -> None:
    found = constraint(tutor_engine, sentence)
    assert found is not None and found.strings
    schema = found.schema()
    assert all(branch["properties"]["original"] == {"const": found.original} for branch in schema["oneOf"])
    language = _language(_compile(schema, byte_tokenizer))
    assert language == {s.encode("utf-8") for s in found.strings}


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_tutors_answer_is_a_candidate_and_near_misses_fail(sentence: str, tutor_engine) -> None:
    found = constraint(tutor_engine, sentence)
    schema = found.schema()
    answer = tutor_engine.correct(sentence).output
    objects = [json.loads(s) for s in found.strings]
    public = [{k: v for k, v in o.items() if k != "written"} for o in objects]
    assert {k: v for k, v in answer.items() if k != "confidence"} in public
    for obj in objects:
        jsonschema.validate(obj, schema)
        for key in obj:
            wrong = dict(obj, **{key: obj[key] + "x"})
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(wrong, schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(dict(obj, confidence=1.0), schema)


def test_a_mix_of_two_candidates_is_refused(byte_tokenizer) -> None:
    a = '{"original":"On Saturday the baby eat","verb":"eat","tense":"present simple","correct_form":"eats"}'
    b = '{"original":"On Saturday the baby eat","verb":"eat","tense":"past simple","correct_form":"ate"}'
    matcher = _compile(constraint_schema([a, b]), byte_tokenizer)
    assert _language(matcher) == {a.encode(), b.encode()}
    mixed = a.replace('"correct_form":"eats"', '"correct_form":"ate"').encode()
    matcher.reset()
    assert not all(matcher.consume_token(t) for t in mixed)


def test_abstaining_sentences_have_no_constraint_and_requests_carry_the_schema(tutor_engine) -> None:
    assert constraint(tutor_engine, "I can swim very fast") is None
    body = completion_request(tutor_engine, "She go to school")
    assert "She go to school" in body["prompt"] and body["temperature"] == 0
    assert body["response_format"]["json_schema"]["schema"]["oneOf"]
