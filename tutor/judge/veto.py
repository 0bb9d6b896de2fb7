"""The veto: a second, larger local model that must prefer a finding's correction before the learner sees it.

The judge's model is small. For each finding the judge would show, the veto model reads the sentence as
written and the sentence with that one correction applied, after a short fixed instruction (and the text's
previous sentence, as the judge reads it), and compares their log-probabilities. A finding is kept only when
the correction wins by at least the fitted margin (data/judge/veto.json, by `python -m tutor.commands.veto_fit`);
otherwise its slot is vetoed and the sentence reads as written there. Findings are rare, so the model runs a
few times per text. It is opt-in (`--veto-model NAME`, `Settings.veto_model`, or $GRAMMAR_TUTOR_VETO_MODEL):
without it the tutor works exactly as before.

Two measures are computed for each finding (`VetoScore`): `delta`, the log-probability the correction gains
over the sentence as written, and `per_token`, the same comparison with each sentence's log-probability
divided by its token count (a length-normalised reading). The fit says which one the margin applies to.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from tutor.judge.result import Judged
from tutor.judge.slots import Candidate
from tutor.resources import data_path

VETO_ENV = "GRAMMAR_TUTOR_VETO_MODEL"  # the veto model when no --veto-model is given ("" or unset: none)
MEASURES = ("delta", "per_token")
VETO_THREADS = 2  # the veto model is larger than the judge's; two threads keep a shared machine usable


@dataclass(frozen=True)
class VetoScore:
    """How much the veto model prefers one correction to the sentence as written (log-probabilities, nats)."""

    delta: float  # log P(corrected) − log P(as written)
    per_token: float  # the same with each side's log-probability divided by its token count

    def measure(self, name: str) -> float:
        """Return the measure `name` (one of MEASURES)."""
        if name not in MEASURES:
            raise ValueError(f"the veto measure must be one of {', '.join(MEASURES)}, not {name!r}")
        return self.delta if name == "delta" else self.per_token

    def to_dict(self) -> dict[str, float]:
        """Return the score as saved with a finding (rounded)."""
        return {"delta": round(self.delta, 4), "per_token": round(self.per_token, 4)}


@dataclass(frozen=True)
class VetoRule:
    """What tutor.commands.veto_fit wrote for one veto model: the instruction it reads first, the measure, the
    margin."""

    prefix: str
    measure: str = "delta"
    min_margin: float = 0.0  # a finding is kept when its measure is at least this

    def keeps(self, score: VetoScore) -> bool:
        """Return True when the veto model prefers the correction by at least the margin."""
        return score.measure(self.measure) >= self.min_margin


DEFAULT_PREFIX = "Here is a sentence written in correct, natural English:\n"


def veto_path() -> Path:
    """Return data/judge/veto.json."""
    return data_path("judge", "veto.json")


@cache
def veto_rules() -> dict[str, Any]:
    """Return data/judge/veto.json's content ({} when there is none)."""
    path = veto_path()
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def rule_for(model_name: str, min_margin: float | None = None) -> VetoRule:
    """Return the fitted rule of a veto model (a model never fitted: the shared prefix, `delta`, margin 0),
    with `min_margin` instead of the fitted margin when given."""
    raw = veto_rules()
    fitted = raw.get("models", {}).get(model_name, {})
    rule = VetoRule(str(raw.get("prefix", DEFAULT_PREFIX)), str(fitted.get("measure", "delta")),
                    float(fitted.get("min_margin", 0.0)))
    if rule.measure not in MEASURES:
        raise ValueError(f"data/judge/veto.json: unknown measure {rule.measure!r} for {model_name!r}")
    return rule if min_margin is None else replace(rule, min_margin=float(min_margin))


def default_veto_model() -> str | None:
    """Return the veto model $GRAMMAR_TUTOR_VETO_MODEL names, or None."""
    return os.environ.get(VETO_ENV, "").strip() or None


