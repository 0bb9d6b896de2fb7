"""What the card says is what the store keeps: a "not sure" card is stored, listed and counted as not sure."""

from __future__ import annotations

import pytest

from tutor.cli import main
from tutor.practice import Practice
from tutor.store import Store

pytestmark = pytest.mark.model

NOT_SURE = "My father work in a bank since 2010."  # the bundled model's judge is below its threshold on its fix


def result_cell(window) -> str:
    model = window.history.model
    column = model.columns().index("is_correct")
    return model.data(model.index(0, column))


def test_a_not_sure_card_is_stored_listed_and_counted_as_not_sure(correct_by_keyboard,
                                                                  qtbot, make_window, engine, db_path, reads_done,
                                                                   capsys):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    result = correct_by_keyboard(qtbot, window, NOT_SURE)
    assert window.practice.card.kind == "not_sure" and not result.is_correct
    with Store.open(db_path) as store:
        row = store.history("Ana")[0]
        assert row["not_sure"] and not row["is_correct"]
        assert store.error_counts("Ana") == {"verb": {}, "tense": {}, "person": {}}  # not a teacher's statistic
        assert store.mistakes("Ana") == []  # not asked again in "review my mistakes"
        assert Practice(store).build("Ana") == 0  # and no exercise card from a guess
    window.show_tab(1)
    reads_done()
    assert result_cell(window) == "not sure"  # History: not a red "mistake"
    assert main(["history", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "not sure" in out and "-> " not in out


@pytest.mark.parametrize("sentence", ["He don't want to come.", "I am agree with you.", "She doesn't likes tea.",
                                      "I am study English now."])  # a bare verb after am: a note, never "Correct!"
def test_a_sentence_shown_with_a_note_is_stored_and_listed_as_noted(correct_by_keyboard,
                                                                    qtbot, make_window, engine, db_path, reads_done,
                                                                     capsys, sentence):
    """The card shows a note (an error §A13 does not label): History never calls the sentence correct."""
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    correct_by_keyboard(qtbot, window, sentence)
    assert window.practice.card.kind == "note"
    with Store.open(db_path) as store:
        row = store.history("Ana")[0]
        assert row["noted"] and not row["is_correct"] and not row["not_sure"]
        assert store.progress_by_week("Ana") == []  # neither a right answer nor a mistake in the statistics
        assert store.mistakes("Ana") == [] and Practice(store).build("Ana") == 0
    window.show_tab(1)
    reads_done()
    assert result_cell(window) == "noted"
    assert main(["history", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "noted" in out and "correct (" not in out and "out of scope" not in out
