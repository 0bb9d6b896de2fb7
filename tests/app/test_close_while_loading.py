"""Closing the window while the model loads: the GUI thread keeps running, the load is abandoned."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer

from app import worker
from app.main import CloseGuard


@pytest.mark.model
def test_closing_while_the_model_loads_does_not_block_the_gui_thread(qtbot, settings, db_path, monkeypatch):
    import time

    from app.main_window import MainWindow
    from tutor.api import Tutor

    real_load = Tutor.load.__func__

    def slow_load(cls, *args, progress=None, **kwargs):
        # two seconds before the real load reports anything: the close surely lands while it runs,
        # and the job stops at its first progress report after it
        time.sleep(2.0)
        return real_load(cls, *args, progress=progress, **kwargs)

    monkeypatch.setattr(Tutor, "load", classmethod(slow_load))
    window = MainWindow(settings, db=str(db_path), load_model=True)
    qtbot.addWidget(window)
    window.show()
    guard = CloseGuard(window)
    ended: list[bool] = []
    guard.closed.connect(lambda: ended.append(True))  # run_app quits the app on it
    assert worker.busy() and window.loading
    # the pool's thread must have picked the load up: a job still queued is simply dropped by the close
    qtbot.waitUntil(worker.running, timeout=10000)
    seen: list[bool] = []
    QTimer.singleShot(0, lambda: seen.append(worker.busy()))
    window.close()  # returns at once: the window hides, the load is cancelled
    assert guard.deferred and window.isHidden()
    qtbot.waitUntil(lambda: bool(seen), timeout=2000)
    assert seen == [True]  # the event loop ran while the load was still going: nothing waited on it
    qtbot.waitUntil(lambda: not worker.busy(), timeout=120000)
    qtbot.waitUntil(lambda: window.store is None, timeout=5000)  # then it closed for real
    assert window.tutor is None  # the abandoned load never reached the window
    assert ended == [True]  # the put-off close is announced once, so the app can end
