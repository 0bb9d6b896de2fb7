"""judge-fit's report threshold: a change is reported only when no change is unlikely enough."""

from __future__ import annotations

import json

import pytest

from tutor.judge.fit import Case
from tutor.judge.thresholds import REPORT_GRID, real_density_weights, report_counts, report_threshold

W = {"x": 1.0}


def case(p_keep_score: float, p_change_score: float, gold: int) -> Case:
    """A slot of two candidates (0: no change, 1: a change) with linear scores on feature x."""
    return Case([{"x": p_keep_score}, {"x": p_change_score}], gold, "t")


def test_report_counts_count_right_and_wrong_reports():
    cases = [case(0.0, 3.0, 1),   # a clear, right report
             case(0.0, 0.4, 0),   # a weak report on a correct slot: a false alarm at 0.5
             case(0.0, 2.0, 0),   # a confident false alarm
             case(1.0, 0.0, 1)]   # a missed error
    assert report_counts(cases, W, 0.5) == (1, 2, 2)
    assert report_counts(cases, W, 0.2) == (1, 1, 2)  # the weak one (no change ≈ 0.40) is no longer reported


def test_the_threshold_favours_precision_when_weak_reports_are_wrong():
    weak_wrong = [case(0.0, 0.3, 0) for _ in range(10)]
    strong_right = [case(0.0, 4.0, 1) for _ in range(10)]
    t, lines = report_threshold(weak_wrong + strong_right, W)
    assert t < 0.45 and len(lines) == len(REPORT_GRID)
    right, wrong, _ = report_counts(weak_wrong + strong_right, W, t)
    assert (right, wrong) == (10, 0)


def test_true_findings_of_a_dense_set_are_weighted_down_to_the_real_density():
    weak_right = [case(0.0, 0.3, 1) for _ in range(10)]   # weak reports, right, in a set ten times too dense
    weak_wrong = [case(0.0, 0.3, 0) for _ in range(3)]
    strong_right = [case(0.0, 4.0, 1) for _ in range(5)]
    cases = weak_right + weak_wrong + strong_right
    assert report_threshold(cases, W)[0] == 0.5  # at the set's own density the weak reports pay
    dense = real_density_weights({"t": 3.0})       # 3 errors per 1,000 words: ten times the real 0.3
    assert dense(weak_right[0]) == pytest.approx(0.1)
    assert report_threshold(cases, W, dense)[0] <= 0.4  # at the real density they do not


def test_the_threshold_stays_at_one_half_when_weak_reports_are_right():
    cases = [case(0.0, 0.3, 1) for _ in range(10)] + [case(0.0, 4.0, 1) for _ in range(10)]
    assert report_threshold(cases, W)[0] == 0.5


@pytest.mark.model
def test_findings_follow_report_below_in_the_weights_file(tutor_engine, tmp_path, monkeypatch):
    from tutor.judge.judge import Calibration, weights_path

    sentence = "My sister always watch TV after dinner."
    assert tutor_engine.judged(sentence).findings()  # watches, with the shipped weights
    assert tutor_engine.check(sentence).findings
    weights = json.loads(weights_path().read_text(encoding="utf-8"))
    weights["report_below"] = weights["report_below_text"] = 0.0  # no change is ever unlikely enough
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(weights), encoding="utf-8")
    monkeypatch.setenv("GRAMMAR_TUTOR_JUDGE_WEIGHTS", str(path))
    assert weights_path() == path
    strict = tutor_engine.with_calibration(Calibration.read(weights_path()))
    assert strict.judged(sentence).findings() == []
    assert strict.check(sentence).findings == []
    assert tutor_engine.judged(sentence).findings()  # the shared tutor's judge keeps its own calibration


def test_the_thresholds_are_read_in_one_place_and_the_report_ones_capped_at_one_half():
    from tutor.judge.judge import Calibration

    cal = Calibration.from_dict({"report_below": 0.7, "not_sure_below": 0.65})
    assert (cal.report_below, cal.report_below_text, cal.not_sure_below) == (0.5, 0.5, 0.65)
    cal = Calibration.from_dict({"report_below": 0.3, "report_below_text": 0.2})
    assert (cal.report_below, cal.report_below_text, cal.not_sure_below) == (0.3, 0.2, 0.6)
