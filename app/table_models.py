"""Qt table models over store queries (no SQL here: the store owns every query; reads run off the GUI thread)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

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

from app.colours import AMBER, BLUE, GREEN, RED
from app.labels import person_label, tense_label
from app.translation import ui_is_spanish
from app.worker import STORE, Report, run_job
from tutor.record import BY_NAME, SHOWN

if TYPE_CHECKING:
    from tutor.store import Store

Index = QModelIndex | QPersistentModelIndex
ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class HistoryModel(QAbstractTableModel):
    """A learner's corrections (or everyone's), newest first, read from the store a page at a time.

    Every read runs on app.worker's STORE lane, never on the GUI thread: the rows on show stay until
    the new page arrives (`loaded`), and a read made stale by a newer query is dropped unseen.
    """

    PAGE = 100
    failed = Signal(object)  # a StoreError while reading
    loaded = Signal()  # a page (the first or the next) is on show

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store: Store | None = None
        self.learner: str | None = None
        self.all_learners = False
        self.filters: dict[str, Any] = {}
        self.rows: list[dict[str, Any]] = []
        self.total = 0
        self.loading = False  # a read of the current query is on its way
        self._query = 0  # bumped by every new query; a read of an older one is dropped

    def columns(self) -> tuple[str, ...]:
        """Return the keys of the record's fields on show (the learner only when listing everyone)."""
        return tuple(f.name for f in SHOWN if self.all_learners or f.name != "learner")

    def set_query(
        self,
        store: Store | None,
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
        """Show the corrections matching these filters; learner None with all_learners=False shows nothing.

        Another store or learner clears the table at once (one learner's rows never stay on show under
        another's name); other filters keep the rows on show until the new ones arrive.
        """
        other_source = (store, learner, all_learners) != (self.store, self.learner, self.all_learners)
        if other_source and self.rows:
            self.beginResetModel()
            self.rows, self.total = [], 0
            self.endResetModel()
        if all_learners != self.all_learners:
            self.beginResetModel()
            self.all_learners = all_learners  # the columns change with it
            self.endResetModel()
        self.store = store
        self.learner = learner
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

    def _who(self) -> str | None:
        return None if self.all_learners else self.learner

    def refresh(self) -> None:
        """Re-read the first page and the total count from the store, in the background."""
        self._query += 1
        query, store, who, filters = self._query, self.store, self._who(), dict(self.filters)
        if store is None or not (self.learner or self.all_learners):
            self.loading = False
            self._show_first([], 0)
            return
        self.loading = True

        def op(_: Report) -> tuple[list[dict[str, Any]], int]:
            total = store.count_history(who, **filters)
            return store.history(who, limit=self.PAGE, offset=0, **filters), total

        run_job(op, success=lambda page: self._current(query) and self._show_first(*page),
                failure=lambda exc: self._current(query) and self._failed(exc, clear=True),
                receiver=self, name="history", lane=STORE)

    def _current(self, query: int) -> bool:
        """Return True when `query` is still the one on show (its read may land); False drops it."""
        if query != self._query:
            return False
        self.loading = False
        return True

    def _show_first(self, rows: list[dict[str, Any]], total: int) -> None:
        self.beginResetModel()
        self.rows, self.total = rows, total
        self.endResetModel()
        self.loaded.emit()

    def _failed(self, exc: Exception, *, clear: bool) -> None:
        if clear:
            self.beginResetModel()
            self.rows, self.total = [], 0
            self.endResetModel()
        self.failed.emit(exc)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008 (Qt's default argument)
        """Return True while rows beyond the loaded pages exist (and no read is on its way)."""
        return not parent.isValid() and not self.loading and len(self.rows) < self.total

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        """Read the next page in the background; it is appended when it arrives."""
        if parent.isValid() or self.store is None or self.loading:
            return
        query, store, who, filters, offset = self._query, self.store, self._who(), dict(self.filters), len(self.rows)
        self.loading = True

        def op(_: Report) -> list[dict[str, Any]]:
            return store.history(who, limit=self.PAGE, offset=offset, **filters)

        run_job(op, success=lambda page: self._current(query) and self._append(page),
                failure=lambda exc: self._current(query) and self._failed(exc, clear=False),
                receiver=self, name="history page", lane=STORE)

    def _append(self, page: list[dict[str, Any]]) -> None:
        if not page:
            self.total = len(self.rows)
        else:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(page) - 1)
            self.rows.extend(page)
            self.endInsertRows()
        self.loaded.emit()

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
        keys = self.columns()
        if not 0 <= section < len(keys):
            return None
        english, spanish = BY_NAME[keys[section]].header  # the record holds both languages' titles
        return spanish if ui_is_spanish() else english

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
            if key == "is_correct":
                return "\n".join(t for t in (row.get("explanation_es"), row.get("explanation_en")) if t) or None
            return None
        if role == Qt.ItemDataRole.ForegroundRole and key == "is_correct":
            if row["out_of_scope"] or row.get("noted"):
                return QColor(BLUE)
            if row["not_sure"]:
                return QColor(AMBER)
            return QColor(GREEN) if row["is_correct"] else QColor(RED)
        return None

    def _display(self, row: dict[str, Any], key: str) -> str:
        if key == "created":
            return local_time(row["created"])
        if key == "is_correct":  # the verdict, which the other flags qualify
            if row.get("noted"):  # a note was shown: an error §A13 does not label, neither correct nor out of scope
                return self.tr("noted")
            if row["out_of_scope"]:
                return self.tr("out of scope")
            if row["not_sure"]:
                return self.tr("not sure")
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
