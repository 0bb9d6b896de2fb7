"""Helpers for the CFG tests: small vocabularies and reference recognisers (slow, obviously correct)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from tutor.engine.vocab import Vocabulary


def make_vocab(pieces: list[bytes], special: set[int], eog: set[int]) -> Vocabulary:
    """Return a Vocabulary of the given pieces."""
    return Vocabulary.from_pieces(pieces, special, eog)


@pytest.fixture(scope="session")
def parens_vocab() -> Vocabulary:
    """Every string of 1-3 bytes over '()atom' plus longer pieces; id 0 is EOS, id 1 a control token."""
    pieces = [b"</s>", b"<|im_start|>"]
    pieces += [bytes(p) for n in (1, 2, 3) for p in itertools.product(b"()atom", repeat=n)]
    pieces += [b"atom", b"(atom)", b"))))", b"atom)", b"((((", b"()()", b"atom))", b"x", b" atom"]
    return make_vocab(pieces, special={0, 1}, eog={0})


def parens_state(s: bytes) -> tuple[bool, bool]:
    """Return (is a prefix of a sentence, is a sentence) for Expr → "(" Expr* ")" | "atom"."""
    i, depth, done = 0, 0, False
    while i < len(s):
        if done:
            return False, False
        if s[i : i + 1] == b"(":
            depth += 1
            i += 1
        elif s[i : i + 1] == b")":
            if depth == 0:
                return False, False
            depth -= 1
            i += 1
            done = depth == 0
        elif s.startswith(b"atom", i):
            i += 4
            done = depth == 0
        elif b"atom".startswith(s[i:]):
            return True, False
        else:
            return False, False
    return True, done


@pytest.fixture(scope="session")
def vocab_factory() -> Callable[[list[bytes], set[int], set[int]], Vocabulary]:
    """Return make_vocab(pieces, special, eog)."""
    return make_vocab


@pytest.fixture(scope="session")
def reference() -> dict[str, Callable]:
    """Return the reference recognisers by name."""
    return {"parens_state": parens_state}
