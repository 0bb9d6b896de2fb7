"""The precompiled a13 FSM intersected with the per-request narrowing: nothing outside §A13 gets through."""

from __future__ import annotations

import json

import pytest

from tutor.decoding.compose import IntersectionMatcher
from tutor.engine.matcher import TokenRejected

pytestmark = pytest.mark.model


def _schema(tutor):
    """Return a matcher of the precompiled a13 FSM (the AnswerDecoder's, from the engine's GrammarCompiler)."""
    return tutor.answer_decoder.schema_grammar().matcher()


def _choices(tutor, strings: list[bytes]):
    """Return a matcher of exactly these strings (the per-request narrowing)."""
    return tutor.answer_decoder.compiler.compile_choices(strings).matcher()


def _answer(verb: str) -> bytes:
    return json.dumps({"original": "I goed home.", "verb": verb, "tense": "past simple", "person": "1st singular",
                       "correct_form": "went", "spanish": "fui"}, separators=(",", ":")).encode()


def test_a_narrowing_inside_the_schema_decodes(tutor_engine):
    good = _answer("go")
    m = IntersectionMatcher(_schema(tutor_engine), _choices(tutor_engine, [good]))
    m.advance_bytes(m.forced_bytes())
    assert m.is_finished() and m.is_accepting()


def test_a_narrowing_outside_the_schema_is_rejected_by_the_fsm(tutor_engine):
    bad = _answer("fly")  # not one of the 20 verbs
    m = IntersectionMatcher(_schema(tutor_engine), _choices(tutor_engine, [bad]))
    with pytest.raises(TokenRejected):
        m.advance_bytes(m.forced_bytes())


def test_the_allowed_set_is_inside_both_masks(tutor_engine):
    pieces_of = tutor_engine.answer_decoder.vocabulary.pieces
    outer = _schema(tutor_engine)
    inner = _choices(tutor_engine, [_answer("go"), _answer("fly")])
    m = IntersectionMatcher(outer, inner)
    m.advance_bytes(b'{"original":"I goed home.","verb":"')
    allowed = m.allowed()
    pieces = {pieces_of[int(t)] for t in allowed.ids}
    alone = _choices(tutor_engine, [_answer("go"), _answer("fly")])
    alone.advance_bytes(b'{"original":"I goed home.","verb":"')
    narrowing_only = {pieces_of[int(t)] for t in alone.allowed().ids}
    # the narrowing alone would let the model start "fly"; the FSM's verb enum has no such verb
    assert any(p.startswith(b"fl") for p in narrowing_only - pieces)
    assert pieces and not any(p.startswith(b"fl") for p in pieces)
    assert all(outer.allowed().contains(int(t)) for t in allowed.ids)
