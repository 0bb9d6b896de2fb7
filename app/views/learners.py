"""Who is practising: a learner picker, a 'new learner' dialog, and an optional PIN per learner."""

from __future__ import annotations

from typing import Any

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

from app.errors import describe
from app.passphrase import hash_secret, verify_secret
from app.settings import AppSettings
from app.views.panel import set_text_colour


class NewLearnerDialog(QDialog):
    """Asks for a name and an optional PIN that keeps other learners out of this profile."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("New learner"))
        self.name = QLineEdit(self)
        self.name.setMaxLength(60)
        self.name.setAccessibleName(self.tr("Learner name"))
        self.pin = QLineEdit(self)
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setAccessibleName(self.tr("PIN (optional)"))
        self.pin.setPlaceholderText(self.tr("optional"))
        self.error = QLabel(self)
        set_text_colour(self.error, "#b3261e")
        self.error.setWordWrap(True)
        form = QFormLayout()
        name_label = QLabel(self.tr("&Name:"), self)
        name_label.setBuddy(self.name)
        pin_label = QLabel(self.tr("&PIN:"), self)
        pin_label.setBuddy(self.pin)
        form.addRow(name_label, self.name)
        form.addRow(pin_label, self.pin)
        note = QLabel(self.tr("With a PIN, nobody else can open this learner's history."), self)
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
        """Close only when a name is given."""
        if not " ".join(self.name.text().split()):
            self.error.setText(self.tr("Type the learner's name."))
            self.name.setFocus()
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
        label.setBuddy(self.pin)
        label.setWordWrap(True)
        self.error = QLabel(self)
        set_text_colour(self.error, "#b3261e")
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
    """The learner picker atop the window; `learner_changed` carries the active name ('' for none)."""

    learner_changed = Signal(str)
    failed = Signal(str)

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.store: Any = None
        self.current = ""
        self.dialog: QDialog | None = None
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

    def set_store(self, store: Any) -> None:
        """Fill the picker from `store` (None disables it); restore the last learner unless PIN-protected."""
        self.store = store
        self.combo.setEnabled(store is not None)
        self.new_button.setEnabled(store is not None)
        last = self.settings.learner
        self.reload()
        if last and self.combo.findData(last) >= 0 and not self.settings.learner_pin_hash(last):
            self.select(last)
        else:
            self.select("")

    def reload(self) -> None:
        """Re-read the learner names from the store, keeping the current one selected."""
        self.combo.blockSignals(True)
        self.combo.clear()
        if self.store is not None:
            try:
                for row in self.store.learners():
                    self.combo.addItem(row["name"], row["name"])
            except Exception as exc:
                self.failed.emit(describe(exc))
        self.combo.setCurrentIndex(self.combo.findData(self.current) if self.current else -1)
        self.combo.blockSignals(False)

    def select(self, name: str) -> None:
        """Make `name` the active learner without asking for a PIN ('' for nobody)."""
        self.current = name
        self.combo.setCurrentIndex(self.combo.findData(name) if name else -1)
        if name:
            self.settings.learner = name
        self.learner_changed.emit(name)

    def _picked(self, index: int) -> None:
        name = str(self.combo.itemData(index) or "")
        if name == self.current:
            return
        stored = self.settings.learner_pin_hash(name)
        if not stored:
            self.select(name)
            return
        self.combo.setCurrentIndex(self.combo.findData(self.current) if self.current else -1)
        dialog = PinDialog(name, self)
        self.dialog = dialog

        def check() -> None:
            secret = dialog.pin.text()
            teacher = self.settings.teacher_hash
            if verify_secret(secret, stored) or (teacher and verify_secret(secret, teacher)):
                dialog.done(QDialog.DialogCode.Accepted)
                self.select(name)
            else:
                dialog.error.setText(self.tr("That PIN is not right."))
                dialog.pin.selectAll()

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
        """Return the picker index of a learner, ignoring case (as the store does), or -1."""
        return self.combo.findText(" ".join(name.split()), Qt.MatchFlag.MatchFixedString)

    def create(self, name: str, pin: str = "") -> None:
        """Create a learner in the store and make them active; an existing name is picked instead."""
        if self.store is None:
            return
        clean = " ".join(name.split())
        existing = self.find(clean)
        if existing >= 0:  # never re-create: that would skip (or overwrite) the other learner's PIN
            self.failed.emit(self.tr("A learner called {0} already exists; they are picked instead.").format(clean))
            self._picked(existing)
            return
        try:
            self.store.ensure_learner(clean)
        except Exception as exc:
            self.failed.emit(describe(exc))
            return
        if pin:
            self.settings.set_learner_pin_hash(clean, hash_secret(pin))
        self.reload()
        self.select(clean)
