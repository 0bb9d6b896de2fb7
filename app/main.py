"""Start the desktop app: `grammar-tutor` with no arguments calls run_app()."""

from __future__ import annotations

import logging
import sys
from types import TracebackType

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QWidget

from app import worker
from app.errors import describe
from app.settings import AppSettings
from app.translation import install_language

log = logging.getLogger(__name__)


def make_application(argv: list[str] | None = None) -> QApplication:
    """Return the QApplication (creating it with the app's names if there is none yet)."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("grammar-tutor")
    app.setOrganizationName("grammar-tutor")
    app.setApplicationDisplayName("grammar-tutor")
    return app


class CloseGuard(QObject):
    """Closes `window` without blocking the GUI thread while a background job (the model load) runs.

    The close is put off: the window hides at once, the jobs are cancelled (they stop at their next
    step), and the window closes for real when the last one has finished; the event loop runs meanwhile.
    """

    POLL_MS = 50
    # the put-off close has happened: the window was hidden first, so Qt's quit-on-last-window-closed
    # does not fire, and the app must be told to end
    closed = Signal()

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self.deferred = False
        self.timer = QTimer(self)
        self.timer.setInterval(self.POLL_MS)
        self.timer.timeout.connect(self._close_when_idle)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Put off the window's close while jobs run; let it through otherwise."""
        if watched is self.window and event.type() == QEvent.Type.Close and worker.busy():
            worker.cancel_jobs()
            self.window.hide()
            event.ignore()
            self.deferred = True
            self.timer.start()
            return True
        return False

    def _close_when_idle(self) -> None:
        if not worker.busy():
            self.timer.stop()
            self.window.close()
            self.closed.emit()


def run_app(db: str | None = None) -> int:
    """Open the window on the store `db` (default: $GRAMMAR_TUTOR_DB or data folder); return exit code."""
    from app.main_window import MainWindow

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = make_application()
    settings = AppSettings()
    install_language(settings.language)
    window = MainWindow(settings, db=db)
    guard = CloseGuard(window)  # closing while a job runs must not freeze the window
    guard.closed.connect(app.quit)  # and the app ends when the put-off close happens

    def show_unexpected(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        # A bug in a slot must not close the app or show a traceback: log it, tell the user, carry on.
        log.error("unexpected error", exc_info=(kind, exc, tb))
        if isinstance(exc, KeyboardInterrupt):
            app.quit()
            return
        window.messages.show_message(describe(exc), key="unexpected")

    sys.excepthook = show_unexpected
    window.show()
    try:
        return int(app.exec())
    finally:
        worker.wait_for_jobs()
        sys.excepthook = sys.__excepthook__
