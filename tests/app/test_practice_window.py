"""A learner types a sentence, presses Ctrl+Enter and reads the card; the correction lands in the store."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from app.views.card import emphasised
from tutor.scope import load_scope
from tutor.store import Store
from tutor.tutoring import Recorded

pytestmark = pytest.mark.model


def test_an_error_is_struck_through_with_chips_spanish_and_explanations(correct_by_keyboard,
                                                                        qtbot, make_window, engine, db_path,
                                                                      reads_done):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    result = correct_by_keyboard(qtbot, window, "He goed to school yesterday.")

    card = window.practice.card
    assert card.kind == "error"
    assert card.title.text() == "Let's fix the verb"
    html = card.sentence.text()
    assert "line-through" in html
    assert html.index("goed") < html.index("went")  # the correct form sits beside the struck word
    assert (card.verb_chip.text(), card.tense_chip.text()) == ("go", "past simple")
    assert card.person_chip.text().startswith("3rd singular")
    assert "fue" in card.spanish.text()
    assert "went" in card.explanation_en.text() and not card.explanation_en.isHidden()
    assert "went" in card.explanation_es.text() and not card.explanation_es.isHidden()
    assert "goed went" in card.plain_text()  # what a screen reader hears: the struck word, then the fix
    assert '"verb"' in window.practice.streamed  # the model's output streamed in while it decoded
    assert window.practice.stream.isHidden() and window.practice.busy.isHidden()
    assert window.mask_label.text() == window.status_line(result)
    assert window.mask_label.text().startswith("checked with the model · ")  # words a learner can use
    assert "token" not in window.mask_label.text() and "forced" not in window.mask_label.text()
    details = window.mask_label.toolTip()  # the decoding details stay one hover away
    if result.timings.tokens_sampled:
        assert details == result.timings.status_line() and details.startswith("mask ")
    else:  # the judge chose, then the answer was forced byte by byte: the details say the model judged
        assert result.timings.model_judged  # 'goed' has candidates, so the model scored them
        assert details.startswith("judged by the model in ")
    assert f"{result.timings.tokens_forced} " in details and "forced" in details

    with Store.open(db_path) as store:
        rows = store.history("Ana")
    assert len(rows) == 1
    row = rows[0]
    assert (row["original"], row["verb"], row["correct_form"], row["is_correct"]) == (
        "He goed to school yesterday.",
        "go",
        "went",
        False,
    )
    assert row["mask_p50_us"] == pytest.approx(result.timings.mask_p50_us)
    # the status line speaks of the Practice page's sentence: it is not shown beside a text or the history
    window.tabs.setCurrentWidget(window.text_view)
    assert window.mask_label.isHidden()
    window.tabs.setCurrentWidget(window.practice)
    assert not window.mask_label.isHidden() and window.mask_label.text() == window.status_line(result)


def test_a_correct_sentence_gets_a_clear_correct(correct_by_keyboard, qtbot, make_window, engine):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    result = correct_by_keyboard(qtbot, window, "She has a cat.")
    assert result.is_correct
    card = window.practice.card
    assert card.kind == "correct"
    assert card.title.text() == "Correct!"
    assert "line-through" not in card.sentence.text()
    assert card.verb_chip.text() == "have"


def test_an_out_of_scope_sentence_lists_the_twenty_verbs(correct_by_keyboard, qtbot, make_window, engine):
    window = make_window(tutor=engine)
    result = correct_by_keyboard(qtbot, window, "I forgetted my umbrella.")
    assert result.out_of_scope
    card = window.practice.card
    assert card.kind == "out_of_scope"
    verbs = card.verbs.text()
    assert all(verb in verbs for verb in load_scope().verbs)
    assert card.chips_box.isHidden()
    assert "forget" in card.notes.text()  # the Text tab's note on the verb outside the 20


def test_a_modal_before_a_past_form_gets_the_modal_explanation_never_correct(correct_by_keyboard,
                                                                             qtbot, make_window, engine):
    """Issue 20: *You should came to the party* once showed "Correct! *come* is the right form here"."""
    window = make_window(tutor=engine)
    result = correct_by_keyboard(qtbot, window, "You should came to the party")
    card = window.practice.card
    assert not result.is_correct and result.output["correct_form"] == "come"
    assert card.kind in {"error", "not_sure"} and card.title.text() != "Correct!"
    assert "line-through" in card.sentence.text() and ">came<" in card.sentence.text()
    english, spanish = card.explanation_en.text(), card.explanation_es.text()
    assert "modal" in english and "<i>come</i>" in english, english
    assert "modal" in spanish and "<i>come</i>" in spanish, spanish
    assert "right form" not in card.plain_text()


def test_a_plural_subject_gets_the_plural_message_not_the_verb_list(correct_by_keyboard, qtbot, make_window, engine):
    """Issue 20: *My brothers is students.* once said the verb to fix is not one of the 20 (*is* is one)."""
    from tutor.a13.analysis import analyse
    from tutor.a13.explain import explain_abstention

    window = make_window(tutor=engine)
    sentence = "My brothers is students."
    result = correct_by_keyboard(qtbot, window, sentence)
    assert result.out_of_scope
    card = window.practice.card
    english, spanish = explain_abstention(analyse(sentence))
    assert "plural" in english and "*are*" in english  # what tutor.a13.explain says; the card must show it
    assert card.kind == "out_of_scope" and card.title.text() == "I only check singular subjects"
    assert card.explanation_en.text() == f"<b>EN</b>&nbsp; {emphasised(english)}"
    assert card.explanation_es.text() == f"<b>ES</b>&nbsp; {emphasised(spanish)}"
    plain = card.plain_text()
    assert "not on my list" not in plain and "not one of them" not in plain
    assert card.verbs.isHidden() and card.chips_box.isHidden()


@pytest.mark.parametrize("sentence", ["I am agree with you.", "He don't want to come.", "She have 25 years.",
                                      "People is very friendly here."])
def test_a_known_learner_pattern_gets_the_text_tabs_neutral_note_never_correct(correct_by_keyboard,
                                                                               qtbot, make_window, engine, sentence):
    """Outside §A13's labels: no praise and no fix, the same note the Text tab shows for the same sentence."""
    window = make_window(tutor=engine)
    correct_by_keyboard(qtbot, window, sentence)
    card = window.practice.card
    text_tab_notes = engine.check(sentence).notes
    assert text_tab_notes, "the Text tab has a note for this sentence"
    assert card.kind == "note"
    assert "Correct" not in card.plain_text() and "fix" not in card.title.text()
    assert card.title.text() == f"Note: {text_tab_notes[0].written}"
    shown = card.plain_text()  # the Text tab's messages, word for word (their *marks* become bold)
    assert all(note.message_en.replace("*", "") in shown for note in text_tab_notes)
    assert card.chips_box.isHidden() and "line-through" not in card.sentence.text()


