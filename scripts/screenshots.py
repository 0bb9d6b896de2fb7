"""Render the app's screenshots offscreen into docs/screenshots/*.png (real engine, throwaway store).

    python scripts/screenshots.py [--out docs/screenshots]

Uses the bundled model, a temporary SQLite file and temporary settings, so the user's own data
and preferences are never touched.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QWidget

# Sentences a class might have typed over a few weeks (for the history and the charts).
DEMO_HISTORY = (
    ("Ana", 27, "My brother goed to the cinema last night."),
    ("Ana", 26, "She have two cats."),
    ("Ana", 20, "I am happy today."),
    ("Ana", 19, "He don't like coffee."),
    ("Ana", 19, "Yesterday I eated a big sandwich."),
    ("Ana", 13, "You was at home yesterday."),
    ("Ana", 12, "She has went to the bank."),
    ("Ana", 6, "I will went to the party."),
    ("Ana", 5, "He watch TV every night."),
    ("Ana", 2, "I forgetted my umbrella."),
    ("Ana", 1, "He needs to studies more."),
    ("Ben", 25, "I goes to school by bus."),
    ("Ben", 18, "My mother work in a hospital."),
    ("Ben", 11, "He writed a letter to his friend."),
    ("Ben", 4, "He has finish the project."),
    ("Ben", 3, "I seen that film before."),
    ("Carla", 16, "She will comes tomorrow."),
    ("Carla", 9, "I have eat breakfast."),
    ("Carla", 2, "Last summer we visit Madrid."),
)


def wait_for(signal, timeout_ms: int = 120000) -> list:
    """Spin the event loop until `signal` fires; return its arguments."""
    loop = QEventLoop()
    got: list = []

    def done(*args) -> None:
        got.extend(args)
        loop.quit()

    signal.connect(done)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    signal.disconnect(done)
    if not got and timeout_ms:
        raise TimeoutError(f"no signal within {timeout_ms} ms")
    return got


def settle(ms: int = 150) -> None:
    """Let posted events (layouts, language changes, queued results) run."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def reads_done(timeout_ms: int = 30000) -> None:
    """Spin the event loop until the window's store reads (app.worker's STORE lane) have delivered."""
    from app import worker

    loop = QEventLoop()
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: worker.busy(worker.STORE) or loop.quit())
    timer.start()
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    timer.stop()


def save(widget: QWidget, out: Path, name: str) -> None:
    """Grab `widget` into out/name (once the store's answers are on show)."""
    reads_done()
    settle()
    path = out / name
    widget.grab().save(str(path))
    print(f"wrote {path}")


def correct(window, sentence: str):
    """Type a sentence and correct it through the window; return the result."""
    window.practice.editor.setPlainText(sentence)
    window.practice.submit()
    return wait_for(window.correction_done)[0]


def shoot_while_decoding(window, sentence: str, path: Path) -> None:
    """Correct a sentence and grab the window once part of the model's output has streamed in."""
    practice = window.practice
    stream = practice.append_token
    taken: list[Path] = []

    def spy(text: str) -> None:
        stream(text)
        if '"person"' in practice.streamed and not taken:
            taken.append(path)
            practice.layout().activate()  # no event loop here (the job is still running): lay out now
            window.grab().save(str(path))  # no event loop here: the job is still running
            print(f"wrote {path}")

    practice.append_token = spy
    try:
        correct(window, sentence)
    finally:
        practice.append_token = stream


def fill_history(tutor, db: Path) -> None:
    """Correct DEMO_HISTORY with the real engine and save it with dates spread over four weeks."""
    from tutor.store import Store

    now = datetime.now(UTC).replace(hour=10, minute=0, second=0, microsecond=0)
    with Store.open(db) as store:
        for learner, days_ago, sentence in DEMO_HISTORY:
            try:
                result = tutor.correct(sentence)
            except Exception as exc:  # the picture goes on without it; the app shows such failures
                print(f"skipped {sentence!r}: {type(exc).__name__}: {exc}", file=sys.stderr)
                continue
            store.save_correction(result, learner=learner, created=now - timedelta(days=days_ago))


