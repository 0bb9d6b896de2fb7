"""The findings and notes of a text check as Qt list models, and the offset arithmetic behind Apply.

A finding's `start`/`end` are Python string indices into the text; Qt's text cursor counts UTF-16
code units, so an emoji before a word shifts the two apart. `utf16_position` converts.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from app.colours import AMBER, BLUE, RED
from tutor.text.check import Finding, replacement_text
from tutor.text.notes import Note

Index = QModelIndex | QPersistentModelIndex


def utf16_position(text: str, index: int) -> int:
    """Return the QTextCursor position of the Python index `index` in `text` (UTF-16 code units)."""
    return len(text[:index].encode("utf-16-le")) // 2


def python_index(text: str, position: int) -> int:
    """Return the Python index in `text` of the QTextCursor position `position` (UTF-16 code units)."""
    units = 0
    for k, char in enumerate(text):
        if units >= position:
            return k
        units += 2 if ord(char) > 0xFFFF else 1
    return len(text)


def shift_after(items: list[Any], start: int, end: int, delta: int) -> list[Any]:
    """Return the spans after an edit of text[start:end] that changed its length by `delta`.

    Spans wholly after the edit move by `delta`, spans before it stay, and any span overlapping it is
    dropped: what it pointed at is gone.
    """
    kept = []
    for item in items:
        if item.start >= end:
            kept.append(replace(item, start=item.start + delta, end=item.end + delta))
        elif item.end <= start:
            kept.append(item)
    return kept


def apply_findings(text: str, findings: list[Finding]) -> str:
    """Return `text` with each finding's span replaced by its correction (spans index into `text`)."""
    for f in sorted(findings, key=lambda f: -f.start):
        if text[f.start:f.end] == f.written:  # a span that no longer holds its word is left alone
            text = text[: f.start] + replacement_text(f, f.written) + text[f.end:]
    return text


class FindingsModel(QAbstractListModel):
    """The findings still open in the text, in reading order: "goed → went", or "seen → saw?" when not sure."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []

    def set_findings(self, findings: list[Finding]) -> None:
        """Show these findings (sorted by where they stand)."""
        self.beginResetModel()
        self.findings = sorted(findings, key=lambda f: f.start)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's own signature
        """Return the number of findings."""
        return 0 if parent.isValid() else len(self.findings)

    def finding(self, row: int) -> Finding | None:
        """Return the finding on `row`, or None."""
        return self.findings[row] if 0 <= row < len(self.findings) else None

    def row_at(self, index: int) -> int:
        """Return the row of the finding whose span holds the text index `index` (its ends included), or -1."""
        return next((k for k, f in enumerate(self.findings) if f.start <= index <= f.end), -1)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return the row's text, colour, tooltip or spoken text."""
        f = self.finding(index.row()) if index.isValid() else None
        if f is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if f.sure:
                return self.tr("{0} → {1}").format(f.written, replacement_text(f, f.written))
            return self.tr("{0} → {1}?").format(f.written, replacement_text(f, f.written))
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(RED if f.sure else AMBER)
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            if f.sure:
                return self.tr("{0}: change it to {1}").format(f.written, replacement_text(f, f.written))
            return self.tr("{0}: did you mean {1}? (not sure)").format(f.written, replacement_text(f, f.written))
        return None

    def retranslate(self) -> None:
        """Redraw every row in the current language."""
        if self.findings:
            self.dataChanged.emit(self.index(0), self.index(len(self.findings) - 1))


class NotesModel(QAbstractListModel):
    """The notes: what the checker recognised but does not correct, said neutrally in the UI language."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.notes: list[Note] = []
        self.spanish = False

    def set_notes(self, notes: list[Note]) -> None:
        """Show these notes (sorted by where they stand)."""
        self.beginResetModel()
        self.notes = sorted(notes, key=lambda n: n.start)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's own signature
        """Return the number of notes."""
        return 0 if parent.isValid() else len(self.notes)

    def note(self, row: int) -> Note | None:
        """Return the note on `row`, or None."""
        return self.notes[row] if 0 <= row < len(self.notes) else None

    def message(self, note: Note) -> str:
        """Return the note's message in the UI language (with its *word* marks removed)."""
        return (note.message_es if self.spanish else note.message_en).replace("*", "")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return the row's text, colour or tooltip."""
        n = self.note(index.row()) if index.isValid() else None
        if n is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.message(n)
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(BLUE)
        return None

    def set_spanish(self, spanish: bool) -> None:
        """Switch the messages between English and Spanish."""
        self.spanish = spanish
        if self.notes:
            self.dataChanged.emit(self.index(0), self.index(len(self.notes) - 1))
