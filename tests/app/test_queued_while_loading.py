"""Ctrl+Enter while the model loads: the request is kept and runs as soon as the model is ready."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tutor.store import Store

pytestmark = pytest.mark.model


def test_ctrl_enter_while_loading_is_corrected_when_the_model_is_ready(qtbot, make_window, db_path, reads_done):
    window = make_window(load_model=True)
    window.learner_bar.create("Ana")
    assert window.loading and window.tutor is None
    qtbot.keyClicks(window.practice.editor, "He goed to school yesterday.")
    qtbot.keyClick(window.practice.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.loading  # still loading: the request waits instead of being dropped
    assert window.practice.hint_kind == "queued" and "as soon as" in window.practice.hint.text()
    with qtbot.waitSignal(window.correction_done, timeout=180000) as blocker:
        pass
    result = blocker.args[0]
    assert result.original == "He goed to school yesterday." and result.output["correct_form"] == "went"
    assert window.practice.card.kind == "error" and window.practice.hint.isHidden()
    reads_done()
    with Store.open(db_path) as store:
        assert [row["original"] for row in store.history("Ana")] == ["He goed to school yesterday."]
