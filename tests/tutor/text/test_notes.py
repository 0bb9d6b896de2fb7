"""The notes' patterns are data; every example in data/notes/patterns.json is run here."""

from __future__ import annotations

import pytest

from tutor.text.notes import notes_for, patterns

CASES = [(p.id, ex, True) for p in patterns() for ex in p.examples] + [
    (p.id, ex, False) for p in patterns() for ex in p.counter_examples]


@pytest.mark.parametrize(("pattern_id", "sentence", "matches"), CASES)
def test_pattern_examples(pattern_id, sentence, matches):
    kinds = {n.kind for n in notes_for(sentence)}
    assert (pattern_id in kinds) is matches


def test_do_support_and_outside_verbs_get_notes_with_spans():
    sentence = "She doesn't likes it and I forgetted my keys."
    notes = notes_for(sentence, offset=10)
    by_kind = {n.kind: n for n in notes}
    assert by_kind["do_support"].written == "doesn't likes"
    assert sentence[by_kind["outside_verb"].start - 10: by_kind["outside_verb"].end - 10] == "forgetted"
    assert "forget" in by_kind["outside_verb"].message_en


def test_a_noun_likelier_wrong_than_its_verb_gets_a_note_with_its_plural():
    from tutor.a13.analysis import analyse
    from tutor.text.notes import noun_notes

    sentence = "There are a lot of beautiful beach here and computer have changed our lives."
    notes = {n.written: n for n in noun_notes(analyse(sentence), offset=5)}
    assert notes["beach"].kind == "noun_number" and "*beaches*" in notes["beach"].message_en
    assert notes["beach"].start == 5 + sentence.index("beach")
    assert notes["computer"].kind == "bare_noun" and "*computers*" in notes["computer"].message_es
    assert noun_notes(analyse("School starts at eight every day.")) == []  # a bare noun with a singular verb
