"""The analyser proposes: every slot has 'no change' first and the changes the general patterns allow."""

from __future__ import annotations

import pytest

from tutor.a13.analysis import analyse
from tutor.judge.slots import build_slots


def changes(sentence: str) -> list[tuple[str, str]]:
    """Return (replacement, error_type) of every change candidate of the sentence."""
    return [(c.replacement, c.error_type) for s in build_slots(analyse(sentence)) for c in s.candidates if c.change]


def test_every_slot_starts_with_no_change():
    slots = build_slots(analyse("My uncle have a farm and he work there every day."))
    assert slots and all(not s.candidates[0].change for s in slots)
    assert all(s.candidates[0].replacement == s.written for s in slots)


@pytest.mark.parametrize(("sentence", "expected"), [
    ("My cousin decided studying law in Madrid.", ("to study", "infinitive_form")),
    ("You should came to the party.", ("come", "infinitive_form")),
    ("My sister can't played the piano.", ("play", "infinitive_form")),
    ("Tomorrow I will watching the final.", ("will watch", "wrong_future")),
    ("I have eaten paella three days ago.", ("ate", "wrong_tense")),
    ("Last summer I finised the course.", ("finished", "wrong_inflection")),
    ("He goed to the market.", ("went", "overregularised_past")),
])
def test_general_patterns_propose_the_correction(sentence, expected):
    assert expected in changes(sentence)


@pytest.mark.parametrize(("sentence", "word"), [
    ("The teachers in our school are very patient.", "are"),
    ("My mother and I are in the kitchen.", "are"),
    ("Our coach made us play in the rain.", "play"),
    ("If I were you, I would ask.", "were"),
    ("The talk was long.", "talk"),
    ("She bought a new watch.", "watch"),
])
def test_patterns_outside_a13_labels_leave_the_word_alone(sentence, word):
    """Plural subjects, bare infinitives after an object, counterfactual 'were', nouns: no change proposed."""
    slots = build_slots(analyse(sentence))
    assert not any(c.change and c.written.split()[-1] == word for s in slots for c in s.candidates)
