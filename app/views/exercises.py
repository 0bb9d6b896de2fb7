"""The Exercises page (Ctrl+5): the learner's due practice cards, keyboard only, and their progress in charts.

Cards come from tutor.practice (built from the learner's saved mistakes and the §A13 table); every read and
write runs on app.worker's STORE lane. Enter checks the answer; Enter again, or F8, shows the next card.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, QEvent, QLocale, Qt, QTime, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.colours import RED
from app.errors import describe
from app.labels import error_type_label, person_label, tense_label, week_label
from app.translation import ui_is_spanish
from app.views.panel import Panel, set_text_colour
from app.views.pixmap_charts import MASTERED, ChartLabel, bar_chart, cell_grid, line_chart
from app.worker import STORE, Report, run_job
from tutor.practice.cards import MISTAKE, OTHER_PERSON, WRITTEN
from tutor.practice.schedule import parse_stamp

if TYPE_CHECKING:
    from app.context import ViewContext


def chart_width(widget: QWidget) -> int:
    """Return the width charts are painted at: 80 x-widths of the widget's font."""
    return widget.fontMetrics().horizontalAdvance("x") * 80


class ProgressView(QWidget):
    """Charts of one learner's progress (or the class's): errors per 100 words by week, by error type, and
    by §A13 cell with what is mastered; `show_progress` takes tutor.practice.progress()'s dict."""

    def __init__(self, parent: QWidget | None = None, *, per_learner: bool = True) -> None:
        super().__init__(parent)
        self.per_learner = per_learner
        self.report: dict[str, Any] | None = None
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.rate_chart = ChartLabel(self)
        self.type_chart = ChartLabel(self)
        self.cell_chart = ChartLabel(self)
        self.trouble = QLabel(self)
        self.trouble.setWordWrap(True)
        self.trouble.setTextFormat(Qt.TextFormat.RichText)
        self.mastered = QLabel(self)
        self.mastered.setWordWrap(True)
        inner = QWidget(self)
        layout = QVBoxLayout(inner)
        for widget in (self.summary, self.rate_chart, self.type_chart, self.cell_chart, self.trouble, self.mastered):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.scroll = QScrollArea(self)
        self.scroll.setWidget(inner)
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll)
        self.show_progress(None)

    def changeEvent(self, event: QEvent) -> None:
        """Redraw in the new language or font."""
        if event.type() in (QEvent.Type.LanguageChange, QEvent.Type.FontChange):
            self.show_progress(self.report)
        super().changeEvent(event)

    def show_progress(self, report: dict[str, Any] | None) -> None:
        """Draw the charts of a progress report (None: nothing yet)."""
        self.report = report
        report = report or {"weeks": [], "error_types": {}, "cells": [], "mastered": [], "trouble": [],
                            "practice": {"cards": 0, "due": 0, "answers": 0, "right": 0}}
        width, font, text = chart_width(self), self.font(), self.palette().windowText().color()
        practice = report["practice"]
        self.summary.setText(self.tr(
            "{0} exercise cards, {1} due now · {2} answers, {3} right · {4} cells mastered.").format(
            practice["cards"], practice["due"], practice["answers"], practice["right"], len(report["mastered"])))
        points = [(week_label(w["week"]), w["per_100_words"]) for w in report["weeks"]]
        title = self.tr("Errors per 100 words, by week")
        self.rate_chart.show_chart(
            line_chart(title, points, font=font, width=width, text=text, empty=self.tr("Nothing written yet.")),
            title, "; ".join(self.tr("week of {0}: {1} errors in {2} words").format(
                week_label(w["week"]), w["errors"], w["words"]) for w in report["weeks"])
            or self.tr("Nothing written yet."))
        rows = [(error_type_label(k), float(v)) for k, v in report["error_types"].items()]
        title = self.tr("Errors by type")
        self.type_chart.show_chart(
            bar_chart(title, rows, font=font, width=width, text=text, empty=self.tr("No mistakes yet.")),
            title, "; ".join(f"{label}: {value:.0f}" for label, value in rows) or self.tr("No mistakes yet."))
        self._show_cells(report, width, font, text)
        self._show_trouble(report["trouble"])
        names = [self._cell_name(c) for c in report["mastered"]]
        self.mastered.setText(self.tr("Mastered: {0}").format(", ".join(names)) if names else self.tr(
            "Nothing mastered yet: a cell is mastered once every card of it has been answered right on several "
            "days in a row."))

    def _show_cells(self, report: dict[str, Any], width: int, font: QFont, text: Any) -> None:
        from tutor.scope import load_scope

        scope = load_scope()
        values: dict[tuple[int, int], float] = {}
        mastered: set[tuple[int, int]] = set()
        unmastered: set[tuple[int, int]] = set()  # a verb × tense is ticked only when all its persons are
        for cell in report["cells"]:
            key = (scope.verbs.index(cell["verb"]), scope.tenses.index(cell["tense"]))
            values[key] = values.get(key, 0.0) + cell["errors"] + cell["wrong"]
            (mastered if cell["mastered"] else unmastered).add(key)
        mastered -= unmastered
        values = {key: value for key, value in values.items() if value or key in mastered}
        used = sorted({r for r, _ in values})
        rows = [scope.verbs[r] for r in used]
        remap = {old: new for new, old in enumerate(used)}
        title = self.tr("Mistakes and wrong answers by verb and tense")
        if not rows:
            self.cell_chart.show_chart(bar_chart(title, [], font=font, width=width, text=text,
                                                 empty=self.tr("No mistakes yet.")), title, self.tr("No mistakes yet."))
            return
        grid = cell_grid(title, rows, [tense_label(t) for t in scope.tenses],
                         {(remap[r], c): v for (r, c), v in values.items()},
                         {(remap[r], c) for r, c in mastered}, font=font, width=width, text=text,
                         legend=self.tr("Darker: more mistakes in writing and wrong answers in the exercises. "
                                        "✓ mastered."))
        summary = "; ".join(self.tr("{0}, {1}: {2}").format(scope.verbs[r], tense_label(scope.tenses[c]), int(v))
                            for (r, c), v in sorted(values.items()))
        self.cell_chart.show_chart(grid, title, summary)

    def _show_trouble(self, trouble: list[dict[str, Any]]) -> None:
        if not trouble:
            self.trouble.setText(self.tr("No cell keeps going wrong."))
            return
        heading = (self.tr("Cells the class keeps getting wrong") if not self.per_learner
                   else self.tr("Cells that keep going wrong"))
        head = (f"<tr><th align='left'>{escape(self.tr('cell'))}</th><th>{escape(self.tr('mistakes'))}</th>"
                f"<th>{escape(self.tr('wrong answers'))}</th><th>{escape(self.tr('right answers'))}</th>"
                + (f"<th>{escape(self.tr('learners'))}</th>" if not self.per_learner else "") + "</tr>")
        body = "".join(
            f"<tr><td>{escape(self._cell_name(c))}</td><td align='center'>{c['errors']}</td>"
            f"<td align='center'>{c['wrong']}</td><td align='center'>{c['right']}</td>"
            + (f"<td align='center'>{c['learners']}</td>" if not self.per_learner else "") + "</tr>"
            for c in trouble[:10])
        self.trouble.setText(f"<b>{escape(heading)}</b><table cellspacing='0' cellpadding='4'>{head}{body}</table>")
        self.trouble.setAccessibleName(heading)

    def _cell_name(self, cell: dict[str, Any]) -> str:
        return f"{cell['verb']} · {tense_label(cell['tense'])} · {person_label(cell['person'])}"


