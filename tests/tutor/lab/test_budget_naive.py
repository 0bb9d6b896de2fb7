"""The lab's matchers: the naive re-derived mask equals the index, and budgeted samples always end."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tutor.engine.matcher import AllowedSet, Matcher
from tutor.engine.vocab import Vocabulary
from tutor.lab.budget import BudgetedMatcher, completion_for
from tutor.lab.families import load_family
from tutor.lab.naive import NaiveDFAMatcher


def ids_of(allowed: AllowedSet, n: int) -> set[int]:
    return set(np.flatnonzero(np.isfinite(allowed.apply(np.zeros(n, dtype=np.float32)))).tolist())


@pytest.mark.parametrize("name", ["phone", "a13"])
def test_naive_rederived_mask_equals_the_precompiled_index(byte_vocab: Vocabulary, name: str) -> None:
    family = load_family(name, byte_vocab)
    fast, naive = family.matcher(), NaiveDFAMatcher(family.compiled.dfa, byte_vocab)
    rng = random.Random(3)
    checked = 0
    for _ in range(6):
        fast.reset()
        naive.reset()
        for _ in range(40):
            expected = ids_of(fast.allowed(), byte_vocab.size)
            assert ids_of(naive.allowed(), byte_vocab.size) == expected
            assert naive.is_accepting() == fast.is_accepting()
            assert naive.forced_bytes() == fast.forced_bytes()
            checked += 1
            choices = sorted(expected - byte_vocab.eog_ids)
            if not choices:
                break
            token = rng.choice(choices)
            fast.advance(token)
            naive.advance(token)
    assert checked > 30


def _walk(matcher: Matcher, vocab: Vocabulary, rng: random.Random, max_tokens: int) -> tuple[bytes, bool]:
    """Sample uniformly among allowed tokens like a decoder without jump-forward; return (text, ended)."""
    matcher.reset()
    text = b""
    for _ in range(max_tokens + 1):
        if matcher.is_finished():
            return text, True
        allowed = sorted(ids_of(matcher.allowed(), vocab.size))
        assert allowed, text
        token = rng.choice(allowed)
        if token in vocab.eog_ids:
            assert matcher.is_accepting()
            return text, True
        matcher.advance(token)
        text += vocab.pieces[token]
    return text, False


@pytest.mark.parametrize(("name", "budget"), [("parens", 12), ("config", 10), ("phone", 12), ("a13", 120)])
def test_budgeted_samples_always_end_in_the_language(byte_vocab: Vocabulary, name: str, budget: int) -> None:
    family = load_family(name, byte_vocab)
    completion = completion_for(family)
    rng = random.Random(7)
    steered = 0
    for _ in range(40):
        matcher = BudgetedMatcher(family.matcher(), completion, byte_vocab, budget)
        text, ended = _walk(matcher, byte_vocab, rng, budget)
        assert ended and matcher.used <= budget, text
        assert family.judge(text), text
        steered += matcher.interventions > 0
    assert steered > 0  # uniform sampling wanders: the budget had to act


def test_completion_distances(byte_vocab: Vocabulary) -> None:
    parens = completion_for(load_family("parens", byte_vocab))
    state = parens.walk(parens.start, b"((at")
    assert parens.distance(state) == 4 and parens.shortest_completion(state) == b"om))"
    phone = completion_for(load_family("phone", byte_vocab))
    state = phone.walk(phone.start, b"555-1")
    assert phone.distance(state) == 7 and len(phone.shortest_completion(state)) == 7
