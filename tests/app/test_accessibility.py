"""Keyboard reach, accessible names, and a layout that survives 800×600 with a large font."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from app.views.card import Chip, ResultCard
from app.views.charts import BarChart, ColumnChart

INPUTS = (QLineEdit, QComboBox, QPlainTextEdit, QAbstractSpinBox, QAbstractItemView)


def unnamed_controls(root: QWidget) -> list[str]:
    """Return the controls a screen reader could not name (no text, no accessible name, no buddy label)."""
    buddies = {id(label.buddy()) for label in root.findChildren(QLabel) if label.buddy() is not None}
    missing = []
    for widget in root.findChildren(QWidget):
        if widget.window() is not root or not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            continue  # popups are windows of their own; what Tab cannot reach is not a control
        if isinstance(widget, QAbstractButton):
            if not (widget.text().strip() or widget.accessibleName()):
                missing.append(f"{type(widget).__name__} {widget.objectName()!r}")
        elif isinstance(widget, INPUTS):
            inner_of_combo = isinstance(widget, (QLineEdit, QAbstractItemView)) and isinstance(
                widget.parent(), (QComboBox, QAbstractSpinBox)
            )
            if not (widget.accessibleName() or id(widget) in buddies or inner_of_combo):
                missing.append(f"{type(widget).__name__} {widget.objectName()!r} in {type(widget.parent()).__name__}")
    return missing


def test_every_control_has_a_name(qtbot, make_window, filled_db):
    window = make_window(db=filled_db)
    window.learner_bar.select("Ana")
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        window.show_tab(2)  # no passphrase set: the dashboard is open (with its warning)
    assert unnamed_controls(window) == []


def test_custom_widgets_have_accessible_names(qtbot, make_window, filled_db, result_factory):
    window = make_window(db=filled_db)
    window.practice.card.show_result(
        result_factory("He goed home.", ("go", "past simple", "3rd singular", "went", "fue"), wrong="goed"),
        sure=True,
    )
    card = window.practice.card
    assert card.accessibleName() == "Result" and "went" in card.accessibleDescription()
    assert [chip.accessibleName() for chip in card.findChildren(Chip)] == [
        "Verb: go",
        "Tense: past simple",
        "Person: 3rd singular (he, she, it)",
    ]
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        window.show_tab(2)  # no passphrase set: the dashboard is open (with its warning)
    for chart in window.findChildren(BarChart) + window.findChildren(ColumnChart):
        assert chart.accessibleName(), chart
        assert chart.accessibleDescription(), chart  # the numbers, as text
    window.messages.show_message("Something to read", key="test")
    assert window.messages.bars["test"].close_button.accessibleName() == "Dismiss message"


def test_the_keyboard_reaches_everything_on_the_practice_page(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=10000)
    editor = window.practice.editor
    editor.setFocus()
    chain = []
    widget = editor
    for _ in range(6):
        widget = widget.nextInFocusChain()
        for _ in range(1000):  # the chain is a ring: a window with no reachable control must not loop forever
            if widget.isVisible() and widget.isEnabled() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
                break
            widget = widget.nextInFocusChain()
        else:
            pytest.fail("no control takes Tab focus")
        chain.append(widget)
    assert chain[0] is window.practice.correct_button
    assert chain[1] is window.practice.clear_button
    assert isinstance(chain[2], ResultCard)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is window.practice.correct_button  # Tab leaves the sentence box
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.history
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.teacher
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.practice and QApplication.focusWidget() is editor
    for action in (window.settings_action, window.export_action, window.about_action, window.new_learner_action):
        assert not action.shortcut().isEmpty()


def test_the_window_fits_800_by_600_with_a_large_font(qtbot, make_window, engine, result_factory):
    app = QApplication.instance()
    normal = app.font()
    try:
        app.setFont(QFont(normal.family(), 18))
        window = make_window(tutor=engine)
        window.practice.card.show_result(
            result_factory("He goed home.", ("go", "past simple", "3rd singular", "went", "fue"), wrong="goed"),
            sure=True,
        )
        window.resize(800, 600)
        qtbot.waitUntil(lambda: window.size().width() == 800, timeout=10000)
        assert window.size().height() == 600
        hint = window.minimumSizeHint()
        assert hint.width() <= 800 and hint.height() <= 600
        for page in range(3):
            window.show_tab(page)
            hint = window.minimumSizeHint()
            assert hint.width() <= 800 and hint.height() <= 600, page
        window.show_tab(0)
        card = window.practice.card
        assert card.verb_chip.font().pointSize() == 18  # the chips follow the large font
        assert card.title.font().pointSizeF() > 18
        assert window.practice.correct_button.isVisible() and window.practice.editor.height() > 3 * 18
    finally:
        app.setFont(normal)
