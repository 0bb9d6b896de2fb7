"""The model's scores: each candidate correction scored by the model's likelihood of the corrected
sentence (left and right context), combined with the analyser's evidence by fitted weights.

score(c) = w · features(c) + w_lm · (log P(sentence with c) − log P(sentence as written))

The probabilities are a softmax over each slot's candidates ("no change" included), so they are
the calibrated probability of each reading under weights fitted on labelled data
(`grammar-tutor judge-fit`, written to data/judge/weights.json; see tutor.judge.judge.Calibration).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from tutor.judge.slots import Candidate, Slot
from tutor.resources import data_path

LM_FEATURES = ("lm", "lm_gain", "lm_tokens", "lm_tense")


@dataclass(frozen=True)
class Weights:
    """One fitted weight vector (feature name -> weight)."""

    values: dict[str, float]
    model: str

    def score(self, feats: dict[str, float]) -> float:
        """Return the linear score of one candidate's features."""
        return sum(self.values.get(k, 0.0) * v for k, v in feats.items())


@dataclass(frozen=True)
class SlotVerdict:
    """The judge's reading of one slot: the probabilities of its candidates, best first."""

    slot: Slot
    ranked: tuple[tuple[Candidate, float], ...]

    @property
    def best(self) -> Candidate:
        """Return the most probable candidate."""
        return self.ranked[0][0]

    @property
    def probability(self) -> float:
        """Return the probability of the best candidate."""
        return self.ranked[0][1]

    def probability_of_no_change(self) -> float:
        """Return the probability that the slot is right as written."""
        return next(p for c, p in self.ranked if not c.change)

    def finding(self, below: float, notes: Sequence[Any] = (), offset: int = 0) -> Candidate | None:
        """Return the slot's correction if it is one, else None: the findings rule of `correct` and `check`.

        A correction is the best reading when it is a change to a §A13 cell, no change is less likely than
        `below` (the Judge's `report_below` for a sentence or a text, at most 0.5: the slot is more likely
        wrong than right), and no note (a pattern outside §A13's labels; `start`/`end` in the text, the
        sentence starting at `offset`) covers it.
        """
        best = self.best
        if not best.change or best.cell is None or self.probability_of_no_change() >= below:
            return None
        lo, hi = offset + best.start, offset + best.end
        if any(n.start < hi and lo < n.end for n in notes):
            return None
        return best


def lm_features(model, prefix_tokens: list[int], sentence: str, slots: list[Slot],
                right_words: int | None = None, context: str = "") -> dict[int, dict[str, float]]:
    """Score every change candidate of every slot against the sentence as written, in one pass.

    Each slot is scored on the sentence up to `right_words` words after it (the whole sentence when
    None): the model reads the left context and a window of right context, and the sentence as
    written is scored on the same window. `context` (the text's previous sentences) is read first.
    Returns id(candidate) -> {"lm": Δ log-prob, "lm_gain": max(Δ, 0), "lm_tokens": Δ token count}.
    """
    if right_words is None:
        right_words = judge_config()["right_words"]
    texts: list[str] = []
    plan: list[tuple[int, list[Candidate]]] = []
    for slot in slots:
        changes = [c for c in slot.candidates if c.change]
        if not changes:
            continue
        cut = _window_end(sentence, max(c.end for c in slot.candidates), right_words)
        window = sentence[:cut]
        lead = (context.strip() + " ") if context.strip() else ""
        base = len(texts)
        texts.append(lead + window)
        texts.extend(lead + c.apply(window) for c in changes)
        plan.append((base, changes))
    if not texts:
        return {}
    from tutor.decoding.tree_scoring import shared_prefix_length

    variants = [model.tokenize(t.encode("utf-8")) for t in texts]
    # tokens a slot's variants all share (the lead, the words before the slot) score the same in
    # each: they cancel out of every difference, so they are evaluated but not scored
    skip = [0] * len(variants)
    for base, changes in plan:
        n = len(changes) + 1
        skip[base: base + n] = [shared_prefix_length(variants[base: base + n])] * n
    lps = model.token_logprobs(prefix_tokens, variants, skip)
    out = {}
    for base, changes in plan:
        ref = float(lps[base].sum())
        for k, c in enumerate(changes, start=1):
            delta = float(lps[base + k].sum()) - ref
            out[id(c)] = {"lm": delta, "lm_gain": max(delta, 0.0),
                          "lm_tokens": float(len(variants[base + k]) - len(variants[base]))}
            if c.cell is not None and c.cell.tense in ("past simple", "present simple"):
                # how far the model's reading counts may differ for a tense choice (a narrative's past)
                out[id(c)]["lm_tense"] = delta
    return out


def _window_end(sentence: str, end: int, words: int) -> int:
    """Return the index `words` words after `end` (or the sentence's end)."""
    if words <= 0:
        return len(sentence)
    pos, seen = end, 0
    while pos < len(sentence):
        while pos < len(sentence) and sentence[pos].isspace():
            pos += 1
        if pos >= len(sentence):
            break
        while pos < len(sentence) and not sentence[pos].isspace():
            pos += 1
        seen += 1
        if seen >= words:
            break
    return pos


@cache
def judge_config() -> dict[str, Any]:
    """Return data/judge/prompt.json: the prefix the model reads first, and the right-context window."""
    raw = json.loads(data_path("judge", "prompt.json").read_text(encoding="utf-8"))
    return {"prefix": raw["prefix"], "right_words": int(raw.get("right_words", 0))}


def candidate_features(c: Candidate, lm: dict[int, dict[str, float]] | None) -> dict[str, float]:
    """Return one candidate's features: the analyser's evidence, plus the model's scores for a change."""
    feats = dict(c.features)
    if lm is not None and c.change:
        feats.update(lm.get(id(c), {}))
    return feats


def judge_slots(slots: list[Slot], weights: Weights, lm: dict[int, dict[str, float]] | None) -> list[SlotVerdict]:
    """Return each slot's candidates ranked by probability under the weights (and the model's scores)."""
    verdicts = []
    for slot in slots:
        scores = [weights.score(candidate_features(c, lm)) for c in slot.candidates]
        m = max(scores)
        exps = [math.exp(s - m) for s in scores]
        z = sum(exps)
        ranked = sorted(((c, e / z) for c, e in zip(slot.candidates, exps, strict=True)), key=lambda x: -x[1])
        verdicts.append(SlotVerdict(slot, tuple(ranked)))
    return verdicts