class ExercisesView(QWidget):
    """Due cards one at a time (Enter checks, Enter again or F8 goes on) and the learner's progress."""

    answered = Signal(dict)  # what Practice.answer returned, after the feedback is shown
    loaded = Signal(int)  # how many cards are due, after the list is read
    failed = Signal(str)

    def __init__(self, context: ViewContext, parent: QWidget | None = None) -> None:
        """`context` is all it uses of the window: the store to read and write practice in, the learner, the
        message banners. The window places the page and its `show_action` (View → Exercises)."""
        super().__init__(parent)
        self.store = context.store
        self.learner = ""
        self.due: list[dict[str, Any]] = []
        self.total_due = 0
        self.current: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.busy = False
        self.daily = False  # the gentler schedule (Settings): a right answer comes back after a day or more
        self._reading = 0
        self.show_action = QAction(self)  # View → Exercises; the window gives it its shortcut and its place
        context.learner_changed.connect(self.set_learner)
        self.failed.connect(lambda text: context.messages.show_message(text, key="practice"))

        self.tabs = QTabWidget(self)
        cards = QWidget(self.tabs)
        self.count = QLabel(cards)
        self.origin = QLabel(cards)
        self.origin.setWordWrap(True)
        set_text_colour(self.origin, "#555")
        self.card = Panel(cards, radius=6)
        self.card.set_colours("#f7f9fc", "#b9c7dd")
        self.prompt = QLabel(self.card)
        self.prompt.setWordWrap(True)
        self.prompt.setTextFormat(Qt.TextFormat.RichText)
        self.prompt.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard
                                            | Qt.TextInteractionFlag.TextSelectableByMouse)
        self.cell = QLabel(self.card)
        set_text_colour(self.cell, "#555")
        card_layout = QVBoxLayout(self.card)
        card_layout.setContentsMargins(16, 14, 16, 14)
        card_layout.addWidget(self.prompt)
        card_layout.addWidget(self.cell)
        self.answer_label = QLabel(cards)
        self.answer = QLineEdit(cards)
        self.answer.setMaxLength(60)
        self.answer_label.setBuddy(self.answer)
        self.check_button = QPushButton(cards)
        self.next_button = QPushButton(cards)
        self.feedback = QLabel(cards)
        self.feedback.setWordWrap(True)
        self.feedback.setTextFormat(Qt.TextFormat.RichText)
        self.empty = QLabel(cards)
        self.empty.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.answer_label)
        row.addWidget(self.answer, 1)
        row.addWidget(self.check_button)
        row.addWidget(self.next_button)
        layout = QVBoxLayout(cards)
        layout.addWidget(self.count)
        layout.addWidget(self.origin)
        layout.addWidget(self.card)
        layout.addLayout(row)
        layout.addWidget(self.feedback)
        layout.addWidget(self.empty)
        layout.addStretch(1)
        self.progress = ProgressView(self.tabs)
        self.tabs.addTab(cards, "")
        self.tabs.addTab(self.progress, "")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.tabs)

        self.next_action = QAction(self)
        self.next_action.setShortcut(QKeySequence("F8"))  # as on the Text page: F8 goes to the next one
        self.next_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)  # only on this page
        self.next_action.triggered.connect(self.next_card)
        self.addAction(self.next_action)
        self.answer.returnPressed.connect(self.enter)
        self.check_button.clicked.connect(self.check)
        self.next_button.clicked.connect(self.next_card)
        self.tabs.currentChanged.connect(lambda _: self.refresh_progress() if self.tabs.currentIndex() == 1 else None)
        self.setTabOrder(self.answer, self.check_button)
        self.setTabOrder(self.check_button, self.next_button)
        self.retranslate()
        self._show_card()

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text in the current language."""
        self.tabs.setTabText(0, self.tr("Due cards"))
        self.tabs.setTabText(1, self.tr("My progress"))
        self.answer_label.setText(self.tr("&Answer:"))
        self.answer.setAccessibleName(self.tr("Answer"))
        self.answer.setAccessibleDescription(self.tr(
            "Type the verb form that fills the gap and press Enter. Press Enter again, or F8, for the next card."))
        self.answer.setPlaceholderText(self.tr("the verb form that fills the gap"))
        self.check_button.setText(self.tr("Chec&k"))
        self.check_button.setToolTip(self.tr("Check the answer (Enter)"))
        self.next_button.setText(self.tr("Next car&d"))
        self.next_button.setToolTip(self.tr("Show the next due card (Enter after checking, or F8)"))
        self.prompt.setAccessibleName(self.tr("Sentence with a gap"))
        self.feedback.setAccessibleName(self.tr("Result"))
        self.show_action.setText(self.tr("Exercise&s: practise my mistakes"))
        self._show_card()

    def title(self) -> str:
        """Return the page's name in the current language (its tab)."""
        return self.tr("Exercise&s")

    # -- loading -----------------------------------------------------------------------------------

    def set_learner(self, name: str) -> None:
        """Show this learner's cards ('' for none)."""
        self.learner = name
        self.due, self.current, self.result = [], None, None
        self.progress.show_progress(None)
        self.reload()

    def reload(self) -> None:
        """Build cards for new mistakes and read the due list in the background, then show the first card."""
        store, learner = self.store(), self.learner
        self._reading += 1
        reading = self._reading
        if store is None or not learner:
            self.due, self.total_due = [], 0
            self._show_card()
            return

        def op(_: Report) -> tuple[list[dict[str, Any]], int]:
            from tutor.practice import Practice

            practice = Practice(store)
            return practice.due(learner, limit=50), practice.count_due(learner)

        def done(value: tuple[list[dict[str, Any]], int]) -> None:
            if reading != self._reading:
                return  # another learner was chosen meanwhile
            self.due, self.total_due = value
            shown = self.current["id"] if self.current is not None else None
            same = [c for c in self.due if c["id"] == shown]
            if same and self.result is None:  # the card on show is still due: keep it, and what was typed
                self.due = same + [c for c in self.due if c["id"] != shown]
                self.current = same[0]
            elif not same or self.result is None:
                self.result = None
                self.current = self.due[0] if self.due else None
                self._show_card()
            self.loaded.emit(self.total_due)

        run_job(op, success=done, failure=self._on_failure, receiver=self, name="practice cards", lane=STORE)

    def refresh_progress(self) -> None:
        """Read the learner's progress in the background and draw it."""
        store, learner = self.store(), self.learner
        if store is None or not learner:
            self.progress.show_progress(None)
            return

        def op(_: Report) -> dict[str, Any]:
            from tutor.practice import progress

            return progress(store, learner)

        run_job(op, success=self.progress.show_progress, failure=self._on_failure, receiver=self,
                name="practice progress", lane=STORE)

    # -- answering ---------------------------------------------------------------------------------

    def enter(self) -> None:
        """Enter: check the answer, or go to the next card once it is checked."""
        if self.result is not None:
            self.next_card()
        else:
            self.check()

    def check(self) -> None:
        """Grade the typed answer in the background (empty: say so, nothing is graded)."""
        store, card, learner, daily = self.store(), self.current, self.learner, self.daily
        if card is None or store is None or self.busy or self.result is not None:
            return
        given = self.answer.text().strip()
        if not given:
            self.feedback.setText(escape(self.tr("Type the verb form that fills the gap first.")))
            return
        self.busy = True

        def op(_: Report) -> dict[str, Any]:
            from tutor.practice import Practice

            return Practice(store, daily=daily).answer(learner, card["id"], given)

        def done(result: dict[str, Any]) -> None:
            self.busy = False
            if self.current is None or card["id"] != self.current["id"]:
                return  # the list was read again meanwhile and shows another card
            self.result = result
            self._show_result(result)
            self.answered.emit(result)

        def failed(exc: Exception) -> None:
            self.busy = False
            self._on_failure(exc)

        run_job(op, success=done, failure=failed, receiver=self, name="practice answer", lane=STORE)

    def next_card(self) -> None:
        """Show the next due card; a card answered wrong comes back after the others."""
        if self.current is None:
            self.reload()
            return
        answered = self.current
        self.due = [c for c in self.due if c["id"] != answered["id"]]
        if self.result is None or self.result["still_due"]:
            self.due.append(answered)  # skipped, or a wrong answer keeps it due: it comes round again
        else:
            self.total_due = max(self.total_due - 1, 0)
        self.result = None
        self.current = self.due[0] if self.due else None
        self._show_card()
        if self.current is None:
            self.reload()

    # -- drawing -----------------------------------------------------------------------------------

    def _show_card(self) -> None:
        card = self.current
        has_card = card is not None
        for widget in (self.card, self.answer, self.answer_label, self.check_button, self.origin):
            widget.setVisible(has_card)
        self.next_button.setVisible(has_card)
        self.empty.setVisible(not has_card)
        self.feedback.clear()
        if not has_card:
            self.count.setText("")
            self.empty.setText(self.tr("No cards due. Correct some sentences or check a text: every mistake becomes "
                                       "cards to practise here.") if self.learner else
                               self.tr("Choose a learner to practise their mistakes."))
            return
        self.count.setText(self.tr("{0} cards due").format(max(self.total_due, len(self.due))))
        origin = {MISTAKE: self.tr("From a sentence you wrote."),
                  OTHER_PERSON: self.tr("The same verb with another person.")}.get(
            card["origin"], self.tr("The same tense with another verb."))
        self.origin.setText(origin)
        hint = card["hint"] if card["hint_kind"] != WRITTEN else self.tr("you wrote {0}").format(card["hint"])
        big = self.font().pointSizeF() * 1.35
        self.prompt.setText(
            f"<span style='font-size:{big:.1f}pt'>{escape(card['before'])}<b><u>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;"
            f"</u></b> <i>({escape(hint)})</i>{escape(card['after'])}</span>")
        self.prompt.setAccessibleDescription(card["prompt"])
        cell = card["cell"]
        self.cell.setText(f"{cell['verb']} · {tense_label(cell['tense'])} · {person_label(cell['person'])}")
        self.answer.setReadOnly(False)
        self.answer.clear()
        self.check_button.setEnabled(True)
        self.next_button.setEnabled(len(self.due) > 1)
        self.answer.setFocus()

    def _show_result(self, result: dict[str, Any]) -> None:
        first, second = ((result["explanation_es"], result["explanation_en"]) if ui_is_spanish()
                         else (result["explanation_en"], result["explanation_es"]))
        if result["correct"]:
            verdict = (f"<b style='color:{MASTERED.name()}'>{escape(self.tr('Right!'))}</b> {escape(result['answer'])}"
                       f" · {escape(self.comes_back(parse_stamp(result['due']), datetime.now(UTC)))}")
        else:
            verdict = (f"<b style='color:{RED}'>{escape(self.tr('Not quite.'))}</b> " + escape(self.tr(
                "The answer is {0} (you wrote {1}). This card stays due and comes back.").format(
                result["answer"], result["given"])))
        self.feedback.setText(f"{verdict}<br>{_emphasis(first)}<br><span style='color:#555'>{_emphasis(second)}"
                              "</span><br><span style='color:#555'>"
                              + escape(self.tr("Press Enter for the next card.")) + "</span>")
        self.feedback.setAccessibleDescription(self.feedback.text())
        self.answer.setReadOnly(True)
        self.check_button.setEnabled(False)
        self.next_button.setEnabled(True)
        self.answer.setFocus()

    def comes_back(self, due: datetime, now: datetime) -> str:
        """Return when a card due at `due` (aware) comes back, in words, seen from `now` in local time."""
        minutes = round((due - now).total_seconds() / 60)
        if minutes <= 0:
            return self.tr("Back now")
        if minutes == 1:
            return self.tr("Back in 1 minute")
        if minutes < 60:
            return self.tr("Back in {0} minutes").format(minutes)
        here, then = now.astimezone(), due.astimezone()
        days = (then.date() - here.date()).days
        if days == 0:
            time = QLocale().toString(QTime(then.hour, then.minute), QLocale.FormatType.ShortFormat)
            return self.tr("Back today at {0}").format(time)
        if days == 1:
            return self.tr("Back tomorrow")
        date = QDate(then.year, then.month, then.day)
        pattern = self.tr("d MMMM") if then.year == here.year else self.tr("d MMMM yyyy")
        return self.tr("Back on {0}").format(QLocale().toString(date, pattern))

    def _on_failure(self, exc: Exception) -> None:
        self.failed.emit(describe(exc, self.tr("reading the exercise cards")))


def _emphasis(text: str) -> str:
    """Return an explanation with its *form* marks as italics, the rest escaped."""
    parts = escape(text).split("*")
    return "".join(f"<i>{p}</i>" if i % 2 else p for i, p in enumerate(parts))