# Texts for the Text page: a learner's email (two errors, three notes), a story with a finding the
# checker is not sure of (tests/data/texts.jsonl TX-038), and a short text with nothing to fix.
TEXT_EMAIL = (
    "Hi Laura!\nLast weekend I go to the beach with my cousin Nerea. The weather was perfect, and the waves"
    " was huge. My cousin eated three ice creams in one afternoon! Her brother have 25 years now, and I am"
    " agree with him about everything. Next month I will visit you in Madrid.\nWrite back soon,\nMarta"
)
TEXT_QUESTION = (
    "\"Don't worry, Mum, I'll came home before midnight,\" said Sara. But at one o'clock she was still at the"
    " party. Her mother waitted in the kitchen, very angry. When Sara finally come home, it was nearly two. She"
    " said sorry, and her mother said nothing."
)
TEXT_NO_ERRORS = "I was at home last night. My sister watches TV every evening, and we like cats. I am agree with you."


def check_text(window, text: str):
    """Type a text on the Text page and check it through the window; return the CheckResult."""
    view = window.text_view
    window.tabs.setCurrentWidget(view)
    view.editor.setPlainText(text)
    view.submit()
    return wait_for(view.check_done)[0]


def shoot_text_check(window, out: Path, install_language) -> None:
    """Render the Text page: progress, findings, a question, no errors, a text too long, Spanish."""
    view = window.text_view
    window.tabs.setCurrentWidget(view)
    view.editor.setPlainText(TEXT_EMAIL)
    taken: list[bool] = []

    def grab_mid_check(done: int, total: int) -> None:
        if done >= total // 2 and not taken:
            taken.append(True)
            view.layout().activate()  # no event loop here: lay out now
            window.grab().save(str(out / "text-progress.png"))
            print(f"wrote {out / 'text-progress.png'}")

    view.progressed.connect(grab_mid_check)
    view.submit()
    wait_for(view.check_done)
    view.progressed.disconnect(grab_mid_check)
    save(window, out, "text-findings.png")

    result = check_text(window, TEXT_QUESTION)
    rows = [k for k, f in enumerate(view.findings_model.findings) if not f.sure]
    if rows:
        view.select_row(rows[0])
    else:
        print("no not-sure finding in TEXT_QUESTION with this model", [f.written for f in result.findings],
              file=sys.stderr)
    save(window, out, "text-question.png")

    check_text(window, TEXT_NO_ERRORS)
    view.notes_view.setFocus()
    view.notes_view.setCurrentIndex(view.notes_model.index(0))
    save(window, out, "text-no-errors.png")

    view.clear()
    view.editor.setPlainText((TEXT_EMAIL + "\n\n") * 8)
    save(window, out, "text-too-long.png")

    install_language("es")
    check_text(window, TEXT_EMAIL)
    save(window, out, "text-spanish.png")
    install_language("en")
    view.clear()


def practise_history(db: Path) -> None:
    """Answer the demo learners' cards over the four weeks (right, then wrong now and then), so the progress
    charts have something to show: Ana's first cards are answered right each time they fall due."""
    from tutor.practice import Practice
    from tutor.practice.schedule import parse_stamp
    from tutor.store import Store

    start = datetime.now(UTC).replace(hour=10, minute=0, second=0, microsecond=0) - timedelta(days=27)
    with Store.open(db) as store:
        practice = Practice(store)
        for learner in ("Ana", "Ben", "Carla"):
            practice.build(learner, now=start)
            for n, card in enumerate(practice.due(learner, now=start, limit=4)):
                when = parse_stamp(card["created"])
                for attempt in range(6 if n < 2 else 2):
                    wrong = (learner != "Ana" and attempt == 0) or (n >= 2 and attempt == 1)
                    done = practice.answer(learner, card["id"], "xx" if wrong else card["answer"], now=when)
                    when = max(parse_stamp(done["due"]), when + timedelta(minutes=1))
                    if when > datetime.now(UTC):
                        break


