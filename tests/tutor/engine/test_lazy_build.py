"""The lazy build gives the eager build's masks and forced bytes, state by state, along many token paths."""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest

from tutor.engine.dfa import ClassDFA
from tutor.engine.dfa_grammar import compile_json_schema, compile_regex, forced_continuations
from tutor.engine.limits import LimitExceeded, Limits
from tutor.engine.vocab import Vocabulary

SMALL_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 6}, "age": {"type": "integer", "minimum": 0,
                                                                      "maximum": 120},
                   "tags": {"type": "array", "items": {"enum": ["a", "bc"]}, "maxItems": 3}},
    "required": ["name"],
    "additionalProperties": False,
}


def _eager(grammar) -> tuple[tuple, list[bytes]]:
    """Return every state's fill plan bytes and forced continuation, built all at once (the eager build)."""
    plans = tuple(grammar.fill_plans)
    blob, offsets = forced_continuations(ClassDFA(grammar.class_table, grammar.byte_class, grammar.accepting_states))
    data = blob.tobytes()
    return plans, [data[offsets[s]:offsets[s + 1]] for s in range(grammar.end_state + 1)]


def _plan_words(plan, words: int) -> np.ndarray:
    out = bytearray(words * 4)
    background, span, part = plan
    out[:] = background
    if part is not None:
        out[span] = part
    return np.frombuffer(bytes(out), dtype=np.uint32)


def _walks(lazy, eager, vocab: Vocabulary, walks: int, seed: int, policy: str = "random") -> list[bytes]:
    """Walk token paths under the lazy grammar; compare each step with the eager build; return the outputs.

    policy "random": a uniform allowed token, or (40 %) one that may close a structure. The adversarial
    ones: "longest" takes the longest allowed piece half the time (runs strings up to their maxLength and
    tokens across a closing quote), "escapes" prefers pieces holding a backslash, a quote or a byte >= 0x80.
    """
    plans, forced = eager
    words = -(-vocab.size // 32)
    rng = np.random.default_rng(seed)
    closing = np.array([any(c in p for c in b'"}]') for p in vocab.pieces])
    eog = sorted(vocab.eog_ids)
    closing[eog] = True
    lengths = np.array([len(p) for p in vocab.pieces])
    odd = np.array([any(c in p for c in b'\\"') or any(c >= 0x80 for c in p) for p in vocab.pieces])
    buffer = np.zeros(words, dtype=np.uint32)
    done = []
    for _ in range(walks):
        m = lazy.matcher()
        text = bytearray()
        for _step in range(300):
            m.fill_bitmask(buffer)
            assert np.array_equal(buffer, _plan_words(plans[m.state], words)), m.state
            assert m.forced_bytes() == forced[m.state], m.state
            allowed = np.flatnonzero(np.unpackbits(buffer.view(np.uint8), count=vocab.size, bitorder="little"))
            assert allowed.size, "a dead end"
            pool = allowed[closing[allowed]] if rng.random() < 0.4 else allowed
            if policy == "longest" and rng.random() < 0.5:
                pool = allowed[lengths[allowed] == lengths[allowed].max()]
            elif policy == "escapes" and rng.random() < 0.7:
                pool = allowed[odd[allowed]]
            token = int(rng.choice(pool if pool.size else allowed))
            m.advance(token)
            if token in vocab.eog_ids:
                done.append(bytes(text))
                break
            text += vocab.pieces[token]
    return done


def test_lazy_a13_masks_equal_the_eager_build_and_outputs_validate(smol_vocab: Vocabulary, a13_schema: dict) -> None:
    lazy = compile_json_schema(a13_schema, smol_vocab, use_cache=False, property_order="declared")
    assert all(p is None for p in lazy.plans) and all(f is None for f in lazy.forced)  # nothing built yet
    assert all(s is None for s in lazy.sets)
    eager_grammar = compile_json_schema(a13_schema, smol_vocab, use_cache=False, property_order="declared")
    eager = _eager(eager_grammar)
    outputs = _walks(lazy, eager, smol_vocab, walks=40, seed=7)
    built = sum(p is not None for p in lazy.plans)
    assert 0 < built < lazy.end_state + 1  # only the states decoding reached were built
    assert lazy.lazy is not None and lazy.lazy.built < lazy.end_state + 1
    assert not lazy.full_index  # and the eager index never was
    assert len(outputs) >= 10
    for out in outputs:
        jsonschema.validate(json.loads(out.decode("utf-8")), a13_schema)
    fresh = compile_json_schema(a13_schema, smol_vocab, use_cache=False, property_order="declared")
    assert [fresh.forced_at(s) for s in range(fresh.end_state + 1)] == eager[1]  # every state, walked one by one


@pytest.mark.parametrize("policy", ["longest", "escapes"])
def test_lazy_a13_equals_the_eager_build_along_adversarial_paths(smol_vocab: Vocabulary, a13_schema: dict,
                                                                 policy: str) -> None:
    lazy = compile_json_schema(a13_schema, smol_vocab, use_cache=False, property_order="declared")
    eager = _eager(compile_json_schema(a13_schema, smol_vocab, use_cache=False, property_order="declared"))
    outputs = _walks(lazy, eager, smol_vocab, walks=15, seed=11, policy=policy)
    assert len(outputs) >= 5
    for out in outputs:
        jsonschema.validate(json.loads(out.decode("utf-8")), a13_schema)
    if policy == "longest":  # some output ran a bounded string to its maxLength
        assert any(len(json.loads(out)["correct_form"]) == 30 or len(json.loads(out)["spanish"]) == 30
                   for out in outputs)


def test_every_state_built_lazily_equals_the_eager_build(smol_vocab: Vocabulary) -> None:
    for lazy, eager in (
        (compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False),
         compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False)),
        (compile_regex(r"[a-z]{2,5}(-[0-9]+)?", smol_vocab, use_cache=False),
         compile_regex(r"[a-z]{2,5}(-[0-9]+)?", smol_vocab, use_cache=False)),
    ):
        full = eager.state_sets  # build_index: every state at once
        for state in reversed(range(lazy.end_state + 1)):  # the lazy build, one state at a time
            got = lazy.allowed_at(state).allowed_ids(smol_vocab.size)
            assert np.array_equal(got, full[state].allowed_ids(smol_vocab.size)), state
        assert lazy.lazy is not None and lazy.lazy.built == lazy.end_state + 1


