"""A one-line label that shrinks below its text's width and elides the rest (for the status bar)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """Shows as much of its text as fits, ending in '…'; the full text is its tooltip."""

    def __init__(self, parent: QWidget | None = None, *, elide: Qt.TextElideMode = Qt.TextElideMode.ElideRight):
        super().__init__(parent)
        self.elide = elide
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        """Set the text and the tooltip that shows it whole."""
        super().setText(text)
        self.setToolTip(text)
        self.setAccessibleDescription(text)

    def minimumSizeHint(self) -> QSize:
        """Return room for a few characters only."""
        return QSize(self.fontMetrics().horizontalAdvance("0000…"), super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the elided text."""
        painter = QPainter(self)
        text = self.fontMetrics().elidedText(self.text(), self.elide, self.contentsRect().width())
        painter.setPen(self.palette().windowText().color())
        painter.drawText(self.contentsRect(), int(self.alignment()), text)
