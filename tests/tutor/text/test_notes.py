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
    assert "*forgot*" in by_kind["outside_verb"].message_en and "*forgotten*" in by_kind["outside_verb"].message_es


def test_every_outside_verb_of_the_table_gets_its_real_past_or_no_claim():
    """The note gives the past and participle from the English inflection tables, and says nothing it does not
    know: every verb of the out-of-scope table is irregular there, and no form offered is the wrong one itself."""
    from tutor.a13.lexicon import out_of_scope_errors
    from tutor.text.notes import irregular_past

    table = out_of_scope_errors()
    for wrong, verb in table.items():
        forms = irregular_past(verb)
        assert forms is not None, verb
        assert wrong not in forms and all(f not in table for f in forms), (verb, forms)
    assert irregular_past("work") is None  # a regular verb: the note would not claim an irregular past


def test_a_noun_likelier_wrong_than_its_verb_gets_a_note_with_its_plural():
    from tutor.a13.analysis import analyse
    from tutor.text.notes import noun_notes

    sentence = "There are a lot of beautiful beach here and computer have changed our lives."
    notes = {n.written: n for n in noun_notes(analyse(sentence), offset=5)}
    assert notes["beach"].kind == "noun_number" and "*beaches*" in notes["beach"].message_en
    assert notes["beach"].start == 5 + sentence.index("beach")
    assert notes["computer"].kind == "bare_noun" and "*computers*" in notes["computer"].message_es
    assert noun_notes(analyse("School starts at eight every day.")) == []  # a bare noun with a singular verb


@pytest.mark.parametrize(("sentence", "written", "plural"), [
    ("The people in the village was kind to us.", "was", "were"),
    ("My cousins from Lima has a small shop.", "has", "have"),
    ("Last summer we goed to the lake every day.", "goed", "went"),
])
def test_a_plural_subject_with_a_singular_or_broken_form_gets_a_note(sentence, written, plural):
    from tutor.a13.analysis import analyse
    from tutor.text.notes import analysis_notes

    notes = [n for n in analysis_notes(analyse(sentence)) if n.kind == "plural_subject"]
    assert [n.written for n in notes] == [written] and f"*{plural}*" in notes[0].message_en


def test_a_plural_subject_with_a_form_it_takes_gets_no_note():
    from tutor.a13.analysis import analyse
    from tutor.text.notes import analysis_notes

    assert analysis_notes(analyse("My cousins from Lima have a small shop and we eat there.")) == []
    for sentence in ("The people in Granada are very friendly.", "Are video games bad for young people?",
                     "My sister and I were tired, so we're going home.", "The streets are full of tourists."):
        assert [n for n in analysis_notes(analyse(sentence)) if n.kind == "plural_subject"] == [], sentence


def test_every_form_you_takes_is_a_form_a_plural_subject_takes_as_written():
    """*you are*, *you were*, *you go*, *you have*: the present and past forms of the 2nd person singular are the
    plural's too, so a plural subject with one of them never gets a note asking for another form."""
    from tutor.a13.explain import plural_counterpart
    from tutor.scope import load_scope

    scope = load_scope()
    for verb in scope.verbs:
        for tense in ("present simple", "past simple"):
            form = scope.cell(verb, tense, "2nd singular").correct_form
            assert plural_counterpart(form) == form, (verb, tense, form)


@pytest.mark.parametrize("sentence", [
    "In the evening we walked around the old town, is a very nice place.",   # a missing *it*, not a plural subject
    "At night we went to a concert, was the best night of the trip.",
    "Forty minutes is not enough for lunch.",                                 # one amount
    "I am writing about the concert of The Wolves that was cancelled.",       # a relative clause's antecedent
    "The relation with the teachers is very good.",                           # the noun before *is* is not its subject
    "Puppies are cute, but they break everything and is hard to leave them alone.",  # a missing *it*
    "We tried three pizzas and any of them was special.",                     # either number after *any of*
    "Every lessons has a short test at the end.",                             # the noun is the error
    "Walking to work or taking the stairs is enough exercise.",               # agrees with the nearer part
    "The students of the school play jazz there and the ambient is very nice.",  # two clauses, one parse
])
def test_no_plural_subject_note_where_the_verb_may_well_be_right(sentence):
    from tutor.a13.analysis import analyse
    from tutor.text.notes import analysis_notes, notes_for

    notes = analysis_notes(analyse(sentence)) + notes_for(sentence)
    assert [n for n in notes if n.kind in ("plural_subject", "people_singular")] == [], sentence


@pytest.mark.parametrize(("sentence", "written"), [
    ("The informations in the leaflet was wrong.", "informations"),
    ("All the furnitures is new.", "furnitures"),
])
def test_an_uncountable_noun_given_a_plural_gets_the_note_not_its_verb(sentence, written):
    from tutor.a13.analysis import analyse
    from tutor.text.notes import analysis_notes

    notes = analysis_notes(analyse(sentence))
    assert [n.kind for n in notes if n.kind in ("plural_subject", "uncountable_plural")] == ["uncountable_plural"]
    note = next(n for n in notes if n.kind == "uncountable_plural")
    assert note.written == written and f"*{written[:-1]}*" in note.message_en


def test_a_day_named_from_now_is_a_singular_subject_not_a_bare_noun():
    from tutor.a13.analysis import analyse
    from tutor.text.notes import noun_notes

    assert noun_notes(analyse("I think today has been the best day of my life.")) == []
