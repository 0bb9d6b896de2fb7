"""Checking a text again as it is edited: the edit's arithmetic, what to judge again, and the real model's reuse."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.decoding.score_cache import ScoreCache
from tutor.text.check import Finding
from tutor.text.incremental import Edit, IncrementalChecker, changed_sentences, to_rejudge
from tutor.text.notes import Note


def finding(text: str, written: str) -> Finding:
    """Return a finding of the first `written` in `text`."""
    start = text.index(written)
    return Finding(text, "go", "past simple", "3rd singular", "went", "fue", start, start + len(written), written,
                   0.9, "", "")


@given(st.text(max_size=30), st.text(max_size=30))
def test_the_edit_between_two_texts_turns_one_into_the_other(old, new):
    edit = Edit.between(old, new)
    assert 0 <= edit.start <= edit.old_end <= len(old) and edit.start <= edit.new_end <= len(new)
    assert old[:edit.start] + new[edit.start:edit.new_end] + old[edit.old_end:] == new
    assert edit.delta == len(new) - len(old)


@given(st.text(alphabet="ab .", max_size=25), st.text(alphabet="ab .", max_size=25), st.data())
def test_a_remapped_span_still_points_at_the_same_characters(old, new, data):
    a = data.draw(st.integers(0, len(old)))
    b = data.draw(st.integers(a, len(old)))
    note = Note(a, b, old[a:b], "k", "", "")
    [*kept] = Edit.between(old, new).remap([note], old, new)
    for n in kept:
        assert new[n.start:n.end] == old[a:b]


def test_spans_move_with_the_text_and_a_touched_word_is_dropped():
    old = "She have a cat. Yesterday he goed home."
    have, goed = finding(old, "have"), finding(old, "goed")
    new = "Today she have a cat. Yesterday he goed home."  # typed before both
    moved = Edit.between(old, new).remap([have, goed], old, new)
    assert [(new[f.start:f.end], f.start) for f in moved] == [("have", 10), ("goed", 35)]
    typed_on = "She have a cat. Yesterday he goedd home."  # a letter typed onto the end of "goed"
    assert Edit.between(old, typed_on).remap([have, goed], old, typed_on) == [have]
    spaced = "She have a cat. Yesterday he goed  home."  # a space after it leaves the word whole
    assert Edit.between(old, spaced).remap([have, goed], old, spaced) == [have, goed]
    replaced = "She has a cat. Yesterday he goed home."
    assert [f.written for f in Edit.between(old, replaced).remap([have, goed], old, replaced)] == ["goed"]


def test_changed_sentences_and_the_ones_to_judge_again():
    old = ["A one.", "B two.", "C three.", "D four."]
    assert changed_sentences(old, old) == []
    assert changed_sentences(old, ["A one.", "B 2.", "C three.", "D four."]) == [1]
    assert changed_sentences(old, ["A one.", "New.", "B two.", "C three.", "D four."]) == [1]
    assert changed_sentences(old, ["A one.", "C three.", "D four."]) == [1]  # C now follows A
    assert to_rejudge([1], 4) == [1, 2] and to_rejudge([3], 4) == [3] and to_rejudge([0, 1], 4) == [0, 1, 2]


class CountingModel:
    """A stand-in for the model's scorer that counts its calls (the layer above the model, alone)."""

    def __init__(self) -> None:
        self.calls = 0
        self.vocab_size = 7

    def token_logprobs(self, prompt, variants, skip=None):
        self.calls += 1
        return [np.full(len(v), -float(len(prompt) + k)) for k, v in enumerate(variants)]


def test_the_cache_answers_the_same_request_without_the_model_and_passes_the_rest_through():
    model = CountingModel()
    cache = ScoreCache(model, max_entries=2)
    first = cache.token_logprobs([1, 2], [[3, 4], [3, 5]], [1, 1])
    first[0][:] = 0.0  # the caller may write into what it gets: the kept copy is untouched
    again = cache.token_logprobs([1, 2], [[3, 4], [3, 5]], [1, 1])
    assert model.calls == 1 and cache.hits == 1 and np.array_equal(again[0], [-2.0, -2.0])
    cache.token_logprobs([1, 2], [[3, 4], [3, 5]])  # no skip is another request
    cache.token_logprobs([9], [[3]])
    assert model.calls == 3 and len(cache) == 2  # the least recently used request went
    cache.token_logprobs([1, 2], [[3, 4], [3, 5]], [1, 1])
    assert model.calls == 4
    assert cache.vocab_size == 7  # everything else is the model's own


