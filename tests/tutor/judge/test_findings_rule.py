"""The Judge's thresholds and its one findings rule, on hand-made verdicts (no model)."""

from __future__ import annotations

import pytest

from tutor.judge.judge import Calibration, Judge
from tutor.judge.scores import SlotVerdict
from tutor.judge.slots import Candidate, Slot
from tutor.scope import load_scope


def _verdict(p_no_change: float) -> SlotVerdict:
    """Return a verdict on 'goed' (at 3..7 in its sentence): went with 1 - p_no_change, no change with the rest."""
    cell = load_scope().cell("go", "past simple", "3rd singular")
    keep = Candidate(3, 7, "goed", "goed", None, False)
    went = Candidate(3, 7, "goed", "went", cell, True, "went")
    ranked = sorted([(keep, p_no_change), (went, 1 - p_no_change)], key=lambda x: -x[1])
    return SlotVerdict(Slot(3, 7, "goed", [keep, went]), tuple(ranked))


class _Note:
    def __init__(self, start: int, end: int) -> None:
        self.start, self.end = start, end


def test_the_findings_rule_is_one_function_of_the_judges_threshold():
    assert _verdict(0.2).finding(0.3).replacement == "went"
    assert _verdict(0.2).finding(0.1) is None  # no change not unlikely enough under a stricter threshold
    assert _verdict(0.6).finding(0.5) is None  # the best reading is no change
    assert _verdict(0.2).finding(0.3, [_Note(13, 16)], offset=10) is None  # a note covers it (text 13..17)
    assert _verdict(0.2).finding(0.3, [_Note(0, 12)], offset=10) is not None  # a note elsewhere


def test_the_judge_owns_both_report_thresholds_and_not_sure():
    cal = Calibration.from_dict({"report_below": 0.3, "report_below_text": 0.2, "not_sure_below": 0.7})
    judge = Judge(None, "any-model", calibration=cal)
    assert (judge.report_below("sentence"), judge.report_below("text")) == (0.3, 0.2)
    assert judge.is_sure(0.7) and not judge.is_sure(0.69)
    with pytest.raises(ValueError, match="sentence, text"):
        judge.report_below("paragraph")
    assert judge.replace(use_model=False).calibration is cal
