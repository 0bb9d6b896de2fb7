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


def test_an_unreachable_district_database_is_a_message_with_try_again_only(qtbot, make_window, postgres_server):
    """A district URL that cannot be reached: a message naming it without the password, no 'fresh database'
    button (nothing here may replace a district database), and the window stays usable."""
    url = "postgresql://tutor:s3cret@127.0.0.1:1/nowhere"
    window = make_window(db=url)
    assert window.store is None
    from PySide6.QtWidgets import QLabel, QPushButton

    shown = " ".join(w.text() for w in window.messages.findChildren(QLabel) if w.isVisible())
    buttons = [b.text().replace("&", "") for b in window.messages.findChildren(QPushButton) if b.isVisible()]
    assert "127.0.0.1" in shown and "s3cret" not in shown, shown
    assert "Try again" in buttons and "Start a fresh database" not in buttons, buttons
