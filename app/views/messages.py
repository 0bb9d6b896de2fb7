"""An inline banner for errors and notices, with action buttons, so no modal dialog blocks the window."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.colours import AMBER, AMBER_BACKGROUND, BLUE, BLUE_BACKGROUND, RED, RED_BACKGROUND
from app.views.panel import Panel, set_text_colour

Text = str | Callable[[], str]  # a string, or a function that returns it in the current language

_STYLES = {
    "error": (RED_BACKGROUND, RED),
    "warning": (AMBER_BACKGROUND, AMBER),
    "info": (BLUE_BACKGROUND, BLUE),
}


class MessageBar(Panel):
    """A dismissible banner at the top of the window; `shown` carries the text, for tests and logs."""

    shown = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent, radius=4)
        self.setObjectName("messageBar")
        self.level = ""
        self.text = QLabel(self)
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # names and sentences in messages never render as HTML
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.close_button = QToolButton(self)
        self.close_button.setText("×")
        self.close_button.clicked.connect(self.dismiss)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(10, 6, 6, 6)
        self._layout.addWidget(self.text, 1)
        self._layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.buttons: list[QPushButton] = []
        self._source: Text = ""
        self._labels: list[Text] = []
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        """Set the fixed texts in the current language, and the message's own when it was given as a callable."""
        self.close_button.setToolTip(self.tr("Dismiss this message"))
        self.close_button.setAccessibleName(self.tr("Dismiss message"))
        self.setAccessibleName(self.tr("Message"))
        if callable(self._source):
            self._set_text(self._source())
        for button, label in zip(self.buttons, self._labels, strict=False):
            if callable(label):
                button.setText(label())

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def show_message(
        self,
        text: Text,
        *,
        level: str = "error",
        actions: Sequence[tuple[Text, Callable[[], None]]] = (),
    ) -> None:
        """Show `text` with one button per (label, callback) action; each button also dismisses the bar.

        A text or label given as a callable (returning the string, through tr()) is asked again when the
        language changes, so the message on show follows the switch."""
        for button in self.buttons:
            self._layout.removeWidget(button)
            button.deleteLater()
        self.buttons = []
        background, foreground = _STYLES.get(level, _STYLES["info"])
        self.set_colours(background, foreground)
        set_text_colour(self.text, foreground)
        self.level = level
        self._source = text
        self._labels = [label for label, _ in actions]
        self._set_text(text() if callable(text) else text)
        for index, (label, callback) in enumerate(actions):
            button = QPushButton(label() if callable(label) else label, self)
            button.clicked.connect(self.dismiss)
            button.clicked.connect(callback)
            self._layout.insertWidget(1 + index, button, 0, Qt.AlignmentFlag.AlignTop)
            self.buttons.append(button)
        self.show()
        self.shown.emit(self.text.text())

    def _set_text(self, text: str) -> None:
        self.text.setText(text)
        self.setAccessibleDescription(text)

    def dismiss(self) -> None:
        """Hide the bar."""
        self.hide()
        self.level = ""

    def message(self) -> str:
        """Return the text on show, or '' when hidden."""
        return self.text.text() if not self.isHidden() else ""


class MessageArea(QWidget):
    """A stack of MessageBars, one per topic ('model', 'store', 'engine', …), so one never hides another."""

    shown = Signal(str, str)  # key, text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bars: dict[str, MessageBar] = {}
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)

    def show_message(
        self,
        text: Text,
        *,
        key: str = "general",
        level: str = "error",
        actions: Sequence[tuple[Text, Callable[[], None]]] = (),
    ) -> MessageBar:
        """Show (or replace) the message for `key` (a callable text follows language switches); return its bar."""
        bar = self.bars.get(key)
        if bar is None:
            bar = MessageBar(self)
            self.bars[key] = bar
            self._layout.addWidget(bar)
        bar.show_message(text, level=level, actions=actions)
        self.shown.emit(key, bar.text.text())
        return bar

    def dismiss(self, key: str) -> None:
        """Hide the message for `key`, if any."""
        if key in self.bars:
            self.bars[key].dismiss()

    def message(self, key: str) -> str:
        """Return the text on show for `key`, or ''."""
        bar = self.bars.get(key)
        return bar.message() if bar is not None else ""

    def visible(self) -> dict[str, str]:
        """Return {key: text} for every message on show."""
        return {key: bar.message() for key, bar in self.bars.items() if not bar.isHidden()}
