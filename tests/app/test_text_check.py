"""The Text page: a whole text checked in the worker, findings underlined in place, cards, Apply, Copy."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication, QTextCursor
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QListView, QPlainTextEdit, QWidget

from app.translation import install_language
from app.views.text_check import forms_list
from app.views.text_findings import apply_findings, python_index, shift_after, utf16_position
from tutor.store import Store
from tutor.text.check import Checked, CheckResult, Finding
from tutor.text.notes import Note

TWO_ERRORS = "She have a cat. Yesterday he goed to school."  # have→has shortens the text before goed


def check_by_keyboard(qtbot, window, text: str) -> CheckResult:
    """Show the Text page, type `text`, press Ctrl+Enter and wait for the underlines; return the result."""
    view = window.text_view
    window.activateWindow()  # shortcuts reach the active window only
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=10000)
    qtbot.keyClick(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is view and QApplication.focusWidget() is view.editor
    view.editor.clear()
    qtbot.keyClicks(view.editor, text)
    with qtbot.waitSignal(view.check_done, timeout=60000) as blocker:
        qtbot.keyClick(view.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    return blocker.args[0]


def finding(text: str, written: str, fix: str, *, sure: bool = True, confidence: float = 0.9) -> Finding:
    """Return a hand-built finding of `written` in `text` (a past-simple *go* cell)."""
    start = text.index(written)
    return Finding(text, "go", "past simple", "3rd singular", fix, "fue", start, start + len(written), written,
                   confidence, f"*go* is irregular: past simple *{fix}*.",
                   f"*go* es irregular: el pasado simple es *{fix}*.", sure=sure)


# -- with the real model ------------------------------------------------------------------------------


@pytest.mark.model
def test_two_errors_are_underlined_at_their_offsets_and_saved(qtbot, make_window, engine, db_path, reads_done):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    view = window.text_view
    seen: list[tuple[int, int]] = []
    view.progressed.connect(lambda done, total: seen.append((done, total)))
    result = check_by_keyboard(qtbot, window, TWO_ERRORS)

    assert [(f.written, f.correct_form) for f in result.findings] == [("have", "has"), ("goed", "went")]
    assert view.underlined() == [(4, 8, "wave"), (29, 33, "wave")]
    assert [TWO_ERRORS[a:b] for a, b, _ in view.underlined()] == ["have", "goed"]
    assert seen == [(0, 2), (1, 2), (2, 2)]  # one step per sentence, delivered on the GUI thread
    assert view.progress.isHidden() and not view.working
    assert view.findings_model.rowCount() == 2
    assert view.findings_model.data(view.findings_model.index(0)) == "have → has"
    assert view.verdict.text().startswith("Verbs I checked: 2 (have, goed). To fix: 2.")
    assert view.saved_rows == 2
    assert view.hint_kind == "saved" and not view.hint.isHidden()  # Ctrl+Enter says it kept them, and where
    assert view.hint.text() == "Saved in Ana's history: 2 findings."
    with Store.open(db_path) as store:
        rows = store.history("Ana")
    assert sorted((r["original"].strip(), r["correct_form"]) for r in rows) == [
        ("She have a cat.", "has"), ("Yesterday he goed to school.", "went")]


@pytest.mark.model
def test_clicking_an_underlined_word_or_a_list_row_opens_its_card(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    check_by_keyboard(qtbot, window, TWO_ERRORS)
    assert view.card.kind == "error" and view.current_finding().written == "have"  # the first opens at once

    cursor = QTextCursor(view.editor.document())
    cursor.setPosition(TWO_ERRORS.index("goed") + 2)
    qtbot.mouseClick(view.editor.viewport(), Qt.MouseButton.LeftButton, pos=view.editor.cursorRect(cursor).center())
    assert view.current_finding().written == "goed"
    card = view.card
    assert card.kind == "error"
    assert "goed" in card.title.text() and "went" in card.title.text()
    assert (card.verb_chip.text(), card.tense_chip.text()) == ("go", "past simple")
    assert card.person_chip.text().startswith("3rd singular")
    assert "fue" in card.spanish.text()
    assert "went" in card.explanation.text() and "irregular" in card.explanation.text()  # the English UI
    assert "went" in card.accessibleDescription()

    view.findings_view.setFocus()
    qtbot.keyClick(view.findings_view, Qt.Key.Key_Up)
    assert view.current_finding().written == "have" and "has" in card.title.text()
    qtbot.keyClick(view.findings_view, Qt.Key.Key_F8)  # next finding
    assert view.current_finding().written == "goed"

    install_language("es")
    qtbot.waitUntil(lambda: window.tabs.tabText(3) != "Te&xt", timeout=10000)
    assert window.tabs.tabText(3) == "Te&xto"
    assert "irregular: el pasado simple" in card.explanation.text()  # the explanation follows the UI language
    assert card.spanish.text().startswith("En español")


@pytest.mark.model
def test_apply_fixes_one_word_and_moves_the_other_underlines(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    check_by_keyboard(qtbot, window, TWO_ERRORS)
    view.select_row(0)
    assert view.current_finding().written == "have"
    qtbot.mouseClick(view.apply_button, Qt.MouseButton.LeftButton)
    text = view.editor.toPlainText()
    assert text == "She has a cat. Yesterday he goed to school."
    assert view.underlined() == [(28, 32, "wave")] and text[28:32] == "goed"  # shifted left by one
    assert view.current_finding().written == "goed" and view.card.kind == "error"
    assert view.result is not None  # Apply's own edit does not count as a stale edit
    assert "To fix: 1." in view.verdict.text()
    with qtbot.waitSignal(view.check_done, timeout=60000) as blocker:  # checked again after the pause
        pass
    assert blocker.args[0].text == text and view.underlined() == [(28, 32, "wave")]
    # only the fixed sentence may be read again: the second read "She has a cat." as corrected already
    assert set(blocker.args[0].rescored) <= {0}
    with qtbot.waitSignal(view.check_done, timeout=60000) as blocker:
        view.editor.undo()  # undoing is an edit of the learner's: "goed" moves back at once
        assert view.editor.toPlainText() == TWO_ERRORS and view.underlined() == [(29, 33, "wave")]
    assert blocker.args[0].rescored == []  # the text as first checked: every score was kept
    assert view.underlined() == [(4, 8, "wave"), (29, 33, "wave")]  # and "have" is found again


@pytest.mark.model
def test_apply_all_and_copy_corrected_text(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    result = check_by_keyboard(qtbot, window, TWO_ERRORS)
    corrected = "She has a cat. Yesterday he went to school."
    qtbot.keyClick(view.editor, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QGuiApplication.clipboard().text() == corrected == result.corrected_text()
    assert view.editor.toPlainText() == TWO_ERRORS  # copying leaves the text as it is
    qtbot.mouseClick(view.apply_all_button, Qt.MouseButton.LeftButton)
    assert view.editor.toPlainText() == corrected
    assert view.underlined() == [] and view.findings_model.rowCount() == 0
    assert "Every finding is applied" in view.verdict.text()
    assert not view.apply_all_button.isEnabled()
    view.editor.undo()  # Apply all is one undo step
    assert view.editor.toPlainText() == TWO_ERRORS


@pytest.mark.model
def test_typing_moves_the_underlines_and_the_findings_follow_after_a_pause(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    text = "She have a cat. I like my town. Yesterday he goed to school."
    check_by_keyboard(qtbot, window, text)

    def spans() -> list[str]:
        now = view.editor.toPlainText()
        return [now[a:b] for a, b, _ in view.underlined()]

    assert spans() == ["have", "goed"]
    # a word typed at the start: both underlines move with their words at once, before any check
    view.editor.moveCursor(QTextCursor.MoveOperation.Start)
    with qtbot.waitSignal(view.check_done, timeout=60000) as blocker:
        qtbot.keyClicks(view.editor, "Today ")
        assert spans() == ["have", "goed"] and view.underlined()[0][:2] == (10, 14)
    rescored = blocker.args[0].rescored
    assert 0 in rescored and 2 not in rescored  # the changed sentence and the one after it; the third kept its scores
    assert blocker.args[0].text == view.editor.toPlainText() and spans() == ["have", "goed"]
    # the learner fixes "goed" by hand: its underline goes at once and the re-check does not bring it back
    cursor = view.editor.textCursor()
    cursor.setPosition(view.editor.toPlainText().index("goed") + 4)
    view.editor.setTextCursor(cursor)
    with qtbot.waitSignal(view.check_done, timeout=60000) as blocker:
        for _ in range(4):
            qtbot.keyClick(view.editor, Qt.Key.Key_Backspace)
        qtbot.keyClicks(view.editor, "went")
        assert spans() == ["have"]
        caret = view.editor.textCursor().position()
    assert view.editor.textCursor().position() == caret  # the answer did not move the caret to a finding
    assert view.card.kind == "error" and view.current_finding().written == "have"
    assert blocker.args[0].text == view.editor.toPlainText() == \
        "Today She have a cat. I like my town. Yesterday he went to school."
    assert set(blocker.args[0].rescored) <= {2}  # only the edited sentence, if it needs the model at all
    assert spans() == ["have"] and view.findings_model.rowCount() == 1
    assert view.result is not None and view.copy_button.isEnabled()


@pytest.mark.model
def test_no_findings_says_what_was_checked_never_well_done(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    result = check_by_keyboard(qtbot, window, "I was at home. I like cats.")
    assert result.findings == []
    assert view.verdict.text() == "No errors in the 2 verbs I can check (was, like)."
    assert view.underlined() == [] and view.card.kind == "empty"
    install_language("es")
    qtbot.waitUntil(lambda: not view.verdict.text().startswith("No errors"), timeout=10000)
    assert view.verdict.text() == "No hay errores en los 2 verbos que sé revisar (was, like)."


@pytest.mark.model
def test_notes_are_listed_neutrally_and_their_verbs_not_counted_as_right(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    result = check_by_keyboard(qtbot, window, "She have 25 years. I was at home.")
    assert [n.kind for n in result.notes] == ["have_age"]
    verdict = view.verdict.text()
    assert verdict.startswith("No errors in the 1 verb I can check (was).")  # *have* is under the note
    assert "Notes on what I do not correct: 1" in verdict
    assert "Correct" not in verdict and "Well done" not in verdict
    assert view.notes_view.isVisible() and view.notes_model.rowCount() == 1
    assert "for age English uses be" in view.notes_model.data(view.notes_model.index(0))
    view.notes_view.setFocus()
    view.notes_view.setCurrentIndex(view.notes_model.index(0))
    assert view.card.kind == "note" and "have 25 years" in view.card.title.text()
    assert "Change" not in view.card.title.text()


@pytest.mark.model
def test_a_too_long_text_is_refused_by_the_core_with_a_banner(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    with qtbot.waitSignal(view.check_failed, timeout=10000) as blocker:
        view.run_check("He goed home. " * 150)  # 2,100 characters, past the view's own guard
    message = blocker.args[0]
    assert "2,100 characters" in message and "nothing was cut" in message and "Traceback" not in message
    assert window.messages.message("text") == message
    assert window.messages.bars["text"].level == "warning"
    assert not view.working and view.progress.isHidden()


@pytest.mark.model
def test_editing_while_the_check_runs_discards_its_underlines(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    view.editor.setPlainText(TWO_ERRORS)
    edited: list[bool] = []

    def edit_once(done: int, total: int) -> None:
        if not edited:
            edited.append(True)
            view.editor.setPlainText(TWO_ERRORS + " More.")

    view.progressed.connect(edit_once)
    shown: list[str] = []
    view.check_done.connect(lambda result: shown.append(view.result.text if view.result else ""))
    with qtbot.waitSignal(view.check_done, timeout=60000) as first:
        view.submit()
    assert edited and first.args[0].text == TWO_ERRORS
    assert view.result is None and view.underlined() == []  # the answer for the old text is never shown
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=60000)  # the text as it is now is checked next
    assert view.result.text == TWO_ERRORS + " More." and shown == ["", TWO_ERRORS + " More."]
    assert [(a, b) for a, b, _ in view.underlined()] == [(4, 8), (29, 33)]


@pytest.mark.model
def test_an_emoji_before_a_word_does_not_shift_its_underline(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    view = window.text_view
    text = "😀 He goed home."
    view.editor.setPlainText(text)
    with qtbot.waitSignal(view.check_done, timeout=60000):
        view.submit()
    [(start, end, _)] = view.underlined()
    assert text[start:end] == "goed"
    assert [s.cursor.selectedText() for s in view.editor.extraSelections()] == ["goed"]
    view.apply_all()
    assert view.editor.toPlainText() == "😀 He went home."


# -- the view alone (no model) ------------------------------------------------------------------------


def test_a_not_sure_finding_is_asked_as_a_question(qtbot, make_window):
    window = make_window()
    view = window.text_view
    text = "Yesterday he goed home. He gone to bed."
    view.editor.setPlainText(text)
    sure, unsure = finding(text, "goed", "went"), finding(text, "gone", "went", sure=False, confidence=0.45)
    result = CheckResult(text, [(0, 23), (24, len(text))], [sure, unsure],
                         checked=[Checked(13, 17, "goed"), Checked(27, 31, "gone")])
    view.show_result(result)
    assert view.underlined() == [(13, 17, "wave"), (27, 31, "dot")]
    view.select_row(1)
    card = view.card
    assert card.kind == "question"
    assert card.title.text() == "Did you mean <i>went</i>?"
    assert "not sure" in card.note.text() and "45 %" in card.note.text()
    assert "Change" not in card.plain_text()
    assert view.findings_model.data(view.findings_model.index(1)) == "gone → went?"
    assert view.verdict.text() == "Verbs I checked: 2 (goed, gone). To fix: 1. Not sure, please look: 1."
    assert view.corrected_text() == "Yesterday he went home. He gone to bed."  # a question is not applied for you
    view.apply_all()
    assert view.editor.toPlainText() == "Yesterday he went home. He gone to bed."
    assert view.underlined() == [(27, 31, "dot")]
    view.select_row(0)
    view.apply_selected()  # the learner agrees with the question
    assert view.editor.toPlainText() == "Yesterday he went home. He went to bed."


def test_a_pasted_text_over_the_limit_is_kept_whole_and_explained(qtbot, make_window):
    window = make_window()
    view = window.text_view
    long_text = "She have a cat. " * 130 + "End"  # 2,083 characters
    view.editor.setPlainText(long_text)
    assert view.editor.toPlainText() == long_text  # never cut
    assert view.hint_kind == "too_long" and not view.hint.isHidden()
    hint = view.hint.text()
    assert "2,083 characters" in hint and "2,000" in hint and "Nothing was cut" in hint
    assert view.counter.text() == "2,083 / 2,000"
    assert not view.check_button.isEnabled()
    view.submit()
    assert not view.working
    view.editor.setPlainText("She have a cat.")
    assert view.hint_kind == "" and view.hint.isHidden()


def test_no_model_yet_says_so_instead_of_checking(qtbot, make_window):
    window = make_window()
    view = window.text_view
    view.editor.setPlainText("He goed home.")
    assert not view.check_button.isEnabled()
    qtbot.keyClick(view.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert view.hint_kind == "not_ready" and not view.working


def test_every_control_on_the_page_is_named_and_the_page_fits_800_by_600(qtbot, make_window):
    app = QApplication.instance()
    normal = app.font()
    try:
        app.setFont(QFont(normal.family(), 18))
        window = make_window()
        window.show_tab(3)
        text = "Yesterday he goed home."
        window.text_view.editor.setPlainText(text)
        window.text_view.show_result(CheckResult(text, [(0, len(text))], [finding(text, "goed", "went")],
                                                 [Note(0, 9, "Yesterday", "test", "A note.", "Una nota.")]))
        window.resize(800, 600)
        qtbot.waitUntil(lambda: window.size().width() == 800, timeout=10000)
        hint = window.minimumSizeHint()
        assert hint.width() <= 800 and hint.height() <= 600
        view = window.text_view
        buddies = {id(label.buddy()) for label in view.findChildren(QLabel) if label.buddy() is not None}
        unnamed = [type(w).__name__ for w in view.findChildren(QWidget)
                   if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isVisible()
                   and ((isinstance(w, QAbstractButton) and not (w.text().strip() or w.accessibleName()))
                        or (isinstance(w, (QPlainTextEdit, QListView)) and not (w.accessibleName()
                                                                                or id(w) in buddies)))]
        assert unnamed == []
        assert view.card.accessibleName() == "Finding" and "went" in view.card.accessibleDescription()
        for act in (view.apply_action, view.apply_all_action, view.copy_action, view.next_action, view.show_action):
            assert not act.shortcut().isEmpty()
    finally:
        app.setFont(normal)


# -- the offset arithmetic ------------------------------------------------------------------------------


@given(st.text(max_size=40), st.data())
def test_utf16_positions_round_trip(text, data):
    index = data.draw(st.integers(0, len(text)))
    position = utf16_position(text, index)
    assert python_index(text, position) == index
    assert position == len(text[:index].encode("utf-16-le")) // 2


def test_shift_after_moves_later_spans_and_drops_overlapping_ones():
    text = "She have a cat. He goed home."
    have, goed = finding(text, "have", "has"), finding(text, "goed", "went")
    inside = Note(5, 7, "av", "x", "", "")
    assert shift_after([have, goed, inside], 4, 8, -1) == [
        Finding(**{**goed.__dict__, "start": goed.start - 1, "end": goed.end - 1})]
    assert apply_findings(text, [have, goed]) == "She has a cat. He went home."
    assert apply_findings("She had a cat.", [have]) == "She had a cat."  # a span that changed is left alone


def test_the_checked_forms_are_listed_once_each_with_their_count():
    assert forms_list(["came", "was", "was", "come"]) == "came, was ×2, come"
    assert forms_list([]) == ""


@pytest.mark.model
def test_the_window_takes_keystrokes_while_a_long_check_runs_and_the_findings_follow(qtbot, make_window, engine):
    import json
    from pathlib import Path

    from tutor.text.sentences import split_sentences

    essay = json.loads(Path(__file__).parents[1].joinpath("data", "essays.jsonl").read_text().splitlines()[0])["text"]
    text = essay[: max(b for _, b in split_sentences(essay) if b <= 1200)]
    window = make_window(tutor=engine)
    view = window.text_view
    window.show_tab(3)
    view.editor.setFocus()
    view.editor.setPlainText(text)  # pasted: checked after the pause, without Ctrl+Enter
    qtbot.waitUntil(lambda: view.working, timeout=10000)
    view.editor.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(view.editor, " Then he goed home.")
    # the keystrokes reached the box while the model was still reading the text: the window did not wait for it
    assert view.working and view.editor.toPlainText() == text + " Then he goed home."
    assert view.result is None  # nothing is shown for the text as it was pasted
    qtbot.waitUntil(lambda: view.result is not None, timeout=120000)
    now = view.editor.toPlainText()
    assert view.result.text == now
    underlined = [now[a:b] for a, b, _ in view.underlined()]
    assert underlined and underlined[-1] == "goed"  # the sentence typed during the check has its finding
    assert view.underlined()[-1][:2] == (len(now) - len("goed home."), len(now) - len(" home."))
    qtbot.waitUntil(lambda: not view.working, timeout=60000)


def test_checking_the_same_text_again_counts_its_findings_once(qtbot, make_window, engine, db_path, reads_done):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    for _ in range(3):
        check_by_keyboard(qtbot, window, TWO_ERRORS)
    with Store.open(db_path) as store:
        assert store.count_history("Ana") == 2  # the text's findings were replaced, not added
        assert store.error_counts("Ana")["verb"] == {"go": 1, "have": 1}
        assert len(store.mistakes("Ana")) == 2
