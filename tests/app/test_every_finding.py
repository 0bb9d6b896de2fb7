"""The sentence card shows every finding of the sentence: the §A13 answer first, the rest beneath it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import Qt

pytestmark = pytest.mark.model

TWO = "Yesterday she go to the park and eat an ice cream."


def test_a_second_error_in_the_sentence_is_on_the_card(qtbot, make_window, engine, tmp_path):
    window = make_window(tutor=engine)
    qtbot.keyClicks(window.practice.editor, TWO)
    with qtbot.waitSignal(window.correction_done, timeout=60000) as blocker:
        qtbot.keyClick(window.practice.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    result = blocker.args[0]
    card = window.practice.card
    assert result.output["correct_form"] == "went" and card.kind == "error"  # the first, as before
    assert [(o.error_span, o.output["correct_form"]) for o in result.others] == [("eat", "ate")]
    assert not card.others.isHidden()
    text = card.plain_text()
    assert "Also in this sentence:" in text and "eat → ate" in text
    assert text.index("went") < text.index("eat → ate")  # beneath the first
    # the output contract of `correct` stays one §A13 object
    done = subprocess.run([sys.executable, "-m", "tutor.cli", "correct", TWO, "--no-save"], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "GRAMMAR_TUTOR_DB": str(tmp_path / "cli.db")})
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert len(lines) == 1 and json.loads(lines[0])["correct_form"] == "went"
