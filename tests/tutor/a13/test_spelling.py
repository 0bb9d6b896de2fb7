"""Misspelled forms of the 20 verbs are read as the one form they are nearest to."""

import pytest

from tutor.a13.spelling import nearest_form


@pytest.mark.parametrize(("word", "form"), [
    ("finised", "finished"),   # one letter missing
    ("wirte", "write"),        # two letters swapped
    ("lisened", "listened"),
    ("lookd", "looked"),       # look / looks / looked are all one edit away: the final d says past
    ("studyed", "studied"),
])
def test_a_misspelling_is_read_as_its_nearest_form(word, form):
    assert nearest_form(word) == form


@pytest.mark.parametrize("word", [
    "word",   # an English word of its own
    "tall",
    "wark",   # work / walk: equally near and both end in k, so no single reading
    "go",     # too short to judge
])
def test_no_reading_for_real_words_and_remaining_ties(word):
    assert nearest_form(word) is None
