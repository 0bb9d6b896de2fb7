"""Fixtures for the app's tests: offscreen Qt, throwaway settings and database, one shared engine,
and a guard that fails any test leaving a thread running (after napari's)."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QSettings, Qt, QThread, QThreadPool

from app import worker
from app.settings import AppSettings
from app.translation import install_language


@pytest.fixture(scope="session")
def engine():
    """Return one real Tutor on the bundled model, shared by every test that needs it."""
    from tutor.api import Tutor

    tutor = Tutor.load()
    yield tutor
    tutor.close()


@pytest.fixture
def settings(tmp_path: Path) -> AppSettings:
    """Return settings kept in a throwaway INI file (never the user's own)."""
    return AppSettings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Return the path of a throwaway SQLite store."""
    return tmp_path / "tutor.db"


@pytest.fixture
def make_window(qtbot, settings: AppSettings, db_path: Path):
    """Return a factory for MainWindows on a throwaway store and settings, closed after the test."""
    from app.main_window import MainWindow

    def make(*, tutor=None, load_model: bool = False, db: Path | None = None) -> MainWindow:
        window = MainWindow(settings, db=str(db or db_path), tutor=tutor, load_model=load_model)
        qtbot.addWidget(window)
        window.resize(960, 720)
        window.show()
        return window

    return make


@pytest.fixture(autouse=True)
def english_ui(qapp) -> Iterator[None]:
    """Start every test in English and leave it in English."""
    install_language("en")
    yield
    install_language("en")


def _running_qthreads() -> list[QThread]:
    return [obj for obj in gc.get_objects() if isinstance(obj, QThread) and obj.isRunning()]


def thread_snapshot() -> tuple[set[threading.Thread], set[int]]:
    """Return the Python threads and the running QThreads (by id) alive now."""
    return set(threading.enumerate()), {id(t) for t in _running_qthreads()}


def thread_leaks(before: tuple[set[threading.Thread], set[int]]) -> list[str]:
    """Return what is still running that was not running at `before`: jobs, QThreads, Python threads."""
    threads_before, qthreads_before = before
    problems = []
    # a job that has delivered its signal may still be returning from run(): give it a moment
    for lane in worker.LANES:
        worker.pool(lane).waitForDone(1000)
    if any(worker.pool(lane).activeThreadCount() for lane in worker.LANES) or \
            QThreadPool.globalInstance().activeThreadCount():
        problems.append("a background job is still running (wait for its signal in the test)")
    new_qthreads = [t for t in _running_qthreads() if id(t) not in qthreads_before]
    if new_qthreads:
        problems.append(f"{len(new_qthreads)} QThread(s) still running")
    new_threads = [t for t in threading.enumerate() if t not in threads_before and t.is_alive() and not t.daemon]
    if new_threads:
        problems.append(f"Python threads still running: {[t.name for t in new_threads]}")
    return problems


@pytest.fixture
def reads_done(qtbot):
    """Return a function that waits until the window's store reads (app.worker's STORE lane) have delivered."""

    def wait(timeout: int = 10000) -> None:
        qtbot.waitUntil(lambda: not worker.busy(worker.STORE), timeout=timeout)

    return wait


@pytest.fixture
def leak_guard():
    """Return (thread_snapshot, thread_leaks), to test the guard itself."""
    return thread_snapshot, thread_leaks


@pytest.fixture(autouse=True)
def no_thread_left_running(qtbot) -> Iterator[None]:
    """Fail the test if it leaves a job, a QThread or a Python thread running.

    It depends on qtbot so that it checks before qtbot closes the test's windows (closing a window
    waits for its jobs, which would hide the leak).
    """
    before = thread_snapshot()
    yield
    problems = thread_leaks(before)
    if problems:
        worker.wait_for_jobs(30000)  # do not let the leak spill into the next test
        for thread in _running_qthreads():
            if id(thread) not in before[1]:
                thread.quit()
                thread.wait(5000)
        pytest.fail("; ".join(problems))


def make_result(
    original: str,
    cell: tuple[str, str, str, str, str] | None,
    *,
    wrong: str | None = None,
    confidence: float = 0.9,
    mask_us: float = 3.0,
):
    """Return a CorrectionResult as the engine builds it; cell = (verb, tense, person, correct_form, es)."""
    from tutor.result import CorrectionResult, Timings

    timings = Timings(
        prompt_ms=40.0,
        forward_ms=200.0,
        mask_p50_us=mask_us,
        mask_p99_us=mask_us * 3,
        mask_max_us=mask_us * 5,
        tokens_sampled=3,
        tokens_forced=40,
        total_ms=260.0,
    )
    if cell is None:
        return CorrectionResult(
            original, {"original": original, "out_of_scope": True}, True, False, 1.0, timings=Timings()
        )
    verb, tense, person, correct_form, spanish = cell
    output = {
        "original": original,
        "verb": verb,
        "tense": tense,
        "person": person,
        "correct_form": correct_form,
        "spanish": spanish,
        "confidence": confidence,
    }
    start = original.find(wrong) if wrong else None
    return CorrectionResult(
        original,
        output,
        out_of_scope=False,
        is_correct=wrong is None,
        confidence=confidence,
        error_span=wrong,
        error_start=start,
        error_end=start + len(wrong) if wrong else None,
        explanation_en=f"*{verb}*: {tense} is *{correct_form}*.",
        explanation_es=f"*{verb}*: la forma es *{correct_form}*.",
        timings=timings,
        model_name="smollm2-135m",
        model_sha256="b179c9523d0e",
    )


SAMPLE = (
    (
        "Ana",
        "2026-01-05T10:00:00",
        "He goed to school.",
        ("go", "past simple", "3rd singular", "went", "fue"),
        "goed",
    ),
    (
        "Ana",
        "2026-01-12T10:00:00",
        "She have a cat.",
        ("have", "present simple", "3rd singular", "has", "tiene"),
        "have",
    ),
    (
        "Ana",
        "2026-01-13T10:00:00",
        "I am happy.",
        ("be", "present simple", "1st singular", "am", "soy"),
        None,
    ),
    ("Ana", "2026-01-14T10:00:00", "I forgetted my keys.", None, None),
    (
        "Ana",
        "2026-01-20T10:00:00",
        "You was late.",
        ("be", "past simple", "2nd singular", "were", "fuiste"),
        "was",
    ),
    (
        "Ben",
        "2026-01-06T10:00:00",
        "I goes home.",
        ("go", "present simple", "1st singular", "go", "voy"),
        "goes",
    ),
)


@pytest.fixture
def filled_db(db_path: Path) -> Path:
    """Return a store holding SAMPLE: five corrections for Ana (three mistakes) and one for Ben."""
    from datetime import datetime

    from tutor.store import Store

    with Store.open(db_path) as store:
        for learner, created, original, cell, wrong in SAMPLE:
            store.save_correction(
                make_result(original, cell, wrong=wrong),
                learner=learner,
                created=datetime.fromisoformat(created),
            )
    return db_path


@pytest.fixture
def result_factory():
    """Return make_result, to build CorrectionResults in tests."""
    return make_result


@pytest.fixture
def correct_by_keyboard():
    """Type a sentence into the Practice editor, press Ctrl+Enter, wait for the card; return the CorrectionResult."""
    def correct(qtbot, window, sentence: str):
        window.practice.editor.clear()
        qtbot.keyClicks(window.practice.editor, sentence)
        with qtbot.waitSignal(window.correction_done, timeout=60000) as blocker:
            qtbot.keyClick(window.practice.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        return blocker.args[0]

    return correct
