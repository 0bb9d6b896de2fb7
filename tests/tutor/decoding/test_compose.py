"""The precompiled a13 FSM intersected with the per-request narrowing: nothing outside §A13 gets through."""

from __future__ import annotations

import json

import pytest

from tutor.decoding.compose import IntersectionMatcher
from tutor.engine.choices import ChoiceMatcher
from tutor.engine.dfa_grammar import DFAMatcher
from tutor.engine.matcher import TokenRejected

pytestmark = pytest.mark.model


def _answer(verb: str) -> bytes:
    return json.dumps({"original": "I goed home.", "verb": verb, "tense": "past simple", "person": "1st singular",
                       "correct_form": "went", "spanish": "fui"}, separators=(",", ":")).encode()


def test_a_narrowing_inside_the_schema_decodes(tutor_engine):
    good = _answer("go")
    m = IntersectionMatcher(DFAMatcher(tutor_engine.schema_grammar()), ChoiceMatcher([good], tutor_engine.piece_index))
    m.advance_bytes(m.forced_bytes())
    assert m.is_finished() and m.is_accepting()


def test_a_narrowing_outside_the_schema_is_rejected_by_the_fsm(tutor_engine):
    bad = _answer("fly")  # not one of the 20 verbs
    m = IntersectionMatcher(DFAMatcher(tutor_engine.schema_grammar()), ChoiceMatcher([bad], tutor_engine.piece_index))
    with pytest.raises(TokenRejected):
        m.advance_bytes(m.forced_bytes())


def test_the_allowed_set_is_inside_both_masks(tutor_engine):
    outer = DFAMatcher(tutor_engine.schema_grammar())
    inner = ChoiceMatcher([_answer("go"), _answer("fly")], tutor_engine.piece_index)
    m = IntersectionMatcher(outer, inner)
    m.advance_bytes(b'{"original":"I goed home.","verb":"')
    allowed = m.allowed()
    pieces = {tutor_engine.piece_index.pieces[int(t)] for t in allowed.ids}
    alone = ChoiceMatcher([_answer("go"), _answer("fly")], tutor_engine.piece_index)
    alone.advance_bytes(b'{"original":"I goed home.","verb":"')
    narrowing_only = {tutor_engine.piece_index.pieces[int(t)] for t in alone.allowed().ids}
    # the narrowing alone would let the model start "fly"; the FSM's verb enum has no such verb
    assert any(p.startswith(b"fl") for p in narrowing_only - pieces)
    assert pieces and not any(p.startswith(b"fl") for p in pieces)
    assert all(outer.allowed().contains(int(t)) for t in allowed.ids)
