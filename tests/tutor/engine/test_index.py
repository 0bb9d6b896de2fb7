"""The token index against brute force, EOS and special tokens, and random walks that must validate."""

from __future__ import annotations

import json
import random

import jsonschema
import numpy as np
import pytest

from tutor.engine.dfa_grammar import compile_json_schema, compile_regex
from tutor.engine.index import walk
from tutor.engine.json_schema import schema_to_automaton
from tutor.engine.trie import build_trie
from tutor.engine.vocab import Vocabulary

SCHEMAS = [
    {"type": "string", "minLength": 2, "maxLength": 4},
    {"type": "string", "minLength": 3},
    {"type": "string"},
    {"type": "object", "properties": {"a": {"type": "string", "maxLength": 2},
                                      "b": {"type": "string", "maxLength": 2}}, "required": ["b"]},
    {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 3}, "maxItems": 3},
    {"type": "object", "properties": {"n": {"type": "number"}, "k": {"enum": ["go", "went", 1.5, None]},
                                      "p": {"type": "string", "pattern": "^[a-c\\\\\"]{1,3}$"}}},
]


def test_trie_spells_every_usable_piece_once(small_vocab: Vocabulary) -> None:
    trie = build_trie(small_vocab)
    spelled: dict[int, bytes] = {}
    stack = [(0, b"")]
    while stack:
        node, prefix = stack.pop()
        if trie.node_token[node] >= 0:
            spelled[int(trie.node_token[node])] = prefix
        for child in range(trie.child_start[node], trie.child_start[node] + trie.child_count[node]):
            stack.append((child, prefix + bytes([trie.node_byte[child]])))
    for token, piece in spelled.items():
        assert small_vocab.pieces[token] == piece
    duplicates = dict(zip(trie.dup_ids.tolist(), trie.dup_canon.tolist(), strict=True))
    usable = {i for i, p in enumerate(small_vocab.pieces)
              if p and i not in small_vocab.special_ids and i not in small_vocab.eog_ids}
    assert set(spelled) | set(duplicates) == usable
    assert all(small_vocab.pieces[d] == small_vocab.pieces[c] for d, c in duplicates.items())


def test_walk_matches_a_byte_by_byte_walk(small_vocab: Vocabulary) -> None:
    dfa = schema_to_automaton(SCHEMAS[3]).dfa
    trie = build_trie(small_vocab)
    states = np.arange(dfa.n_states, dtype=np.int64)
    got, _ = walk(trie, dfa.transitions, states, states)
    pairs = {(int(o), int(t)): int(s) for o, t, s in zip(got.origin, got.token, got.state, strict=True)}
    for state in range(dfa.n_states):
        for token, piece in enumerate(small_vocab.pieces):
            if token in small_vocab.special_ids or token in small_vocab.eog_ids:
                continue
            end = dfa.step(state, piece)
            assert pairs.get((state, token), -1) == end


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
def test_allowed_sets_equal_brute_force(small_vocab: Vocabulary, brute, schema: dict) -> None:
    grammar = compile_json_schema(schema, small_vocab, use_cache=False)
    dfa = grammar.dfa
    for state in range(dfa.n_states):
        expected = brute(dfa.transitions, dfa.accepting, small_vocab, state)
        got = set(grammar.state_sets[state].allowed_ids(small_vocab.size).tolist())
        assert got == expected, state


def test_a13_allowed_sets_equal_brute_force(small_vocab: Vocabulary, brute, a13_schema: dict) -> None:
    grammar = compile_json_schema(a13_schema, small_vocab, use_cache=False, property_order="declared")
    dfa = grammar.dfa
    rng = random.Random(3)
    states = sorted(set(range(400)) | set(rng.sample(range(dfa.n_states), 300)))
    for state in states:
        expected = brute(dfa.transitions, dfa.accepting, small_vocab, state)
        assert set(grammar.state_sets[state].allowed_ids(small_vocab.size).tolist()) == expected, state


