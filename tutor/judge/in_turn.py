"""A sentence judged again with its findings applied, so one error does not hide the next.

The model scores each slot against the sentence as written, other slots unchanged: in *yesterday she go to
the park and eat an ice cream* the uncorrected *go* makes *eat* look consistent, and only *went* is found.
A teacher reads the sentence again once *went* is fixed; so does `judge_in_turn`: while a pass finds a new
correction, the sentence is read again with every correction so far applied, and the other slots take the
verdicts of that reading. Findings are rare, so a second pass is too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tutor.judge.result import Judged
from tutor.judge.scores import SlotVerdict
from tutor.judge.slots import Candidate, Proposal, Slot

MAX_PASSES = 3  # a sentence with more than three verb errors is read three times at most


def judge_in_turn(judge: Any, propose: Callable[[str], Proposal], sentence: str, **judge_args: Any) -> Judged:
    """Return the judge's verdicts on `sentence`, each slot judged with the findings of the others applied.

    `propose` reads a sentence (the analyser, with the text's evidence bound); `judge_args` go to
    `judge.judge` (context, kind)."""
    first = judge.judge(propose(sentence), **judge_args)
    verdicts = list(first.verdicts)
    lm = dict(first.lm)  # by id(candidate): every candidate stays referenced by `verdicts` or `seen`
    seen: list[SlotVerdict] = []
    score_ms = first.score_ms
    applied: list[Candidate] = []
    for _ in range(MAX_PASSES - 1):
        fixes = [c for _, c in Judged(sentence, first.analysis, verdicts, report_below=first.report_below)
                 .finding_choices()]
        if len(fixes) == len(applied) or len(verdicts) < 2:
            break
        applied = fixes
        corrected, to_written = _apply(sentence, fixes)
        again = judge.judge(propose(corrected), **judge_args)
        score_ms += again.score_ms
        fixed_ends = {c.end for c in fixes}
        by_end = {}
        for v in again.verdicts:
            moved = _moved(v, to_written, again.lm)
            if moved is not None:
                by_end[moved[0].slot.end] = moved[0]
                lm.update(moved[1])
        seen.extend(verdicts)
        verdicts = [v if v.slot.end in fixed_ends or v.slot.end not in by_end else by_end[v.slot.end]
                    for v in verdicts]
    return Judged(sentence, first.analysis, verdicts, lm, score_ms=score_ms, report_below=first.report_below)


def _apply(sentence: str, fixes: list[Candidate]) -> tuple[str, Callable[[int, int], tuple[int, int] | None]]:
    """Return the sentence with the corrections applied, and a map from a span of it to the span as written
    (None for a span that touches a correction)."""
    out, pos, marks = [], 0, []  # marks: (written start, written end, corrected start, corrected end)
    shift = 0
    for c in sorted(fixes, key=lambda c: c.start):
        out += [sentence[pos:c.start], c.replacement]
        marks.append((c.start, c.end, c.start + shift, c.start + shift + len(c.replacement)))
        shift += len(c.replacement) - (c.end - c.start)
        pos = c.end
    out.append(sentence[pos:])

    def to_written(start: int, end: int) -> tuple[int, int] | None:
        back = 0
        for _ws, we, cs, ce in marks:
            if end <= cs:
                break
            if start < ce:
                return None
            back = we - ce
        return start + back, end + back

    return "".join(out), to_written


def _moved(v: SlotVerdict, to_written: Callable[[int, int], tuple[int, int] | None],
           lm: dict[int, dict[str, float]]) -> tuple[SlotVerdict, dict[int, dict[str, float]]] | None:
    """Return a verdict of the corrected sentence with its spans as written, and the model's scores of its
    candidates keyed by the moved candidates; None for a slot that touches a fix."""
    span = to_written(v.slot.start, v.slot.end)
    if span is None:
        return None
    delta = span[0] - v.slot.start
    new = {id(c): replace(c, start=c.start + delta, end=c.end + delta) for c in v.slot.candidates}
    slot = Slot(span[0], span[1], v.slot.written, [new[id(c)] for c in v.slot.candidates])
    scores = {id(new[k]): lm[k] for k in new if k in lm}
    return SlotVerdict(slot, tuple((new[id(c)], p) for c, p in v.ranked)), scores
