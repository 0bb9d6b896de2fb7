"""The judge's thresholds and the policy that fits them: when a slot's best change is shown, and when as a question.

`grammar-tutor judge-fit` calls these on the training slots and writes the results to data/judge/weights.json;
`tutor.judge.judge.Calibration` reads them back. They live here, with the judge that applies them, and nowhere else.

A threshold that maximises F0.5 depends on how often an error is there to find. Learners' real exam essays hold
about 0.3 in-scope errors per 1,000 words (issue 28, measured against examiners); the dense development texts hold
ten to forty times more, so their true findings are weighted down to that rate before the texts' threshold is
chosen: a false alarm then costs what it costs a learner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from tutor.judge.fit import Case, case_probabilities

REAL_ERRORS_PER_1000_WORDS = 0.3  # in-scope errors in real exam essays (issue 28)
BETA = 0.5  # F0.5: precision counts twice, a false alarm costs a learner more than a miss
REPORT_GRID = (0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.07, 0.05, 0.03, 0.02, 0.01)
NOT_SURE_TARGET = 0.8  # the lowest band shown as sure is right at least this often
MAX_REPORT_BELOW = 0.5  # above one half, "no change" would be the likelier reading: never a finding


def report_counts(cases: Sequence[Case], weights: dict[str, float], below: float,
                  weight_of: Callable[[Case], float] = lambda c: 1.0) -> tuple[float, float, float]:
    """Return (right reports, wrong reports, gold changes) when a slot's best reading is reported only if it is a
    change and the probability of no change is under `below`; `weight_of` weighs the slots with a gold change."""
    right = wrong = gold_changes = 0.0
    for c in cases:
        p = case_probabilities(c, weights)
        best = int(p.argmax())
        w = weight_of(c) if c.gold != 0 else 1.0
        gold_changes += w if c.gold != 0 else 0.0
        if best != 0 and p[0] < below:
            right += w if best == c.gold else 0.0
            wrong += 0.0 if best == c.gold else w
    return right, wrong, gold_changes


def report_threshold(cases: Sequence[Case], weights: dict[str, float],
                     weight_of: Callable[[Case], float] = lambda c: 1.0) -> tuple[float, list[str]]:
    """Return the report threshold of REPORT_GRID that maximises F0.5 of the findings on `cases` (the largest on a
    tie), and one line per threshold tried."""
    best_t, best_f, lines = MAX_REPORT_BELOW, -1.0, []
    for t in REPORT_GRID:
        right, wrong, gold = report_counts(cases, weights, t, weight_of)
        prec = right / (right + wrong) if right + wrong else 1.0
        rec = right / gold if gold else 1.0
        f = (1 + BETA ** 2) * prec * rec / (BETA ** 2 * prec + rec) if prec + rec else 0.0
        lines.append(f"report below {t:.2f}: findings real {prec:.3f}, errors found {rec:.3f}, F{BETA:g} {f:.4f}")
        if f > best_f + 1e-9:
            best_t, best_f = t, f
    return best_t, lines


def real_density_weights(errors_per_1000_words: dict[str, float]) -> Callable[[Case], float]:
    """Return the weight of a slot with a gold change: its set's error rate brought down to the real one (sets
    already at or below it keep weight 1); `errors_per_1000_words` is by set name (a Case's source)."""
    def weight_of(c: Case) -> float:
        rate = errors_per_1000_words.get(c.source)
        return min(1.0, REAL_ERRORS_PER_1000_WORDS / rate) if rate else 1.0

    return weight_of


def not_sure_threshold(cases: Sequence[Case], weights: dict[str, float]) -> float:
    """Return the lowest confidence t (a grid of 0.05 from 0.5) such that every confidence band from t up is right
    at least NOT_SURE_TARGET of the time on `cases` (the reliability table)."""
    pairs = []
    for c in cases:
        p = case_probabilities(c, weights)
        pairs.append((float(p.max()), int(np.argmax(p)) == c.gold))
    edges = [round(0.5 + 0.05 * k, 2) for k in range(11)]
    best = 1.0
    for lo in reversed(edges[:-1]):
        band = [ok for conf, ok in pairs if lo <= conf < round(lo + 0.05, 2) or (lo == 0.95 and conf >= 0.95)]
        if band and sum(band) / len(band) < NOT_SURE_TARGET:
            break
        best = lo
    return best
