"""Who is practising: a learner picker, a 'new learner' dialog, and an optional PIN per learner."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import worker
from app.colours import RED
from app.errors import describe
from app.settings import AppSettings
from app.views.panel import set_text_colour
from tutor.errors import TutorError
from tutor.store.lock import PASSPHRASE_MIN_LENGTH, PIN_MIN_LENGTH, SecretLock, Throttled
from tutor.store.names import MAX_NAME_LENGTH, name_key

if TYPE_CHECKING:
    from tutor.store import Store


class NewLearnerDialog(QDialog):
    """Asks for a name and an optional PIN that keeps other learners out of this profile."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New learner"))
        self.name = QLineEdit(self)
        self.name.setMaxLength(MAX_NAME_LENGTH)
        self.name.setAccessibleName(self.tr("Learner name"))
        self.pin = QLineEdit(self)
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setAccessibleName(self.tr("PIN (optional)"))
        self.pin.setPlaceholderText(self.tr("optional"))
        self.error = QLabel(self)
        set_text_colour(self.error, RED)
        self.error.setWordWrap(True)
        form = QFormLayout()
        name_label = QLabel(self.tr("&Name:"), self)
        name_label.setBuddy(self.name)
        pin_label = QLabel(self.tr("&PIN:"), self)
        pin_label.setBuddy(self.pin)
        form.addRow(name_label, self.name)
        form.addRow(pin_label, self.pin)
        note = QLabel(self.tr(
            "With a PIN (at least {0} characters), other learners cannot switch to this profile in the app."
            " The teacher passphrase opens it too."
        ).format(PIN_MIN_LENGTH), self)
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

    def accept(self) -> None:
        """Close only when a name is given and the PIN, if any, is long enough."""
        if not " ".join(self.name.text().split()):
            self.error.setText(self.tr("Type the learner's name."))
            self.name.setFocus()
            return
        if self.pin.text() and len(self.pin.text()) < PIN_MIN_LENGTH:
            self.error.setText(self.tr("A PIN needs at least {0} characters.").format(PIN_MIN_LENGTH))
            self.pin.setFocus()
            return
        super().accept()


class PinDialog(QDialog):
    """Asks for a learner's PIN (the teacher passphrase also opens any profile)."""

    def __init__(self, learner: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("PIN for {0}").format(learner))
        self.pin = QLineEdit(self)
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setAccessibleName(self.tr("PIN"))
        label = QLabel(self.tr("{0}'s history is protected. Type the &PIN:").format(learner), self)
        label.setTextFormat(Qt.TextFormat.PlainText)  # a name is text, never markup
        label.setBuddy(self.pin)
        label.setWordWrap(True)
        self.error = QLabel(self)
        set_text_colour(self.error, RED)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.pin)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)


