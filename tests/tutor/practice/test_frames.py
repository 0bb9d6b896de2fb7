"""The frame sentences of data/practice/frames.json: the examples render, and every filled frame reads as its
cell with no error to the analyser (an independent reader: it was written for learners' sentences)."""

from __future__ import annotations

import pytest

from tutor.a13.analysis import analyse
from tutor.practice.frames import frame, frames_data
from tutor.scope import load_scope


@pytest.mark.parametrize("example", frames_data()["examples"], ids=lambda e: e["prompt"])
def test_the_examples_render_as_written(example):
    found = frame(example["verb"], example["tense"], example["person"])
    assert f"{found.before}___ ({example['verb']}){found.after}" == example["prompt"]
    assert load_scope().cell(example["verb"], example["tense"], example["person"]).correct_form == example["answer"]


def test_every_filled_frame_is_read_as_its_cell_with_no_error():
    scope = load_scope()
    checked, wrong = 0, []
    for (verb, tense, person), cell in scope.cells.items():
        found = frame(verb, tense, person)
        if found is None:
            assert tense in frames_data()["verbs"][verb].get("skip", ())
            continue
        sentence = found.before + cell.correct_form + found.after
        analysis = analyse(sentence)
        end = len(found.before) + len(cell.correct_form)
        keeps = [o for o in analysis.options if o.end == end and not o.is_error and o.cell.key == cell.key]
        sure_errors = [o for o in analysis.options if o.is_error and o.strength == 2]
        checked += 1
        if not keeps or sure_errors:
            wrong.append(sentence)
    assert checked >= 290 and wrong == []


def test_a_cell_outside_the_table_is_refused():
    with pytest.raises(KeyError, match="no §A13 cell"):
        frame("fly", "past simple", "3rd singular")
