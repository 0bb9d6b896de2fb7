"""The result card: the sentence with the wrong verb struck through, chips, Spanish and explanations."""

from __future__ import annotations

import re
from html import escape

from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.colours import AMBER, BLUE, GREEN, GREY, RED
from app.labels import person_label, tense_label
from app.translation import ui_is_spanish
from app.views.flow import FlowLayout
from app.views.panel import Panel, set_text_colour
from tutor.result import PLURAL_SUBJECT, CorrectionResult
from tutor.scope import load_scope
from tutor.text.notes import Note, notes_for
from tutor.tutoring import shown_as_note

_EMPHASIS = re.compile(r"\*([^*\n]+)\*")


def emphasised(text: str) -> str:
    """Return plain text as HTML, with the explanations' *word* marks shown in bold italics."""
    return _EMPHASIS.sub(r"<b><i>\1</i></b>", escape(text))


def _label(parent: QWidget, *, rich: bool = True) -> QLabel:
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return label


class Chip(QLabel):
    """A small rounded label naming one field of the answer (verb, tense or person)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setContentsMargins(10, 2, 10, 2)
        set_text_colour(self, "#1d2a3a")

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the rounded background, then the text."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#b8c4d6"), 1))
        painter.setBrush(QColor("#eef2f8"))
        radius = self.height() / 2
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.end()
        super().paintEvent(event)

    def set_field(self, name: str, value: str) -> None:
        """Show `value`; screen readers hear 'name: value'."""
        self.setText(value)
        self.setAccessibleName(f"{name}: {value}")
        self.setToolTip(name)


def marked_sentence(result: CorrectionResult, *, sure: bool) -> str:
    """Return the sentence as HTML: the wrong span struck through, the correct form in bold beside it."""
    original = result.original
    start, end = result.error_start, result.error_end
    correct_form = str(result.output.get("correct_form", ""))
    has_span = start is not None and end is not None and 0 <= start < end <= len(original)
    if not has_span:
        if result.is_correct or result.out_of_scope or not correct_form:
            return escape(original)
        return f"{escape(original)} → <b style='color:{GREEN}'>{escape(correct_form)}</b>"
    before, span, after = original[:start], original[start:end], original[end:]
    if result.is_correct:
        middle = f"<b style='color:{GREEN}'>{escape(span)}</b>"
    else:
        fix_colour = GREEN if sure else AMBER
        middle = (
            f"<span style='color:{RED}; text-decoration:line-through'>{escape(span)}</span>"
            f" <b style='color:{fix_colour}'>{escape(correct_form)}</b>"
        )
    return f"{escape(before)}{middle}{escape(after)}"


class ResultCard(Panel):
    """Shows one CorrectionResult; `kind` says which face is on show, for tests and screen readers."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultCard")
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # so a keyboard user can reach it and hear it read
        self.result: CorrectionResult | None = None
        self.sure = True  # the Judge's decision on the result's confidence (tutor.judge.judge.Judge.is_sure)
        self.kind = "empty"
        self.title = _label(self, rich=False)
        self.note = _label(self)
        self.sentence = _label(self)
        self._scale_fonts()
        self.chips_box = QWidget(self)
        self.chips = FlowLayout(self.chips_box)
        self.verb_chip, self.tense_chip, self.person_chip = Chip(), Chip(), Chip()
        for chip in (self.verb_chip, self.tense_chip, self.person_chip):
            self.chips.addWidget(chip)
        self.spanish = _label(self)
        self.explanation_es = _label(self)
        self.explanation_en = _label(self)
        self.verbs = _label(self)
        self.notes = _label(self)  # neutral notes on patterns §A13 does not label (as in the Text tab)
        self.others = _label(self)  # the sentence's other findings, beneath the first
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        layout.setSpacing(10)
        for widget in (
            self.title,
            self.sentence,
            self.note,
            self.chips_box,
            self.spanish,
            self.explanation_es,
            self.explanation_en,
            self.others,
            self.verbs,
            self.notes,
        ):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.render()

    def changeEvent(self, event: QEvent) -> None:
        """Re-render on a language switch; keep the title and sentence larger than the (new) font."""
        if event.type() == QEvent.Type.LanguageChange:
            self.render()
        elif event.type() == QEvent.Type.FontChange:
            self._scale_fonts()
        super().changeEvent(event)

    def _scale_fonts(self) -> None:
        base = self.font()
        title = QFont(base)
        title.setPointSizeF(base.pointSizeF() * 1.5)
        title.setBold(True)
        self.title.setFont(title)
        sentence = QFont(base)
        sentence.setPointSizeF(base.pointSizeF() * 1.3)
        self.sentence.setFont(sentence)

    def show_result(self, result: CorrectionResult | None, *, sure: bool | None = None) -> None:
        """Show a correction (None shows the empty hint); `sure` is the Judge's decision on its confidence
        (False: shown as a question), which the card never makes itself."""
        if result is not None and sure is None:
            raise TypeError("show_result needs sure=…: the Judge decides it (Tutoring.is_sure(result))")
        self.result = result
        self.sure = bool(sure) if result is not None else True
        self.render()

    def render(self) -> None:
        """Fill every label for the current result and language."""
        result = self.result
        for widget in (
            self.note,
            self.sentence,
            self.chips_box,
            self.spanish,
            self.explanation_es,
            self.explanation_en,
            self.verbs,
            self.notes,
            self.others,
        ):
            widget.hide()
        notes = notes_for(result.original) if result is not None else []
        if result is None:
            self.kind = "empty"
            self._title(self.tr("Your correction appears here"), GREY)
            self._show(self.note, self.tr("Type an English sentence above and press Ctrl+Enter."))
        elif result.noted or shown_as_note(result, notes):
            self._render_notes(result, notes)
        elif result.out_of_scope:
            self._render_out_of_scope(result)
            self._show_notes(notes)
        else:
            self._render_answer(result)
            self._show_notes(notes)
        self.setAccessibleName(self.tr("Result"))
        self.setAccessibleDescription(self.plain_text())

    def _render_notes(self, result: CorrectionResult, notes: list[Note]) -> None:
        """The neutral face: what the pattern is, no praise and no fix."""
        self.kind = "note"
        self._title(self.tr("Note: {0}").format(notes[0].written), BLUE)
        self._show(self.sentence, escape(result.original))
        self._show(self.note, self._note_messages(notes))
        self._show(self.verbs, escape(self.tr("I do not correct this pattern; it is here so you can look at it.")))

    def _show_notes(self, notes: list[Note]) -> None:
        if notes:
            self._show(self.notes, self._note_messages(notes))

    @staticmethod
    def _note_messages(notes: list[Note]) -> str:
        return "<br>".join(emphasised(n.message_es if ui_is_spanish() else n.message_en) for n in notes)

    def _render_out_of_scope(self, result: CorrectionResult) -> None:
        self.kind = "out_of_scope"
        if result.out_of_scope_reason == PLURAL_SUBJECT:
            self._render_plural_subject(result)
            return
        self._title(self.tr("That verb is not on my list yet"), BLUE)
        self._show(self.sentence, escape(result.original))
        self._show(
            self.note,
            self.tr(
                "I only correct 20 verbs, and the verb to fix in this sentence is not one of them, so I"
                " would rather not guess. Try a sentence with one of these verbs:"
            ),
        )
        verbs = ", ".join(load_scope().verbs)
        self._show(self.verbs, f"<b>{escape(verbs)}</b>")

    def _render_plural_subject(self, result: CorrectionResult) -> None:
        """The verb is one of the 20, but its subject is plural: say so (tutor.a13.explain.explain_abstention)."""
        self._title(self.tr("I only check singular subjects"), BLUE)
        self._show(self.sentence, escape(result.original))
        if result.explanation_es:
            self._show(self.explanation_es, f"<b>ES</b>&nbsp; {emphasised(result.explanation_es)}")
        if result.explanation_en:
            self._show(self.explanation_en, f"<b>EN</b>&nbsp; {emphasised(result.explanation_en)}")

    def _render_answer(self, result: CorrectionResult) -> None:
        output = result.output
        sure = self.sure
        percent = round(result.confidence * 100)
        if not sure:
            self.kind = "not_sure"
            self._title(self.tr("Not sure"), AMBER)
            self._show(
                self.note,
                self.tr(
                    "I am not sure about this sentence (confidence {0} %). Here is my best guess;"
                    " please check it with your teacher before you learn from it."
                ).format(percent),
            )
        elif result.is_correct:
            self.kind = "correct"
            self._title(self.tr("Correct!"), GREEN)
            self._show(self.note, self.tr("The verb I can check here, “{0}”, is right.").format(
                escape(str(output.get("correct_form", "")))))
        else:
            self.kind = "error"
            self._title(self.tr("Let's fix the verb"), RED)
        self._show(self.sentence, marked_sentence(result, sure=sure))
        verb, tense, person = (
            str(output.get("verb", "")),
            str(output.get("tense", "")),
            str(output.get("person", "")),
        )
        self.verb_chip.set_field(self.tr("Verb"), verb)
        self.tense_chip.set_field(self.tr("Tense"), tense_label(tense))
        self.person_chip.set_field(self.tr("Person"), person_label(person))
        self.chips_box.show()
        spanish = str(output.get("spanish", ""))
        if spanish:
            self._show(self.spanish, self.tr("In Spanish: {0}").format(f"<b>{escape(spanish)}</b>"))
        if result.explanation_es:
            self._show(self.explanation_es, f"<b>ES</b>&nbsp; {emphasised(result.explanation_es)}")
        if result.explanation_en:
            self._show(self.explanation_en, f"<b>EN</b>&nbsp; {emphasised(result.explanation_en)}")
        if sure:
            self.note.setToolTip(self.tr("Confidence: {0} %").format(percent))
        self._show_others(result.others)

    def _show_others(self, others: tuple[CorrectionResult, ...]) -> None:
        """List the sentence's other findings beneath the first: the word, its fix, its cell and explanation."""
        if not others:
            return
        lines = [f"<b>{escape(self.tr('Also in this sentence:'))}</b>"]
        for other in others:
            out = other.output
            cell = f"{tense_label(str(out.get('tense', '')))}, {person_label(str(out.get('person', '')))}"
            fix = (f"<s>{escape(other.error_span or '')}</s> → <b>{escape(str(out.get('correct_form', '')))}</b>"
                   f" ({escape(cell)})")
            if other.not_sure:
                fix += " — " + escape(self.tr("not sure ({0} %): check it with your teacher").format(
                    round(other.confidence * 100)))
            why = other.explanation_es if ui_is_spanish() else other.explanation_en
            lines.append(f"• {fix}" + (f"<br>&nbsp;&nbsp;{emphasised(why)}" if why else ""))
        self._show(self.others, "<br>".join(lines))

    def _title(self, text: str, colour: str) -> None:
        self.title.setText(text)
        set_text_colour(self.title, colour)

    @staticmethod
    def _show(label: QLabel, html: str) -> None:
        label.setText(html)
        label.show()

    def plain_text(self) -> str:
        """Return what the card says as plain text (its accessible description)."""
        parts = [self.title.text()]
        for label in (
            self.note,
            self.sentence,
            self.spanish,
            self.explanation_es,
            self.explanation_en,
            self.others,
            self.verbs,
            self.notes,
        ):
            if not label.isHidden():
                parts.append(_strip_html(label.text()))
        if not self.chips_box.isHidden():
            parts.append(
                " · ".join(chip.accessibleName() for chip in (self.verb_chip, self.tense_chip, self.person_chip))
            )
        return "\n".join(parts)


def _strip_html(html: str) -> str:
    from PySide6.QtGui import QTextDocumentFragment

    return QTextDocumentFragment.fromHtml(html).toPlainText()
