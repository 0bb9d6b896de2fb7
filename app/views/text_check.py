"""The Text page: check a whole text, every finding underlined in place, its card, Apply, Apply all, Copy.

The text is checked as the learner types: after a short pause (`AUTO_CHECK_MS`) the view asks
`tutor.text.incremental.IncrementalChecker` to check it again, and the model reads only the sentences
that changed and the one after each. Until the answer comes, the underlines move with the text
(`Edit.remap`); an answer for a text that has changed since is never shown. Ctrl+Enter checks at
once and records the findings for the learner (`Tutoring.record_check`); checks while typing are not
recorded. Every check runs through app.worker, reporting progress per sentence; the window never
waits on it. Findings keep Python string offsets into the text; the editor's cursor counts UTF-16
units, so every hand-over goes through `utf16_position`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QItemSelectionModel, QLocale, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QGuiApplication, QKeyEvent, QKeySequence, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListView,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from app import worker
from app.colours import AMBER, GREY, RED
from app.errors import describe
from app.translation import ui_is_spanish
from app.views.finding_card import FindingCard
from app.views.panel import set_text_colour
from app.views.text_findings import (
    FindingsModel,
    NotesModel,
    apply_findings,
    python_index,
    shift_after,
    utf16_position,
)
from tutor.errors import InputError
from tutor.limits import MAX_TEXT_CHARS
from tutor.text.check import CheckResult, Finding, replacement_text
from tutor.text.incremental import Edit, IncrementalChecker
from tutor.tutoring import Recorded

if TYPE_CHECKING:
    from app.context import ViewContext

SELECTED_SURE, SELECTED_NOT_SURE, SELECTED_NOTE = "#f7d4cf", "#fce3b8", "#dce6fa"
AUTO_CHECK_MS = 600  # the typing pause after which the text is checked again
PROGRESS_AFTER_MS = 400  # a check shorter than this shows no progress bar (no flicker while typing)


def number(n: int) -> str:
    """Return `n` written the UI language's way (2,000 in English, 2000 and 12.000 in Spanish)."""
    return QLocale(QLocale.Language.Spanish).toString(n) if ui_is_spanish() else f"{n:,}"


def forms_list(forms: list[str]) -> str:
    """Return the checked forms in reading order, each once, with a count when it repeats ("was ×2, like")."""
    counts = Counter(forms)
    return ", ".join(w if counts[w] == 1 else f"{w} ×{counts[w]}" for w in dict.fromkeys(forms))


