"""A rounded, coloured box drawn with QPainter.

Not a style sheet on purpose: Qt stops passing font changes (a larger system font) to the children
of a widget that has a style sheet, so containers here never get one.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QFrame, QWidget


class Panel(QFrame):
    """A frame with a rounded border and a background; colours None follow the palette's base."""

    def __init__(self, parent: QWidget | None = None, *, radius: float = 8.0) -> None:
        super().__init__(parent)
        self.radius = radius
        self.background: QColor | None = None
        self.border = QColor("#c9ced6")

    def set_colours(self, background: str | None, border: str) -> None:
        """Set the fill (None: the palette's base colour) and the border colour."""
        self.background = QColor(background) if background else None
        self.border = QColor(border)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the rounded box; the children draw themselves on top."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.border, 1))
        painter.setBrush(self.background or self.palette().base().color())
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), self.radius, self.radius)


def set_text_colour(widget: QWidget, colour: str) -> None:
    """Colour a widget's text through its palette (a style sheet would freeze its font size)."""
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor(colour))
    palette.setColor(QPalette.ColorRole.Text, QColor(colour))
    widget.setPalette(palette)
