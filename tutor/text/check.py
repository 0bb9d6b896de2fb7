"""The check of a whole text: every verb slot of every sentence judged, findings with their spans."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tutor.output_contract import reported_confidence
from tutor.text.notes import Note

if TYPE_CHECKING:
    from tutor.judge.veto import VetoScore


@dataclass(frozen=True)
class Finding:
    """One wrong verb form in a text: a full §A13 correction plus where it stands and how sure we are."""

    original: str  # the sentence it is in
    verb: str
    tense: str
    person: str
    correct_form: str
    spanish: str
    start: int  # offsets into the whole text (Python string indices)
    end: int
    written: str
    confidence: float
    explanation_en: str
    explanation_es: str
    sure: bool = True  # False: below the "not sure" threshold, shown as a question
    veto: VetoScore | None = None  # how much a veto model preferred the correction (None: no veto model)

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as one entry of `findings` in `check --jsonl` (stable keys; `veto` only when a veto
        model read it)."""
        out = {"original": self.original, "verb": self.verb, "tense": self.tense, "person": self.person,
               "correct_form": self.correct_form, "spanish": self.spanish, "start": self.start, "end": self.end,
               "written": self.written, "confidence": reported_confidence(self.confidence),
               "explanation_en": self.explanation_en, "explanation_es": self.explanation_es}
        if self.veto is not None:
            out["veto"] = self.veto.to_dict()
        return out


@dataclass(frozen=True)
class Checked:
    """A verb form the checker judged (right or wrong): its span and text."""

    start: int
    end: int
    written: str


@dataclass
class CheckResult:
    """What `Tutor.check(text)` found."""

    text: str
    sentences: list[tuple[int, int]]
    findings: list[Finding] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    checked: list[Checked] = field(default_factory=list)
    total_ms: float = 0.0
    model_name: str = ""
    rescored: list[int] = field(default_factory=list)  # sentences the model read for this check (incremental)
    tokens_evaluated: int = 0  # tokens the model evaluated for this check (incremental; 0: not counted)
    veto_ms: float = 0.0  # of total_ms, the time the veto model spent (0: none)

    def to_dict(self) -> dict[str, Any]:
        """Return {"findings", "sentences", "notes"}: one line of `grammar-tutor check --jsonl` without its id."""
        return {"findings": [f.to_dict() for f in self.findings],
                "sentences": [{"start": a, "end": b} for a, b in self.sentences],
                "notes": [n.to_dict() for n in self.notes]}

    def corrected_text(self, findings: list[Finding] | None = None) -> str:
        """Return the text with the given findings (default: all) replaced by their corrections."""
        out = self.text
        for f in sorted(findings if findings is not None else self.findings, key=lambda f: -f.start):
            out = out[: f.start] + replacement_text(f, out[f.start:f.end]) + out[f.end:]
        return out

    def summary_en(self) -> str:
        """Return what was checked when nothing was found: 'No errors in the 3 verbs I can check (…)'."""
        words = ", ".join(dict.fromkeys(c.written for c in self.checked))
        n = len(self.checked)
        if n == 0:
            return "I found no form of the 20 verbs I can check in this text."
        return f"No errors in the {n} verb{'s' if n != 1 else ''} I can check ({words})."


def replacement_text(f: Finding, written: str) -> str:
    """Return what replaces the written span: the correct form, keeping 'll and the learner's capital."""
    form = f.correct_form
    low = written.lower()
    if f.tense == "simple future" and not low.startswith(("will", "won't", "shall")):
        form = form.removeprefix("will ")
    if written[:1].isupper() and form[:1].islower():
        form = form[:1].upper() + form[1:]
    return form