def shoot_practice(window, out: Path, install_language) -> None:
    """Render the Exercises page (a card, a right and a wrong answer, progress) and the teacher's Practice tab."""
    view = window.exercises
    window.tabs.setCurrentWidget(view)
    reads_done()
    save(window, out, "exercises-card.png")
    view.answer.setText(view.current["answer"])
    view.enter()
    wait_for(view.answered)
    save(window, out, "exercises-right.png")
    view.enter()
    view.answer.setText("goed")
    view.enter()
    wait_for(view.answered)
    save(window, out, "exercises-wrong.png")
    view.tabs.setCurrentIndex(1)
    save(window, out, "exercises-progress.png")
    install_language("es")
    settle()
    save(window, out, "exercises-progress-es.png")
    install_language("en")
    view.tabs.setCurrentIndex(0)
    window.show_tab(2)
    window.teacher.lock_page.passphrase.setText("maestra-2026")
    window.teacher.lock_page.submit()
    wait_for(window.teacher.dashboard.stats_ready)
    window.teacher.dashboard.tabs.setCurrentWidget(window.class_progress)
    save(window, out, "teacher-exercises.png")
    save(window.class_progress.scroll.widget(), out, "teacher-exercises-full.png")
    window.teacher.lock()


def main(argv: list[str] | None = None) -> int:
    """Render every screenshot; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "screenshots")
    parser.add_argument("--only", choices=("all", "text", "practice"), default="all",
                        help="text or practice: only the Text page's or the Exercises page's screens")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from app.main import make_application
    from app.main_window import MainWindow
    from app.settings import AppSettings
    from app.translation import install_language
    from tutor.api import Tutor
    from tutor.store import Store
    from tutor.store.lock import SecretLock

    app = make_application([sys.argv[0]])
    app.setFont(QFont("DejaVu Sans", 10))
    tmp = Path(tempfile.mkdtemp(prefix="grammar-tutor-shots-"))
    settings = AppSettings(QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat))
    db = tmp / "tutor.db"
    tutor = Tutor.load()
    if args.only in ("all", "practice"):
        fill_history(tutor, db)
        practise_history(db)
    with Store.open(db) as store:
        SecretLock(store).set_teacher("maestra-2026")
    settings.learner = "Ana"

    window = MainWindow(settings, db=str(db), tutor=tutor)
    window.resize(960, 720)
    window.show()
    settle(300)
    reads_done()
    if args.only == "text":
        window.learner_bar.create("Ana")
        reads_done()
        shoot_text_check(window, args.out, install_language)
        window.close()
        tutor.close()
        return 0
    if args.only == "practice":
        shoot_practice(window, args.out, install_language)
        window.close()
        tutor.close()
        return 0

    shoot_while_decoding(window, "She has went to the bank.", args.out / "learner-decoding.png")
    correct(window, "My brother goed to the cinema last night.")
    save(window, args.out, "learner-error.png")
    correct(window, "She has two cats.")
    save(window, args.out, "learner-correct.png")
    correct(window, "I forgetted my umbrella.")
    save(window, args.out, "learner-out-of-scope.png")

    window.show_tab(1)
    save(window, args.out, "history.png")

    window.open_settings()
    wait_for(window.settings_dialog.verified)
    save(window.settings_dialog, args.out, "settings.png")
    window.settings_dialog.reject()

    window.show_tab(2)
    window.teacher.lock_page.passphrase.setText("maestra-2026")
    window.teacher.lock_page.submit()
    wait_for(window.teacher.dashboard.stats_ready)
    save(window, args.out, "teacher-statistics.png")
    window.teacher.dashboard.tabs.setCurrentIndex(2)
    save(window, args.out, "teacher-latency.png")
    window.teacher.lock()

    shoot_text_check(window, args.out, install_language)
    shoot_practice(window, args.out, install_language)

    settings.language = "es"
    install_language("es")
    window.show_tab(0)
    correct(window, "She have a cat.")
    save(window, args.out, "spanish-ui.png")
    install_language("en")
    settings.language = "en"

    window.messages.dismiss("save")
    (tmp / "broken.db").write_bytes(b"not a database" * 64)
    broken = MainWindow(settings, db=str(tmp / "broken.db"), tutor=None, load_model=False)
    settings.model = str(tmp / "missing-model.gguf")
    broken.resize(960, 720)
    broken.show()
    broken.load_model()
    wait_for(broken.model_failed)
    save(broken, args.out, "error-message.png")
    broken.close()

    settings.model = ""
    small = QFont("DejaVu Sans", 16)
    app.setFont(small)
    window.resize(800, 600)
    window.show_tab(0)
    correct(window, "He goed to school yesterday.")
    save(window, args.out, "small-window-large-font.png")

    window.close()
    tutor.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
