"""The Settings dialog: model (catalogue or a verified GGUF file), UI language, and under a fold closed by default
(Advanced) the sampling temperature and the model file's sha256."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.colours import GREEN, GREY, RED
from app.errors import describe
from app.labels import licence_label
from app.settings import AppSettings
from app.views.panel import set_text_colour
from app.worker import run_job
from tutor.catalogue import catalogue, default_model_name, install_line, installed, resolve


class SettingsDialog(QDialog):
    """Edits a copy of the settings; the window applies them when the dialog is accepted."""

    verified = Signal(bool)  # the model choice passed (True) or failed (False) verification

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.model_ok = True
        self.model = QComboBox(self)
        self.model.setAccessibleName(self.tr("Model"))
        default = default_model_name()
        for entry in catalogue().values():
            title = entry.title + (self.tr(" (default)") if entry.name == default else "")
            here = installed(entry)
            if not here:  # listed so it can be chosen after installing it; said so, with the one line to run
                title += self.tr(" — not installed")
            self.model.addItem(title, entry.name)
            if not here:
                self.model.setItemData(self.model.count() - 1, self.tr("To install it: {0}").format(
                    install_line(entry)), Qt.ItemDataRole.ToolTipRole)
        chosen = settings.model or default
        if self.model.findData(chosen) < 0:
            self.model.addItem(chosen, chosen)
        self.model.setCurrentIndex(self.model.findData(chosen))
        self.browse = QPushButton(self.tr("&Browse…"), self)
        self.browse.setToolTip(self.tr("Use a GGUF model file from your disk"))
        self.model_status = QLabel(self)
        self.model_status.setWordWrap(True)
        self.model_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.temperature = QDoubleSpinBox(self)
        self.temperature.setRange(0.0, 1.5)
        self.temperature.setSingleStep(0.1)
        self.temperature.setDecimals(2)
        self.temperature.setValue(settings.temperature)
        self.temperature.setAccessibleName(self.tr("Temperature"))
        self.temperature.setToolTip(self.tr("0 always gives the most likely answer; higher values vary more"))
        self.daily = QCheckBox(self.tr("&Gentler schedule: a card answered right comes back after a day or more"),
                               self)
        self.daily.setChecked(settings.daily_schedule)
        self.sha256 = QLabel(self)
        self.sha256.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.sha256.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sha256.setAccessibleName(self.tr("Model file's sha256"))
        self.language = QComboBox(self)
        self.language.addItem("English", "en")
        self.language.addItem("Español", "es")
        self.language.setCurrentIndex(max(self.language.findData(settings.language), 0))
        self.language.setAccessibleName(self.tr("Language of the window"))

        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.browse)
        form = QFormLayout()
        model_label = QLabel(self.tr("&Model:"), self)
        model_label.setBuddy(self.model)
        form.addRow(model_label, model_row)
        language_label = QLabel(self.tr("&Language:"), self)
        language_label.setBuddy(self.language)
        form.addRow(language_label, self.language)
        form.addRow(self.daily)
        # a learner needs neither: they sit under a fold, closed until opened
        self.advanced_button = QToolButton(self)
        self.advanced_button.setText(self.tr("&Advanced"))
        self.advanced_button.setCheckable(True)
        self.advanced_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_button.setArrowType(Qt.ArrowType.RightArrow)
        self.advanced_button.setAutoRaise(True)
        self.advanced = QWidget(self)
        advanced_form = QFormLayout(self.advanced)
        advanced_form.setContentsMargins(0, 0, 0, 0)
        temperature_label = QLabel(self.tr("&Temperature:"), self.advanced)
        temperature_label.setBuddy(self.temperature)
        advanced_form.addRow(temperature_label, self.temperature)
        advanced_form.addRow(QLabel(self.tr("sha256:"), self.advanced), self.sha256)
        self.advanced.setVisible(False)
        self.advanced_button.toggled.connect(self.show_advanced)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.model_status)  # outside the form: a QFormLayout cuts wrapped labels short
        layout.addWidget(self.advanced_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.advanced)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.browse.clicked.connect(self.choose_file)
        self.model.currentIndexChanged.connect(self.verify)
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance("0") * 60)
        self.verify()

    def show_advanced(self, shown: bool) -> None:
        """Open or close the Advanced fold."""
        self.advanced_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.advanced.setVisible(shown)
        self.adjustSize()

    def chosen_model(self) -> str:
        """Return the catalogue name or GGUF path chosen."""
        return str(self.model.currentData())

    def chosen_temperature(self) -> float:
        """Return the temperature chosen."""
        return float(self.temperature.value())

    def chosen_daily(self) -> bool:
        """Return True when the gentler, daily schedule is chosen."""
        return self.daily.isChecked()

    def chosen_language(self) -> str:
        """Return 'en' or 'es'."""
        return str(self.language.currentData())

    def ask_model_path(self) -> str:
        """Ask for a GGUF file; return '' when cancelled."""
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose a GGUF model"), "", self.tr("GGUF models (*.gguf);;All files (*)")
        )
        return path

    def choose_file(self) -> None:
        """Add a GGUF file to the choices, select it and verify it."""
        path = self.ask_model_path()
        if not path:
            return
        index = self.model.findData(path)
        if index < 0:
            self.model.addItem(path, path)
            index = self.model.count() - 1
        self.model.setCurrentIndex(index)

    def verify(self) -> None:
        """Check the chosen model in the background: sha256 (or GGUF header), then a forward pass in a child."""
        choice = self.chosen_model()
        self.model_ok = False
        self._ok_button().setEnabled(False)
        set_text_colour(self.model_status, GREY)
        self.model_status.setText(self.tr("Checking the model file…"))
        self.sha256.setText(self.tr("not verified"))

        def done(model: Any) -> None:
            if choice != self.chosen_model():
                return
            self.model_ok = True
            self._ok_button().setEnabled(True)
            set_text_colour(self.model_status, GREEN)
            self.model_status.setText(
                self.tr("Verified: {0} · runs on this computer · licence: {1}").format(model.name, licence_label(model))
            )
            half = len(model.sha256) // 2  # two lines: a dialog may not be wider than 2/3 of a small screen
            self.sha256.setText(f"{model.sha256[:half]}\n{model.sha256[half:]}")
            self.sha256.setToolTip(model.sha256)
            self.adjustSize()
            self.verified.emit(True)

        def failed(exc: Exception) -> None:
            if choice != self.chosen_model():
                return
            set_text_colour(self.model_status, RED)
            self.model_status.setText(describe(exc, self.tr("checking the model")))
            self.adjustSize()
            self.verified.emit(False)

        def check(report: Any) -> Any:
            # "Verified" means the file loaded and ran one forward pass here, in a child process (a
            # native crash or a broken chat template there is a message, never a vanished window)
            from tutor.decoding.preflight import ensure_model_runs

            model = resolve(choice)
            ensure_model_runs(model.path, model.sha256)
            return model

        run_job(check, success=done, failure=failed, receiver=self, name="verify model")

    def _ok_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok)
