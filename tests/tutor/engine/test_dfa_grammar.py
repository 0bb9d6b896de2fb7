"""DFAMatcher implements the one matcher interface: lookups, advance, EOS, forced bytes, reset."""

from __future__ import annotations

import numpy as np
import pytest

from tutor.engine.dfa_grammar import DFAMatcher, compile_json_schema, compile_regex
from tutor.engine.matcher import AllowedSet, Matcher, TokenRejected
from tutor.engine.vocab import Vocabulary


@pytest.fixture(scope="module")
def grammar(small_vocab: Vocabulary, a13_schema: dict):
    return compile_json_schema(a13_schema, small_vocab, use_cache=False, property_order="declared")


def token(vocab: Vocabulary, piece: bytes) -> int:
    return vocab.pieces.index(piece)


def test_implements_the_protocol(grammar) -> None:
    matcher = grammar.matcher()
    assert isinstance(matcher, Matcher)
    assert isinstance(matcher, DFAMatcher)
    assert matcher.allowed() is matcher.allowed()  # a precomputed lookup, not a fresh computation


def test_a13_walk_with_jump_forward(grammar, small_vocab: Vocabulary) -> None:
    m = grammar.matcher()
    assert m.forced_bytes() == b'{"original":"'
    assert not m.is_accepting() and not m.is_finished()
    m.advance_bytes(m.forced_bytes())
    assert m.forced_bytes() == b""
    for piece in (b"She", b" go", b" to", b" school", b'.","'):
        m.advance(token(small_vocab, piece))
    assert m.forced_bytes() == b'verb":"'
    m.advance_bytes(b'verb":"')
    m.advance(token(small_vocab, b"go"))
    assert m.forced_bytes() == b'","tense":"'  # no other verb starts with "go"
    m.advance_bytes(b'","tense":"past simple","person":"')
    assert m.forced_bytes() == b""
    m.advance_bytes(b'3')
    assert m.forced_bytes() == b'rd singular","correct_form":"'
    m.advance_bytes(b'rd singular","correct_form":"went","spanish":"fue')
    eos = min(small_vocab.eog_ids)
    assert not m.allowed().contains(eos)
    with pytest.raises(TokenRejected, match="before the output is complete"):
        m.advance(eos)
    assert m.forced_bytes() == b""  # more Spanish letters or the closing quote
    m.advance(token(small_vocab, b'"}'))
    assert m.is_accepting() and m.is_finished()
    assert m.allowed().contains(eos) and m.allowed().banned is False
    m.advance(eos)
    assert m.is_finished() and m.state == grammar.end_state
    with pytest.raises(TokenRejected):
        m.advance(eos)
    with pytest.raises(TokenRejected):
        m.advance_bytes(b"x")
    m.reset()
    assert m.state == 0 and m.forced_bytes().startswith(b'{"')


def test_rejections(grammar, small_vocab: Vocabulary) -> None:
    m = grammar.matcher()
    with pytest.raises(TokenRejected, match="not allowed in state 0"):
        m.advance(token(small_vocab, b"went"))
    assert m.state == 0  # a rejected token leaves the state unchanged
    with pytest.raises(TokenRejected):
        m.advance(1)  # a control token
    with pytest.raises(TokenRejected):
        m.advance(small_vocab.size)
    with pytest.raises(TokenRejected, match="do not fit at offset 2"):
        m.advance_bytes(b'{"x')
    assert m.state == 0
    m.advance_bytes(b'{"original":"')
    with pytest.raises(TokenRejected):
        m.advance(token(small_vocab, b"a\tb"))  # raw tab inside a string
    with pytest.raises(TokenRejected):
        m.advance(token(small_vocab, b"\\x"))  # not a JSON escape


def test_allowed_agrees_with_advance(grammar, small_vocab: Vocabulary) -> None:
    m = grammar.matcher()
    m.advance_bytes(b'{"original":"a')
    allowed = set(m.allowed().allowed_ids(small_vocab.size).tolist())
    for t in range(small_vocab.size):
        probe = grammar.matcher()
        probe.advance_bytes(b'{"original":"a')
        try:
            probe.advance(t)
            ok = True
        except TokenRejected:
            ok = False
        assert ok == (t in allowed), (t, small_vocab.pieces[t])


def test_regex_front_door(small_vocab: Vocabulary) -> None:
    g = compile_regex("(go|went)!", small_vocab, use_cache=False)
    m = g.matcher()
    assert m.forced_bytes() == b""
    m.advance(token(small_vocab, b"went"))
    assert m.forced_bytes() == b"!"
    m.advance_bytes(b"!")
    assert m.is_finished()


