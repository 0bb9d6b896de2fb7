"""Does this PySide6 lose a reference to None? Prints the change of sys.getrefcount(None) per kind of call.

    QT_QPA_PLATFORM=offscreen python scripts/pyside_none_probe.py [N]

Run it in a venv with only the PySide6-Essentials to test (`pip install PySide6-Essentials==X`). A sound
binding prints about 0 on every line; PySide6-Essentials 6.12.0 on Python 3.11 prints -N on each line that
makes calls returning None (issue 23), and the interpreter then aborts with "none_dealloc" at exit or sooner.
On Python 3.12 and later None is immortal and its count never moves, so the probe tells nothing there.
"""

from __future__ import annotations

import sys

import PySide6
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QPainter
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit, QWidget


class KeyEdit(QPlainTextEdit):
    """A Python keyPressEvent override, as the app's sentence box has."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        super().keyPressEvent(event)


class Painted(QWidget):
    """A Python paintEvent override, as the app's cards and charts have."""

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), Qt.GlobalColor.red)
        painter.end()


class Filter(QObject):
    """An event filter (returns a bool)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        return False


def key(widget: QWidget) -> None:
    """Send one key press (sendEvent returns a bool, so the probe itself never gets None back)."""
    QApplication.sendEvent(widget, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier, "a"))


def main() -> None:
    """Print one line per probe: its name and how None's reference count moved."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    print(f"PySide6 {PySide6.__version__}, Python {sys.version.split()[0]}, {n} calls each")
    edit, plain, painted, label, obj = KeyEdit(), QPlainTextEdit(), Painted(), QLabel(), QObject()
    filtered = QPlainTextEdit()
    keep_filter = Filter()
    filtered.installEventFilter(keep_filter)
    painted.resize(40, 40)
    for widget in (edit, plain, painted, filtered):
        widget.show()
    probes = {
        "key presses, keyPressEvent override": lambda: key(edit),
        "key presses, no override": lambda: key(plain),
        "key presses, event filter": lambda: key(filtered),
        "repaints (grab), paintEvent override": painted.grab,  # grab returns a QPixmap, not None
        "QObject.setObjectName (void)": lambda: obj.setObjectName("x"),
        "QLabel.setText (void)": lambda: label.setText("x"),
        "QObject.parent (returns None)": obj.parent,
        "QLabel.text (returns str)": label.text,
    }
    for name, call in probes.items():
        before = sys.getrefcount(None)
        for _ in range(n):
            call()
        print(f"{name:40s} {sys.getrefcount(None) - before:+d}", flush=True)
    app.processEvents()


if __name__ == "__main__":
    main()
