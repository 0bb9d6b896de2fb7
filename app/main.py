"""Start the desktop app: `grammar-tutor` with no arguments calls run_app()."""

from __future__ import annotations

import logging
import sys
from types import TracebackType

from PySide6.QtWidgets import QApplication

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


def run_app(db: str | None = None) -> int:
    """Open the window on the store `db` (default: $GRAMMAR_TUTOR_DB or data folder); return exit code."""
    from app.main_window import MainWindow

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = make_application()
    settings = AppSettings()
    install_language(settings.language)
    window = MainWindow(settings, db=db)

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
