"""The Exercises page and the teacher's Practice tab: real widgets, a real SQLite file, keyboard only."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tutor.result import CorrectionResult
from tutor.store import Store


def mistake(original: str, written: str, verb: str, tense: str, person: str, form: str) -> CorrectionResult:
    start = original.index(written)
    output = {"original": original, "verb": verb, "tense": tense, "person": person, "correct_form": form,
              "spanish": "-"}
    return CorrectionResult(original=original, output=output, out_of_scope=False, is_correct=False, confidence=0.9,
                            error_span=written, error_start=start, error_end=start + len(written),
                            explanation_en="Use the past simple.", explanation_es="Va el pasado simple.")


@pytest.fixture
def practice_db(db_path: Path) -> Path:
    with Store.open(db_path) as store:
        store.save_correction(mistake("Yesterday he go to school.", "go", "go", "past simple", "3rd singular",
                                      "went"), learner="Ana")
        store.save_correction(mistake("She have two dogs.", "have", "have", "present simple", "3rd singular",
                                      "has"), learner="Ana")
        store.save_correction(mistake("I goes home.", "goes", "go", "present simple", "1st singular", "go"),
                              learner="Ben")
    return db_path


def open_exercises(qtbot, window, reads_done):
    window.activateWindow()  # shortcuts reach the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)
    window.learner_bar.select("Ana")
    reads_done()
    QTest.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    view = window.exercises
    qtbot.waitUntil(lambda: view.current is not None, timeout=10000)
    reads_done()
    return view


def answer(qtbot, view, text: str) -> dict:
    qtbot.keyClicks(view.answer, text)
    with qtbot.waitSignal(view.answered, timeout=10000) as signal:
        QTest.keyClick(view.answer, Qt.Key.Key_Return)
    return signal.args[0]


def test_keyboard_only_practice_a_right_answer_goes_and_a_wrong_one_comes_back(qtbot, make_window, practice_db,
                                                                                reads_done):
    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    assert window.tabs.currentWidget() is view and view.answer.hasFocus()
    first = view.current
    assert first["prompt"] == "Yesterday he ___ (go) to school."
    assert "went" not in view.prompt.text() and "(go)" in view.prompt.text()
    done = answer(qtbot, view, "went")
    assert done["correct"] and "Right!" in view.feedback.text() and "pasado simple" in view.feedback.text()
    QTest.keyClick(view.answer, Qt.Key.Key_Return)  # Enter again: the next card
    second = view.current
    assert second["id"] != first["id"] and view.answer.text() == "" and not view.answer.isReadOnly()
    done = answer(qtbot, view, "have")
    assert not done["correct"] and done["still_due"] and "stays due" in view.feedback.text()
    QTest.keyClick(view.answer, Qt.Key.Key_Return)
    ids = [c["id"] for c in view.due]
    assert first["id"] not in ids and ids[-1] == second["id"]  # the wrong one comes round again, last
    QTest.keyClick(view.answer, Qt.Key.Key_F8)  # F8 skips to the next card
    assert view.current["id"] == ids[1 % len(ids)]


def test_an_empty_answer_is_not_graded(qtbot, make_window, practice_db, reads_done):
    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    QTest.keyClick(view.answer, Qt.Key.Key_Return)
    reads_done()
    assert view.result is None and "first" in view.feedback.text()


def test_my_progress_draws_its_charts_with_the_numbers_in_words(qtbot, make_window, practice_db, reads_done):
    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    answer(qtbot, view, "went")
    view.tabs.setCurrentIndex(1)
    qtbot.waitUntil(lambda: view.progress.report is not None, timeout=10000)
    progress = view.progress
    assert not progress.rate_chart.pixmap().isNull() and progress.rate_chart.pixmap().width() > 200
    assert "2 errors in 9 words" in progress.rate_chart.accessibleDescription()
    assert "base form for the past: 1" in progress.type_chart.accessibleDescription()
    assert "have / has: 1" in progress.type_chart.accessibleDescription()
    assert "go, past simple: 1" in progress.cell_chart.accessibleDescription()
    assert "1 answers, 1 right" in progress.summary.text()


def test_another_learner_sees_only_their_cards(qtbot, make_window, practice_db, reads_done):
    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    window.learner_bar.select("Ben")
    qtbot.waitUntil(lambda: view.current is not None and view.current["prompt"].startswith("I ___"), timeout=10000)
    assert view.current["hint_kind"] == "written" and "(you wrote goes)" in view.current["prompt"]
    assert all("Yesterday he" not in c["prompt"] for c in view.due)


def test_the_teacher_sees_the_cells_the_class_keeps_getting_wrong(qtbot, make_window, practice_db, reads_done):
    with Store.open(practice_db) as store:
        store.save_correction(mistake("He go to work yesterday.", "go", "go", "past simple", "3rd singular",
                                      "went"), learner="Ben")
    window = make_window(db=practice_db)
    window.show_tab(2)
    dashboard = window.teacher.dashboard
    qtbot.waitUntil(lambda: window.teacher.is_unlocked(), timeout=10000)
    reads_done()
    dashboard.tabs.setCurrentWidget(window.class_progress)
    qtbot.waitUntil(lambda: window.class_progress.report is not None, timeout=10000)
    text = window.class_progress.trouble.text()
    assert "Cells the class keeps getting wrong" in text and "go · past simple · 3rd singular" in text
    assert window.class_progress.report["trouble"][0]["learners"] == 2


def test_the_page_speaks_spanish(qtbot, make_window, practice_db, reads_done):
    from app.translation import install_language

    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    install_language("es")
    qtbot.waitUntil(lambda: view.check_button.text() != "Chec&k", timeout=5000)
    assert window.tabs.tabText(window.tabs.indexOf(view)) == "Ejercicio&s"
    assert view.tabs.tabText(1) == "Mi progreso"
    qtbot.waitUntil(lambda: "tarjetas de ejercicios" in window.class_progress.summary.text(), timeout=5000)
    assert window.teacher.dashboard.tabs.tabText(3) == "Ejercicios"
    done = answer(qtbot, view, "goed")
    assert not done["correct"] and view.feedback.text().index("pasado") < view.feedback.text().index("past simple")


@pytest.mark.model
def test_a_sentence_corrected_in_the_app_becomes_a_card(qtbot, make_window, engine, reads_done):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    window.practice.editor.setPlainText("Yesterday he go to school.")
    with qtbot.waitSignal(window.correction_done, timeout=120000):
        window.practice.submit()
    reads_done()
    QTest.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.exercises.current is not None, timeout=10000)
    assert window.exercises.current["prompt"] == "Yesterday he ___ (go) to school."
    assert window.exercises.current["answer"] == "went"


def _use_class_server(settings, url: str, code: str) -> None:
    from app.views.class_server import CODE, ENABLED, URL

    settings.q.setValue(ENABLED, "true")
    settings.q.setValue(URL, url)
    settings.q.setValue(CODE, code)


@pytest.mark.model
def test_an_answer_sends_the_practice_state_to_the_class_server(qtbot, make_window, practice_db, reads_done, settings,
                                                                tmp_path):
    """With a class server chosen, every answer sends the learner's practice state to it (a real server on
    loopback, its own SQLite file): the teacher's server holds the learner's cards and the answer."""
    import secrets

    from tutor.practice import Practice
    from tutor.server.app import create_app
    from tutor.server.pool import ModelPool
    from tutor.server.run import in_thread

    token = secrets.token_urlsafe(16)
    server_store = Store.open(tmp_path / "class.db")
    pool = ModelPool(1, queue_size=8)
    try:
        with in_thread(create_app(server_store, pool, token)) as running:
            _use_class_server(settings, running.url, token)
            window = make_window(db=practice_db)
            view = open_exercises(qtbot, window, reads_done)
            assert answer(qtbot, view, "went")["correct"]
            qtbot.waitUntil(lambda: window.practice_pushed is not None, timeout=30000)
            assert window.practice_pushed["reviews_new"] == 1 and window.practice_pushed["cards_new"] >= 2
            with Store.open(practice_db) as mine:
                local = {c["id"] for c in Practice(mine).cards("Ana")}
            assert {c["id"] for c in Practice(server_store).cards("Ana")} == local
    finally:
        pool.close()
        server_store.close()


def test_an_answer_with_the_class_server_away_says_it_will_be_sent_later(qtbot, make_window, practice_db,
                                                                         reads_done, settings):
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _use_class_server(settings, f"http://127.0.0.1:{port}", "class-code")
    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    assert answer(qtbot, view, "went")["correct"]  # graded here, whatever the server
    qtbot.waitUntil(lambda: "cannot be reached" in window.statusBar().currentMessage(), timeout=30000)
    assert window.practice_pushed is None


def test_the_answer_box_placeholder_never_gives_an_answer_away(qtbot, make_window, practice_db, reads_done):
    import re
    import sqlite3

    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    assert view.current is not None
    placeholder = set(re.findall(r"[\w']+", view.answer.placeholderText().lower()))
    with sqlite3.connect(practice_db) as conn:  # every card's answer, read from the file itself
        answers = {answer.lower() for (answer,) in conn.execute("SELECT answer FROM cards")}
    assert answers and not placeholder & answers


def test_a_right_answer_says_when_the_card_comes_back(qtbot, make_window, practice_db, reads_done):
    from datetime import UTC, datetime

    from tutor.practice.schedule import parse_stamp

    window = make_window(db=practice_db)
    view = open_exercises(qtbot, window, reads_done)
    done = answer(qtbot, view, "went")
    wait = parse_stamp(done["due"]) - datetime.now(UTC)
    minutes = round(wait.total_seconds() / 60)
    assert done["correct"] and 1 < minutes < 60  # a new card's next learning step is minutes away
    assert f"Back in {minutes} minutes" in view.feedback.text()


@pytest.mark.parametrize(("language", "tomorrow", "later", "minutes"), [
    ("en", "Back tomorrow", "Back on 12 December", "Back in 10 minutes"),
    ("es", "Vuelve mañana", "Vuelve el 12 de diciembre", "Vuelve en 10 minutos"),
])
def test_the_time_a_card_comes_back_reads_as_words(qtbot, make_window, language, tomorrow, later, minutes):
    from datetime import datetime, timedelta

    from app.translation import install_language

    view = make_window().exercises
    install_language(language)
    now = datetime(2026, 12, 3, 12, 0).astimezone()  # local noon: "tomorrow" is the next local date
    assert view.comes_back(now + timedelta(minutes=10), now) == minutes
    assert view.comes_back(now + timedelta(days=1), now) == tomorrow
    assert view.comes_back(now + timedelta(days=9), now) == later
    assert view.comes_back(now - timedelta(minutes=1), now) != minutes
    next_year = view.comes_back(now + timedelta(days=40), now)
    assert "2027" in next_year and ("January" in next_year or "enero" in next_year)


def test_the_gentler_schedule_chosen_in_settings_brings_a_right_answer_back_a_day_later(qtbot, make_window,
                                                                                       practice_db, reads_done,
                                                                                       settings):
    from datetime import UTC, datetime, timedelta

    from PySide6.QtWidgets import QDialogButtonBox

    from tutor.practice.schedule import parse_stamp

    window = make_window(db=practice_db)
    window.open_settings()
    dialog = window.settings_dialog
    with qtbot.waitSignal(dialog.verified, timeout=30000):
        pass
    assert not dialog.daily.isChecked()  # the default is FSRS's own steps of minutes
    qtbot.mouseClick(dialog.daily, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert settings.daily_schedule
    view = open_exercises(qtbot, window, reads_done)
    done = answer(qtbot, view, "went")
    assert done["correct"] and parse_stamp(done["due"]) - datetime.now(UTC) > timedelta(hours=23)
    assert "minutes" not in view.feedback.text() and "Back " in view.feedback.text()
    QTest.keyClick(view.answer, Qt.Key.Key_Return)
    assert done["id"] not in [c["id"] for c in view.due]
