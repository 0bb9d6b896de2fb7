"""The window on a district database: a postgresql:// URL where a file path goes, through a real PostgreSQL."""

from __future__ import annotations

import pytest

from tutor.store import Store

pytestmark = pytest.mark.model


def test_the_window_keeps_and_lists_a_learners_correction_in_postgresql(correct_by_keyboard, qtbot, make_window,
                                                                       engine, postgres_url, reads_done):
    window = make_window(tutor=engine, db=postgres_url)
    reads_done()
    assert window.store is not None  # opened the URL (a path-only store would have refused it)
    window.learner_bar.create("Ana")
    reads_done()
    result = correct_by_keyboard(qtbot, window, "Yesterday she go to the market.")
    assert result.output["correct_form"] == "went"
    window.show_tab(1)
    reads_done()
    model = window.history.model
    assert model.rowCount() == 1
    with Store.open(postgres_url) as store:  # what another server or the teacher's machine reads
        [row] = store.history("Ana")
        assert row["original"] == "Yesterday she go to the market." and row["output"]["correct_form"] == "went"
