"""The learner's page: the sentence box (Ctrl+Enter), decoding progress, review mode and the result card."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.colours import AMBER
from app.views.card import ResultCard
from app.views.panel import Panel, set_text_colour
from tutor.limits import MAX_SENTENCE_CHARS

_FIELD = re.compile(r'"(\w+)":\s*"([^"]*)"')


class SentenceEdit(QPlainTextEdit):
    """A short multi-line box that submits on Ctrl+Enter and caps its text at MAX_SENTENCE_CHARS."""

    submitted = Signal()
    capped = Signal(int)  # how many characters were cut

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)  # Tab leaves the box, so every control stays keyboard-reachable
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._capping = False
        self.textChanged.connect(self._cap)
        self._fit_height()

    def changeEvent(self, event: QEvent) -> None:
        """Grow with the font."""
        if event.type() == QEvent.Type.FontChange:
            self._fit_height()
        super().changeEvent(event)

    def _fit_height(self) -> None:
        self.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 16)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Submit on Ctrl+Enter (either Enter key); otherwise edit as usual."""
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier and event.key() in (
            Qt.Key.Key_Return,
            Qt.Key.Key_Enter,
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)

    def sentence(self) -> str:
        """Return the text as one line, trimmed."""
        return " ".join(self.toPlainText().split())

    def _cap(self) -> None:
        if self._capping:
            return
        text = self.toPlainText()
        if len(text) <= MAX_SENTENCE_CHARS:
            return
        self._capping = True
        try:
            cursor = self.textCursor()
            position = min(cursor.position(), MAX_SENTENCE_CHARS)
            self.setPlainText(text[:MAX_SENTENCE_CHARS])
            cursor = self.textCursor()
            cursor.setPosition(position)
            self.setTextCursor(cursor)
        finally:
            self._capping = False
        self.capped.emit(len(text) - MAX_SENTENCE_CHARS)


