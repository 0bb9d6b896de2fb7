"""Typing into the Text tab for a minute while checks run: the verdict always describes the text on screen.

Every 25 ms of event loop (and after every burst of keys) the verdict is read against the box: either it says
the text is being checked (a check runs or is due) or has changed since the last check, or it is the verdict of
a check of exactly the text in the box, naming only forms that are in it and counting the findings listed.
"""

from __future__ import annotations

import random
import re
import time

import pytest
from PySide6.QtCore import Qt, QTimer

pytestmark = pytest.mark.model

SOAK_SECONDS = 60
PIECES = ("Yesterday my brother goed to the park. ", "He have a new bike. ", "We was happy. ",
          "She watch TV every night. ", "I like tea. ", "The people in the village was kind. ",
          "My sister eated an apple. ", "It is late. ")
CHECKING = "Checking the text as it is now…"
CHANGED = "The text has changed since the last check."


def verdict_problem(view) -> str | None:
    """Return why the verdict does not describe the text in the box, or None when it does."""
    text, verdict = view.editor.toPlainText(), view.verdict.text()
    if not text.strip():
        return None if view.verdict.isHidden() or not verdict else f"a verdict over an empty box: {verdict!r}"
    if view.verdict.isHidden():
        return None if view.result is None else "the verdict is hidden over a checked text"
    if CHECKING in verdict:
        if not (view.working or view.auto_check.isActive()):
            return "says 'checking' with no check running or due"
        return None if view.result is None or view.result.text != text else "says 'checking' over the checked text"
    if CHANGED in verdict:
        return None if view.result is None or view.result.text != text else "says 'changed' over the checked text"
    if view.result is None or view.result.text != text:
        return f"the verdict of another text: {verdict!r}"
    named = re.search(r"\(([^)]*)\)", verdict)
    words = set(re.findall(r"[\w']+", text.lower()))
    if named:
        for form in named.group(1).split(", "):
            form = form.split(" ×")[0].lower()
            if not set(re.findall(r"[\w']+", form)) <= words:
                return f"names {form!r}, which is not in the box: {verdict!r}"
    findings = view.findings_model.findings
    for f in findings:
        if text[f.start:f.end] != f.written:
            return f"a finding {f.written!r} at {f.start} that is not in the box"
    to_fix = re.search(r"To fix: (\d+)\.", verdict)
    if to_fix and int(to_fix.group(1)) != sum(f.sure for f in findings):
        return f"counts {to_fix.group(1)} to fix over {sum(f.sure for f in findings)} listed"
    if "No errors" in verdict and findings:
        return "says no errors over listed findings"
    return None


def test_the_verdict_always_describes_the_text_on_screen_while_typing(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    window.show_tab(3)
    view.editor.setFocus()
    problems: list[str] = []
    samples = [0]

    def sample() -> None:
        samples[0] += 1
        problem = verdict_problem(view)
        if problem:
            problems.append(f"{problem} | box: {view.editor.toPlainText()!r}")

    sampler = QTimer()
    sampler.setInterval(25)
    sampler.timeout.connect(sample)
    sampler.start()
    rng = random.Random(31)
    checks: list[object] = []
    view.check_done.connect(checks.append)
    end = time.monotonic() + SOAK_SECONDS
    try:
        while time.monotonic() < end and not problems:
            action = rng.random()
            if action < 0.6 or not view.editor.toPlainText():
                qtbot.keyClicks(view.editor, rng.choice(PIECES))
            elif action < 0.8:
                for _ in range(rng.randint(1, 12)):
                    qtbot.keyClick(view.editor, Qt.Key.Key_Backspace)
            elif action < 0.9 and len(view.editor.toPlainText()) > 1200:
                view.editor.selectAll()
                qtbot.keyClick(view.editor, Qt.Key.Key_Delete)
            else:
                qtbot.keyClick(view.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # save
            sample()
            qtbot.wait(rng.choice((30, 120, 400, 900, 1500)))  # shorter and longer than the typing pause
        # the last text: its check comes, and the verdict is then that check's
        qtbot.waitUntil(lambda: not view.working and not view.auto_check.isActive(), timeout=60000)
        qtbot.waitUntil(lambda: (view.result is not None and view.result.text == view.editor.toPlainText())
                        or not view.editor.toPlainText().strip(), timeout=60000)
        sample()
    finally:
        sampler.stop()
    assert problems == [], problems[:5]
    assert len(checks) >= 10 and samples[0] >= 1000  # checks ran during the typing, and the verdict was read often
