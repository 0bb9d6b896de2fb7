"""The use case both faces share: correct a sentence or check a text with a Tutor, and record it in a Store.

The desktop app and the CLI (`correct`, `check`) each call `Tutoring`; neither saves by itself.

    from tutor.api import Tutor
    from tutor.store import Store
    from tutor.tutoring import Tutoring

    with Store.open() as store:
        tutoring = Tutoring(Tutor.load(), store)
        done = tutoring.correct("He goed home.", learner="Ana")
        done.result.output          # the §A13 object
        done.row_ids, done.save_error  # what the store kept, or why it kept nothing

A learner of None (or "") means "do not record": the result comes back, the store is not touched.
A store error while recording never loses the result: it comes back in `save_error` instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tutor.errors import StoreError
from tutor.result import CorrectionResult
from tutor.text.notes import Note, notes_for

if TYPE_CHECKING:
    from tutor.api import Tutor
    from tutor.store import Store
    from tutor.text.check import CheckResult

R = TypeVar("R")

CORRECT, CHECK, REVIEW = "correct", "check", "review"  # the store's `kind` of a row


@dataclass(frozen=True)
class Recorded(Generic[R]):
    """A result and what recording it did: the UUIDs of the rows the store kept, or why it kept none."""

    result: R
    row_ids: tuple[str, ...] = field(default=())
    save_error: StoreError | None = None
    recorded: bool = False  # a store and a learner were there, so a save was attempted

    @property
    def saved(self) -> bool:
        """Return True when a save was attempted and succeeded (even with no rows: a check with no findings)."""
        return self.recorded and self.save_error is None


def shown_as_note(result: CorrectionResult, notes: list[Note]) -> bool:
    """Return True when a note, not the answer, is what the learner is shown (the Text tab's rule): there is a
    note and the answer would praise the sentence, fix a span a note covers, or call a pattern of one of the
    20 verbs out of scope. Such a sentence has an error the tutor saw: it is never stored as correct."""
    if not notes:
        return False
    if result.out_of_scope:
        return any(n.kind != "outside_verb" for n in notes)
    if result.is_correct or result.error_start is None or result.error_end is None:
        return True
    return any(n.start < result.error_end and result.error_start < n.end for n in notes)


class Tutoring:
    """Correct and check with one Tutor, recording each result under a learner in one Store (or none)."""

    def __init__(self, tutor: Tutor, store: Store | None = None) -> None:
        """`store` None: nothing is recorded (`correct --no-save`, or a database that would not open)."""
        self.tutor = tutor
        self.store = store

    def correct(self, sentence: str, *, learner: str | None, review: bool = False,
                on_token: Callable[[str], None] | None = None) -> Recorded[CorrectionResult]:
        """Correct one sentence and record it for `learner` (kind 'review' for a retry in "review my mistakes",
        kept out of the teacher's statistics); raise InputError for a sentence the tutor cannot take."""
        result = self.tutor.correct(sentence, on_token=on_token)
        # what the card shows is what is stored: a note instead of the answer, or an answer below the Judge's
        # threshold as a question
        noted = shown_as_note(result, notes_for(result.original))
        not_sure = not noted and not result.out_of_scope and not self.is_sure(result)
        result = dataclasses.replace(result, kind=REVIEW if review else result.kind, not_sure=not_sure, noted=noted)
        return self.record(result, learner=learner)

    def record(self, result: CorrectionResult, *, learner: str | None) -> Recorded[CorrectionResult]:
        """Save one correction (its masking latency, kind and settings with it) under `learner`."""
        if self.store is None or not learner:
            return Recorded(result)
        try:
            row_id = self.store.save_correction(result, learner=learner)
        except StoreError as exc:
            return Recorded(result, save_error=exc, recorded=True)
        return Recorded(result, (row_id,), recorded=True)

    def check(self, text: str, *, learner: str | None,
              progress: Callable[[int, int], None] | None = None) -> Recorded[CheckResult]:
        """Check a whole text and record its findings for `learner`, each with the text it came from; findings
        below the "not sure" threshold are kept as such (out of the statistics)."""
        result = self.tutor.check(text, progress=progress)
        return self.record_check(result, learner=learner)

    def record_check(self, result: CheckResult, *, learner: str | None) -> Recorded[CheckResult]:
        """Save every finding of a text check under `learner` in one transaction (nothing when there is none)."""
        if self.store is None or not learner:
            return Recorded(result)
        try:
            ids = self.store.save_check(result, learner=learner)
        except StoreError as exc:
            return Recorded(result, save_error=exc, recorded=True)
        return Recorded(result, tuple(ids), recorded=True)

    def is_sure(self, result: CorrectionResult) -> bool:
        """Return True when a correction is shown as sure, False when as a question: the Judge's decision."""
        return self.tutor.judge.is_sure(result.confidence)

    def mistakes(self, learner: str, *, limit: int = 100) -> list[dict[str, Any]]:
        """Return the learner's past mistakes to practise again, newest first ([] without a store)."""
        if self.store is None or not learner:
            return []
        return self.store.mistakes(learner, limit=limit)
