"""The window never queries the store on the GUI thread: every read runs as a job, its result arrives by signal."""

from __future__ import annotations

import threading
from collections import defaultdict

import pytest
from PySide6.QtCore import Qt

from tutor.store import Store
from tutor.store.lock import SecretLock

READS = {
    Store: ("learners", "find_learner", "history", "count_history", "mistakes", "error_counts", "progress_by_week",
            "latency_summary", "get", "export"),
    SecretLock: ("teacher_set", "check_teacher", "has_pin", "check_pin"),
}


@pytest.fixture
def reads(monkeypatch) -> dict[str, list[int]]:
    """Record the thread of every store read (and passphrase/PIN check) the window makes, by method name."""
    seen: dict[str, list[int]] = defaultdict(list)
    for cls, names in READS.items():
        for name in names:
            real = getattr(cls, name)

            def spy(self, *args, _real=real, _name=name, **kwargs):
                seen[_name].append(threading.get_ident())
                return _real(self, *args, **kwargs)

            monkeypatch.setattr(cls, name, spy)
    return seen


def test_the_history_table_fills_when_its_read_arrives(make_window, filled_db, reads, reads_done):
    window = make_window(db=filled_db)
    reads_done()
    model = window.history.model
    window.learner_bar.select("Ana")
    assert model.loading and model.rowCount() == 0  # the query is on its way; the GUI thread did not run it
    assert window.history.count.text() == ""  # not "No corrections match." before the answer is known
    reads_done()
    assert not model.loading and model.rowCount() == 5 and window.history.count.text() == "5 corrections"
    assert threading.get_ident() not in reads["history"] + reads["count_history"]


def test_a_stale_read_never_replaces_a_newer_one(make_window, filled_db, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.select("Ana")
    view = window.history
    view.verb.setCurrentIndex(view.verb.findData("be"))  # both queries are in flight, the second one wins
    reads_done()
    assert [view.model.row(i)["original"] for i in range(view.model.rowCount())] == ["You was late.", "I am happy."]


def test_no_store_read_runs_on_the_gui_thread(qtbot, make_window, filled_db, settings, reads, reads_done, monkeypatch):
    gui = threading.get_ident()
    settings.learner = "Ana"  # restored at start: a learner list read and a PIN lookup
    window = make_window(db=filled_db)
    reads_done()
    assert window.learner == "Ana"
    window.show_tab(1)
    view = window.history
    view.search.setText("cat")
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=5000)
    qtbot.mouseClick(view.review_button, Qt.MouseButton.LeftButton)
    reads_done()
    assert window.review and window.tabs.currentWidget() is window.practice
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        window.show_tab(2)
    board = window.teacher.dashboard
    monkeypatch.setattr(board, "ask_export_path", lambda: str(filled_db.with_suffix(".csv")))
    with qtbot.waitSignal(board.exported, timeout=10000):
        board.export_button.click()
    bar = window.learner_bar
    bar.create("Dora", "246810")
    reads_done()
    bar.select("Ana")
    bar.pick("Dora")
    reads_done()
    bar.dialog.pin.setText("246810")
    bar.dialog.buttons.accepted.emit()
    reads_done()
    assert window.learner == "Dora"
    board.passphrase_button.click()
    dialog = window.teacher.passphrase_dialog
    dialog.new.setText("maestra-2026")
    dialog.repeat.setText("maestra-2026")
    dialog.buttons.accepted.emit()
    reads_done()
    window.teacher.lock()
    window.teacher.lock_page.passphrase.setText("maestra-2026")
    with qtbot.waitSignal(board.stats_ready, timeout=10000):
        window.teacher.lock_page.submit()

    expected = {"learners", "find_learner", "history", "count_history", "mistakes", "error_counts",
                "progress_by_week", "latency_summary", "export", "has_pin", "check_pin", "check_teacher"}
    assert expected <= set(reads)  # the walk above made every kind of read
    on_gui = sorted(name for name, threads in reads.items() if gui in threads)
    assert on_gui == []
