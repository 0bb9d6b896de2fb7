"""A sentence is judged again with its findings applied, so one error does not hide the next."""

from __future__ import annotations

import pytest

from tutor.judge.in_turn import _apply
from tutor.judge.slots import Candidate


def _fix(sentence: str, word: str, replacement: str) -> Candidate:
    start = sentence.index(word)
    return Candidate(start, start + len(word), word, replacement, None, True)


def test_spans_of_the_corrected_sentence_map_back_to_the_sentence_as_written():
    sentence = "Yesterday she go to the park and eat an ice cream."
    corrected, to_written = _apply(sentence, [_fix(sentence, "go", "went")])
    assert corrected == "Yesterday she went to the park and eat an ice cream."
    eat = corrected.index("eat")
    assert to_written(eat, eat + 3) == (sentence.index("eat"), sentence.index("eat") + 3)
    assert to_written(corrected.index("she"), corrected.index("she") + 3) == (10, 13)  # before the fix: unchanged
    assert to_written(corrected.index("went"), corrected.index("went") + 4) is None  # the fix itself


def test_two_fixes_shift_what_follows_each_by_its_own_length():
    sentence = "He have a dog and she go out and we eat."
    fixes = [_fix(sentence, "have", "has"), _fix(sentence, " go ", " goes ")]
    corrected, to_written = _apply(sentence, fixes)
    assert corrected == "He has a dog and she goes out and we eat."
    k = corrected.index("eat")
    assert to_written(k, k + 3) == (sentence.index("eat"), sentence.index("eat") + 3)


@pytest.mark.model
def test_a_second_error_in_a_sentence_is_found_once_the_first_is_fixed(tutor_engine):
    text = "Yesterday my sister go to the beach and eat a sandwich."
    found = {(f.written, f.correct_form) for f in tutor_engine.check(text).findings}
    assert found == {("go", "went"), ("eat", "ate")}
    judged = tutor_engine.judged(text)
    assert {c.replacement for c, _ in judged.findings()} == {"went", "ate"}
