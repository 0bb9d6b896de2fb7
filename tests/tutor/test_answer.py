"""The third stage: the AnswerDecoder writes the judged answer on the engine's public GrammarCompiler."""

from __future__ import annotations

import json

import jsonschema
import pytest

from tutor.answer import answer_fields
from tutor.engine import CompiledGrammar
from tutor.resources import grammar_path

pytestmark = pytest.mark.model


def test_the_judged_answer_is_decoded_under_the_a13_schema(tutor_engine):
    sentence = "She have two cats."
    judged = tutor_engine.judged(sentence)
    answer, _ = judged.answer()
    answers = tutor_engine.answer_decoder
    assert isinstance(answers.schema_grammar(), CompiledGrammar) and answers.schema_grammar().kind == "json_schema"
    gen = answers.decode(sentence, answer)
    out = json.loads(gen.text)
    schema = json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(out, schema)  # an independent validator, not the FSM that produced it
    assert out == {"original": sentence, **answer_fields(answer)} and out["correct_form"] == "has"
    assert gen.n_sampled == 0 and gen.n_forced > 0  # forced text: no choice left to the model


def test_a_candidate_without_a_cell_is_no_answer(tutor_engine):
    proposal = tutor_engine.analyser.propose("He goed home.")
    keep = proposal.slots[0].candidates[0]
    assert not keep.change
    if keep.cell is None:  # "goed" fills no §A13 cell as written
        with pytest.raises(ValueError, match="fills no §A13 cell"):
            answer_fields(keep)
