"""Run by tests/app/test_soak.py in a child process: type and repaint into the real window for a while.

A binding that loses a reference to None on each call (PySide6-Essentials 6.12.0 on Python 3.11 does, on
every call that returns None) drains it by one per key press or repaint until the interpreter aborts with
"none_dealloc"; here that shows as a falling `sys.getrefcount(None)` or as this process dying.

Prints one JSON object on stdout: the key presses and paint events the widgets received, None's reference
count after the warm-up, at every round and at the end, and the seconds it took.

Usage: python tests/app/soak_typing.py WORKDIR [KEYS] [REPAINTS]
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, when run as a script

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

SENTENCE = "Yesterday my brother goed to the park and he have a new bike, I am agree with him. "
TEXT_LINE = "She has went to the bank, she'll be back soon.\nPeople is happy when they eats together. "


class Counter(QObject):
    """Counts the key presses and paint events its watched widgets receive (returns a bool: no None)."""

    def __init__(self) -> None:
        super().__init__()
        self.keys = 0
        self.paints: dict[str, int] = {}

    def watch(self, widget: QWidget, name: str) -> None:
        """Count `widget`'s events under `name`."""
        widget.setProperty("soak_name", name)
        self.paints.setdefault(name, 0)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Count; never consume the event."""
        if event.type() == QEvent.Type.KeyPress:
            self.keys += 1
        elif event.type() == QEvent.Type.Paint and watched.property("soak_name"):
            name = watched.property("soak_name")
            self.paints[name] += 1
        return False


def results() -> list:
    """Return a few corrections as the engine builds them (three verbs, three times each)."""
    from tutor.result import CorrectionResult, Timings

    made = []
    cells = [("go", "past simple", "3rd singular", "went", "fue", "He goed home.", "goed"),
             ("have", "present simple", "3rd singular", "has", "tiene", "She have a cat.", "have"),
             ("be", "past simple", "2nd singular", "were", "fuiste", "You was late.", "was")]
    for day, (verb, tense, person, form, spanish, original, wrong) in enumerate(cells * 3):
        start = original.find(wrong)
        result = CorrectionResult(
            original,
            {"original": original, "verb": verb, "tense": tense, "person": person, "correct_form": form,
             "spanish": spanish, "confidence": 0.9},
            out_of_scope=False, is_correct=False, confidence=0.9, error_span=wrong, error_start=start,
            error_end=start + len(wrong), explanation_en=f"*{verb}*: *{form}*.", explanation_es=f"*{form}*.",
            timings=Timings(mask_p50_us=3.0 + day, mask_p99_us=9.0, mask_max_us=15.0, tokens_sampled=3,
                            tokens_forced=40, total_ms=260.0),
            model_name="smollm2-135m", model_sha256="b179c9523d0e")
        made.append(result)
    return made


def type_into(editor: QWidget, line: str, presses: int) -> None:
    """Type `presses` keys into `editor`: the line over and over ("\n" as the Return key), emptying the box
    (Ctrl+A, Backspace) now and then."""
    editor.setFocus()
    typed = 0
    while typed < presses:
        chunk = line[: min(len(line), presses - typed)]
        for index, piece in enumerate(chunk.split("\n")):
            if index:
                QTest.keyClick(editor, Qt.Key.Key_Return)
            QTest.keyClicks(editor, piece)
        typed += len(chunk)
        if typed % (len(line) * 5) < len(line):  # about every five lines: select all and delete
            QTest.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            QTest.keyClick(editor, Qt.Key.Key_Backspace)
            typed += 2


def main() -> int:
    """Open the window, type and repaint in rounds, print what happened."""
    from app.main import make_application
    from app.main_window import MainWindow
    from app.settings import AppSettings
    from tutor.store import Store

    workdir = Path(sys.argv[1])
    keys = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    repaints = int(sys.argv[3]) if len(sys.argv) > 3 else 2_000
    app = make_application(["soak"])
    db = workdir / "soak.db"
    shown = results()
    with Store.open(db) as store:  # so the Teacher page has charts to paint
        for day, result in enumerate(shown):
            store.save_correction(result, learner=("Ana", "Ben")[day % 2], created=datetime(2026, 1, 5 + day, 10))
    settings = AppSettings(QSettings(str(workdir / "settings.ini"), QSettings.Format.IniFormat))
    window = MainWindow(settings, db=str(db), load_model=False)
    window.resize(960, 720)
    window.show()
    practice, text_view, board = window.practice, window.text_view, window.teacher.dashboard
    counter = Counter()
    for editor in (practice.editor, text_view.editor):
        editor.installEventFilter(counter)
    painted = {
        "result card": practice.card, "chip": practice.card.verb_chip, "status bar label": window.mask_label,
        "text card": text_view.card, "verb chart": board.verb_chart, "week chart": board.week_chart,
        "latency chart": board.latency_chart,
    }
    for name, widget in painted.items():
        counter.watch(widget, name)

    def wait_for_reads() -> None:
        from app import worker

        deadline = time.monotonic() + 30
        while worker.busy() and time.monotonic() < deadline:
            QTest.qWait(20)

    rounds = 10
    started = time.monotonic()
    samples: list[int] = []
    for round_no in range(rounds + 1):  # round 0 warms up (caches, fonts, glyphs) and is not counted
        share = keys // rounds if round_no else 400
        window.tabs.setCurrentWidget(practice)
        type_into(practice.editor, SENTENCE, share // 2)
        window.tabs.setCurrentWidget(text_view)
        type_into(text_view.editor, TEXT_LINE, share - share // 2)
        per_widget = repaints // rounds // 5 if round_no else 10
        for _ in range(per_widget):
            text_view.card.repaint()
        window.mask_label.setText(f"round {round_no}: mask p50 3.0 µs/token")
        practice.card.show_result(shown[round_no % len(shown)], sure=True)
        window.tabs.setCurrentWidget(practice)
        for _ in range(per_widget):
            practice.card.repaint()  # its chips repaint with it
            window.mask_label.repaint()
        window.tabs.setCurrentWidget(window.teacher)
        wait_for_reads()
        board.tabs.setCurrentIndex(0)
        for _ in range(per_widget):
            board.verb_chart.repaint()
            board.week_chart.repaint()
        board.tabs.setCurrentIndex(2)
        for _ in range(per_widget):
            board.latency_chart.repaint()
        QApplication.processEvents()
        if round_no == 0:
            counter.keys, counter.paints = 0, dict.fromkeys(counter.paints, 0)
            baseline = sys.getrefcount(None)
            started = time.monotonic()
        samples.append(sys.getrefcount(None))
    seconds = time.monotonic() - started
    window.close()
    app.processEvents()
    json.dump({"keys": counter.keys, "paints": counter.paints, "none_baseline": baseline, "none_rounds": samples,
               "none_end": sys.getrefcount(None), "seconds": round(seconds, 1)}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