@dataclass
class Veto:
    """A loaded veto model and its rule; `ms` adds up the time spent scoring (reset by the caller at will).

    `scorer` is a tutor.decoding.llm.LoadedModel, or anything with its `tokenize` and `token_logprobs`.
    """

    scorer: Any
    name: str
    rule: VetoRule
    ms: float = 0.0
    calls: int = 0
    _prefix: list[int] | None = field(default=None, repr=False)

    def prefix(self) -> list[int]:
        """Return the tokens the veto model reads first (BOS, if it has one, and the rule's instruction)."""
        if self._prefix is None:
            self._prefix = self.scorer.tokenize(self.rule.prefix.encode("utf-8"), bos=True)
        return self._prefix

    def score(self, sentence: str, correction: Candidate, context: str = "") -> VetoScore:
        """Return how much the model prefers `sentence` with `correction` applied to `sentence` as written;
        `context` (the text's previous sentence) is read first and scored on neither side."""
        t0 = time.perf_counter_ns()
        lead = context.strip() + " " if context.strip() else ""
        lead_tokens = len(self.scorer.tokenize(lead.encode("utf-8"))) if lead else 0
        variants = [self.scorer.tokenize((lead + s).encode("utf-8")) for s in (sentence, correction.apply(sentence))]
        from tutor.decoding.tree_scoring import shared_prefix_length

        skip = min(lead_tokens, shared_prefix_length(variants))  # the context: read, scored on neither side
        written, corrected = self.scorer.token_logprobs(self.prefix(), variants, [skip, skip])
        delta = float(corrected.sum()) - float(written.sum())
        n_w, n_c = (max(1, len(v) - skip) for v in variants)
        per_token = float(corrected.sum()) / n_c - float(written.sum()) / n_w
        self.ms += (time.perf_counter_ns() - t0) / 1e6
        self.calls += 1
        return VetoScore(delta, per_token)

    def review(self, judged: Judged, notes: Sequence[Any] = (), offset: int = 0, context: str = "") -> Judged:
        """Return `judged` with every finding the model does not prefer by the margin vetoed, and each finding's
        score kept (`Judged.veto_scores`); `notes` and `offset` as Judged.finding_choices takes them."""
        scores = dict(judged.veto_scores)
        vetoed = set(judged.vetoed)
        for verdict, correction in judged.finding_choices(notes, offset):
            span = (verdict.slot.start, verdict.slot.end)
            scores[span] = s = self.score(judged.sentence, correction, context)
            if not self.rule.keeps(s):
                vetoed.add(span)
        return replace(judged, vetoed=frozenset(vetoed), veto_scores=scores)

    def describe(self) -> str:
        """Return one line: the model, the measure and its margin."""
        return f"{self.name} (keeps a finding when its {self.rule.measure} is ≥ {self.rule.min_margin:g})"

    def close(self) -> None:
        """Free the model."""
        self.scorer.close()


def load_veto(model: str, *, min_margin: float | None = None, n_threads: int = VETO_THREADS) -> Veto:
    """Resolve (sha256-checked, through the catalogue) and load a veto model by catalogue name or GGUF path."""
    from tutor.catalogue import resolve
    from tutor.decoding.llm import LoadedModel

    model_file = resolve(model)
    scorer = LoadedModel(model_file, n_ctx=1024, n_threads=n_threads)
    return Veto(scorer, model_file.name, rule_for(model_file.name, min_margin))



# -- the fit --------------------------------------------------------------------------------------
BETA = 0.5  # F0.5: precision counts twice (tutor.judge.thresholds.BETA)


@dataclass(frozen=True)
class VetoCase:
    """One finding of a development set as the judge showed it: the veto model's score, and whether it is real
    (a labelled error with its correction)."""

    score: VetoScore
    real: bool


@dataclass(frozen=True)
class MarginFit:
    """The margin of one measure that maximises F0.5 on the cases, with what it keeps."""

    measure: str
    min_margin: float
    f05: float
    kept: int
    real_kept: int
    labelled: int
    lines: tuple[str, ...] = ()


def counts(cases: Sequence[VetoCase], measure: str, min_margin: float) -> tuple[int, int]:
    """Return (findings kept, real findings kept) when a finding is kept at `min_margin` or above."""
    kept = [c for c in cases if c.score.measure(measure) >= min_margin]
    return len(kept), sum(c.real for c in kept)


def f_beta(kept: int, real: int, labelled: int) -> float:
    """Return F0.5 of `kept` findings of which `real` are real, out of `labelled` errors (0 with none kept)."""
    if not kept or not labelled or not real:
        return 0.0
    p, r = real / kept, real / labelled
    return (1 + BETA ** 2) * p * r / (BETA ** 2 * p + r)


def choose_margin(cases: Sequence[VetoCase], labelled: int, measure: str) -> MarginFit:
    """Return the margin that maximises F0.5 of the kept findings. Tried: 0 (the model prefers the correction at
    all), each midpoint between two neighbouring scores, and "no veto" (-inf); of margins that tie, the one
    nearest 0 wins, so a margin moves away from "prefers the correction" only when the data say so."""
    values = sorted({c.score.measure(measure) for c in cases if math.isfinite(c.score.measure(measure))})
    grid = sorted({-math.inf, 0.0, *((a + b) / 2 for a, b in itertools.pairwise(values))})
    best: MarginFit | None = None
    lines = []
    for t in grid:
        kept, real = counts(cases, measure, t)
        f = f_beta(kept, real, labelled)
        lines.append(f"{measure} ≥ {t:8.3f}: kept {kept:4d}, real {real:4d}, F0.5 {f:.4f}")
        if best is None or f > best.f05 + 1e-12 or (abs(f - best.f05) <= 1e-12 and abs(t) < abs(best.min_margin)):
            best = MarginFit(measure, t, f, kept, real, labelled)
    assert best is not None
    return replace(best, lines=tuple(lines))
