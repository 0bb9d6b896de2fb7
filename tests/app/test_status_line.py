"""The status line says truthfully why an answer came without the model."""

from __future__ import annotations

import pytest

from tutor.result import OUTSIDE_VERBS, PLURAL_SUBJECT

pytestmark = pytest.mark.model


def test_a_plural_subject_is_not_reported_as_a_verb_outside_the_list(correct_by_keyboard, qtbot, make_window, engine):
    window = make_window(tutor=engine)
    result = correct_by_keyboard(qtbot, window, "My friends and I goes to the park every day.")
    assert result.out_of_scope and result.out_of_scope_reason == PLURAL_SUBJECT
    line = window.mask_label.text()
    assert line.startswith("answered without the model") and "plural" in line
    assert "not one of the 20" not in line and "no verb of the 20" not in line


def test_a_verb_outside_the_list_says_so(correct_by_keyboard, qtbot, make_window, engine):
    window = make_window(tutor=engine)
    result = correct_by_keyboard(qtbot, window, "She sings a beautiful song.")
    assert result.out_of_scope and result.out_of_scope_reason == OUTSIDE_VERBS
    assert "no verb of the 20 to fix" in window.mask_label.text()


def test_a_sentence_shown_as_a_note_says_so(correct_by_keyboard, qtbot, make_window, engine):
    window = make_window(tutor=engine)
    result = correct_by_keyboard(qtbot, window, "She doesn't likes tea.")
    assert result.noted and window.practice.card.kind == "note"
    line = window.mask_label.text()
    if result.timings.tokens_sampled + result.timings.tokens_forced == 0:
        assert "a pattern I note but do not correct" in line and "20" not in line
