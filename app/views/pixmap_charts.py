"""Charts painted once into a QPixmap and shown in a QLabel (no paintEvent override): a line over weeks,
labelled bars, and a verb × tense grid. Each function returns the picture; its numbers go in the label's
accessible description (ChartLabel.show_chart)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QGuiApplication, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

LINE, BAR, MASTERED, GRID_LINE, MUTED = (QColor("#4c78a8"), QColor("#e45756"), QColor("#2e7d32"),
                                          QColor("#d0d0d0"), QColor("#6b6b6b"))


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def _canvas(width: int, height: int) -> tuple[QPixmap, QPainter]:
    ratio = QGuiApplication.primaryScreen().devicePixelRatio() if QGuiApplication.primaryScreen() else 1.0
    pixmap = QPixmap(int(width * ratio), int(height * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    return pixmap, painter


def _title(painter: QPainter, font: QFont, text: str, width: int, colour: QColor) -> float:
    bold = QFont(font)
    bold.setBold(True)
    painter.setFont(bold)
    painter.setPen(colour)
    line = QFontMetrics(bold).height()
    painter.drawText(QRectF(0, 0, width, line), Qt.AlignmentFlag.AlignLeft, text)
    painter.setFont(font)
    return line * 1.4


def line_chart(title: str, points: Sequence[tuple[str, float | None]], *, font: QFont, width: int,
               text: QColor, empty: str) -> QPixmap:
    """Return a line over labelled points (None leaves a gap), with the value written on each point."""
    metrics = QFontMetrics(font)
    line = metrics.height()
    height = line * 12
    pixmap, painter = _canvas(width, height)
    top = _title(painter, font, title, width, text)
    values = [v for _, v in points if v is not None]
    if not values:
        painter.setPen(MUTED)
        painter.drawText(QRectF(0, top, width, height - top), Qt.AlignmentFlag.AlignCenter, empty)
        painter.end()
        return pixmap
    biggest = max(values) or 1.0
    axis = metrics.horizontalAdvance(_number(biggest)) + 10
    bottom, plot_top = height - line * 1.6, top + line
    slot = (width - axis) / max(len(points), 1)
    painter.setPen(QPen(GRID_LINE, 1))
    painter.drawLine(QPointF(axis, bottom), QPointF(width, bottom))
    painter.setPen(text)
    painter.drawText(QRectF(0, plot_top - line / 2, axis - 6, line), Qt.AlignmentFlag.AlignRight, _number(biggest))
    painter.drawText(QRectF(0, bottom - line / 2, axis - 6, line), Qt.AlignmentFlag.AlignRight, "0")
    path, started, dots = QPainterPath(), False, []
    widest = max(metrics.horizontalAdvance(label) for label, _ in points) + line
    every = max(1, int(widest // max(slot, 1)) + 1)
    for index, (label, value) in enumerate(points):
        x = axis + slot * (index + 0.5)
        if index % every == 0:
            painter.setPen(text)
            painter.drawText(QRectF(x - widest / 2, bottom + 3, widest, line * 1.3), Qt.AlignmentFlag.AlignHCenter,
                             label)
        if value is None:
            started = False
            continue
        y = bottom - (bottom - plot_top) * value / biggest
        if started:
            path.lineTo(x, y)
        else:
            path.moveTo(x, y)
            started = True
        dots.append((x, y, value))
    painter.setPen(QPen(LINE, 2.5))
    painter.drawPath(path)
    for x, y, value in dots:
        painter.setBrush(LINE)
        painter.drawEllipse(QPointF(x, y), 4, 4)
        painter.setPen(text)
        painter.drawText(QRectF(x - 30, y - line * 1.3, 60, line), Qt.AlignmentFlag.AlignHCenter, _number(value))
        painter.setPen(QPen(LINE, 2.5))
    painter.end()
    return pixmap


def bar_chart(title: str, rows: Sequence[tuple[str, float]], *, font: QFont, width: int, text: QColor,
              empty: str, colour: QColor = BAR) -> QPixmap:
    """Return horizontal bars, one labelled row each, with the value after the bar."""
    metrics = QFontMetrics(font)
    line = metrics.height()
    row_height = line * 1.5
    height = int(line * 1.4 + max(len(rows), 2) * row_height + 4)
    pixmap, painter = _canvas(width, height)
    top = _title(painter, font, title, width, text)
    if not rows:
        painter.setPen(MUTED)
        painter.drawText(QRectF(0, top, width, height - top), Qt.AlignmentFlag.AlignCenter, empty)
        painter.end()
        return pixmap
    label_width = min(max(metrics.horizontalAdvance(label) for label, _ in rows) + 14, width * 0.5)
    number_width = metrics.horizontalAdvance(" 0000")
    plot = max(width - label_width - number_width, 10)
    biggest = max(v for _, v in rows) or 1.0
    for index, (label, value) in enumerate(rows):
        y = top + index * row_height
        painter.setPen(text)
        painter.drawText(QRectF(0, y, label_width - 8, row_height),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(label_width - 8)))
        length = plot * value / biggest
        painter.fillRect(QRectF(label_width, y + row_height * 0.18, length, row_height * 0.64), colour)
        painter.drawText(QRectF(label_width + length + 4, y, number_width, row_height),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, _number(value))
    painter.end()
    return pixmap


def cell_grid(title: str, rows: Sequence[str], columns: Sequence[str], values: dict[tuple[int, int], float],
              mastered: set[tuple[int, int]], *, font: QFont, width: int, text: QColor, legend: str) -> QPixmap:
    """Return a grid of rows × columns: each cell shaded by its value (written in it), a green tick where
    mastered, a legend line under it."""
    metrics = QFontMetrics(font)
    line = metrics.height()
    small = QFont(font)
    small.setPointSizeF(font.pointSizeF() * 0.85)
    small_metrics = QFontMetrics(small)
    row_label = max(metrics.horizontalAdvance(r) for r in rows) + 12
    header = max(small_metrics.horizontalAdvance(c) for c in columns)
    column_width = max((width - row_label) / len(columns), small_metrics.horizontalAdvance("000") + 8)
    header_height = small_metrics.height() * (2.4 if header > column_width - 4 else 1.4)
    row_height = line * 1.35
    height = int(line * 1.4 + header_height + len(rows) * row_height + line * 1.8)
    pixmap, painter = _canvas(width, height)
    top = _title(painter, font, title, width, text)
    painter.setFont(small)
    painter.setPen(text)
    for c, name in enumerate(columns):
        painter.drawText(QRectF(row_label + c * column_width + 2, top, column_width - 4, header_height),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap,
                         name)
    biggest = max(values.values(), default=0.0) or 1.0
    grid_top = top + header_height + 2
    for r, name in enumerate(rows):
        y = grid_top + r * row_height
        painter.setFont(font)
        painter.setPen(text)
        painter.drawText(QRectF(0, y, row_label - 8, row_height),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, name)
        for c in range(len(columns)):
            box = QRectF(row_label + c * column_width + 1, y + 1, column_width - 2, row_height - 2)
            value = values.get((r, c), 0.0)
            if value:
                shade = QColor(BAR)
                shade.setAlphaF(0.18 + 0.72 * value / biggest)
                painter.fillRect(box, shade)
            else:
                painter.fillRect(box, QColor(0, 0, 0, 10))
            painter.setFont(small)
            if (r, c) in mastered:
                painter.setPen(MASTERED)
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, "✓" + (f" {_number(value)}" if value else ""))
            elif value:
                painter.setPen(text)
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter, _number(value))
    painter.setFont(small)
    painter.setPen(MUTED)
    painter.drawText(QRectF(0, grid_top + len(rows) * row_height + 4, width, line * 1.6),
                     Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap, legend)
    painter.end()
    return pixmap


class ChartLabel(QLabel):
    """A label showing one chart picture; its numbers are its accessible description and tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # keyboard and screen-reader users can reach the numbers
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.summary = ""

    def show_chart(self, pixmap: QPixmap, name: str, summary: str) -> None:
        """Show `pixmap`, named `name`, its numbers in words in `summary`."""
        self.setPixmap(pixmap)
        self.summary = summary
        self.setAccessibleName(name)
        self.setAccessibleDescription(summary)
        self.setToolTip(summary)
