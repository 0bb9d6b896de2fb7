"""Charts drawn with QPainter (QtCharts is deprecated from Qt 6.10): labelled bars and columns."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

SERIES_COLOURS = (QColor("#4c78a8"), QColor("#e45756"))


def _number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


class _Chart(QWidget):
    """What both charts share: a title, a legend, rows of (label, values), an empty state, a text summary."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)  # keyboard and screen-reader users can reach the numbers
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.title = ""
        self.series: tuple[str, ...] = ()
        self.rows: list[tuple[str, tuple[float, ...]]] = []
        self.empty_text = ""

    def set_data(
        self,
        title: str,
        series: Sequence[str],
        rows: Sequence[tuple[str, Sequence[float]]],
        empty_text: str = "",
    ) -> None:
        """Show rows of (label, one value per series) under a title."""
        self.title = title
        self.series = tuple(series)
        self.rows = [(label, tuple(float(v) for v in values)) for label, values in rows]
        self.empty_text = empty_text
        self.setAccessibleName(title)
        self.setAccessibleDescription(self.summary())
        self.setToolTip(self.summary())
        self.updateGeometry()
        self.update()

    def summary(self) -> str:
        """Return the chart's numbers as text: 'label: a, b; …'."""
        if not self.rows:
            return self.empty_text
        return "; ".join(f"{label}: {', '.join(_number(v) for v in values)}" for label, values in self.rows)

    def changeEvent(self, event: QEvent) -> None:
        """Repaint when the font changes (sizes follow the font)."""
        if event.type() == QEvent.Type.FontChange:
            self.updateGeometry()
        super().changeEvent(event)

    def _line(self) -> int:
        return self.fontMetrics().height()

    def _header(self, painter: QPainter) -> float:
        """Draw the title and legend; return the y where the plot starts."""
        line = self._line()
        bold = painter.font()
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(QRectF(0, 0, self.width(), line), Qt.AlignmentFlag.AlignLeft, self.title)
        painter.setFont(self.font())
        y = line * 1.3
        if len(self.series) > 1:
            x = 0.0
            for index, name in enumerate(self.series):
                painter.fillRect(QRectF(x, y + line * 0.2, line * 0.6, line * 0.6), SERIES_COLOURS[index % 2])
                x += line * 0.9
                width = self.fontMetrics().horizontalAdvance(name)
                painter.drawText(QRectF(x, y, width + 4, line), Qt.AlignmentFlag.AlignLeft, name)
                x += width + line
            y += line * 1.3
        return y

    def _empty(self, painter: QPainter, top: float) -> None:
        painter.setPen(QColor("#6b6b6b"))
        painter.drawText(
            QRectF(0, top, self.width(), self.height() - top), Qt.AlignmentFlag.AlignCenter, self.empty_text
        )


class BarChart(_Chart):
    """Horizontal bars, one row per label (errors per verb, tense or person)."""

    def sizeHint(self) -> QSize:
        """Return room for every row at the current font size."""
        line = self._line()
        header = 1.3 if len(self.series) < 2 else 2.6
        return QSize(line * 20, int(line * (header + max(len(self.rows), 2) * 1.4) + 4))

    def minimumSizeHint(self) -> QSize:
        """Return the same height as sizeHint with a narrow width."""
        return QSize(self._line() * 10, self.sizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the title, legend and bars."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        top = self._header(painter)
        if not self.rows:
            self._empty(painter, top)
            return
        line = self._line()
        metrics = self.fontMetrics()
        label_width = min(max(metrics.horizontalAdvance(label) for label, _ in self.rows) + 16, self.width() * 0.5)
        biggest = max((max(values) for _, values in self.rows if values), default=0.0) or 1.0
        number_width = metrics.horizontalAdvance(" 0000")
        plot_width = max(self.width() - label_width - number_width, 10)
        row_height = line * 1.4
        count = max(len(self.series), 1)
        for index, (label, values) in enumerate(self.rows):
            y = top + index * row_height
            painter.setPen(self.palette().windowText().color())
            elided = metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(label_width - 6))
            painter.drawText(
                QRectF(0, y, label_width - 6, row_height),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                elided,
            )
            bar_height = (row_height * 0.75) / count
            for series_index, value in enumerate(values):
                width = plot_width * value / biggest
                bar_y = y + row_height * 0.125 + series_index * bar_height
                painter.fillRect(QRectF(label_width, bar_y, width, bar_height), SERIES_COLOURS[series_index % 2])
                painter.setPen(self.palette().windowText().color())
                painter.drawText(
                    QRectF(label_width + width + 4, bar_y, number_width, bar_height),
                    Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                    _number(value),
                )


class ColumnChart(_Chart):
    """Vertical columns with labels under them (corrections per week, the latency histogram)."""

    def sizeHint(self) -> QSize:
        """Return a comfortable size at the current font size."""
        line = self._line()
        return QSize(line * 24, line * 14)

    def minimumSizeHint(self) -> QSize:
        """Return the smallest size that still shows a plot."""
        line = self._line()
        return QSize(line * 10, line * 9)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the title, legend, axis and columns."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        top = self._header(painter)
        if not self.rows:
            self._empty(painter, top)
            return
        line = self._line()
        metrics = self.fontMetrics()
        biggest = max((max(values) for _, values in self.rows if values), default=0.0) or 1.0
        axis_width = metrics.horizontalAdvance(_number(biggest)) + 8
        bottom = self.height() - line * 1.4
        plot_top = top + line
        plot_height = max(bottom - plot_top, 10)
        slot = (self.width() - axis_width) / len(self.rows)
        text_colour = self.palette().windowText().color()
        painter.setPen(QColor("#9a9a9a"))
        painter.drawLine(int(axis_width), int(bottom), self.width(), int(bottom))
        painter.setPen(text_colour)
        painter.drawText(
            QRectF(0, plot_top - line / 2, axis_width - 4, line),
            Qt.AlignmentFlag.AlignRight,
            _number(biggest),
        )
        painter.drawText(QRectF(0, bottom - line / 2, axis_width - 4, line), Qt.AlignmentFlag.AlignRight, "0")
        widest = max(metrics.horizontalAdvance(label) for label, _ in self.rows) + line
        label_every = max(1, math.ceil(widest / max(slot, 1)))
        count = max(len(self.series), 1)
        for index, (label, values) in enumerate(self.rows):
            x = axis_width + index * slot
            column_width = slot * 0.8 / count
            for series_index, value in enumerate(values):
                height = plot_height * value / biggest
                left = x + slot * 0.1 + series_index * column_width
                painter.fillRect(QRectF(left, bottom - height, column_width, height), SERIES_COLOURS[series_index % 2])
                if value and column_width >= metrics.horizontalAdvance(_number(value)):
                    painter.setPen(text_colour)
                    painter.drawText(
                        QRectF(left, bottom - height - line, column_width, line),
                        Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom,
                        _number(value),
                    )
            if index % label_every == 0:
                painter.setPen(text_colour)
                painter.drawText(
                    QRectF(x + slot / 2 - widest / 2, bottom + 2, widest, line * 1.3),
                    Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                    label,
                )
