"""Qt models over store queries (no SQL here: the store owns every query)."""

from __future__ import annotations

from datetime import date
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QDateTime,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimeZone,
    Signal,
)
from PySide6.QtGui import QColor

from app.labels import person_label, tense_label
from tutor.errors import StoreError

Index = QModelIndex | QPersistentModelIndex
ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class HistoryModel(QAbstractTableModel):
    """A learner's corrections (or everyone's), newest first, fetched from the store a page at a time."""

    PAGE = 100
    failed = Signal(object)  # a StoreError while reading

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store: Any = None
        self.learner: str | None = None
        self.all_learners = False
        self.filters: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []
        self.total = 0

    def columns(self) -> tuple[str, ...]:
        """Return the column keys on show (a learner column only when listing everyone)."""
        keys = ("created", "original", "verb", "tense", "person", "correct_form", "result")
        return ("learner", *keys) if self.all_learners else keys

    def set_query(
        self,
        store: Any,
        learner: str | None,
        *,
        all_learners: bool = False,
        verb: str | None = None,
        tense: str | None = None,
        person: str | None = None,
        since: date | None = None,
        until: date | None = None,
        search: str | None = None,
        only_mistakes: bool = False,
    ) -> None:
        """Show the corrections matching these filters; learner None with all_learners=False shows nothing."""
        self.store = store
        self.learner = learner
        self.all_learners = all_learners
        self.filters = {
            "verb": verb or None,
            "tense": tense or None,
            "person": person or None,
            "since": since,
            "until": until,
            "search": (search or "").strip() or None,
            "only_mistakes": only_mistakes,
        }
        self.refresh()

    def refresh(self) -> None:
        """Re-read the first page and the total count from the store."""
        self.beginResetModel()
        self.rows = []
        self.total = 0
        try:
            if self.store is not None and (self.learner or self.all_learners):
                who = None if self.all_learners else self.learner
                self.total = self.store.count_history(who, **self.filters)
                self.rows = self.store.history(who, limit=self.PAGE, offset=0, **self.filters)
        except StoreError as exc:
            self.rows, self.total = [], 0
            self.failed.emit(exc)
        finally:
            self.endResetModel()

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008 (Qt's default argument)
        """Return True while rows beyond the loaded pages exist."""
        return not parent.isValid() and len(self.rows) < self.total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        """Load the next page."""
        if parent.isValid() or self.store is None:
            return
        who = None if self.all_learners else self.learner
        try:
            page = self.store.history(who, limit=self.PAGE, offset=len(self.rows), **self.filters)
        except StoreError as exc:
            self.failed.emit(exc)
            return
        if not page:
            self.total = len(self.rows)
            return
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(page) - 1)
        self.rows.extend(page)
        self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of loaded rows."""
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(self.columns())

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return the translated column titles."""
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        titles = {
            "learner": self.tr("Learner"),
            "created": self.tr("When"),
            "original": self.tr("Sentence"),
            "verb": self.tr("Verb"),
            "tense": self.tr("Tense"),
            "person": self.tr("Person"),
            "correct_form": self.tr("Correct form"),
            "result": self.tr("Result"),
        }
        keys = self.columns()
        return titles[keys[section]] if 0 <= section < len(keys) else None

    def row(self, index: int) -> dict[str, Any]:
        """Return the store's dict for a row."""
        return self.rows[index]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return the cell text, tooltip, colour or the whole row (ROW_ROLE)."""
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        key = self.columns()[index.column()]
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, key)
        if role == Qt.ItemDataRole.ToolTipRole:
            if key == "original":
                return row["original"]
            if key == "result":
                return "\n".join(t for t in (row.get("explanation_es"), row.get("explanation_en")) if t) or None
            return None
        if role == Qt.ItemDataRole.ForegroundRole and key == "result":
            if row["out_of_scope"]:
                return QColor("#1f4f99")
            return QColor("#1b6e35") if row["is_correct"] else QColor("#b3261e")
        return None

    def _display(self, row: dict[str, Any], key: str) -> str:
        if key == "created":
            return local_time(row["created"])
        if key == "result":
            if row["out_of_scope"]:
                return self.tr("out of scope")
            return self.tr("correct") if row["is_correct"] else self.tr("mistake")
        if key == "tense":
            return tense_label(row.get("tense") or "")
        if key == "person":
            return person_label(row.get("person") or "")
        value = row.get(key)
        return "" if value is None else str(value)


def local_time(stamp: str) -> str:
    """Return a stored UTC timestamp as local 'yyyy-MM-dd HH:mm'."""
    moment = QDateTime.fromString(stamp.rstrip("Z")[:19], "yyyy-MM-ddTHH:mm:ss")
    if not moment.isValid():
        return stamp
    moment.setTimeZone(QTimeZone.utc())
    return moment.toLocalTime().toString("yyyy-MM-dd HH:mm")
