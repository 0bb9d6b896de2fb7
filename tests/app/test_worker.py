"""The one worker pattern: outcomes and progress arrive on the GUI thread, never after the receiver dies."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, QThread

from app import worker


def test_success_and_progress_arrive_on_the_gui_thread(qtbot):
    gui = threading.get_ident()
    seen: list[tuple[str, object, bool]] = []

    def op(report):
        report("half")
        return threading.get_ident() != gui  # True: op ran on a worker thread

    with qtbot.waitCallback(timeout=10000) as done:
        worker.run_job(
            op,
            success=lambda value: (
                seen.append(("success", value, threading.get_ident() == gui)),
                done(value),
            ),
            failure=lambda exc: done(exc),
            progress=lambda item: seen.append(("progress", item, threading.get_ident() == gui)),
        )
    assert seen == [("progress", "half", True), ("success", True, True)]
    assert not worker.busy()


def test_failure_delivers_the_exception_not_a_traceback(qtbot):
    with qtbot.waitCallback(timeout=10000) as done:
        job = worker.run_job(lambda report: 1 / 0, success=lambda v: done("no"), failure=done)
    qtbot.waitUntil(lambda: job.done, timeout=10000)
    assert isinstance(done.args[0], ZeroDivisionError)
    assert job.traceback is not None and "ZeroDivisionError" in job.traceback


def test_nothing_is_delivered_to_a_destroyed_receiver(qtbot):
    receiver = QObject()
    calls: list[object] = []
    gate = threading.Event()
    job = worker.run_job(lambda report: gate.wait(5), success=calls.append, failure=calls.append, receiver=receiver)
    receiver.deleteLater()
    qtbot.waitUntil(lambda: not _alive(receiver), timeout=10000)
    gate.set()
    qtbot.waitUntil(lambda: job.done, timeout=10000)
    assert calls == []


def _alive(obj: QObject) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)


def test_jobs_run_one_at_a_time_in_order(qtbot):
    order: list[int] = []
    with qtbot.waitCallback(timeout=10000) as done:
        for index in range(3):
            worker.run_job(
                lambda report, i=index: i,
                success=(lambda v: (order.append(v), done(v))) if index == 2 else order.append,
                failure=done,
            )
    assert order == [0, 1, 2]


def test_leak_guard_sees_a_running_qthread(qtbot, leak_guard):
    thread_snapshot, thread_leaks = leak_guard
    before = thread_snapshot()
    thread = QThread()
    thread.start()
    try:
        qtbot.waitUntil(thread.isRunning, timeout=10000)
        assert any("QThread" in problem for problem in thread_leaks(before))
    finally:
        thread.quit()
        thread.wait(5000)
    assert thread_leaks(before) == []


def test_leak_guard_sees_a_running_job(qtbot, leak_guard):
    thread_snapshot, thread_leaks = leak_guard
    before = thread_snapshot()
    gate = threading.Event()
    with qtbot.waitCallback(timeout=10000) as done:
        worker.run_job(lambda report: gate.wait(5), success=done, failure=done)
        qtbot.waitUntil(lambda: worker.pool().activeThreadCount() == 1, timeout=10000)
        assert any("job" in problem for problem in thread_leaks(before))
        gate.set()
    worker.wait_for_jobs()
    assert thread_leaks(before) == []
