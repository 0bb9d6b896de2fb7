"""Teacher review: a passphrase set deliberately, kept in the store; every learner, statistics, CSV export."""

from __future__ import annotations

import csv
import time

from PySide6.QtCore import Qt

from tutor.store import Store
from tutor.store.lock import SecretLock, delay_after

PASSPHRASE = "maestra-2026"


def open_dashboard(qtbot, window) -> None:
    """Show Teacher review of a store without a passphrase: open, with statistics loaded."""
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        window.show_tab(2)
    assert window.teacher.is_unlocked()


def protect(db_path, passphrase: str = PASSPHRASE) -> None:
    """Set the teacher passphrase in the store, as `grammar-tutor teacher set-passphrase` does."""
    with Store.open(db_path) as store:
        SecretLock(store).set_teacher(passphrase)


def test_passphrase_is_set_deliberately_twice_and_kept_in_the_database(qtbot, make_window, db_path, settings,
                                                                        reads_done):
    window = make_window()
    open_dashboard(qtbot, window)
    board = window.teacher.dashboard
    assert board.open_warning.isVisible() and not board.lock_button.isEnabled()
    assert not window.teacher.lock_page.isVisible()  # nobody is asked to choose one on first click
    board.passphrase_button.click()
    dialog = window.teacher.passphrase_dialog
    assert dialog is not None and dialog.isVisible() and dialog.current.isHidden()
    qtbot.keyClicks(dialog.new, "abc")
    qtbot.keyClicks(dialog.repeat, "abc")
    dialog.buttons.accepted.emit()
    assert "at least 8" in dialog.error.text() and dialog.isVisible()
    dialog.new.clear()
    dialog.repeat.clear()
    qtbot.keyClicks(dialog.new, PASSPHRASE)
    qtbot.keyClicks(dialog.repeat, "maestra-2025")
    dialog.buttons.accepted.emit()
    assert "differ" in dialog.error.text() and dialog.isVisible()
    dialog.repeat.clear()
    qtbot.keyClicks(dialog.repeat, PASSPHRASE)
    dialog.buttons.accepted.emit()
    reads_done()
    assert not dialog.isVisible() and not board.open_warning.isVisible() and board.lock_button.isEnabled()
    with Store.open(db_path) as store:
        stored = store._conns.get().execute("SELECT hash FROM secrets WHERE subject = 'teacher'").fetchone()[0]
        assert stored.startswith("scrypt$17$") and PASSPHRASE not in stored
    settings.sync()
    assert not [key for key in settings.q.allKeys() if "teacher" in key or "pin" in key]  # not in the config

    board.passphrase_button.click()  # changing it needs the current one
    dialog = window.teacher.passphrase_dialog
    assert not dialog.current.isHidden()
    qtbot.keyClicks(dialog.current, "a wrong one")
    qtbot.keyClicks(dialog.new, "another-pass")
    qtbot.keyClicks(dialog.repeat, "another-pass")
    dialog.buttons.accepted.emit()
    reads_done()
    assert "not right" in dialog.error.text() and dialog.isVisible()
    dialog.reject()


def test_lock_then_only_the_right_passphrase_opens_it(qtbot, make_window, filled_db, reads_done):
    protect(filled_db)
    window = make_window(db=filled_db)
    window.show_tab(2)
    lock = window.teacher.lock_page
    assert not window.teacher.is_unlocked()
    assert window.teacher.dashboard.history.model.rowCount() == 0  # nothing on show behind the lock
    qtbot.keyClicks(lock.passphrase, "wrong guess")
    qtbot.keyClick(lock.passphrase, Qt.Key.Key_Return)
    reads_done()
    assert not window.teacher.is_unlocked() and "not right" in lock.error.text()
    lock.passphrase.clear()
    qtbot.keyClicks(lock.passphrase, PASSPHRASE)
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        qtbot.keyClick(lock.passphrase, Qt.Key.Key_Return)
    assert window.teacher.is_unlocked()
    window.teacher.dashboard.lock_button.click()
    assert not window.teacher.is_unlocked() and window.teacher.dashboard.history.model.rowCount() == 0