class PracticeView(QWidget):
    """Type, correct, read the card. The window supplies the engine; this view only shows and asks."""

    correct_requested = Signal(str)
    review_next_requested = Signal()
    review_stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ready = False
        self.streamed = ""  # the model's output so far, while decoding
        self.not_ready_reason = ""
        self.queued = ""  # a sentence asked for while the model loads: corrected as soon as it is ready
        self.working = False
        self.prompt = QLabel(self)
        self.editor = SentenceEdit(self)
        self.prompt.setBuddy(self.editor)
        self.counter = QLabel(self)
        self.counter.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        set_text_colour(self.hint, AMBER)
        self.hint.hide()
        self.hint_kind = ""
        self.correct_button = QPushButton(self)
        self.correct_button.setDefault(True)
        self.clear_button = QPushButton(self)

        self.review_bar = Panel(self, radius=4)
        self.review_bar.set_colours("#eef6ee", "#8fbf94")
        self.review_label = QLabel(self.review_bar)
        self.review_label.setWordWrap(True)
        self.review_next = QPushButton(self.review_bar)
        self.review_stop = QPushButton(self.review_bar)
        review_layout = QHBoxLayout(self.review_bar)
        review_layout.setContentsMargins(10, 6, 6, 6)
        review_layout.addWidget(self.review_label, 1)
        review_layout.addWidget(self.review_next)
        review_layout.addWidget(self.review_stop)
        self.review_bar.hide()
        self.review_next.clicked.connect(self.review_next_requested)
        self.review_stop.clicked.connect(self.review_stop_requested)

        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.setMaximumHeight(self.fontMetrics().height() // 2 + 4)
        self.stream = QLabel(self)
        self.stream.setWordWrap(True)
        self.stream.setTextFormat(Qt.TextFormat.PlainText)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSizeF(self.font().pointSizeF() * 0.9)
        self.stream.setFont(mono)
        set_text_colour(self.stream, "#555")
        self.busy.hide()
        self.stream.hide()

        self.card = ResultCard()
        self.scroll = QScrollArea(self)
        self.scroll.setWidget(self.card)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        top = QHBoxLayout()
        top.addWidget(self.prompt, 1)
        top.addWidget(self.counter)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint, 1)
        buttons.addStretch(0)
        buttons.addWidget(self.clear_button)
        buttons.addWidget(self.correct_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.review_bar)
        layout.addLayout(top)
        layout.addWidget(self.editor)
        layout.addLayout(buttons)
        layout.addWidget(self.busy)
        layout.addWidget(self.stream)
        layout.addWidget(self.scroll, 1)

        self.editor.submitted.connect(self.submit)
        self.editor.capped.connect(self._on_capped)
        self.editor.textChanged.connect(self._on_text_changed)
        self.correct_button.clicked.connect(self.submit)
        self.clear_button.clicked.connect(self.clear)
        self.setTabOrder(self.editor, self.correct_button)
        self.setTabOrder(self.correct_button, self.clear_button)
        self.setTabOrder(self.clear_button, self.card)
        self.retranslate()
        self._update_buttons()

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text in the current language."""
        self.prompt.setText(self.tr("Your &sentence in English:"))
        self.editor.setPlaceholderText(self.tr("For example: He goed to school yesterday."))
        self.editor.setAccessibleName(self.tr("Sentence to correct"))
        self.editor.setAccessibleDescription(self.tr("Type one English sentence, then press Ctrl+Enter to correct it."))
        self.correct_button.setText(self.tr("&Correct"))
        self.correct_button.setToolTip(self.tr("Correct the sentence (Ctrl+Enter)"))
        self.clear_button.setText(self.tr("Cle&ar"))
        self.busy.setAccessibleName(self.tr("Correcting"))
        self.stream.setAccessibleName(self.tr("Model output so far"))
        self.review_next.setText(self.tr("Ne&xt mistake"))
        self.review_stop.setText(self.tr("St&op review"))
        self._on_text_changed()

    def set_ready(self, ready: bool, reason: str = "") -> None:
        """Enable correcting once the model is loaded; `reason` says why not, when it cannot load."""
        self.ready = ready
        self.not_ready_reason = reason
        self._update_buttons()
        queued, self.queued = self.queued, ""
        if ready and queued:
            self.hint.hide()
            self.hint_kind = ""
            self.correct_requested.emit(self.editor.sentence() or queued)  # what is in the box now
        elif queued and reason:  # the model will not come: say why, the sentence stays in the box
            self.show_hint(reason, "not_ready")
        else:
            self.queued = queued

    def set_working(self, working: bool) -> None:
        """Show or hide the decoding progress and lock the Correct button while it runs."""
        self.working = working
        self.busy.setVisible(working)
        self.stream.setVisible(working)
        if working:
            self.stream.setText(self.tr("Thinking…"))
            self.streamed = ""
        self._update_buttons()

    def append_token(self, text: str) -> None:
        """Show the model's answer as it streams in: its fields once they appear, else the raw text."""
        self.streamed += text
        fields = [
            f"{key}: {value}" for key, value in _FIELD.findall(self.streamed) if key not in ("original", "written")
        ]
        self.stream.setText(self.tr("Thinking… {0}").format(" · ".join(fields)) if fields else self.streamed[-300:])

    def submit(self) -> None:
        """Ask for a correction of the current sentence, or say why not."""
        if self.working:
            return
        sentence = self.editor.sentence()
        if not sentence:
            self.show_hint(self.tr("Type a sentence first, for example: She have a cat."), "empty")
            self.editor.setFocus()
            return
        if not self.ready and self.not_ready_reason:
            self.show_hint(self.not_ready_reason, "not_ready")
            return
        if not self.ready:  # still loading: keep the request and run it when the model is ready
            self.queued = sentence
            self.show_hint(self.tr("The model is still loading; I will correct your sentence as soon as it is ready."),
                           "queued")
            return
        self.hint.hide()
        self.hint_kind = ""
        self.correct_requested.emit(sentence)

    def show_hint(self, text: str, kind: str = "") -> None:
        """Show a short notice under the sentence box; `kind` names it for tests ('empty', 'capped', …)."""
        self.hint_kind = kind
        self.hint.setText(text)
        self.hint.setAccessibleName(text)
        self.hint.show()

    def clear(self) -> None:
        """Empty the box and the card."""
        self.editor.clear()
        self.hint.hide()
        self.hint_kind = ""
        self.card.show_result(None)
        self.editor.setFocus()

    def set_review(self, text: str | None, *, sentence: str = "") -> None:
        """Show the review banner with `text` and put `sentence` in the box; None ends the review."""
        if text is None:
            self.review_bar.hide()
            return
        self.review_label.setText(text)
        self.review_bar.show()
        self.editor.setPlainText(sentence)
        self.card.show_result(None)
        self.editor.setFocus()
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        self.editor.setTextCursor(cursor)

    def _on_capped(self, cut: int) -> None:
        self.show_hint(
            self.tr("A sentence can have at most {0} characters, so the last {1} were cut.").format(
                MAX_SENTENCE_CHARS, cut
            ),
            "capped",
        )

    def _on_text_changed(self) -> None:
        count = len(self.editor.toPlainText())
        self.counter.setText(self.tr("{0} / {1}").format(count, MAX_SENTENCE_CHARS))
        self.counter.setAccessibleName(self.tr("{0} of {1} characters used").format(count, MAX_SENTENCE_CHARS))
        if count and self.hint_kind == "empty":
            self.hint.hide()
            self.hint_kind = ""
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.correct_button.setEnabled(self.ready and not self.working)
