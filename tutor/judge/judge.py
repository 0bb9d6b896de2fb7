"""The Judge, the second stage: it ranks each slot's candidates, and decides what is a finding.

For every change candidate the model scores the corrected sentence against the sentence as written
(tutor.judge.scores.lm_features); the fitted weights combine that score with the analyser's evidence
into a probability per candidate (a softmax over the slot). The Judge owns what `grammar-tutor
judge-fit` wrote to data/judge/weights.json (`Calibration`): the weights, the two report thresholds
(one for sentences, one for texts) and the "not sure" threshold, and applies them through the one
findings rule (`SlotVerdict.finding`). `use_model=False` uses the weights fitted without the model's
score: the analyser alone decides, for the ablation.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tutor.judge.result import Judged
from tutor.judge.scores import Weights, judge_config, judge_slots, lm_features
from tutor.judge.slots import Proposal
from tutor.judge.thresholds import MAX_REPORT_BELOW
from tutor.resources import data_path

KINDS = ("sentence", "text")  # what is judged: one sentence (`correct`), or a sentence of a text (`check`)


WEIGHTS_ENV = "GRAMMAR_TUTOR_JUDGE_WEIGHTS"  # another weights file, for experiments


@dataclass(frozen=True)
class Calibration:
    """What `grammar-tutor judge-fit` wrote to data/judge/weights.json: the weights per model and the thresholds.

    `report_below` (sentences) and `report_below_text` (texts) are the probabilities of no change under
    which a slot's best change is reported, at most MAX_REPORT_BELOW; `not_sure_below` the confidence under which
    an answer is shown as a question. tutor.judge.thresholds fits all three.
    """

    models: dict[str, dict[str, Any]]
    default_model: str = ""
    report_below: float = MAX_REPORT_BELOW
    report_below_text: float = MAX_REPORT_BELOW
    not_sure_below: float = 0.6

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Calibration:
        """Return the calibration of a weights file's content ({} before any fit)."""
        report = raw.get("report_below", MAX_REPORT_BELOW)
        return cls(dict(raw.get("models", {})), str(raw.get("default_model", "")),
                   min(MAX_REPORT_BELOW, float(report)),
                   min(MAX_REPORT_BELOW, float(raw.get("report_below_text", report))),
                   float(raw.get("not_sure_below", cls.not_sure_below)))

    @classmethod
    def read(cls, path: Path) -> Calibration:
        """Return the calibration in a weights file (a missing file: the fallback weights, no fit)."""
        return cls.from_dict(json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {})

    def weights(self, model_name: str, *, use_model: bool) -> Weights:
        """Return the fitted weights for a model (or the analyser-only ones), falling back to the default's."""
        key = "with_model" if use_model else "without_model"
        entry = self.models.get(model_name) or self.models.get(self.default_model, {})
        return Weights(dict(entry.get(key) or _FALLBACK[key]), model_name)


def weights_path() -> Path:
    """Return data/judge/weights.json, or the file $GRAMMAR_TUTOR_JUDGE_WEIGHTS names."""
    override = os.environ.get(WEIGHTS_ENV, "").strip()
    return Path(override) if override else data_path("judge", "weights.json")


@cache
def shipped_calibration() -> Calibration:
    """Return the calibration of weights_path(), read once per process."""
    return Calibration.read(weights_path())


# Used only before any fit exists (a fresh checkout without data/judge/weights.json).
_FALLBACK = {
    "with_model": {"change": -2.0, "rule_sure": 4.0, "rule_doubt": 1.5, "prior": 1.0, "lm": 0.5, "alt": -1.0},
    "without_model": {"change": -2.0, "rule_sure": 4.0, "rule_doubt": 1.5, "prior": 1.0, "alt": -3.0},
}


class Judge:
    """Ranks the candidates of a proposal's slots and says which become findings, under one Calibration.

    `scorer` is the model (tutor.decoding.llm.LoadedModel), or anything with its `tokenize` and
    `token_logprobs` (a tutor.decoding.score_cache.ScoreCache in front of it).
    """

    def __init__(self, scorer: Any, model_name: str, *, use_model: bool = True,
                 calibration: Calibration | None = None) -> None:
        self.scorer = scorer
        self.model_name = model_name
        self.use_model = use_model
        self.calibration = calibration if calibration is not None else shipped_calibration()
        self.weights = self.calibration.weights(model_name, use_model=use_model)
        self._prefix: list[int] | None = None

    def replace(self, *, scorer: Any = None, use_model: bool | None = None,
                calibration: Calibration | None = None) -> Judge:
        """Return a judge with the same model name and some of scorer, use_model and calibration changed."""
        other = Judge(self.scorer if scorer is None else scorer, self.model_name,
                      use_model=self.use_model if use_model is None else use_model,
                      calibration=self.calibration if calibration is None else calibration)
        other._prefix = self._prefix  # the same tokenizer behind any scorer
        return other

    def prefix(self) -> list[int]:
        """Return the tokens the model reads before each sentence it scores (BOS + data/judge/prompt.json)."""
        if self._prefix is None:
            self._prefix = self.scorer.tokenize(judge_config()["prefix"].encode("utf-8"), bos=True)
        return self._prefix

    def report_below(self, kind: str = "sentence") -> float:
        """Return the probability of no change under which a slot's best change is a finding, for one sentence
        (`correct`) or a sentence of a text (`check`, where errors are rarer among the verbs)."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        return self.calibration.report_below_text if kind == "text" else self.calibration.report_below

    def is_sure(self, confidence: float) -> bool:
        """Return True when an answer of this confidence is shown as sure, False when as a question."""
        return confidence >= self.calibration.not_sure_below

    def judge(self, proposal: Proposal, *, context: str = "", kind: str = "sentence") -> Judged:
        """Return the verdict on every slot of a proposal; `context` is the text the model reads first (in a
        text, the sentences before, as corrected). No slot with a change: the model is not asked."""
        below = self.report_below(kind)
        t0 = time.perf_counter_ns()
        slots = proposal.slots
        lm = None
        if self.use_model and any(c.change for s in slots for c in s.candidates):
            lm = lm_features(self.scorer, self.prefix(), proposal.sentence, slots, context=context)
        t1 = time.perf_counter_ns()
        verdicts = judge_slots(slots, self.weights, lm)
        return Judged(proposal.sentence, proposal.analysis, verdicts, lm or {}, score_ms=(t1 - t0) / 1e6,
                      report_below=below)