class TextEdit(QPlainTextEdit):
    """The text box: Ctrl+Enter checks; Tab leaves the box so every control stays keyboard-reachable."""

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * 3 + 16)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Check on Ctrl+Enter (either Enter key); otherwise edit as usual."""
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier and event.key() in (
                Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class TextCheckView(QWidget):
    """Type or paste a text, check it, read each finding's card, apply the fixes, copy the result.

    `context` is all it uses of the window: the use case (the loaded model) and the store it records with, the
    learner, and the message banners. The window places the page and its `show_action` (View → Text).
    """

    check_done = Signal(object)  # the CheckResult, once underlined (and saved when a learner is chosen)
    check_failed = Signal(str)
    progressed = Signal(int, int)  # sentences done, sentences in all

    def __init__(self, context: ViewContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.working = False
        self.result: CheckResult | None = None
        self.findings: list[Finding] = []  # still open, offsets into the editor's current text
        self.notes: list = []
        self.shown_text = ""  # the text the findings and notes index into
        self.generation = 0  # counts the learner's edits: an answer for an older one is never shown
        self.checker: IncrementalChecker | None = None
        self.queued: str = ""  # "auto" or "save": a check asked for while one was running
        self.saved_for: tuple[str, int] = ("", 0)  # the learner and the rows the last Ctrl+Enter kept
        self.auto_check = QTimer(self)
        self.auto_check.setSingleShot(True)
        self.auto_check.setInterval(AUTO_CHECK_MS)
        self.auto_check.timeout.connect(self._check_while_typing)
        self.progress_delay = QTimer(self)
        self.progress_delay.setSingleShot(True)
        self.progress_delay.setInterval(PROGRESS_AFTER_MS)
        self.progress_delay.timeout.connect(lambda: self.progress.setVisible(self.working))
        self.hint_kind = ""
        self.saved_rows = 0
        self._editing = False  # Apply is changing the text: keep the underlines
        self.shown_note: Any = None  # the note whose span is highlighted
        self._keep_caret = False  # a finding selected for the learner while typing: the caret stays put
        self.show_action = QAction(self)  # View → Text; the window gives it its shortcut and its place

        self.prompt = QLabel(self)
        self.prompt.setWordWrap(True)
        self.editor = TextEdit(self)
        self.prompt.setBuddy(self.editor)
        self.counter = QLabel(self)
        self.counter.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        set_text_colour(self.hint, AMBER)
        self.hint.hide()
        self.check_button = QPushButton(self)
        self.check_button.setDefault(True)
        self.copy_button = QPushButton(self)
        self.clear_button = QPushButton(self)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1)
        self.progress.hide()
        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        self.findings_label = QLabel(self)
        self.findings_model = FindingsModel(self)
        self.findings_view = QListView(self)
        self.findings_view.setModel(self.findings_model)
        self.findings_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.findings_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.findings_label.setBuddy(self.findings_view)
        self.apply_button = QPushButton(self)
        self.apply_all_button = QPushButton(self)
        self.notes_label = QLabel(self)
        self.notes_model = NotesModel(self)
        self.notes_view = QListView(self)
        self.notes_view.setModel(self.notes_model)
        self.notes_view.setWordWrap(True)
        self.notes_view.setSpacing(3)
        self.notes_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.notes_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.notes_label.setBuddy(self.notes_view)

        self.card = FindingCard()
        self.scroll = QScrollArea(self)
        self.scroll.setWidget(self.card)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self._layout()
        self._make_actions()
        self.editor.submitted.connect(self.submit)
        self.editor.textChanged.connect(self._on_text_changed)
        self.editor.cursorPositionChanged.connect(self._on_cursor_moved)
        self.check_button.clicked.connect(self.submit)
        self.copy_button.clicked.connect(self.copy_corrected)
        self.clear_button.clicked.connect(self.clear)
        self.apply_button.clicked.connect(self.apply_selected)
        self.apply_all_button.clicked.connect(self.apply_all)
        self.findings_view.selectionModel().currentChanged.connect(self._on_finding_current)
        self.notes_view.selectionModel().currentChanged.connect(self._on_note_current)
        self.retranslate()
        self._update_buttons()

    # -- building ----------------------------------------------------------------------------------

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.prompt, 1)
        top.addWidget(self.counter)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint, 1)
        buttons.addStretch(0)
        buttons.addWidget(self.clear_button)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.check_button)

        lists = QWidget(self)
        left = QVBoxLayout(lists)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.findings_label)
        left.addWidget(self.findings_view, 1)
        left.addWidget(self.notes_label)
        left.addWidget(self.notes_view, 1)
        for view in (self.findings_view, self.notes_view):
            view.setMinimumHeight(self.fontMetrics().lineSpacing() + 14)  # one row: the page fits 800×600
        self.below = QSplitter(Qt.Orientation.Horizontal, self)
        self.below.setChildrenCollapsible(False)
        card_side = QWidget(self)
        right = QVBoxLayout(card_side)
        right.setContentsMargins(0, 0, 0, 0)
        right.addWidget(self.scroll, 1)
        apply_row = QHBoxLayout()
        apply_row.addStretch(1)
        apply_row.addWidget(self.apply_button)
        apply_row.addWidget(self.apply_all_button)
        right.addLayout(apply_row)
        self.below.addWidget(lists)
        self.below.addWidget(card_side)
        self.below.setStretchFactor(0, 2)
        self.below.setStretchFactor(1, 3)

        self.upper = QWidget(self)
        upper = QVBoxLayout(self.upper)
        upper.setContentsMargins(0, 0, 0, 0)
        upper.addLayout(top)
        upper.addWidget(self.editor, 1)
        upper.addLayout(buttons)
        upper.addWidget(self.progress)
        upper.addWidget(self.verdict)
        self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.split.setChildrenCollapsible(False)
        self.split.addWidget(self.upper)
        self.split.addWidget(self.below)
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.split)
        self.setTabOrder(self.editor, self.check_button)
        self.setTabOrder(self.check_button, self.copy_button)
        self.setTabOrder(self.copy_button, self.clear_button)
        self.setTabOrder(self.clear_button, self.findings_view)
        self.setTabOrder(self.findings_view, self.notes_view)
        self.setTabOrder(self.notes_view, self.card)
        self.setTabOrder(self.card, self.apply_button)
        self.setTabOrder(self.apply_button, self.apply_all_button)

    def _make_actions(self) -> None:
        def action(keys: str, slot) -> QAction:
            act = QAction(self)
            act.setShortcut(QKeySequence(keys))
            act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)  # only on this page
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        self.apply_action = action("Ctrl+.", self.apply_selected)
        self.apply_all_action = action("Ctrl+Shift+.", self.apply_all)
        self.copy_action = action("Ctrl+Shift+C", self.copy_corrected)
        self.next_action = action("F8", lambda: self.step(1))
        self.previous_action = action("Shift+F8", lambda: self.step(-1))

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text in the current language, and redraw the verdict and the lists in it."""
        self.prompt.setText(self.tr("Yo&ur text in English (several sentences):"))
        self.editor.setPlaceholderText(self.tr(
            "For example: Yesterday my brother goed to the park. He have a new bike."))
        self.editor.setAccessibleName(self.tr("Text to check"))
        self.editor.setAccessibleDescription(self.tr(
            "Type or paste up to {0} characters, then press Ctrl+Enter. Wrong verbs are underlined: red wavy when"
            " I am sure, orange dotted when I am not. F8 goes to the next one.").format(number(MAX_TEXT_CHARS)))
        self.check_button.setText(self.tr("Chec&k"))
        self.check_button.setToolTip(self.tr("Check every sentence of the text (Ctrl+Enter)"))
        self.copy_button.setText(self.tr("C&opy corrected text"))
        self.copy_button.setToolTip(self.tr(
            "Copy the text with every fix I am sure of to the clipboard (Ctrl+Shift+C); questions stay as you wrote"
            " them"))
        self.clear_button.setText(self.tr("Clea&r"))
        self.apply_button.setText(self.tr("&Apply"))
        self.apply_button.setToolTip(self.tr("Replace the selected word by its correction (Ctrl+.)"))
        self.apply_all_button.setText(self.tr("Apply all"))
        self.apply_all_button.setToolTip(self.tr(
            "Replace every word I am sure of (Ctrl+Shift+.); questions wait for you to decide"))
        self.findings_label.setText(self.tr("F&indings (F8 / Shift+F8):"))
        self.findings_view.setAccessibleName(self.tr("Findings"))
        self.notes_label.setText(self.tr("Notes (not &corrected):"))
        self.notes_view.setAccessibleName(self.tr("Notes"))
        self.progress.setAccessibleName(self.tr("Checking progress"))
        self.verdict.setAccessibleName(self.tr("Verdict"))
        if self.hint_kind == "saved":
            self.show_hint(self._saved_text(), "saved")
        self.apply_action.setText(self.tr("Apply"))
        self.apply_all_action.setText(self.tr("Apply all"))
        self.copy_action.setText(self.tr("Copy corrected text"))
        self.next_action.setText(self.tr("Next finding"))
        self.previous_action.setText(self.tr("Previous finding"))
        self.show_action.setText(self.title())
        self.findings_model.retranslate()
        self.notes_model.set_spanish(ui_is_spanish())
        self._on_text_changed(counter_only=True)
        self._show_verdict()

    # -- checking ----------------------------------------------------------------------------------

    def title(self) -> str:
        """Return the page's name in the current language (its tab and its View menu entry)."""
        return self.tr("Te&xt")

    def ready(self) -> bool:
        """Return True when a model is loaded and not reloading (the context has a use case)."""
        return self.context.use_case() is not None

    def submit(self) -> None:
        """Check the text in the background and record its findings, or say why not."""
        if self.working:
            self.queued = "save"  # after the running check, with the text as it is then
            return
        text = self.editor.toPlainText()
        if not text.strip():
            self.show_hint(self.tr("Type or paste a text first, for example an email to a friend."), "empty")
            self.editor.setFocus()
            return
        if len(text) > MAX_TEXT_CHARS:
            self._on_text_changed(counter_only=True)
            return
        if not self.ready():
            self.show_hint(self.tr("The model is still loading; you can check your text in a moment."), "not_ready")
            return
        self.hide_hint()
        self.run_check(text)

    def _check_while_typing(self) -> None:
        """The learner paused: check the text again (only what changed is read), without recording it."""
        text = self.editor.toPlainText()
        if not text.strip() or len(text) > MAX_TEXT_CHARS or not self.ready():
            self._show_verdict()  # no check comes: the verdict says the text changed
            return
        if self.working:
            self.queued = self.queued or "auto"
            return
        if self.result is not None and self.result.text == text:
            self._show_verdict()  # back to the text as checked (an edit undone): its verdict again
            return
        self.run_check(text, save=False)

    def run_check(self, text: str, *, save: bool = True) -> None:
        """Check `text` through app.worker; with `save`, record its findings for the learner in the same job."""
        use_case, learner = self.context.use_case(), self.context.learner()
        if use_case is None:
            return
        if self.checker is None or self.checker.base is not use_case.tutor:
            self.checker = IncrementalChecker(use_case.tutor)  # a new model: nothing kept from the old one
        checker = self.checker
        self.auto_check.stop()
        self.working = True
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat(self.tr("Splitting the text into sentences…"))
        if save:
            self.progress.show()
        else:
            self.progress_delay.start()
        self.context.messages.dismiss("text")
        self._update_buttons()
        self._show_verdict()
        generation = self.generation

        def op(report: worker.Report) -> Recorded[CheckResult]:
            result = checker.check(text, progress=lambda done, total: report((done, total)))
            if not save:
                return Recorded(result)
            return use_case.record_check(result, learner=learner)

        worker.run_job(op, success=lambda done: self._on_checked(done, generation, save),
                       failure=lambda exc: self._on_failed(exc, text),
                       progress=self._on_progress, receiver=self, name="check text")

    def _on_progress(self, item: tuple[int, int]) -> None:
        done, total = item
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        if done < total:
            self.progress.setFormat(self.tr("Checking sentence {0} of {1}…").format(done + 1, total))
        else:
            self.progress.setFormat(self.tr("Checked {0} of {1} sentences").format(done, total))
        self.progressed.emit(done, total)

    def _on_checked(self, done: Recorded[CheckResult], generation: int = -1, saved: bool = True) -> None:
        result, saved_error = done.result, done.save_error
        self.working = False
        self.progress_delay.stop()
        self.progress.hide()
        if saved:
            self.saved_rows = len(done.row_ids)
        if saved_error is not None:
            self.context.messages.show_message(
                self.tr("The findings are shown but were not saved: {0}").format(describe(saved_error)),
                key="save", level="warning")
        queued, self.queued = self.queued, ""
        if generation != self.generation or self.editor.toPlainText() != result.text:
            # the learner typed meanwhile: never show findings for a text that is gone; check the new one
            if queued == "save":
                self.submit()
            elif not self.auto_check.isActive():
                self._check_while_typing()
            self._show_verdict()  # a check runs, or the text changed: never the verdict of the text that is gone
        else:
            self.show_result(result, typing=not saved)
            if saved and not self.context.learner() and self.context.store() is not None and result.findings:
                self.show_hint(self.tr("Choose or create a learner to keep these findings in your history."),
                               "no_learner")
            elif saved and done.saved:  # Ctrl+Enter kept it: say so, where, and how much
                self.saved_for = (self.context.learner(), len(done.row_ids))
                self.show_hint(self._saved_text(), "saved")
            if queued == "save":
                self.submit()  # Ctrl+Enter during a check while typing: record the findings now
        self._update_buttons()
        self.check_done.emit(result)

    def _saved_text(self) -> str:
        """Return the confirmation that Ctrl+Enter kept the findings (for whom, how many), in the UI language."""
        learner, n = self.saved_for
        if n == 0:
            return self.tr("Checked for {0}: nothing to keep in the history.").format(learner)
        if n == 1:
            return self.tr("Saved in {0}'s history: 1 finding.").format(learner)
        return self.tr("Saved in {0}'s history: {1} findings.").format(learner, n)

    def _on_failed(self, exc: Exception, text: str) -> None:
        self.working = False
        self.queued = ""
        self.progress_delay.stop()
        self.progress.hide()
        self._update_buttons()
        self._show_verdict()
        message = describe(exc, self.tr("checking your text"))
        if isinstance(exc, InputError):
            self.context.messages.show_message(message, key="text", level="warning")
        else:
            self.context.messages.show_message(
                message, key="text", actions=[(self.tr("Try again"), lambda: self.run_check(text))])
        self.check_failed.emit(message)

    # -- showing a result --------------------------------------------------------------------------

    def show_result(self, result: CheckResult, *, typing: bool = False) -> None:
        """Underline every finding of `result` (whose text is the editor's text) and list them with the notes.

        After Ctrl+Enter the first finding is selected and the caret goes to it; after a check while
        typing (`typing`) the finding that was selected stays selected if it is still there, and the
        caret stays where the learner is typing.
        """
        was = self.current_finding()
        self.result = result
        self.shown_text = result.text
        self.findings = list(result.findings)
        self.notes = list(result.notes)
        self._refresh_lists()
        if self.findings:
            if typing:
                spans = [(f.start, f.end) for f in self.findings]
                self._select_quietly(spans.index((was.start, was.end)) if was and (was.start, was.end) in spans else 0)
            else:
                self.select_row(0)
        else:
            self.card.show_empty(lambda: self.tr("Nothing to fix among the verbs I can check. Read the notes, if any."))
        self._show_verdict()

    def _select_quietly(self, row: int) -> None:
        """Select a finding (its card opens) without moving the caret or the view."""
        self._keep_caret = True
        try:
            self.select_row(row)
        finally:
            self._keep_caret = False

    def _refresh_lists(self) -> None:
        self.findings_model.set_findings(self.findings)
        self.findings = list(self.findings_model.findings)
        self.notes_model.set_notes(self.notes)
        self.notes = list(self.notes_model.notes)
        self.notes_label.setVisible(bool(self.notes))
        self.notes_view.setVisible(bool(self.notes))
        self._underline()
        self._update_buttons()

    def _clear_findings(self) -> None:
        self.result = None
        self.shown_text = self.editor.toPlainText()
        self.shown_note = None
        self.findings, self.notes = [], []
        self.findings_model.set_findings([])
        self.notes_model.set_notes([])
        self.notes_label.hide()
        self.notes_view.hide()
        self.editor.setExtraSelections([])
        self.card.show_empty()
        self._update_buttons()

    def _underline(self) -> None:
        """Draw the findings as spell-checker underlines: red wavy when sure, orange dotted when not."""
        text = self.editor.toPlainText()
        current = self.current_finding()
        note = self.shown_note
        selections = []
        for f in self.findings:
            fmt = QTextCharFormat()
            if f.sure:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
                fmt.setUnderlineColor(QColor(RED))
            else:
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DotLine)
                fmt.setUnderlineColor(QColor(AMBER))
            if f == current:
                fmt.setBackground(QColor(SELECTED_SURE if f.sure else SELECTED_NOT_SURE))
            selections.append(self._selection(text, f.start, f.end, fmt))
        if note is not None:
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(SELECTED_NOTE))
            selections.append(self._selection(text, note.start, note.end, fmt))
        self.editor.setExtraSelections(selections)

    def _selection(self, text: str, start: int, end: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(utf16_position(text, start))
        cursor.setPosition(utf16_position(text, end), QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = fmt
        return selection

    def underlined(self) -> list[tuple[int, int, str]]:
        """Return the underlined spans as (start, end, style) in Python indices ('wave', 'dot'), for tests."""
        text = self.editor.toPlainText()
        out = []
        for sel in self.editor.extraSelections():
            style = sel.format.underlineStyle()
            if style == QTextCharFormat.UnderlineStyle.NoUnderline:
                continue
            kind = "wave" if style == QTextCharFormat.UnderlineStyle.WaveUnderline else "dot"
            out.append((python_index(text, sel.cursor.selectionStart()), python_index(text, sel.cursor.selectionEnd()),
                        kind))
        return out

    def _show_verdict(self) -> None:
        """Say what the last check found, and what it checked; never 'Correct! Well done!'. The verdict always
        describes the text in the box: once it changes, it says the text is being checked (or has changed)."""
        result = self.result
        if result is None or not self.editor.toPlainText().strip():
            self.verdict.setText("")
            self.verdict.hide()
            return
        self.verdict.setText(self.verdict_text(result))
        self.verdict.setAccessibleDescription(self.verdict.text())
        self.verdict.show()

    def verdict_text(self, result: CheckResult) -> str:
        """Return the verdict for `result` in the UI language, counting the findings still open; for a text that
        changed since `result` was checked, say that it is being checked again (or how to check it)."""
        if self.editor.toPlainText() != result.text:
            return self._changed_verdict(result)
        noted = [(n.start, n.end) for n in result.notes]
        checked = [c for c in result.checked if not any(a < c.end and c.start < b for a, b in noted)]
        words = forms_list([c.written for c in checked])
        sure = sum(f.sure for f in self.findings)
        asked = len(self.findings) - sure
        parts = []
        if not result.findings:
            if not checked:
                parts.append(self.tr("I found no form of the 20 verbs I can check in this text, so I cannot say"
                                     " whether its verbs are right."))
            elif len(checked) == 1:
                parts.append(self.tr("No errors in the 1 verb I can check ({0}).").format(words))
            else:
                parts.append(self.tr("No errors in the {0} verbs I can check ({1}).").format(len(checked), words))
        else:
            parts.append(self.tr("Verbs I checked: {0} ({1}).").format(len(checked), words))
            if self.findings:
                parts.append(self.tr("To fix: {0}.").format(sure))
                if asked:
                    parts.append(self.tr("Not sure, please look: {0}.").format(asked))
            else:
                parts.append(self.tr("Every finding is applied. Press Ctrl+Enter to check the text again."))
        if result.notes:
            parts.append(self.tr("Notes on what I do not correct: {0} (listed below).").format(len(result.notes)))
        return " ".join(parts)

    def _changed_verdict(self, result: CheckResult) -> str:
        """Return the verdict for a text edited since its last check (typed in, or its findings applied)."""
        pending = self.working or self.auto_check.isActive()
        parts = []
        sure = sum(f.sure for f in self.findings)  # the open findings, moved with the edits: still in the box
        if sure:
            parts.append(self.tr("To fix: {0}.").format(sure))
        if len(self.findings) > sure:
            parts.append(self.tr("Not sure, please look: {0}.").format(len(self.findings) - sure))
        if result.findings and not self.findings:
            parts.append(self.tr("Every finding is applied."))
        if pending:
            parts.append(self.tr("Checking the text as it is now…"))
        else:
            parts.append(self.tr("The text has changed since the last check. Press Ctrl+Enter to check it again."))
        return " ".join(parts)

    # -- selecting ---------------------------------------------------------------------------------

    def current_finding(self) -> Finding | None:
        """Return the finding selected in the list, or None."""
        index = self.findings_view.currentIndex()
        return self.findings_model.finding(index.row()) if index.isValid() else None

    def select_row(self, row: int) -> None:
        """Select the finding on `row` in the list (its card opens and its word is highlighted)."""
        index = self.findings_model.index(row)
        self.findings_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def step(self, by: int) -> None:
        """Select the next (+1) or previous (-1) finding, wrapping around; F8 and Shift+F8."""
        n = self.findings_model.rowCount()
        if not n:
            return
        row = self.findings_view.currentIndex().row()
        self.select_row((row + by) % n if row >= 0 else (0 if by > 0 else n - 1))
        self.findings_view.setFocus()

    def _on_finding_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        f = self.findings_model.finding(current.row()) if current.isValid() else None
        if f is None:
            return
        self.card.show_finding(f)
        self.shown_note = None
        text = self.editor.toPlainText()
        if self._keep_caret:
            pass  # the learner is typing: the caret and the view stay where they are
        elif python_index(text, self.editor.textCursor().position()) not in range(f.start, f.end + 1):
            cursor = self.editor.textCursor()
            cursor.setPosition(utf16_position(text, f.start))
            self.editor.setTextCursor(cursor)  # moves the view to the word; the card stays on this finding
            self.editor.ensureCursorVisible()
        else:
            self.editor.ensureCursorVisible()
        self._underline()
        self._update_buttons()

    def _on_note_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        n = self.notes_model.note(current.row()) if current.isValid() else None
        if n is not None:
            self.card.show_note(n)
            self.shown_note = n
            self._underline()

    def _on_cursor_moved(self) -> None:
        """A click on (or the caret moving into) an underlined word selects its finding."""
        if not self.findings or self._editing:
            return
        text = self.editor.toPlainText()
        row = self.findings_model.row_at(python_index(text, self.editor.textCursor().position()))
        if row >= 0 and row != self.findings_view.currentIndex().row():
            self.select_row(row)

    # -- applying ----------------------------------------------------------------------------------

    def apply_selected(self) -> None:
        """Replace the selected finding's word by its correction; the other underlines move with the text."""
        f = self.current_finding()
        if f is None:
            return
        row = self.findings_view.currentIndex().row()
        self._apply([f])
        if self.findings:
            self.select_row(min(row, len(self.findings) - 1))
        else:
            self.card.show_empty(lambda: self.tr("Every finding is applied. Press Ctrl+Enter to check the text again."))

    def apply_all(self) -> None:
        """Replace every finding the checker is sure of (one undo step); questions stay for the learner."""
        sure = [f for f in self.findings if f.sure]
        if not sure:
            return
        self._apply(sure)
        if self.findings:
            self.select_row(0)
        else:
            self.card.show_empty(lambda: self.tr("Every finding is applied. Press Ctrl+Enter to check the text again."))

    def _apply(self, chosen: list[Finding]) -> None:
        text = self.editor.toPlainText()
        cursor = QTextCursor(self.editor.document())
        self._editing = True
        cursor.beginEditBlock()
        try:
            for f in sorted(chosen, key=lambda f: -f.start):  # from the end: earlier offsets stay valid
                if text[f.start:f.end] != f.written:
                    continue
                fix = replacement_text(f, f.written)
                cursor.setPosition(utf16_position(text, f.start))
                cursor.setPosition(utf16_position(text, f.end), QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(fix)
                delta = len(fix) - (f.end - f.start)
                rest = [g for g in self.findings if g != f]
                self.findings = shift_after(rest, f.start, f.end, delta)
                self.notes = shift_after(self.notes, f.start, f.end, delta)
                text = text[: f.start] + fix + text[f.end:]
        finally:
            cursor.endEditBlock()
            self._editing = False
        self.shown_text = self.editor.toPlainText()
        self.shown_note = None
        self._refresh_lists()
        self._schedule_check()
        self._show_verdict()

    def corrected_text(self) -> str:
        """Return the editor's text with every open finding the checker is sure of applied."""
        return apply_findings(self.editor.toPlainText(), [f for f in self.findings if f.sure])

    def copy_corrected(self) -> None:
        """Copy the corrected text to the clipboard."""
        if self.result is None:
            return
        QGuiApplication.clipboard().setText(self.corrected_text())
        self.show_hint(self.tr("The corrected text is on the clipboard."), "copied")

    # -- the text box ------------------------------------------------------------------------------

    def clear(self) -> None:
        """Empty the box, the underlines, the lists and the card."""
        self.editor.clear()
        self._clear_findings()
        self.hide_hint()
        self._show_verdict()
        self.editor.setFocus()

    def show_hint(self, text: str, kind: str = "") -> None:
        """Show a short notice under the text box; `kind` names it for tests ('too_long', 'empty', …)."""
        self.hint_kind = kind
        self.hint.setText(text)
        self.hint.setAccessibleName(text)
        self.hint.show()

    def hide_hint(self) -> None:
        """Hide the notice under the text box."""
        self.hint.hide()
        self.hint_kind = ""

    def _on_text_changed(self, counter_only: bool = False) -> None:
        text = self.editor.toPlainText()
        count = len(text)
        self.counter.setText(self.tr("{0} / {1}").format(number(count), number(MAX_TEXT_CHARS)))
        self.counter.setAccessibleName(self.tr("{0} of {1} characters used").format(count, MAX_TEXT_CHARS))
        set_text_colour(self.counter, RED if count > MAX_TEXT_CHARS else GREY)
        if count > MAX_TEXT_CHARS:
            self.show_hint(self.tr(
                "The text is {0} characters long; I check up to {1} at a time. Nothing was cut: shorten it or"
                " check it in parts.").format(number(count), number(MAX_TEXT_CHARS)), "too_long")
        elif self.hint_kind == "too_long" or (count and self.hint_kind == "empty"):
            self.hide_hint()
        if not counter_only and not self._editing:
            self._follow_edit(text)
        if not counter_only and self.hint_kind in ("copied", "saved"):
            self.hide_hint()
        self._update_buttons()

    def _follow_edit(self, text: str) -> None:
        """The learner edited the text: move the underlines with it and check it again after a pause."""
        self.generation += 1
        if self.findings or self.notes:
            edit = Edit.between(self.shown_text, text)
            was = self.current_finding()
            moved = edit.remap([was], self.shown_text, text) if was is not None else []
            self.findings = edit.remap(self.findings, self.shown_text, text)
            self.notes = edit.remap(self.notes, self.shown_text, text)
            if self.shown_note is not None:
                kept = edit.remap([self.shown_note], self.shown_text, text)
                self.shown_note = kept[0] if kept else None
            self.shown_text = text
            self._refresh_lists()
            if moved:
                self._select_quietly(self.findings_model.findings.index(moved[0]))
            elif was is not None or not self.findings:
                self.card.show_empty()  # the word whose card was open has changed
        self.shown_text = text
        self._schedule_check()
        self._show_verdict()

    def _schedule_check(self) -> None:
        """(Re)start the typing pause after which the text is checked again."""
        if self.ready() and self.editor.toPlainText().strip():
            self.auto_check.start()
        else:
            self.auto_check.stop()

    def update_ready(self, *_args: Any) -> None:
        """Enable Check once the window's model is loaded (and check a text already typed)."""
        self._update_buttons()
        if self.ready() and self.result is None and self.editor.toPlainText().strip():
            self._schedule_check()

    def _update_buttons(self) -> None:
        text_ok = 0 < len(self.editor.toPlainText()) <= MAX_TEXT_CHARS
        self.check_button.setEnabled(self.ready() and not self.working and text_ok)
        has_result = self.result is not None
        self.copy_button.setEnabled(has_result)
        self.apply_button.setEnabled(self.current_finding() is not None)
        self.apply_all_button.setEnabled(any(f.sure for f in self.findings))
