"""The judge's weights come from a fit (conditional logit), never from numbers typed by hand."""

from __future__ import annotations

import json

from tutor.judge.fit import Case, fit, log_likelihood
from tutor.judge.judge import Calibration, shipped_calibration
from tutor.judge.scores import LM_FEATURES
from tutor.resources import data_path


def test_fit_learns_that_a_helpful_feature_predicts_the_gold_candidate():
    cases = []
    for k in range(60):
        good = 1.0 + (k % 5)
        cases.append(Case([{}, {"change": 1.0, "lm": good}, {"change": 1.0, "lm": -good}], 1, "synthetic"))
        cases.append(Case([{}, {"change": 1.0, "lm": -good}], 0, "synthetic"))
    w = fit(cases, use_model=True, l2=0.1)
    assert w["lm"] > 0.5
    ll, acc = log_likelihood(cases, w)
    assert acc == 1.0 and ll > -0.5
    w_no = fit(cases, use_model=False, l2=0.1)
    assert not set(w_no) & set(LM_FEATURES)


def test_the_shipped_weights_were_fitted_and_say_on_what():
    raw = json.loads(data_path("judge", "weights.json").read_text(encoding="utf-8"))
    assert Calibration.from_dict(raw) == shipped_calibration()
    entry = raw["models"][raw["default_model"]]
    assert entry["with_model"]["lm"] > 0  # the model's score counts for the correction it prefers
    assert "lm" not in entry["without_model"]
    assert all(s["slots"] > 0 for s in entry["fitted_on"])
    fitted = {s["set"] for s in entry["fitted_on"]}
    assert not fitted & set(entry["held_out"])  # held-out sets are never fitted on
    assert "judge-fit" in raw["_comment"]
