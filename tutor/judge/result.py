"""What the judge decided about one sentence: a verdict per slot, the findings, the single answer."""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor.judge.judge import SlotVerdict
from tutor.judge.slots import Candidate


@dataclass
class Judged:
    """The judge's verdicts on every verb slot of one sentence."""

    sentence: str
    analysis: object
    verdicts: list[SlotVerdict]
    lm: dict[int, dict[str, float]] = field(default_factory=dict)
    score_ms: float = 0.0

    def findings(self) -> list[tuple[Candidate, float]]:
        """Return every slot whose most probable reading is a change (and no change is less likely than
        the fitted `report_below`), with its probability, in text order."""
        from tutor.judge.judge import report_threshold

        below = report_threshold()
        out = [(v.best, v.probability) for v in self.verdicts
               if v.best.change and v.best.cell is not None and v.probability_of_no_change() < below]
        return sorted(out, key=lambda x: x[0].start)

    def answer(self) -> tuple[Candidate, float] | None:
        """Return the one §A13 answer for the sentence and its probability.

        The most probable change when any slot's best reading is a change; otherwise the verb as
        written (the first slot whose written form fills a cell), with the probability that every
        slot is right as written. With no such slot, the most probable change of all; None when the
        sentence has no slot with a cell (the tutor abstains).
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
        changes = [(c, p) for v in self.verdicts for c, p in v.ranked if c.change and c.cell is not None]
        if not changes:
            return None  # only verbs §A13 does not label here (plural subjects): abstain
        return max(changes, key=lambda x: x[1])