@given(st.lists(st.lists(st.integers(0, 300), max_size=4), min_size=1, max_size=4),
       st.lists(st.lists(st.integers(0, 300), max_size=4), min_size=1, max_size=4))
def test_two_different_requests_never_share_a_key(a, b):
    from tutor.decoding.score_cache import request_key

    assert (request_key(a[0], a[1:], None) == request_key(b[0], b[1:], None)) == (a == b)


# -- with the real model ------------------------------------------------------------------------------

TEXT = ("Last summer I go to the beach with my cousin. She watch the waves every morning. "
        "My uncle work in a small hotel near the port. He have a new surfboard. I eated fish in a small restaurant.")


@pytest.mark.model
def test_a_recheck_reads_only_the_changed_sentence_and_the_next_and_equals_a_full_check(tutor_engine):
    checker = IncrementalChecker(tutor_engine)
    first = checker.check(TEXT)
    assert first.findings and first.rescored  # a full check: the model read the sentences
    assert first.tokens_evaluated > 0
    edited = TEXT.replace("a new surfboard", "a red surfboard")  # one edit in the fourth sentence
    again = checker.check(edited)
    assert set(again.rescored) <= {3, 4} and 3 in again.rescored
    assert again.tokens_evaluated < first.tokens_evaluated / 2
    fresh = tutor_engine.check(edited)  # the same text checked from nothing
    assert [f.to_dict() for f in again.findings] == [f.to_dict() for f in fresh.findings]
    assert again.to_dict() == fresh.to_dict()
    same = checker.check(edited)
    assert same.rescored == [] and same.tokens_evaluated == 0 and same.to_dict() == fresh.to_dict()
    checker.forget()
    assert checker.check(edited).rescored == fresh_rescored(tutor_engine, edited)


def fresh_rescored(tutor, text: str) -> list[int]:
    """Return the sentences a checker with nothing kept reads for `text`."""
    return IncrementalChecker(tutor).check(text).rescored


@pytest.mark.model
def test_a_fix_the_learner_applies_does_not_reread_the_next_sentence(tutor_engine):
    checker = IncrementalChecker(tutor_engine)
    first = checker.check(TEXT)
    fix = next(f for f in first.findings if f.written == "have")
    fixed = first.corrected_text([fix])
    again = checker.check(fixed)
    index = next(k for k, (a, b) in enumerate(again.sentences) if a <= fix.start < b)
    # the next sentence read this one as corrected already: the same request, so it is not read again
    # (a sentence elsewhere may still be: the text's tense share is evidence for every sentence)
    assert index + 1 not in again.rescored and again.tokens_evaluated < first.tokens_evaluated / 2
    assert again.to_dict() == tutor_engine.check(fixed).to_dict()
    assert "have" not in [f.written for f in again.findings]


@pytest.mark.model
def test_a_recheck_parses_only_the_sentence_that_changed(tutor_engine, monkeypatch):
    """Analyses are kept by sentence: the parser reads the edited sentence again, and no other."""
    import tutor.a13.analysis as analysis

    checker = IncrementalChecker(tutor_engine)
    text = TEXT.replace("small hotel", "quiet hotel")  # sentences no other test has analysed
    checker.check(text)
    parsed: list[str] = []
    real_parse = analysis.parse
    monkeypatch.setattr(analysis, "parse", lambda sentence, *a, **k: parsed.append(sentence) or
                        real_parse(sentence, *a, **k))
    edited = text.replace("every morning", "every evening")
    again = checker.check(edited)
    assert parsed == ["She watch the waves every evening."]
    assert again.to_dict() == tutor_engine.check(edited).to_dict()  # the same answer as a full check
