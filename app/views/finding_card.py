"""The card of one finding in a text: written → correct form, chips, Spanish and the explanation.

A finding the checker is not sure of is asked as a question ("Did you mean *went*?"), never stated.
A note is shown neutrally: what the pattern is, with no praise and no fix.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.colours import AMBER, BLUE, GREEN, GREY, RED
from app.labels import person_label, tense_label
from app.translation import ui_is_spanish
from app.views.card import Chip, emphasised
from app.views.flow import FlowLayout
from app.views.panel import Panel, set_text_colour
from tutor.text.check import Finding, replacement_text
from tutor.text.notes import Note


def _label(parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # height follows width
    return label


class FindingCard(Panel):
    """Shows one Finding or Note; `kind` ('empty', 'error', 'question', 'note') names the face on show."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("findingCard")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # a keyboard user can reach it and hear it read
        self.finding: Finding | None = None
        self.note_item: Note | None = None
        self.empty_text: str | Callable[[], str] = ""
        self.kind = "empty"
        self.title = _label(self)
        self.change = _label(self)
        self.note = _label(self)
        self.chips_box = QWidget(self)
        self.chips = FlowLayout(self.chips_box)
        self.verb_chip, self.tense_chip, self.person_chip = Chip(), Chip(), Chip()
        for chip in (self.verb_chip, self.tense_chip, self.person_chip):
            self.chips.addWidget(chip)
        self.spanish = _label(self)
        self.explanation = _label(self)
        self.sentence = _label(self)
        self._scale_fonts()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        layout.setSpacing(8)
        for widget in (self.title, self.change, self.note, self.chips_box, self.spanish, self.explanation,
                       self.sentence):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.render()

    def changeEvent(self, event: QEvent) -> None:
        """Re-render on a language switch; keep the title larger than the (new) font."""
        if event.type() == QEvent.Type.LanguageChange:
            self.render()
        elif event.type() == QEvent.Type.FontChange:
            self._scale_fonts()
        super().changeEvent(event)

    def _scale_fonts(self) -> None:
        base = self.font()
        title = QFont(base)
        title.setPointSizeF(base.pointSizeF() * 1.35)
        title.setBold(True)
        self.title.setFont(title)
        change = QFont(base)
        change.setPointSizeF(base.pointSizeF() * 1.25)
        self.change.setFont(change)

    def show_finding(self, finding: Finding | None) -> None:
        """Show a finding (None: the empty face)."""
        self.finding, self.note_item = finding, None
        self.render()

    def show_note(self, note: Note) -> None:
        """Show a note."""
        self.finding, self.note_item = None, note
        self.render()

    def show_empty(self, text: str | Callable[[], str] = "") -> None:
        """Show the empty face with `text` ('' for the default hint); a callable is asked again at each render, so
        the text follows a language switch."""
        self.finding, self.note_item, self.empty_text = None, None, text
        self.render()

    def render(self) -> None:
        """Fill every label for what is on show, in the current language."""
        for widget in (self.change, self.note, self.chips_box, self.spanish, self.explanation, self.sentence):
            widget.hide()
        if self.finding is not None:
            self._render_finding(self.finding)
        elif self.note_item is not None:
            self._render_note(self.note_item)
        else:
            self.kind = "empty"
            self._title(escape(self.tr("Select an underlined word")), GREY)
            empty = self.empty_text() if callable(self.empty_text) else self.empty_text
            self._show(self.note, escape(empty) or self.tr(
                "Click an underlined word in your text, or pick a line in the list, to see why it is marked."))
        self.setAccessibleName(self.tr("Finding"))
        self.setAccessibleDescription(self.plain_text())

    def _render_finding(self, f: Finding) -> None:
        fix = replacement_text(f, f.written)
        percent = round(f.confidence * 100)
        if f.sure:
            self.kind = "error"
            self._title(escape(self.tr("Change {0} to {1}")).format(f"<i>{escape(f.written)}</i>",
                                                                  f"<i>{escape(fix)}</i>"), RED)
            self._show(self.change, f"<span style='color:{RED}; text-decoration:line-through'>{escape(f.written)}"
                                    f"</span> → <b style='color:{GREEN}'>{escape(fix)}</b>")
        else:
            self.kind = "question"
            self._title(escape(self.tr("Did you mean {0}?")).format(f"<i>{escape(fix)}</i>"), AMBER)
            self._show(self.change, f"<span style='color:{AMBER}'>{escape(f.written)}</span> → "
                                    f"<b style='color:{AMBER}'>{escape(fix)}</b>?")
            self._show(self.note, escape(self.tr(
                "I am not sure about this one (confidence {0} %). Read the sentence again, and change the word only"
                " if you agree; ask your teacher if you are unsure.").format(percent)))
        self.verb_chip.set_field(self.tr("Verb"), f.verb)
        self.tense_chip.set_field(self.tr("Tense"), tense_label(f.tense))
        self.person_chip.set_field(self.tr("Person"), person_label(f.person))
        self.chips_box.show()
        if f.spanish:
            self._show(self.spanish, self.tr("In Spanish: {0}").format(f"<b>{escape(f.spanish)}</b>"))
        explanation = f.explanation_es if ui_is_spanish() else f.explanation_en
        if explanation:
            self._show(self.explanation, emphasised(explanation))
        self._show(self.sentence, self.tr("In: {0}").format(f"<i>{escape(f.original.strip())}</i>"))
        self.setToolTip(self.tr("Confidence: {0} %").format(percent))

    def _render_note(self, n: Note) -> None:
        self.kind = "note"
        self._title(escape(self.tr("Note: {0}")).format(f"<i>{escape(n.written)}</i>"), BLUE)
        self._show(self.note, emphasised(n.message_es if ui_is_spanish() else n.message_en))
        self._show(self.sentence, escape(self.tr("I do not correct this pattern; it is here so you can look at it.")))
        self.setToolTip("")

    def _title(self, html: str, colour: str) -> None:
        self.title.setText(html)
        set_text_colour(self.title, colour)

    @staticmethod
    def _show(label: QLabel, html: str) -> None:
        label.setText(html)
        label.show()

    def plain_text(self) -> str:
        """Return what the card says as plain text (its accessible description)."""
        from PySide6.QtGui import QTextDocumentFragment

        parts = [QTextDocumentFragment.fromHtml(self.title.text()).toPlainText()]
        for label in (self.change, self.note, self.spanish, self.explanation, self.sentence):
            if not label.isHidden():
                parts.append(QTextDocumentFragment.fromHtml(label.text()).toPlainText())
        if not self.chips_box.isHidden():
            parts.append(" · ".join(c.accessibleName() for c in (self.verb_chip, self.tense_chip, self.person_chip)))
        return "\n".join(parts)
