"""What one correction returns: the §A13 output object, its annotations and its timings."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Timings:
    """Where the time of one correction went."""

    prompt_ms: float = 0.0
    forward_ms: float = 0.0
    mask_p50_us: float = 0.0
    mask_p99_us: float = 0.0
    mask_max_us: float = 0.0
    tokens_sampled: int = 0
    tokens_forced: int = 0
    total_ms: float = 0.0
    mask_us: tuple[float, ...] = ()
    model_judged: bool = False  # the model scored the sentence's variants (prompt_ms is its time)

    def to_dict(self) -> dict[str, Any]:
        """Return the timings as a plain dict (without the per-token list and the flag: the stored columns)."""
        out = asdict(self)
        out.pop("mask_us")
        out.pop("model_judged")
        return out

    def status_line(self) -> str:
        """Return a one-line human summary, e.g. 'mask 2 µs/token · 14 tokens, 9 forced · 310 ms'."""
        tokens = self.tokens_sampled + self.tokens_forced
        return (
            f"mask {self.mask_p50_us:.1f} µs/token · {tokens} tokens, {self.tokens_forced} forced"
            f" · {self.total_ms:.0f} ms"
        )


# Why a sentence got no §A13 answer (CorrectionResult.out_of_scope_reason)
PLURAL_SUBJECT = "plural_subject"  # its verb's subject is plural: §A13 labels the singular persons only
OUTSIDE_VERBS = "outside_verbs"  # no verb of the 20 to fix


@dataclass(frozen=True, slots=True)
class CorrectionResult:
    """One correction: the public output object plus what the app and the store need around it.

    `output` is exactly the §A13 object (six keys, or {"original", "out_of_scope": true}), plus
    `confidence` when the model was consulted.
    """

    original: str
    output: dict[str, Any]
    out_of_scope: bool
    is_correct: bool
    confidence: float
    error_span: str | None = None
    error_start: int | None = None
    error_end: int | None = None
    explanation_en: str = ""
    explanation_es: str = ""
    timings: Timings = field(default_factory=Timings)
    model_name: str = ""
    model_sha256: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    kind: str = "correct"  # 'correct' (one sentence), 'check' (a finding of a text), 'review' (a practice retry)
    source_text: str | None = None  # the whole text a finding came from
    not_sure: bool = False  # below the app's "not sure" threshold
    noted: bool = False  # a note (tutor.text.notes) is what the learner is shown: never stored as correct
    # the sentence's other findings, each as a correction of the same sentence (the card lists them beneath;
    # `output` stays the one §A13 object)
    others: tuple[CorrectionResult, ...] = ()
    out_of_scope_reason: str = ""  # PLURAL_SUBJECT or OUTSIDE_VERBS when out_of_scope ("" when not known)
    veto: Any = None  # the veto model's tutor.judge.veto.VetoScore of the answer's change (None: no veto read it)
