"""The engine's public face: GrammarCompiler, CompiledGrammar, the Matcher protocol, the llama-cpp-python processor."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import tutor.engine
from tutor.engine import CompiledGrammar, GrammarCompiler, GrammarError, Matcher, SerialisedGrammarError, Vocabulary
from tutor.engine.errors import TokenRejected

PHONE = "[0-9]{3}-[0-9]{4}"
SMALL_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 12}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}


def _every_family(compiler: GrammarCompiler) -> dict[str, CompiledGrammar]:
    return {
        "regex": compiler.compile_regex("ab[0-9]{2}"),
        "json_schema": compiler.compile_json_schema({"enum": ["go", "went"]}),
        "gbnf": compiler.compile_gbnf('root ::= "ab" [0-9] [0-9]\n'),
        "choices": compiler.compile_choices(["ab12", "ab34"]),
    }


def _walk(matcher: Matcher, vocab: Vocabulary, text: bytes) -> list[int]:
    """Advance through text one single-byte token at a time; return the tokens fed."""
    ids = [vocab.pieces.index(bytes([b])) for b in text]
    for t in ids:
        assert matcher.allowed().contains(t)
        matcher.advance(t)
    return ids


def test_the_face_lists_its_names() -> None:
    assert {"Vocabulary", "GrammarCompiler", "CompiledGrammar", "Matcher", "GrammarError"} <= set(tutor.engine.__all__)
    assert all(hasattr(tutor.engine, name) for name in tutor.engine.__all__)


def test_every_family_implements_the_matcher_protocol(small_vocab: Vocabulary) -> None:
    for kind, compiled in _every_family(GrammarCompiler(small_vocab)).items():
        assert compiled.kind == kind
        matcher = compiled.matcher()
        assert isinstance(matcher, Matcher), kind
        text = b'"go"' if kind == "json_schema" else b"ab12"
        _walk(matcher, small_vocab, text)
        assert matcher.is_accepting() and matcher.is_finished(), kind
        eos = min(small_vocab.eog_ids)
        assert matcher.allowed().contains(eos), kind


def test_rollback_restores_the_allowed_set(small_vocab: Vocabulary) -> None:
    for kind, compiled in _every_family(GrammarCompiler(small_vocab)).items():
        matcher = compiled.matcher()
        start = matcher.allowed().allowed_ids(small_vocab.size)
        first = b'"' if kind == "json_schema" else b"a"
        _walk(matcher, small_vocab, first)
        after_one = matcher.allowed().allowed_ids(small_vocab.size)
        assert not np.array_equal(start, after_one), kind
        matcher.advance_bytes(b"g" if kind == "json_schema" else b"b")
        matcher.rollback(2)
        assert np.array_equal(matcher.allowed().allowed_ids(small_vocab.size), start), kind
        with pytest.raises(ValueError, match="cannot roll back"):
            matcher.rollback(1)


def test_forced_continuation_and_whether_it_completes(small_vocab: Vocabulary) -> None:
    for kind, compiled in _every_family(GrammarCompiler(small_vocab)).items():
        matcher = compiled.matcher()
        if kind == "json_schema":
            _walk(matcher, small_vocab, b'"w')
            assert matcher.forced_bytes() == b'ent"' and matcher.forced_completes()
            continue
        assert matcher.forced_bytes() == b"ab" and not matcher.forced_completes(), kind
        _walk(matcher, small_vocab, b"ab1")
        assert matcher.forced_bytes() == (b"2" if kind == "choices" else b""), kind
        assert matcher.forced_completes() == (kind == "choices"), kind


def test_bytes_round_trip_keeps_every_allowed_set(small_vocab: Vocabulary) -> None:
    for kind, compiled in _every_family(GrammarCompiler(small_vocab)).items():
        again = CompiledGrammar.from_bytes(compiled.to_bytes(), small_vocab)
        assert (again.kind, again.source) == (compiled.kind, compiled.source)
        a, b = compiled.matcher(), again.matcher()
        text = b'"go"' if kind == "json_schema" else b"ab12"
        for byte in text:
            assert np.array_equal(a.allowed().allowed_ids(small_vocab.size), b.allowed().allowed_ids(small_vocab.size))
            a.advance_bytes(bytes([byte]))
            b.advance_bytes(bytes([byte]))
        assert b.is_finished(), kind


def test_bytes_for_another_vocabulary_or_corrupt_are_refused(small_vocab: Vocabulary) -> None:
    data = GrammarCompiler(small_vocab).compile_regex(PHONE).to_bytes()
    other = Vocabulary.from_pieces([*small_vocab.pieces, b"extra"], small_vocab.special_ids, small_vocab.eog_ids)
    with pytest.raises(SerialisedGrammarError, match="another vocabulary"):
        CompiledGrammar.from_bytes(data, other)
    with pytest.raises(SerialisedGrammarError, match="not a compiled grammar"):
        CompiledGrammar.from_bytes(data[:-1] + bytes([data[-1] ^ 1]), small_vocab)


def test_compiled_grammar_is_immutable_and_memoised(small_vocab: Vocabulary) -> None:
    compiler = GrammarCompiler(small_vocab)
    compiled = compiler.compile_regex(PHONE)
    assert compiler.compile_regex(PHONE) is compiled
    with pytest.raises(AttributeError):
        compiled.source = "x"  # type: ignore[misc]


def test_choices_are_not_kept_so_a_compiler_serving_requests_does_not_grow(small_vocab: Vocabulary) -> None:
    compiler = GrammarCompiler(small_vocab)
    compiler.compile_regex(PHONE)
    for n in range(50):  # one answer per request, as the tutor's answer decoder compiles them
        matcher = compiler.compile_choices([f"answer {n}"]).matcher()
        assert not matcher.is_finished()
    assert len(compiler._memo) == 1


def test_cache_dir_persists_dfa_grammars(small_vocab: Vocabulary, tmp_path: Path) -> None:
    first = GrammarCompiler(small_vocab, cache_dir=tmp_path).compile_json_schema(SMALL_SCHEMA)
    assert list(tmp_path.rglob("*.gtc")) and not first.dfa_grammar.from_cache
    again = GrammarCompiler(small_vocab, cache_dir=tmp_path).compile_json_schema(SMALL_SCHEMA)
    assert again.dfa_grammar.from_cache


def test_errors_are_the_engines(small_vocab: Vocabulary) -> None:
    compiler = GrammarCompiler(small_vocab)
    with pytest.raises(GrammarError):
        compiler.compile_regex("(unclosed")
    with pytest.raises(GrammarError, match="not JSON"):
        compiler.compile_json_schema("{nope")
    with pytest.raises(GrammarError, match="one prior per choice"):
        compiler.compile_choices(["a", "b"], priors=[0.0])
    matcher = compiler.compile_regex("a").matcher()
    with pytest.raises(TokenRejected):
        matcher.advance_bytes(b"b")


# --- through the real model ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plain_vocab(plain_llm) -> Vocabulary:
    """Return the vocabulary read from the loaded model (no second load)."""
    return Vocabulary.from_llama(plain_llm)


@pytest.mark.model
def test_from_llama_equals_from_gguf(plain_vocab: Vocabulary, default_model_path: Path) -> None:
    assert plain_vocab.sha256 == Vocabulary.from_gguf(default_model_path).sha256


@pytest.mark.model
def test_the_public_example_constrains_a_plain_llama(plain_llm, plain_vocab: Vocabulary) -> None:
    from tutor.engine.llama_cpp import LogitsProcessor

    compiled = GrammarCompiler(plain_vocab).compile_regex(PHONE)
    texts = []
    for _ in range(20):
        out = plain_llm.create_completion("My phone number is", max_tokens=16, temperature=1.0,
                                          logits_processor=[LogitsProcessor(compiled)])
        texts.append(out["choices"][0]["text"])
        assert out["choices"][0]["finish_reason"] == "stop"
    assert all(re.fullmatch(PHONE, t) for t in texts), texts
    assert len(set(texts)) > 1  # temperature 1.0 really samples


@pytest.mark.model
def test_a_json_schema_constrains_a_plain_llama(plain_llm, plain_vocab: Vocabulary) -> None:
    from tutor.engine.llama_cpp import LogitsProcessor

    compiled = GrammarCompiler(plain_vocab).compile_json_schema(SMALL_SCHEMA)
    for _ in range(5):
        out = plain_llm.create_completion('A person as JSON: {"name":', max_tokens=48, temperature=1.0,
                                          logits_processor=[LogitsProcessor(compiled)])
        jsonschema.validate(json.loads(out["choices"][0]["text"]), SMALL_SCHEMA)


@pytest.mark.model
def test_once_complete_only_end_of_generation_is_left(plain_vocab: Vocabulary) -> None:
    from tutor.engine.llama_cpp import LogitsProcessor

    compiled = GrammarCompiler(plain_vocab).compile_regex("[0-9]")
    processor = LogitsProcessor(compiled)
    scores = np.zeros(plain_vocab.size, dtype=np.float32)
    prompt = np.array([1, 2, 3], dtype=np.intc)
    first = processor(prompt, scores)
    digit = plain_vocab.pieces.index(b"7")
    assert np.isfinite(first[digit]) and not np.isfinite(first[plain_vocab.pieces.index(b"a")])
    after = processor(np.append(prompt, digit).astype(np.intc), scores)
    assert set(np.flatnonzero(np.isfinite(after)).tolist()) == set(plain_vocab.eog_ids)


def test_fill_bitmask_packs_exactly_the_allowed_ids(small_vocab: Vocabulary) -> None:
    from tutor.engine.matcher import apply_bitmask

    words = -(-small_vocab.size // 32)
    grammar = GrammarCompiler(small_vocab).compile_json_schema(SMALL_SCHEMA)
    matcher = grammar.matcher()
    cfg = GrammarCompiler(small_vocab).compile_gbnf('root ::= "(" root ")" | "x"\n').matcher()
    for m in (matcher, cfg):
        allowed = m.allowed()
        out = np.zeros(words, dtype=np.uint32)
        allowed.fill_bitmask(out, small_vocab.size)
        ids = np.flatnonzero(np.unpackbits(out.view(np.uint8), bitorder="little"))
        assert np.array_equal(ids, allowed.allowed_ids(small_vocab.size))
        logits = np.zeros(small_vocab.size, dtype=np.float32)
        assert np.array_equal(np.flatnonzero(np.isfinite(apply_bitmask(out, logits))), ids)
    fast = np.zeros(words, dtype=np.uint32)
    matcher.fill_bitmask(fast)  # the DFA's direct fill gives the same words
    assert np.array_equal(fast, matcher.allowed().packed(small_vocab.size))
