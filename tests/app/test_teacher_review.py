"""Teacher review: a passphrase set at first use, every learner, statistics as charts, latency, CSV export."""

from __future__ import annotations

import csv

from PySide6.QtCore import Qt

from app.passphrase import verify_secret


def unlock_first_time(qtbot, window, passphrase: str = "maestra-2026") -> None:
    lock = window.teacher.lock_page
    window.show_tab(2)
    assert lock.first_use() and lock.confirm.isVisible()
    qtbot.keyClicks(lock.passphrase, passphrase)
    qtbot.keyClicks(lock.confirm, passphrase)
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        qtbot.keyClick(lock.confirm, Qt.Key.Key_Return)


def test_passphrase_is_chosen_at_first_use_and_stored_hashed(qtbot, make_window, settings):
    window = make_window()
    lock = window.teacher.lock_page
    window.show_tab(2)
    qtbot.keyClicks(lock.passphrase, "abc")
    lock.button.click()
    assert "at least" in lock.error.text() and not window.teacher.is_unlocked()
    lock.passphrase.clear()
    qtbot.keyClicks(lock.passphrase, "maestra-2026")
    qtbot.keyClicks(lock.confirm, "maestra-2025")
    lock.button.click()
    assert "differ" in lock.error.text() and not window.teacher.is_unlocked()
    lock.passphrase.clear()
    lock.confirm.clear()
    unlock_first_time(qtbot, window)
    assert window.teacher.is_unlocked()
    stored = settings.teacher_hash
    assert stored.startswith("scrypt$") and "maestra" not in stored
    assert verify_secret("maestra-2026", stored)


def test_lock_then_only_the_right_passphrase_opens_it(qtbot, make_window):
    window = make_window()
    unlock_first_time(qtbot, window)
    window.teacher.dashboard.lock_button.click()
    lock = window.teacher.lock_page
    assert not window.teacher.is_unlocked() and not lock.confirm.isVisible()
    assert window.teacher.dashboard.history.model.rowCount() == 0  # nothing left on show behind the lock
    qtbot.keyClicks(lock.passphrase, "wrong guess")
    qtbot.keyClick(lock.passphrase, Qt.Key.Key_Return)
    assert not window.teacher.is_unlocked() and "not right" in lock.error.text()
    lock.passphrase.clear()
    qtbot.keyClicks(lock.passphrase, "maestra-2026")
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        qtbot.keyClick(lock.passphrase, Qt.Key.Key_Return)
    assert window.teacher.is_unlocked()


def test_dashboard_lists_learners_and_charts_their_mistakes(qtbot, make_window, filled_db):
    window = make_window(db=filled_db)
    unlock_first_time(qtbot, window)
    board = window.teacher.dashboard
    names = [board.learners.item(i).text() for i in range(board.learners.count())]
    assert names == ["All learners", "Ana (5)", "Ben (1)"]
    assert board.history.model.rowCount() == 6 and "learner" in board.history.model.columns()
    assert dict(board.verb_chart.rows) == {"be": (1.0,), "go": (2.0,), "have": (1.0,)}
    assert ("past simple", (2.0,)) in board.tense_chart.rows
    weeks = dict(board.week_chart.rows)
    assert weeks["01-05"] == (2.0, 2.0)  # Ana's goed and Ben's goes, both mistakes
    assert weeks["01-12"] == (3.0, 1.0)
    assert "smollm2-135m" in board.latency_text.text() and "p50 3.0 µs" in board.latency_text.text()
    assert board.latency_chart.rows == [("≤2", (0.0,)), ("≤5", (5.0,))]  # empty ends trimmed

    with qtbot.waitSignal(board.stats_ready, timeout=10000):
        board.learners.setCurrentRow(2)  # Ben
    assert board.selected_learner() == "Ben"
    assert dict(board.verb_chart.rows) == {"go": (1.0,)}
    assert [board.history.model.row(i)["original"] for i in range(board.history.model.rowCount())] == ["I goes home."]
    assert "go: 1" in board.verb_chart.accessibleDescription()


def test_csv_export_of_one_learner_and_of_everyone(qtbot, make_window, filled_db, tmp_path, monkeypatch):
    window = make_window(db=filled_db)
    unlock_first_time(qtbot, window)
    board = window.teacher.dashboard
    target = tmp_path / "all.csv"
    monkeypatch.setattr(board, "ask_export_path", lambda: str(target))
    with qtbot.waitSignal(board.exported, timeout=10000) as blocker:
        board.export_button.click()
    assert blocker.args == [6, str(target)]
    with target.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6 and {row["learner"] for row in rows} == {"Ana", "Ben"}
    assert "6" in board.status.text() and str(target) in board.status.text()

    with qtbot.waitSignal(board.stats_ready, timeout=10000):
        board.learners.setCurrentRow(1)  # Ana
    target = tmp_path / "ana.csv"
    with qtbot.waitSignal(board.exported, timeout=10000):
        window.export_action.trigger()  # Ctrl+E reaches the same export
    with target.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 5 and {row["learner"] for row in rows} == {"Ana"}


def test_export_while_locked_asks_for_the_passphrase_first(make_window, filled_db, tmp_path, monkeypatch):
    window = make_window(db=filled_db)
    asked = []
    monkeypatch.setattr(window.teacher.dashboard, "ask_export_path", lambda: asked.append(1) or "")
    window.export_action.trigger()
    assert window.tabs.currentWidget() is window.teacher and not window.teacher.is_unlocked()
    assert asked == []


def test_a_learner_with_a_pin_cannot_be_opened_by_another(qtbot, make_window, filled_db, settings):
    window = make_window(db=filled_db)
    bar = window.learner_bar
    bar.create("Dora", "2468")
    assert window.learner == "Dora"
    bar.select("Ana")
    bar.combo.setCurrentIndex(bar.find("Dora"))
    bar.combo.activated.emit(bar.find("Dora"))
    dialog = bar.dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.pin, "1111")
    dialog.buttons.accepted.emit()
    assert window.learner == "Ana" and "not right" in dialog.error.text()
    assert bar.combo.currentText() == "Ana"
    dialog.pin.clear()
    qtbot.keyClicks(dialog.pin, "2468")
    dialog.buttons.accepted.emit()
    assert window.learner == "Dora" and not dialog.isVisible()
    bar.create("dora")  # the same name again must not skip the PIN
    assert "already exists" in window.messages.message("learner")


def test_protected_learner_is_not_restored_at_start(make_window, filled_db, settings):
    window = make_window(db=filled_db)
    window.learner_bar.create("Dora", "2468")
    window.close()
    again = make_window(db=filled_db)
    assert again.learner == ""
    settings.learner = "Ben"
    third = make_window(db=filled_db)
    assert third.learner == "Ben"
