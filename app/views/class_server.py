"""A class without a network, and a class server: send my history, import learners' files, server settings.

`ClassMenus` holds *Send my history to the teacher…*, *Import learners' files…* and *Class server…*; the main
window places them (File, Teacher, Tools). The work runs through app.worker; the core does it
(tutor.store.bundle, tutor.server.client), this module only asks and reports.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSettings, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import worker

if TYPE_CHECKING:
    from app.context import ViewContext
    from tutor.api import Tutor
    from tutor.server.remote import ClassTutor
    from tutor.store import Store

ENABLED, URL, CODE = "class_server/enabled", "class_server/url", "class_server/code"


def server_choice(q: QSettings) -> tuple[str, str] | None:
    """Return (URL, class code) when the app is set to use a class server, else None (the local model)."""
    url, code = str(q.value(URL, "") or ""), str(q.value(CODE, "") or "")
    enabled = str(q.value(ENABLED, "false")).lower() in ("true", "1")
    return (url, code) if enabled and url and code else None


def class_tutor(q: QSettings, store: Store | None, local: Callable[[], Tutor | None]) -> ClassTutor | None:
    """Return a tutor.server.remote.ClassTutor for the chosen server (local() is the local Tutor), or None."""
    choice = server_choice(q)
    if choice is None or store is None:
        return None
    from tutor.server.client import ClassClient
    from tutor.server.remote import ClassTutor

    return ClassTutor(ClassClient(*choice, timeout=10), store, local)


class ClassServerDialog(QDialog):
    """Switch between the local model and a class server (URL plus class code); test the connection."""

    def __init__(self, q: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.q = q
        self.setWindowTitle(self.tr("Class server"))
        self.use_server = QCheckBox(self.tr("Use the class server (the local model is used when it cannot be reached)"))
        self.use_server.setAccessibleName(self.tr("Use the class server"))
        self.url = QLineEdit(str(q.value(URL, "") or ""), placeholderText="http://192.168.1.20:8765")
        self.url.setAccessibleName(self.tr("Server address"))
        self.code = QLineEdit(str(q.value(CODE, "") or ""), echoMode=QLineEdit.EchoMode.Password)
        self.code.setAccessibleName(self.tr("Class code"))
        self.use_server.setChecked(server_choice(q) is not None)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.test_button = QPushButton(self.tr("&Test connection"), self)
        self.test_button.clicked.connect(self.test_connection)
        form = QFormLayout()
        form.addRow(self.tr("Server &address:"), self.url)
        form.addRow(self.tr("Class &code:"), self.code)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.use_server)
        layout.addLayout(form)
        layout.addWidget(self.test_button)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def save(self) -> None:
        """Keep the choice in QSettings and close."""
        self.q.setValue(ENABLED, self.use_server.isChecked())
        self.q.setValue(URL, self.url.text().strip())
        self.q.setValue(CODE, self.code.text().strip())
        self.q.sync()
        self.accept()

    def test_connection(self) -> None:
        """Check the server and the class code in the background and say what happened."""
        from tutor.errors import TutorError
        from tutor.server.client import ClassClient

        try:
            client = ClassClient(self.url.text().strip(), self.code.text().strip(), timeout=5)
        except TutorError as exc:
            self.status.setText(str(exc))
            return
        self.status.setText(self.tr("Connecting…"))

        def op(_: worker.Report) -> str:
            health = client.health()
            client.ping()  # checks the class code too, without reading anyone's history
            return str(health.get("model", ""))

        worker.run_job(op, success=lambda model: self.status.setText(
            self.tr("Connected: the server runs {0}.").format(model)),
            failure=lambda exc: self.status.setText(str(exc)), receiver=self, name="class-server-test")


class ClassMenus(QObject):
    """The class actions (send my history, import learners' files, the class-server setting), retranslated with
    the window. The window places them in its menus; they use only the context, the settings and `parent` (the
    widget their dialogs belong to)."""

    teacher_needed = Signal()  # importing needs the Teacher page unlocked: the window shows its lock
    imported = Signal()  # bundles went into the store: the teacher's views may read again

    def __init__(self, context: ViewContext, q: QSettings, teacher_unlocked: Callable[[], bool],
                 parent: QWidget) -> None:
        super().__init__(parent)
        self.context, self.q, self.teacher_unlocked, self.parent_widget = context, q, teacher_unlocked, parent
        self.send_action = QAction(parent)
        self.send_action.triggered.connect(self.send_history)
        self.import_action = QAction(parent)
        self.import_action.triggered.connect(self.import_files)
        self.server_action = QAction(parent)
        self.server_action.triggered.connect(self.open_server_settings)
        self.teacher_menu = QMenu(parent)
        self.teacher_menu.addAction(self.import_action)
        self.dialog: ClassServerDialog | None = None
        self.last_report = ""
        parent.installEventFilter(self)
        self.retranslate()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        return False

    def retranslate(self) -> None:
        """Set every text in the current UI language."""
        self.send_action.setText(self.tr("Send my &history to the teacher…"))
        self.import_action.setText(self.tr("&Import learners' files…"))
        self.server_action.setText(self.tr("&Class server…"))
        self.teacher_menu.setTitle(self.tr("T&eacher"))

    def send_history(self) -> None:
        """Save the current learner's history as a bundle file the teacher can import."""
        learner = self.context.learner()
        if self.context.store() is None or not learner:
            self._report(self.tr("Choose a learner first: the bundle holds one learner's history."))
            return
        suggested = f"{learner}.grammar-tutor.json"
        path, _ = QFileDialog.getSaveFileName(self.parent_widget, self.tr("Send my history to the teacher"), suggested,
                                              self.tr("grammar-tutor bundles (*.json)"))
        if path:
            self.write_bundle(path)

    def write_bundle(self, path: str) -> None:
        """Write the current learner's bundle to `path` in the background and report it."""
        store, learner = self.context.store(), self.context.learner()

        def op(_: worker.Report) -> int:
            from tutor.store.bundle import write_bundle

            return write_bundle(store, learner, path)

        worker.run_job(op, success=lambda n: self._report(
            self.tr("Saved {0} corrections to {1}. Give this file to your teacher.").format(n, path)),
            failure=lambda exc: self._report(str(exc)), receiver=self, name="send-history")

    def import_files(self) -> None:
        """Ask for bundles (several at once) and import them into the teacher's database."""
        if not self.teacher_unlocked():
            self.teacher_needed.emit()
            return
        paths, _ = QFileDialog.getOpenFileNames(self.parent_widget, self.tr("Import learners' files"), "",
                                                self.tr("grammar-tutor bundles (*.json)"))
        if paths:
            self.import_paths(paths)

    def import_paths(self, paths: list[str]) -> None:
        """Import `paths` in the background; report new, already present, conflicts and refused files."""
        store = self.context.store()

        def op(_: worker.Report) -> list[Any]:
            from tutor.store.bundle import import_files

            return list(import_files(store, paths))

        worker.run_job(op, success=self._imported, failure=lambda exc: self._report(str(exc)), receiver=self,
                       name="import-bundles")

    def _imported(self, outcomes: list[Any]) -> None:
        from tutor.errors import StoreError

        summaries = [o for o in outcomes if not isinstance(o, StoreError)]
        refused = [str(o) for o in outcomes if isinstance(o, StoreError)]
        conflicts = sum(len(s.conflicts) for s in summaries)

        def report() -> str:  # asked again when the language changes while it is on show
            lines = [self.tr("{0} new, {1} already present, {2} conflicts.").format(
                sum(s.new for s in summaries), sum(s.present for s in summaries), conflicts)]
            lines += [self._summary_line(s) for s in summaries] + refused
            return "\n".join(lines)

        self._report(report, warning=bool(refused or conflicts))
        self.imported.emit()  # the new learners and rows appear at once

    def _summary_line(self, summary: Any) -> str:
        """Return one bundle's line (tutor.store.bundle.ImportSummary) in the current language."""
        line = self.tr("{0}: {1}: {2} new, {3} already present, {4} conflicts").format(
            summary.source, summary.learner, summary.new, summary.present, len(summary.conflicts))
        if summary.renamed_from:
            return line + self.tr(" (another learner here is called {0}; imported as {1})").format(
                summary.renamed_from, summary.learner)
        return line + (self.tr(" (new learner)") if summary.learner_added else "")

    def open_server_settings(self) -> None:
        """Open the class-server dialog."""
        self.dialog = ClassServerDialog(self.q, self.parent_widget)
        self.dialog.open()

    def _report(self, text: str | Callable[[], str], *, warning: bool = False) -> None:
        bar = self.context.messages.show_message(text, key="class", level="warning" if warning else "info")
        self.last_report = bar.text.text()