def test_lazy_small_schema_and_regex_equal_the_eager_build(smol_vocab: Vocabulary) -> None:
    lazy = compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False)
    outputs = _walks(lazy, _eager(compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False)), smol_vocab,
                     walks=60, seed=3)
    assert len(outputs) >= 20
    for out in outputs:
        jsonschema.validate(json.loads(out.decode("utf-8")), SMALL_SCHEMA)
    phone = compile_regex(r"\(?[0-9]{3}\)?-[0-9]{3}-[0-9]{4}", smol_vocab, use_cache=False)
    _walks(phone, _eager(compile_regex(r"\(?[0-9]{3}\)?-[0-9]{3}-[0-9]{4}", smol_vocab, use_cache=False)),
           smol_vocab, walks=20, seed=5)


def test_the_disk_cache_holds_the_fully_built_grammar(smol_vocab: Vocabulary, tmp_path) -> None:
    saved = compile_json_schema(SMALL_SCHEMA, smol_vocab, cache_dir=tmp_path)
    loaded = compile_json_schema(SMALL_SCHEMA, smol_vocab, cache_dir=tmp_path)
    assert not saved.from_cache and loaded.from_cache
    assert all(f is not None for f in loaded.forced)  # every state's continuation came from disk
    fresh = compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False)
    assert loaded.forced == [fresh.forced_at(s) for s in range(fresh.end_state + 1)]
    assert [bytes(p[0]) for p in loaded.fill_plans] == [bytes(p[0]) for p in fresh.fill_plans]


def test_the_sets_built_lazily_count_against_the_index_limit(smol_vocab: Vocabulary) -> None:
    grammar = compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False)
    held = grammar.index_bytes
    rows = int(grammar.index.set_start.size) * 4 * -(-smol_vocab.size // 32)
    small = compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False, limits=Limits(max_index_bytes=held // 2))
    small.matcher().allowed()  # the first state fits
    with pytest.raises(LimitExceeded, match="max_index_bytes"):  # decoding every state would not
        for state in range(small.end_state + 1):
            small.allowed_at(state)
    with pytest.raises(LimitExceeded, match="max_index_bytes"):  # nor would the eager build, rows counted
        compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False,
                            limits=Limits(max_index_bytes=held + rows // 2)).warm_bitmasks()


def test_matchers_in_several_threads_build_the_same_sets(smol_vocab: Vocabulary) -> None:
    import threading

    lazy = compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False)
    eager = compile_json_schema(SMALL_SCHEMA, smol_vocab, use_cache=False).state_sets
    states = list(range(lazy.end_state + 1))
    start = threading.Barrier(4, timeout=60)
    errors: list[BaseException] = []

    def build(order: list[int]) -> None:
        try:
            start.wait(timeout=60)
            for state in order:
                lazy.allowed_at(state)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(states[k::2] + states[1 - k::2],)) for k in (0, 1, 0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors and not any(t.is_alive() for t in threads)
    for state in states:
        assert np.array_equal(lazy.allowed_at(state).allowed_ids(smol_vocab.size),
                              eager[state].allowed_ids(smol_vocab.size)), state