def test_a_note_elsewhere_in_the_sentence_does_not_hide_a_real_fix(correct_by_keyboard, qtbot, make_window, engine):
    window = make_window(tutor=engine)
    result = correct_by_keyboard(qtbot, window, "I am agree that he goed home.")
    card = window.practice.card
    assert not result.is_correct and result.error_span == "goed"
    assert card.kind == "error" and "line-through" in card.sentence.text()
    assert not card.notes.isHidden() and "agree" in card.notes.text()


def test_the_correct_button_works_too_and_history_refreshes(qtbot, make_window, engine, reads_done):
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    qtbot.keyClicks(window.practice.editor, "She have a cat.")
    with qtbot.waitSignal(window.correction_done, timeout=60000):
        qtbot.mouseClick(window.practice.correct_button, Qt.MouseButton.LeftButton)
    window.show_tab(1)
    reads_done()
    assert window.history.model.rowCount() == 1
    assert window.history.model.row(0)["original"] == "She have a cat."


def test_without_a_learner_the_card_shows_and_nothing_is_saved(correct_by_keyboard,
                                                               qtbot, make_window, engine, db_path):
    window = make_window(tutor=engine)
    assert window.learner == ""
    correct_by_keyboard(qtbot, window, "She have a cat.")
    assert window.practice.card.kind in {"error", "not_sure"}
    assert "learner" in window.practice.hint.text()
    with Store.open(db_path) as store:
        assert store.count_history() == 0


def test_low_confidence_is_shown_as_not_sure_not_as_fact(make_window, engine, result_factory):
    """The Judge decides (its fitted not_sure_below); the window asks it and the card shows its answer."""
    window = make_window(tutor=engine)
    card = window.practice.card
    low = result_factory("She want to goes home.", ("want", "present simple", "3rd singular", "wants", "quiere"),
                         wrong="want", confidence=0.31)
    assert not engine.judge.is_sure(0.31) and engine.judge.is_sure(0.99)
    window._on_corrected(Recorded(low))
    assert card.kind == "not_sure"
    assert card.title.text() == "Not sure"
    assert "31 %" in card.note.text() and "teacher" in card.note.text()
    assert "#8a4b00" in card.sentence.text()  # the suggestion is in amber, not in the green of a sure fix
    window._on_corrected(Recorded(replace(low, confidence=0.99)))
    assert card.kind == "error"


def test_the_latency_tab_shows_the_timings_of_real_corrections(correct_by_keyboard,
                                                               qtbot, make_window, engine, reads_done):
    """The default pipeline forces its answer (no masked sampling): the tab shows the time per correction."""
    window = make_window(tutor=engine)
    window.learner_bar.create("Ana")
    reads_done()
    results = [correct_by_keyboard(qtbot, window, s) for s in ("He goed to school.", "She have a cat.")]
    with qtbot.waitSignal(window.teacher.dashboard.stats_ready, timeout=10000):
        window.show_tab(2)  # no passphrase set: the dashboard is open
    board = window.teacher.dashboard
    text = board.latency_text.text()
    assert "No timings" not in text and f"{engine.model.name}: 2 corrections" in text, text
    assert "ms per correction" in text
    assert sum(values[0] for _, values in board.latency_chart.rows) == 2
    slowest = max(r.timings.total_ms for r in results)
    assert f"p99 {slowest:.0f} ms" in text  # the nearest-rank p99 of two is the slower one


def test_the_choose_a_learner_hint_goes_once_a_learner_is_created(correct_by_keyboard,
                                                                  qtbot, make_window, engine, reads_done):
    window = make_window(tutor=engine)
    correct_by_keyboard(qtbot, window, "She have a cat.")
    assert window.practice.hint_kind == "no_learner" and not window.practice.hint.isHidden()
    window.learner_bar.create("Ana")
    reads_done()
    assert window.practice.hint.isHidden() and window.practice.hint_kind == ""