@pytest.mark.parametrize("form", ["allowed", "banned", "bitmask"])
def test_allowed_set_apply_and_contains(form: str) -> None:
    rng = np.random.default_rng(0)
    size = 1000
    allowed = np.flatnonzero(rng.random(size) < 0.4)
    banned_ids = np.setdiff1d(np.arange(size), allowed)
    bits = np.zeros(-(-size // 32) * 32, dtype=bool)
    bits[allowed] = True
    packed = np.packbits(bits, bitorder="little").view("<u4")
    aset = {
        "allowed": AllowedSet(allowed, False),
        "banned": AllowedSet(banned_ids, True),
        "bitmask": AllowedSet(allowed, False, packed),
    }[form]
    logits = rng.standard_normal(size).astype(np.float32)
    expected = np.full(size, -np.inf, dtype=np.float32)
    expected[allowed] = logits[allowed]
    assert np.array_equal(aset.apply(logits.copy()), expected)
    assert np.array_equal(aset.allowed_ids(size), allowed)
    for t in (int(allowed[0]), int(banned_ids[0]), int(allowed[-1]), int(banned_ids[-1])):
        assert aset.contains(t) == (t in set(allowed.tolist()))
    if form == "bitmask":  # float64 logits fall back to the id list
        out = aset.apply(logits.astype(np.float64))
        assert np.array_equal(out, expected.astype(np.float64))


def test_matcher_at_a_given_state(grammar) -> None:
    m = grammar.matcher(grammar.end_state)
    assert m.is_finished() and m.is_accepting()
    with pytest.raises(ValueError, match="outside the grammar"):
        grammar.matcher(grammar.end_state + 1)


def _independent_words(allowed: AllowedSet, vocab_size: int) -> np.ndarray:
    bits = np.zeros(-(-vocab_size // 32) * 32, dtype=bool)
    bits[allowed.allowed_ids(vocab_size)] = True
    return np.packbits(bits, bitorder="little").view("<u4")


def test_fill_bitmask_overwrites_every_word_of_the_callers_buffer(grammar, small_vocab: Vocabulary) -> None:
    words = -(-small_vocab.size // 32)
    plans = grammar.fill_plans
    assert len(plans) == grammar.end_state + 1
    assert any(words_ is not None for _, _, words_ in plans)  # sparse: zero row, then the nonzero span
    assert any(words_ is None and any(background) for background, _, words_ in plans)  # dense: the whole row
    one_per_set = {id(s): state for state, s in enumerate(grammar.state_sets)}
    flat = np.full(words, 0xFFFFFFFF, dtype=np.uint32)  # garbage the fill must overwrite
    rows = np.full((1, words), -1, dtype=np.int32)  # llguidance's [1, words] int32 layout
    shared = grammar.matcher()
    for state in [*one_per_set.values(), grammar.end_state]:
        expected = _independent_words(grammar.state_sets[state], small_vocab.size)
        m = grammar.matcher(state)
        for buffer in (flat, rows, flat):  # a new buffer rebinds; the same one again reuses its view
            buffer.fill(-1 if buffer.dtype == np.int32 else 0xFFFFFFFF)
            m.fill_bitmask(buffer)
            assert np.array_equal(buffer.view(np.uint32).reshape(-1), expected), state
        garbage = np.full(words, 0xA5A5A5A5, dtype=np.uint32)
        grammar.state_sets[state].fill_bitmask(garbage, small_vocab.size)
        assert np.array_equal(garbage, expected)
    shared.fill_bitmask(flat)
    assert np.array_equal(flat, _independent_words(shared.allowed(), small_vocab.size))


@pytest.mark.parametrize("bad", ["short", "float", "strided", "readonly"])
def test_fill_bitmask_refuses_a_buffer_of_the_wrong_shape(grammar, small_vocab: Vocabulary, bad: str) -> None:
    words = -(-small_vocab.size // 32)
    buffer = {"short": np.zeros(words - 1, dtype=np.uint32), "float": np.zeros(words, dtype=np.float32),
              "strided": np.zeros(2 * words, dtype=np.uint32)[::2], "readonly": np.zeros(words, dtype=np.uint32)}[bad]
    if bad == "readonly":
        buffer.flags.writeable = False
    with pytest.raises(ValueError, match="bitmask buffer must be"):
        grammar.matcher().fill_bitmask(buffer)
    with pytest.raises(ValueError, match="bitmask buffer must be"):
        grammar.matcher().allowed().fill_bitmask(buffer, small_vocab.size)


def test_a_sparse_row_is_the_zero_row_and_its_nonzero_span() -> None:
    vocab_size = 100 * 32 + 5  # the last word is partial: bits past the vocabulary stay clear
    ids = np.array([40 * 32 + 1, 41 * 32 + 9, 70 * 32 + 7])
    allowed = AllowedSet(ids, False)
    background, span, words = allowed.fill_plan(vocab_size)
    assert not any(background) and (span.start // 4, span.stop // 4) == (40, 71) and words is not None
    out = np.full(101, 0xFFFFFFFF, dtype=np.uint32)  # garbage the fill must overwrite
    allowed.fill_bitmask(out, vocab_size)
    assert np.flatnonzero(np.unpackbits(out.view(np.uint8), bitorder="little")).tolist() == ids.tolist()
    spread = AllowedSet(np.array([5, 100 * 32 + 4]), False)  # the span is the whole row: copied whole
    background, span, words = spread.fill_plan(vocab_size)
    assert words is None and bytes(background) == spread.packed(vocab_size).tobytes()
    banned = AllowedSet(np.array([3]), True)  # everything but one id
    out[:] = 0
    banned.fill_bitmask(out, vocab_size)
    bits = np.unpackbits(out.view(np.uint8), bitorder="little")
    assert np.flatnonzero(bits[:vocab_size] == 0).tolist() == [3] and not bits[vocab_size:].any()
    assert AllowedSet(np.array([], dtype=np.intp), False).fill_plan(vocab_size)[2] is None  # nothing allowed