@pytest.mark.parametrize("pattern", ["[a-c]{2,40}", "(go|went)( [^\\n]{0,3})?", "\"(\\\\.|[^\"\\\\])*\""])
def test_regex_sets_equal_brute_force(small_vocab: Vocabulary, brute, pattern: str) -> None:
    grammar = compile_regex(pattern, small_vocab, use_cache=False)
    dfa = grammar.dfa
    for state in range(dfa.n_states):
        expected = brute(dfa.transitions, dfa.accepting, small_vocab, state)
        assert set(grammar.state_sets[state].allowed_ids(small_vocab.size).tolist()) == expected


def test_eos_only_when_accepting_and_specials_never(small_vocab: Vocabulary, a13_schema: dict) -> None:
    for grammar in (compile_json_schema(a13_schema, small_vocab, use_cache=False, property_order="declared"),
                    compile_regex("(ab)*|c{1,3}", small_vocab, use_cache=False)):
        for state, allowed in enumerate(grammar.state_sets[:-1]):
            for eos in small_vocab.eog_ids:
                assert allowed.contains(eos) == bool(grammar.dfa.accepting[state])
            for special in small_vocab.special_ids:
                assert not allowed.contains(special)
        after_eos = grammar.state_sets[-1]
        assert set(after_eos.allowed_ids(small_vocab.size).tolist()) == set(small_vocab.eog_ids)


def test_maxlength_does_not_blow_up(small_vocab: Vocabulary) -> None:
    short = compile_json_schema({"type": "string", "maxLength": 60}, small_vocab, use_cache=False)
    long = compile_json_schema({"type": "string", "maxLength": 1000}, small_vocab, use_cache=False)
    assert long.n_states > 10 * short.n_states
    # States deeper than the longest token share their sets: the index hardly grows.
    assert long.index.set_start.size == short.index.set_start.size
    assert long.index.pool.size == short.index.pool.size


@pytest.mark.model
def test_real_vocabulary_index_matches_brute_force(smol_grammar, brute) -> None:
    grammar = smol_grammar
    vocab = grammar.vocab
    dfa = grammar.dfa
    pieces = vocab.pieces
    width = max(map(len, pieces))
    lengths = np.array([len(p) for p in pieces])
    matrix = np.zeros((vocab.size, width), dtype=np.int64)
    for i, p in enumerate(pieces):
        matrix[i, : len(p)] = list(p)
    usable = np.array([bool(p) and i not in vocab.special_ids and i not in vocab.eog_ids
                       for i, p in enumerate(pieces)])
    rng = random.Random(5)
    states = list(range(60)) + rng.sample(range(60, dfa.n_states), 120)
    for state in states:
        cur = np.full(vocab.size, state)
        for j in range(width):
            active = (lengths > j) & (cur >= 0)
            cur[active] = dfa.transitions[cur[active], matrix[active, j]]
        expected = set(np.flatnonzero((cur >= 0) & usable).tolist())
        if dfa.accepting[state]:
            expected |= vocab.eog_ids
        assert set(grammar.state_sets[state].allowed_ids(vocab.size).tolist()) == expected, state
        assert not any(grammar.state_sets[state].contains(t) for t in vocab.special_ids)


@pytest.mark.model
def test_random_walks_spell_schema_valid_json(smol_grammar, a13_schema: dict) -> None:
    grammar = smol_grammar
    vocab = grammar.vocab
    rng = np.random.default_rng(11)
    for _ in range(12):
        matcher = grammar.matcher()
        out = bytearray()
        for _step in range(400):
            if matcher.is_finished():
                break
            forced = matcher.forced_bytes()
            if forced and rng.random() < 0.5:  # jump forward half of the time
                matcher.advance_bytes(forced)
                out += forced
                continue
            ids = matcher.allowed().allowed_ids(vocab.size)
            assert ids.size, "a live state always allows some token"
            token = int(rng.choice(ids))
            matcher.advance(token)
            if token in vocab.eog_ids:
                break
            out += vocab.pieces[token]
        assert matcher.is_accepting()
        value = json.loads(out.decode("utf-8"))
        jsonschema.validate(value, a13_schema)
