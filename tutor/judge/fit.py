"""Fit the judge's weights on labelled sentences: a conditional logit over each slot's candidates.

Every labelled item becomes one training case per slot: the gold candidate is the correction of
the labelled error span (or "no change" for every other slot, and for correct sentences). The
weights maximise the log-likelihood of the gold candidates with an L2 penalty, by Newton's method
(the problem is concave and has a few dozen features). Two vectors are fitted on the same cases:
with the model's score and without it (the analyser alone, for `--no-model`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tutor.judge.scores import LM_FEATURES
from tutor.judge.slots import Slot


@dataclass
class Case:
    """One slot with its candidates' features and the index of the gold candidate."""

    feats: list[dict[str, float]]
    gold: int
    source: str


def read_items(path: Path) -> list[dict[str, Any]]:
    """Return the items of a labelled JSON Lines file (§A13 items or precision items with 'text')."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def split_half(items: list[dict[str, Any]], part: str) -> list[dict[str, Any]]:
    """Keep the items whose id number is odd (part 'odd') or even ('even'); any other part keeps all."""
    if part not in ("odd", "even"):
        return items

    def number(it: dict[str, Any]) -> int:
        return int("".join(ch for ch in str(it.get("id", "")) if ch.isdigit()) or 0)

    return [it for it in items if (number(it) % 2 == 1) == (part == "odd")]


def gold_index(slot: Slot, item: dict[str, Any], sentence: str) -> int | None:
    """Return the gold candidate of a slot for an item, None when the gold correction is not a candidate."""
    gold = item.get("gold")
    etype = item.get("error_type")
    span = item.get("error_span") or ""
    if gold is None or etype == "correct" or ("text" in item and "original" not in item):
        return 0
    at = sentence.find(span) if span else -1
    if at < 0:
        return 0
    lo, hi = at, at + len(span)
    overlaps = slot.start < hi and lo < slot.end
    if not overlaps:
        return 0
    key = (gold["verb"], gold["tense"], gold["person"])
    for k, c in enumerate(slot.candidates):
        if c.change and c.cell is not None and c.cell.key == key:
            return k
    return None


def fit(cases: list[Case], *, use_model: bool, l2: float = 1.0, iterations: int = 30) -> dict[str, float]:
    """Return the weights maximising the penalised conditional log-likelihood of the gold candidates."""
    names = sorted({k for c in cases for f in c.feats for k in f if use_model or k not in LM_FEATURES})
    index = {n: i for i, n in enumerate(names)}
    mats, golds = [], []
    for c in cases:
        x = np.zeros((len(c.feats), len(names)))
        for r, f in enumerate(c.feats):
            for k, v in f.items():
                if k in index:
                    x[r, index[k]] = v
        mats.append(x)
        golds.append(c.gold)
    w = np.zeros(len(names))
    for _ in range(iterations):
        grad = -l2 * w
        hess = -l2 * np.eye(len(names))
        for x, g in zip(mats, golds, strict=True):
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            mean = p @ x
            grad += x[g] - mean
            hess -= (x.T * p) @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    return {n: round(float(v), 5) for n, v in zip(names, w, strict=True)}


def case_probabilities(case: Case, weights: dict[str, float]) -> np.ndarray:
    """Return the softmax over one slot's candidates under the weights."""
    s = np.array([sum(weights.get(k, 0.0) * v for k, v in f.items()) for f in case.feats])
    p = np.exp(s - s.max())
    return p / p.sum()


def log_likelihood(cases: list[Case], weights: dict[str, float]) -> tuple[float, float]:
    """Return (mean log-likelihood, accuracy) of the gold candidates under the weights."""
    ll, right = 0.0, 0
    for c in cases:
        p = case_probabilities(c, weights)
        ll += float(np.log(p[c.gold] + 1e-12))
        right += int(np.argmax(p) == c.gold)
    return ll / max(len(cases), 1), right / max(len(cases), 1)