def test_wrong_tries_are_throttled_even_after_a_restart(qtbot, make_window, filled_db, reads_done):
    protect(filled_db)
    window = make_window(db=filled_db)
    window.show_tab(2)
    lock = window.teacher.lock_page
    for _ in range(3):
        lock.passphrase.setText("wrong guess")
        lock.submit()
        reads_done()
        assert "not right" in lock.error.text()
    window.close()
    with Store.open(filled_db) as store:  # the count is in the database, not in the closed window
        db = store._conns.get()
        assert db.execute("SELECT failures FROM secrets WHERE subject = 'teacher'").fetchone()[0] == 3
        # three wrong tries buy a 1 s wait, which a busy machine can spend on the restart alone: make it
        # the wait of nine, as if six more had come (the CLI's test does the same)
        with store._conns.write("test: more wrong tries") as conn:
            conn.execute("UPDATE secrets SET failures = 9, next_try = ? WHERE subject = 'teacher'",
                         [time.time() + delay_after(9)])
    again = make_window(db=filled_db)
    again.show_tab(2)
    again.teacher.lock_page.passphrase.setText(PASSPHRASE)
    again.teacher.lock_page.submit()
    reads_done()
    assert "Too many wrong tries" in again.teacher.lock_page.error.text() and not again.teacher.is_unlocked()


def test_teacher_review_locks_itself_when_idle(qtbot, make_window, filled_db):
    protect(filled_db)
    window = make_window(db=filled_db)
    teacher = window.teacher
    assert teacher.IDLE_MS == 10 * 60 * 1000
    window.show_tab(2)
    teacher.lock_page.passphrase.setText(PASSPHRASE)
    with qtbot.waitSignal(teacher.dashboard.stats_ready, timeout=10000):
        teacher.lock_page.submit()
    assert teacher.is_unlocked() and teacher.idle.isActive()
    teacher.idle.setInterval(300)
    teacher.idle.start()
    qtbot.keyClick(teacher.dashboard.learners, Qt.Key.Key_Down)  # activity restarts the countdown
    assert teacher.idle.remainingTime() > 200
    qtbot.waitUntil(lambda: not teacher.is_unlocked(), timeout=5000)
    assert teacher.dashboard.history.model.rowCount() == 0


def test_dashboard_lists_learners_and_charts_their_mistakes(qtbot, make_window, filled_db):
    window = make_window(db=filled_db)
    open_dashboard(qtbot, window)
    board = window.teacher.dashboard
    names = [board.learners.item(i).text() for i in range(board.learners.count())]
    assert names == ["All learners", "Ana (5)", "Ben (1)"]
    assert board.history.model.rowCount() == 6 and "learner" in board.history.model.columns()
    assert dict(board.verb_chart.rows) == {"be": (1.0,), "go": (2.0,), "have": (1.0,)}
    assert ("past simple", (2.0,)) in board.tense_chart.rows
    weeks = dict(board.week_chart.rows)
    assert weeks["5 Jan"] == (2.0, 2.0)  # the week of Monday 5 January: Ana's goed and Ben's goes, both mistakes
    assert weeks["12 Jan"] == (3.0, 1.0)
    latency = board.latency_text.text()
    assert "smollm2-135m: 5 corrections · 260 ms per correction (median)" in latency  # Ben's and Ana's 5
    assert "p50 3.0 µs" in latency  # these rows were sampled under the mask too
    assert board.latency_chart.rows == [("≤200", (0.0,)), ("≤500", (5.0,))]  # ms; empty ends trimmed

    with qtbot.waitSignal(board.stats_ready, timeout=10000):
        board.learners.setCurrentRow(2)  # Ben
    assert board.selected_learner() == "Ben"
    assert dict(board.verb_chart.rows) == {"go": (1.0,)}
    assert [board.history.model.row(i)["original"] for i in range(board.history.model.rowCount())] == ["I goes home."]
    assert "go: 1" in board.verb_chart.accessibleDescription()


def test_csv_export_of_one_learner_and_of_everyone(qtbot, make_window, filled_db, tmp_path, monkeypatch):
    window = make_window(db=filled_db)
    open_dashboard(qtbot, window)
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
    protect(filled_db)
    window = make_window(db=filled_db)
    asked = []
    monkeypatch.setattr(window.teacher.dashboard, "ask_export_path", lambda: asked.append(1) or "")
    window.export_action.trigger()
    assert window.tabs.currentWidget() is window.teacher and not window.teacher.is_unlocked()
    assert asked == []


