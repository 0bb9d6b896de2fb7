"""Cards from one saved mistake: the gap, the hint, the answer from the §A13 table, and the variants."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutor.practice.cards import BASE, MISTAKE, OTHER_PERSON, OTHER_VERB, WRITTEN, cards_for, gap_of, shows_answer
from tutor.scope import load_scope

LEARNER = "0b7f1c1e-1d2a-4c3b-9a8d-7e6f5a4b3c2d"
DATA = Path(__file__).resolve().parents[3] / "tests" / "data"


def row(original, written, verb, tense, person, correct_form, **extra):
    start = original.index(written)
    return {"id": "c-" + original, "original": original, "error_span": written, "error_start": start,
            "error_end": start + len(written), "verb": verb, "tense": tense, "person": person,
            "correct_form": correct_form, **extra}


def test_the_learners_sentence_is_gapped_with_the_base_form_in_brackets():
    cards = cards_for(row("Yesterday he go to school.", "go", "go", "past simple", "3rd singular", "went"), LEARNER)
    first = cards[0]
    assert first.origin == MISTAKE and first.prompt == "Yesterday he ___ (go) to school."
    assert first.answer == "went" and first.accepted == ("went",) and first.hint_kind == BASE
    assert first.error_type == "base_for_past"
    assert {c.origin for c in cards[1:]} <= {OTHER_PERSON, OTHER_VERB} and len(cards) == 3


@pytest.mark.parametrize(("original", "written", "cell", "form", "prompt", "answer"), [
    ("She will goes home.", "will goes", ("go", "simple future", "3rd singular"), "will go",
     "She ___ (go) home.", "will go"),
    ("I'll came tomorrow.", "came", ("come", "simple future", "1st singular"), "will come",
     "I'll ___ (you wrote came) tomorrow.", "come"),
    ("He needs to does more exercise.", "to does", ("do", "infinitive", "3rd singular"), "to do",
     "He needs ___ (do) more exercise.", "to do"),
    ("You should came early.", "came", ("come", "infinitive", "2nd singular"), "come",
     "You should ___ (you wrote came) early.", "come"),
    ("I have seen that film two days ago.", "have seen", ("see", "past simple", "1st singular"), "saw",
     "I ___ (see) that film two days ago.", "saw"),
])
def test_the_gap_takes_the_form_that_fits_it(original, written, cell, form, prompt, answer):
    [first, *_] = cards_for(row(original, written, *cell, form), LEARNER)
    assert first.prompt == prompt and first.answer == answer
    assert first.hint_kind == (WRITTEN if answer == cell[0] else BASE)


def test_a_text_findings_offsets_are_moved_into_its_sentence():
    text = "I like my town. Yesterday he go to school. He was happy."
    found = row("Yesterday he go to school.", "go", "go", "past simple", "3rd singular", "went", source_text=text)
    found["error_start"], found["error_end"] = text.index(" go ") + 1, text.index(" go ") + 3
    assert gap_of(found) == ("Yesterday he go to school.", 13, 15)


def test_a_row_without_a_cell_or_a_findable_span_gives_no_card():
    assert cards_for(row("He goed home.", "goed", "fly", "past simple", "3rd singular", "flew"), LEARNER) == []
    broken = row("He goed home.", "goed", "go", "past simple", "3rd singular", "went")
    broken.update(error_span="walked", error_start=50, error_end=56)
    assert cards_for(broken, LEARNER) == []
    wrong_form = row("He goed home.", "goed", "go", "past simple", "3rd singular", "goes")
    assert cards_for(wrong_form, LEARNER) == []  # a correct_form that is not the cell's is never practised


def test_card_ids_depend_on_the_learner_and_the_text_only():
    one = cards_for(row("She have two dogs.", "have", "have", "present simple", "3rd singular", "has"), LEARNER)
    again = cards_for(row("She have two dogs.", "have", "have", "present simple", "3rd singular", "has",
                          id="another correction"), LEARNER)
    other = cards_for(row("She have two dogs.", "have", "have", "present simple", "3rd singular", "has"),
                      "1b7f1c1e-1d2a-4c3b-9a8d-7e6f5a4b3c2d")
    assert [c.id for c in one] == [c.id for c in again]
    assert not {c.id for c in one} & {c.id for c in other}


def _labelled_items():
    for name in ("real_test.jsonl", "real_dev.jsonl", "heldout.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            if item.get("gold") and item.get("error_type") not in ("correct", "out_of_scope") and \
                    item["error_span"] in item["original"]:
                yield item


def test_no_card_built_from_the_labelled_sets_shows_its_answer_and_each_answer_is_the_tables():
    scope = load_scope()
    built = 0
    for item in _labelled_items():
        gold = item["gold"]
        cards = cards_for(row(item["original"], item["error_span"], gold["verb"], gold["tense"], gold["person"],
                              gold["correct_form"]), LEARNER)
        for card in cards:
            built += 1
            cell = scope.cell(card.verb, card.tense, card.person)
            assert card.answer.lower() in cell.english or f"will {card.answer.lower()}" in cell.english, card
            prompt_words = " " + " ".join(re.findall(r"[\w']+", card.prompt.lower())) + " "
            if card.origin != MISTAKE:  # the learner's own sentence may use the form elsewhere (checked below)
                assert f" {card.answer.lower()} " not in prompt_words, card.prompt
            assert "___" in card.prompt and card.prompt.count("___") == 1
    assert built > 1000


def test_a_learner_sentence_rarely_holds_its_own_answer_elsewhere():
    items = list(_labelled_items())
    shown = [item["original"] for item in items
             if any(shows_answer(c) for c in cards_for(row(item["original"], item["error_span"],
                                                           *item["gold"].values()), LEARNER)[:1])]
    assert len(shown) <= len(items) // 50, shown


def test_a_prompt_shows_the_sentences_other_mistakes_corrected():
    """Two mistakes of one sentence give two cards; each quotes the other one corrected, never as written."""
    from tutor.practice.cards import sentence_fixes

    sentence = "Yesterday she go to the park and eat an ice cream."
    go = row(sentence, "go", "go", "past simple", "3rd singular", "went")
    eat = {**row(sentence, "eat", "eat", "past simple", "3rd singular", "ate"), "id": "c-eat"}
    elsewhere = {**row("He go home.", "go", "go", "present simple", "3rd singular", "goes"), "id": "c-other"}
    fixes = sentence_fixes([go, eat, elsewhere])
    assert fixes["c-other"] == ()
    [first, *_] = cards_for(go, LEARNER, fixes[go["id"]])
    assert first.prompt == "Yesterday she ___ (go) to the park and ate an ice cream."
    [second, *_] = cards_for(eat, LEARNER, fixes["c-eat"])
    assert second.prompt == "Yesterday she went to the park and ___ (eat) an ice cream."
