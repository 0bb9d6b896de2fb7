"""What the judge decided about one sentence: a verdict per slot, the findings, the single answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.judge.scores import SlotVerdict
from tutor.judge.slots import Candidate
from tutor.judge.thresholds import MAX_REPORT_BELOW


@dataclass
class Judged:
    """The judge's verdicts on every verb slot of one sentence, and the report threshold it judged under."""

    sentence: str
    analysis: object
    verdicts: list[SlotVerdict]
    lm: dict[int, dict[str, float]] = field(default_factory=dict)
    score_ms: float = 0.0
    report_below: float = MAX_REPORT_BELOW  # the Judge's threshold for this kind of sentence (Judge.report_below)
    # slots (start, end) a veto model turned down (tutor.judge.veto), and its score of each finding it read
    vetoed: frozenset[tuple[int, int]] = frozenset()
    veto_scores: dict[tuple[int, int], Any] = field(default_factory=dict)

    def finding_choices(self, notes: Sequence[Any] = (), offset: int = 0) -> list[tuple[SlotVerdict, Candidate]]:
        """Return the (verdict, correction) of every slot that is a finding (SlotVerdict.finding) and no veto
        turned down, in slot order; `notes` are the text's notes and `offset` where the sentence starts in the text."""
        out = []
        for v in self.verdicts:
            if (v.slot.start, v.slot.end) in self.vetoed:
                continue
            c = v.finding(self.report_below, notes, offset)
            if c is not None:
                out.append((v, c))
        return out

    def findings(self) -> list[tuple[Candidate, float]]:
        """Return every finding's correction with its probability, in text order."""
        return sorted(((c, v.probability) for v, c in self.finding_choices()), key=lambda x: x[0].start)

    def answer(self) -> tuple[Candidate, float] | None:
        """Return the one §A13 answer for the sentence and its probability.

        The most probable change when any slot's best reading is a change; otherwise the verb as
        written (the first slot whose written form fills a cell), with the probability that every
        slot is right as written. With no such slot, the most probable change of all (of a slot no veto
        turned down); None when the sentence has no slot with a cell, or only vetoed ones (the tutor abstains).
        """
        found = self.findings()
        if found:
            return max(found, key=lambda x: x[1])
        keep_all = 1.0
        for v in self.verdicts:
            keep_all *= v.probability_of_no_change()
        for v in self.verdicts:
            no_change = next(c for c in v.slot.candidates if not c.change)
            if no_change.cell is not None:
                return no_change, keep_all
        # no slot's written form fills a cell: the most probable change of a slot whose word is wrong as written
        # (never one a veto turned down)
        changes = [(c, p) for v in self.verdicts for c, p in v.ranked if c.change and c.cell is not None
                   and (v.slot.start, v.slot.end) not in self.vetoed]
        if not changes:
            return None  # only verbs §A13 does not label here (plural subjects): abstain
        return max(changes, key=lambda x: x[1])