def test_a_learner_with_a_pin_cannot_be_opened_by_another(qtbot, make_window, filled_db, settings, reads_done):
    window = make_window(db=filled_db)
    bar = window.learner_bar
    bar.create("Dora", "246810")
    reads_done()
    assert window.learner == "Dora"
    bar.select("Ana")
    bar.combo.setCurrentIndex(bar.find("Dora"))
    bar.combo.activated.emit(bar.find("Dora"))
    reads_done()
    dialog = bar.dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.pin, "111111")
    dialog.buttons.accepted.emit()
    reads_done()
    assert window.learner == "Ana" and "not right" in dialog.error.text()
    assert bar.combo.currentText() == "Ana"
    dialog.pin.clear()
    qtbot.keyClicks(dialog.pin, "246810")
    dialog.buttons.accepted.emit()
    reads_done()
    assert window.learner == "Dora" and not dialog.isVisible()
    bar.create("dora")  # the same name again must not skip the PIN
    reads_done()
    assert "already exists" in window.messages.message("learner")


def test_protected_learner_is_not_restored_at_start(make_window, filled_db, settings, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.create("Dora", "246810")
    reads_done()
    window.close()
    again = make_window(db=filled_db)
    reads_done()
    assert again.learner == ""
    settings.learner = "Ben"
    third = make_window(db=filled_db)
    reads_done()
    assert third.learner == "Ben"


def test_pins_need_six_characters(make_window, filled_db):
    window = make_window(db=filled_db)
    bar = window.learner_bar
    bar.create("Eve", "2468")
    assert "at least 6" in window.messages.message("learner") and bar.find("Eve") < 0
    dialog_window = make_window(db=filled_db)
    dialog_window.learner_bar.ask_new_learner()
    dialog = dialog_window.learner_bar.dialog
    dialog.name.setText("Eve")
    dialog.pin.setText("12")
    dialog.accept()
    assert "at least 6" in dialog.error.text() and dialog.isVisible()


def test_names_in_banners_are_text_not_html(make_window, filled_db, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.create("<b>Bold</b> \u202eEve\u200b")
    reads_done()
    assert window.learner == "<b>Bold</b> Eve"  # bidi override and zero-width space removed
    window.start_review()  # a banner with the learner's name in it
    reads_done()
    bar = window.messages.bars["review"]
    assert bar.text.textFormat() == Qt.TextFormat.PlainText and "<b>Bold</b> Eve" in bar.message()
    window.learner_bar.create("<B>BOLD</B> EVE")  # folded like the store folds it
    reads_done()
    assert "already exists" in window.messages.message("learner")


def test_the_learner_list_and_the_charts_count_the_same_corrections(qtbot, make_window, db_path, result_factory):
    """Practice retries and not-sure findings are in the history but not in the statistics: the list's number is
    the charts' (the tooltip tells the rest)."""
    from dataclasses import replace

    with Store.open(db_path) as store:
        for sentence in ("He goed home.", "She have a cat.", "I am happy."):
            store.save_correction(result_factory(sentence, ("go", "past simple", "3rd singular", "went", "fue"),
                                                 wrong=sentence.split()[1] if "happy" not in sentence else None),
                                  learner="Lucia")
        retry = result_factory("He went home.", ("go", "past simple", "3rd singular", "went", "fue"))
        store.save_correction(replace(retry, kind="review"), learner="Lucia")
        store.save_correction(replace(retry, not_sure=True, is_correct=False), learner="Lucia")
    window = make_window()
    open_dashboard(qtbot, window)
    board = window.teacher.dashboard
    item = board.learners.item(1)
    assert item.text() == "Lucia (3)"
    assert sum(values[0] for _, values in board.week_chart.rows) == 3  # corrections per week add up to it
    assert "3 corrections in the statistics" in item.toolTip() and "2 retries of past mistakes" in item.toolTip()
    assert board.history.model.rowCount() == 5  # the History sub-tab lists every row


def test_the_warning_without_a_passphrase_sits_above_the_sub_tabs_whole(qtbot, make_window):
    window = make_window()
    window.resize(800, 600)
    open_dashboard(qtbot, window)
    board = window.teacher.dashboard
    banner, tabs = board.open_banner, board.tabs
    assert banner.isVisible() and tabs.cornerWidget(Qt.Corner.TopRightCorner) is None
    assert banner.mapTo(window, banner.rect().bottomLeft()).y() <= tabs.mapTo(window, tabs.rect().topLeft()).y()
    label = board.open_warning
    assert label.height() >= label.heightForWidth(label.width())  # wrapped, not cut off
    bar = tabs.tabBar()
    assert [bar.tabText(i) for i in range(bar.count())] == ["Statistics", "History", "Latency", "Exercises"]
    assert all(bar.rect().contains(bar.tabRect(i)) for i in range(bar.count()))  # every sub-tab in full view
