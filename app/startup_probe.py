"""The window's start, timed for `grammar-tutor bench startup`: its first paint and the moment a check is possible.

Run as `python -m app.startup_probe` with GRAMMAR_TUTOR_PROBE_T0 set to the parent's `time.time()` when it started
this process; prints one JSON line, {"first_paint_s": …, "first_check_s": …}, both counted from that moment. The
window is the app's own MainWindow, on throwaway settings and store (offscreen unless QT_QPA_PLATFORM says otherwise).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

TIMEOUT_S = 600


def main() -> int:
    """Open the window, wait for its first paint and for the model; print the two times; return 0 when both came."""
    t0 = float(os.environ.get("GRAMMAR_TUTOR_PROBE_T0") or time.time())
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QObject, QSettings, QTimer

    from app import worker
    from app.main import make_application
    from app.main_window import MainWindow
    from app.settings import AppSettings

    seen: dict[str, float] = {}

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and "first_paint_s" not in seen:
                seen["first_paint_s"] = time.time() - t0
            return False

    with tempfile.TemporaryDirectory(prefix="grammar-tutor-probe-") as tmp:
        app = make_application([sys.argv[0]])
        settings = AppSettings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat))
        window = MainWindow(settings, db=str(Path(tmp) / "probe.db"))
        painted = FirstPaint()
        app.installEventFilter(painted)  # the first widget painted, whichever it is

        def ready() -> None:
            seen["first_check_s"] = time.time() - t0
            app.quit()

        window.model_ready.connect(ready)
        QTimer.singleShot(TIMEOUT_S * 1000, app.quit)
        window.show()
        app.exec()
        worker.wait_for_jobs()
        window.close()
    print(json.dumps(seen), flush=True)
    return 0 if len(seen) == 2 else 1


if __name__ == "__main__":
    sys.exit(main())