class LearnerBar(QWidget):
    """The learner picker atop the window; `learner_changed` carries the active name ('' for none).

    Every store access (the list, PIN lookups and checks, creating a learner) runs on app.worker's STORE
    lane; `loaded` says the list on show is the store's.
    """

    learner_changed = Signal(str)
    failed = Signal(str)
    loaded = Signal()

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.store: Store | None = None
        self.current = ""
        self.dialog: QDialog | None = None
        self._listing = 0  # bumped by every reload; an older list is dropped
        self._picking = 0  # bumped by every pick; an older pick's PIN lookup is dropped
        self.label = QLabel(self)
        self.combo = QComboBox(self)
        self.combo.setMinimumContentsLength(12)
        self.combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.label.setBuddy(self.combo)
        self.new_button = QPushButton(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.new_button)
        self.combo.activated.connect(self._picked)
        self.new_button.clicked.connect(self.ask_new_learner)
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text in the current language."""
        self.label.setText(self.tr("&Learner:"))
        self.combo.setAccessibleName(self.tr("Learner"))
        self.combo.setPlaceholderText(self.tr("Choose or create a learner"))
        self.new_button.setText(self.tr("&New learner…"))

    def set_store(self, store: Store | None) -> None:
        """Fill the picker from `store` (None disables it); restore the last learner unless PIN-protected."""
        self.store = store
        self.combo.setEnabled(store is not None)
        self.new_button.setEnabled(store is not None)
        self.select("")
        self.reload(restore=self.settings.learner)

    def reload(self, *, restore: str = "") -> None:
        """Re-read the learner names in the background, keeping the current one selected; `restore` becomes
        the active learner if nobody is yet and their profile has no PIN (when in doubt, it has one)."""
        self._listing += 1
        listing, store = self._listing, self.store
        if store is None:
            self._fill(listing, [], False)
            return

        def op(_: worker.Report) -> tuple[list[str], bool]:
            names = [row["name"] for row in store.learners()]
            if not restore or restore not in names:
                return names, False
            try:
                return names, not SecretLock(store).has_pin(restore)
            except TutorError:
                return names, False

        def failed(exc: Exception) -> None:
            if listing == self._listing:
                self.failed.emit(describe(exc))
                self._fill(listing, [], False)

        worker.run_job(op, success=lambda found: self._fill(listing, *found, restore=restore), failure=failed,
                       receiver=self, name="learners", lane=worker.STORE)

    def _fill(self, listing: int, names: list[str], open_restore: bool, *, restore: str = "") -> None:
        if listing != self._listing:
            return
        self.combo.blockSignals(True)
        self.combo.clear()
        for name in names:
            self.combo.addItem(name, name)
        self.combo.setCurrentIndex(self.combo.findData(self.current) if self.current else -1)
        self.combo.blockSignals(False)
        if open_restore and not self.current:
            self.select(restore)
        self.loaded.emit()

    def select(self, name: str) -> None:
        """Make `name` the active learner without asking for a PIN ('' for nobody)."""
        self.current = name
        self.combo.setCurrentIndex(self.combo.findData(name) if name else -1)
        if name:
            self.settings.learner = name
        self.learner_changed.emit(name)

    @staticmethod
    def _pin_opens(store: Store, name: str, secret: str) -> bool:
        """Return True for the learner's PIN, or the teacher passphrase; raise Throttled after wrong tries."""
        lock = SecretLock(store)
        if lock.check_pin(name, secret):
            return True
        # Only something as long as a passphrase is tried as one: a mistyped PIN never counts against it.
        return len(secret) >= PASSPHRASE_MIN_LENGTH and lock.teacher_set() and lock.check_teacher(secret)

    def _picked(self, index: int) -> None:
        self.pick(str(self.combo.itemData(index) or ""))

    def pick(self, name: str) -> None:
        """Switch to `name` as a learner choosing it would: at once without a PIN, else after the PIN dialog."""
        if name == self.current or self.store is None:
            return
        self._picking += 1
        picking, store = self._picking, self.store

        def op(_: worker.Report) -> bool:
            return SecretLock(store).has_pin(name)

        def failed(exc: Exception) -> None:
            self.failed.emit(describe(exc))
            looked_up(True)  # when the store cannot tell, the PIN is asked

        def looked_up(has_pin: bool) -> None:
            if picking != self._picking:
                return
            if not has_pin:
                self.select(name)
            else:
                self._ask_pin(name)

        worker.run_job(op, success=looked_up, failure=failed, receiver=self, name="pin lookup", lane=worker.STORE)

    def _ask_pin(self, name: str) -> None:
        self.combo.setCurrentIndex(self.combo.findData(self.current) if self.current else -1)
        dialog = PinDialog(name, self)
        self.dialog = dialog
        store = self.store

        def check() -> None:
            if store is None or not dialog.buttons.isEnabled():
                return
            secret = dialog.pin.text()
            dialog.buttons.setEnabled(False)  # scrypt takes about half a second, off the GUI thread
            worker.run_job(lambda _: self._pin_opens(store, name, secret), success=answered, failure=refused,
                           receiver=dialog, name="pin check", lane=worker.STORE)

        def answered(right: bool) -> None:
            dialog.buttons.setEnabled(True)
            if right:
                dialog.done(QDialog.DialogCode.Accepted)
                self.select(name)
            else:
                dialog.error.setText(self.tr("That PIN is not right."))
                dialog.pin.selectAll()

        def refused(exc: Exception) -> None:
            dialog.buttons.setEnabled(True)
            if isinstance(exc, Throttled):
                dialog.error.setText(self.tr("Too many wrong tries. Wait {0} s, then try again.").format(
                    math.ceil(exc.retry_after)))
            else:
                dialog.error.setText(describe(exc))

        dialog.buttons.accepted.disconnect()
        dialog.buttons.accepted.connect(check)
        dialog.open()

    def ask_new_learner(self) -> None:
        """Open the 'new learner' dialog; the learner is created when it is accepted."""
        dialog = NewLearnerDialog(self)
        self.dialog = dialog
        dialog.accepted.connect(lambda: self.create(dialog.name.text(), dialog.pin.text()))
        dialog.open()

    def find(self, name: str) -> int:
        """Return the picker index of a learner, matched as the store matches names (NFC, case folded), or -1."""
        key = name_key(name)
        for index in range(self.combo.count()):
            if name_key(self.combo.itemText(index)) == key:
                return index
        return -1

    def create(self, name: str, pin: str = "") -> None:
        """Create a learner in the store (in the background) and make them active; an existing name is picked
        instead, through its PIN if it has one."""
        if self.store is None:
            return
        clean = " ".join(name.split())
        if pin and len(pin) < PIN_MIN_LENGTH:
            self.failed.emit(self.tr("A PIN needs at least {0} characters.").format(PIN_MIN_LENGTH))
            return
        store = self.store

        def op(_: worker.Report) -> tuple[str, bool]:
            found = store.find_learner(clean)  # the store decides: the list on show may not be filled yet
            if found is not None:
                return found["name"], False
            learner_id = store.ensure_learner(clean)
            stored = store.find_learner(learner_id)["name"]  # as kept: invisible characters removed
            if pin:
                SecretLock(store).set_pin(learner_id, pin)
            return stored, True

        def done(outcome: tuple[str, bool]) -> None:
            stored, created = outcome
            if not created:  # never re-create: that would skip (or overwrite) the other learner's PIN
                self.failed.emit(self.tr("A learner called {0} already exists; they are picked instead.").format(
                    clean))
                self.pick(stored)
                return
            self.select(stored)
            self.reload()

        worker.run_job(op, success=done, failure=lambda exc: self.failed.emit(describe(exc)), receiver=self,
                       name="new learner", lane=worker.STORE)
