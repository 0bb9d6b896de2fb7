"""CFGMatcher: the mask equals a brute-force check, EOS only when accepting, and the Matcher protocol."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from tutor.engine.cfg.matcher import CFGMatcher, CompiledCFG, compile_cfg
from tutor.engine.cfg.parser import DEAD
from tutor.engine.matcher import Matcher, TokenRejected
from tutor.resources import grammar_path


def allowed_ids(matcher: CFGMatcher, n_vocab: int) -> set[int]:
    logits = matcher.allowed().apply(np.zeros(n_vocab, dtype=np.float32))
    return set(np.flatnonzero(np.isfinite(logits)).tolist())


def brute_force(compiled: CompiledCFG, prefix: bytes, vocab: object) -> set[int]:
    parser = compiled.parser
    state = parser.walk(parser.start, prefix)
    out = set()
    for tid, piece in enumerate(vocab.pieces):
        if tid in vocab.eog_ids:
            if parser.state_accepts[state]:
                out.add(tid)
        elif tid not in vocab.special_ids and parser.walk(state, piece) != DEAD:
            out.add(tid)
    return out


def random_walks(compiled: CompiledCFG, vocab: object, walks: int, steps: int, seed: int) -> int:
    """Compare the mask with brute force along random valid walks; return how many states were checked."""
    rng = random.Random(seed)
    matcher = compiled.matcher()
    checked = 0
    for _ in range(walks):
        matcher.reset()
        prefix = b""
        for _ in range(steps):
            ids = allowed_ids(matcher, len(vocab.pieces))
            assert ids == brute_force(compiled, prefix, vocab), prefix
            checked += 1
            choices = sorted(ids - vocab.eog_ids)
            if not choices:
                break
            token = rng.choice(choices)
            matcher.advance(token)
            prefix += vocab.pieces[token]
    return checked


def test_parens_mask_equals_brute_force(parens_vocab: object) -> None:
    compiled = compile_cfg(grammar_path("parens.gbnf"), parens_vocab)
    assert random_walks(compiled, parens_vocab, walks=150, steps=14, seed=1) > 1000


def test_mask_of_deep_states_beyond_the_cache_is_exact(parens_vocab: object) -> None:
    compiled = compile_cfg(grammar_path("parens.gbnf"), parens_vocab, cache_depth=3)
    matcher = compiled.matcher()
    matcher.advance_bytes(b"(" * 10)
    deep = matcher.state
    assert compiled.parser.state_depth[deep] > 3
    assert allowed_ids(matcher, len(parens_vocab.pieces)) == brute_force(compiled, b"(" * 10, parens_vocab)
    assert deep not in compiled._allowed


def test_ambiguous_grammar_mask_equals_brute_force(vocab_factory) -> None:
    # Several stacks at once: `x` may end a `list` or start the next item; `y` calls back into `list`.
    text = 'root ::= list "!"?\nlist ::= item+\nitem ::= "x" | "x" "y" list "z" | "xy"'
    pieces = [b"<eos>"] + [bytes(p) for n in (1, 2, 3) for p in itertools.product(b"xyz!", repeat=n)]
    vocab = vocab_factory(pieces, {0}, {0})
    compiled = compile_cfg(text, vocab)
    assert random_walks(compiled, vocab, walks=120, steps=10, seed=2) > 500


def test_eos_only_when_accepting_and_control_tokens_never(parens_vocab: object) -> None:
    matcher = compile_cfg(grammar_path("parens.gbnf"), parens_vocab).matcher()
    n = len(parens_vocab.pieces)
    assert 0 not in allowed_ids(matcher, n) and 1 not in allowed_ids(matcher, n)
    matcher.advance_bytes(b"(atom")
    assert not matcher.is_accepting() and 0 not in allowed_ids(matcher, n)
    matcher.advance(parens_vocab.pieces.index(b")"))
    assert matcher.is_accepting() and matcher.is_finished()
    assert allowed_ids(matcher, n) == {0}
    with pytest.raises(TokenRejected):
        matcher.advance(1)


def test_matcher_protocol_advance_reject_reset(parens_vocab: object) -> None:
    matcher = compile_cfg(grammar_path("parens.gbnf"), parens_vocab).matcher()
    assert isinstance(matcher, Matcher)
    with pytest.raises(TokenRejected, match="does not fit"):
        matcher.advance(parens_vocab.pieces.index(b")"))
    with pytest.raises(TokenRejected):
        matcher.advance_bytes(b"x")
    matcher.advance(parens_vocab.pieces.index(b"(("))
    assert matcher.forced_bytes() == b""
    matcher.reset()
    assert matcher.state == matcher._c.parser.start and not matcher.is_accepting()


def test_forced_bytes_stop_at_a_choice(parens_vocab: object) -> None:
    compiled = compile_cfg('root ::= "ab" ("c" | "d") "ef"', parens_vocab)
    matcher = compiled.matcher()
    assert matcher.forced_bytes() == b"ab"
    matcher.advance_bytes(b"abc")
    assert matcher.forced_bytes() == b"ef"
    matcher.advance_bytes(b"ef")
    assert matcher.is_finished() and matcher.forced_bytes() == b""
