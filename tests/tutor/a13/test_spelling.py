"""Misspelled forms of the 20 verbs are read as the one form they are nearest to."""

import pytest

from tutor.a13.analysis import analyse
from tutor.a13.spelling import nearest_form


@pytest.mark.parametrize(("word", "form"), [
    ("finised", "finished"),   # one letter missing
    ("wirte", "write"),        # two letters swapped
    ("lisened", "listened"),
    ("lookd", "looked"),       # look / looks / looked are all one edit away: the final d says past
    ("studyed", "studied"),
    ("wahtced", "watched"),    # wanted / watched are as near: the same letters in another order decide
    ("loked", "looked"),       # looked / liked are one edit away: a dropped letter is likelier than a wrong one
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


@pytest.mark.parametrize("word", ["neighbour", "favourite", "centre", "programme", "realise", "colour"])
def test_british_spellings_are_words(word):
    from tutor.a13.spelling import is_non_word

    assert not is_non_word(word)


@pytest.mark.parametrize("word", ["woubl", "becouse", "realy"])
def test_garbled_words_are_still_non_words(word):
    from tutor.a13.spelling import is_non_word

    assert is_non_word(word)


def test_a_verb_after_a_british_spelling_keeps_its_frame():
    from tutor.a13.analysis import analyse

    options = analyse("My neighbour go to the gym every morning.").options
    assert [(o.written, o.cell.english[0]) for o in options if o.is_error] == [("go", "goes")]


@pytest.mark.parametrize("sentence", [
    "On Saturday we listened to a group called Arde Negro at the festival.",  # 'Arde' is one letter from 'are'
    "My best friend at school was a girl named Arde.",
])
def test_a_capitalised_word_after_the_first_is_a_name_not_a_misspelled_verb(sentence):
    assert [o.written for o in analyse(sentence).options if o.is_error] == []


def test_a_misspelled_verb_in_lower_case_is_still_read():
    assert "wached" in [o.written for o in analyse("Yesterday my brother wached a film about sharks.").options
                        if o.is_error]
