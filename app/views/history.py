"""The history table with its filters (verb, tense, person, dates, search) and "review my mistakes"."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from PySide6.QtCore import QDate, QEvent, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.labels import person_label, tense_label
from app.table_models import HistoryModel
from app.views.flow import FlowLayout
from tutor.scope import PERSONS, TENSES, load_scope

if TYPE_CHECKING:
    from tutor.store import Store


def _to_date(edit: QDateEdit) -> date:
    value = edit.date()
    return date(value.year(), value.month(), value.day())


class HistoryView(QWidget):
    """Filters over a HistoryModel; `review_requested` asks the window to re-ask the learner's mistakes."""

    review_requested = Signal()

    def __init__(self, parent: QWidget | None = None, *, with_review: bool = True) -> None:
        super().__init__(parent)
        self.store: Store | None = None
        self.learner: str | None = None
        self.all_learners = False
        self.model = HistoryModel(self)  # reads the store in the background; `loaded` when a page is on show

        self.verb_label, self.verb = QLabel(self), QComboBox(self)
        self.tense_label, self.tense = QLabel(self), QComboBox(self)
        self.person_label, self.person = QLabel(self), QComboBox(self)
        self.since_check, self.since = QCheckBox(self), QDateEdit(self)
        self.until_check, self.until = QCheckBox(self), QDateEdit(self)
        self.search_label, self.search = QLabel(self), QLineEdit(self)
        self.search.setClearButtonEnabled(True)
        for combo in (self.verb, self.tense, self.person):  # shrink to fit a small window with a large font
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        for label, combo in (
            (self.verb_label, self.verb),
            (self.tense_label, self.tense),
            (self.person_label, self.person),
        ):
            label.setBuddy(combo)
        self.search_label.setBuddy(self.search)
        today = QDate.currentDate()
        for check, edit, start in (
            (self.since_check, self.since, today.addDays(-30)),
            (self.until_check, self.until, today),
        ):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setDate(start)
            edit.setEnabled(False)
            check.toggled.connect(edit.setEnabled)
            check.toggled.connect(self.apply_filters)
            edit.dateChanged.connect(self.apply_filters)
        self.reset_button = QPushButton(self)
        self.review_button = QPushButton(self)
        self.review_button.setVisible(with_review)
        self.count = QLabel(self)
        self.count.setWordWrap(True)

        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.setTabKeyNavigation(False)  # Tab moves on to the next control, arrows move in the table
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self.model.modelReset.connect(self._after_reset)
        self.model.loaded.connect(self._update_count)

        # label + field pairs in a flow, so the filters wrap instead of widening a small window
        filters_box = QWidget(self)
        filters = FlowLayout(filters_box, spacing=12)
        for label, field in (
            (self.verb_label, self.verb),
            (self.tense_label, self.tense),
            (self.person_label, self.person),
            (self.since_check, self.since),
            (self.until_check, self.until),
        ):
            pair = QWidget(filters_box)
            pair_layout = QHBoxLayout(pair)
            pair_layout.setContentsMargins(0, 0, 0, 0)
            pair_layout.addWidget(label)
            pair_layout.addWidget(field)
            filters.addWidget(pair)
        search_row = QHBoxLayout()
        search_row.addWidget(self.search_label)
        search_row.addWidget(self.search, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.count, 1)
        bottom.addWidget(self.reset_button)
        bottom.addWidget(self.review_button)
        layout = QVBoxLayout(self)
        layout.addWidget(filters_box)
        layout.addLayout(search_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(250)
        self._search_timer.timeout.connect(self.apply_filters)
        self.search.textChanged.connect(self._search_timer.start)
        for combo in (self.verb, self.tense, self.person):
            combo.currentIndexChanged.connect(self.apply_filters)
        self.reset_button.clicked.connect(self.reset_filters)
        self.review_button.clicked.connect(self.review_requested)
        self._filling = False
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text (and the filter choices) in the current language."""
        self._filling = True
        try:
            self.verb_label.setText(self.tr("Ver&b:"))
            self.tense_label.setText(self.tr("Ten&se:"))
            self.person_label.setText(self.tr("Pe&rson:"))
            self.since_check.setText(self.tr("Fro&m:"))
            self.until_check.setText(self.tr("T&o:"))
            self.search_label.setText(self.tr("Sear&ch:"))
            self.search.setPlaceholderText(self.tr("Words from the sentence…"))
            self.since.setAccessibleName(self.tr("From date"))
            self.until.setAccessibleName(self.tr("To date"))
            self.reset_button.setText(self.tr("Show &all"))
            self.review_button.setText(self.tr("Review my mista&kes"))
            self.review_button.setToolTip(self.tr("Practise again the sentences you got wrong"))
            self.table.setAccessibleName(self.tr("Corrections, newest first"))
            self._fill(self.verb, self.tr("All verbs"), [(v, v) for v in load_scope().verbs])
            self._fill(self.tense, self.tr("All tenses"), [(t, tense_label(t)) for t in TENSES])
            self._fill(self.person, self.tr("All persons"), [(p, person_label(p)) for p in PERSONS])
        finally:
            self._filling = False
        self._update_count()
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, max(self.model.columnCount() - 1, 0))

    @staticmethod
    def _fill(combo: QComboBox, everything: str, items: list[tuple[str, str]]) -> None:
        current = combo.currentData()
        combo.clear()
        combo.addItem(everything, "")
        for value, text in items:
            combo.addItem(text, value)
        combo.setCurrentIndex(max(combo.findData(current), 0) if current else 0)

    def set_source(self, store: Store | None, learner: str | None, *, all_learners: bool = False) -> None:
        """Show `learner`'s corrections (or everyone's) from `store`; store None shows nothing."""
        self.store, self.learner, self.all_learners = store, learner, all_learners
        self.review_button.setEnabled(store is not None and bool(learner))
        self.apply_filters()

    def apply_filters(self) -> None:
        """Re-query the store with the filters on show (the table fills when the read arrives)."""
        if self._filling:
            return
        self.model.set_query(
            self.store,
            self.learner,
            all_learners=self.all_learners,
            verb=self.verb.currentData() or None,
            tense=self.tense.currentData() or None,
            person=self.person.currentData() or None,
            since=_to_date(self.since) if self.since_check.isChecked() else None,
            until=_to_date(self.until) if self.until_check.isChecked() else None,
            search=self.search.text(),
        )
        self._update_count()

    def reset_filters(self) -> None:
        """Clear every filter."""
        self._filling = True
        try:
            for combo in (self.verb, self.tense, self.person):
                combo.setCurrentIndex(0)
            self.since_check.setChecked(False)
            self.until_check.setChecked(False)
            self.search.clear()
            self._search_timer.stop()
        finally:
            self._filling = False
        self.apply_filters()

    def _after_reset(self) -> None:
        self.table.resizeColumnsToContents()
        sentence_column = self.model.columns().index("original")
        self.table.setColumnWidth(sentence_column, min(self.table.columnWidth(sentence_column), 320))
        self._update_count()

    def _update_count(self) -> None:
        total = self.model.total
        if self.store is None:
            text = self.tr("The history is not available.")
        elif self.model.loading and not self.model.rows:
            text = ""  # the first page is on its way: no "No corrections match." before it is known
        elif total == 0:
            text = self.tr("No corrections match.")
        else:
            text = self.tr("1 correction") if total == 1 else self.tr("{0} corrections").format(total)
        self.count.setText(text)
