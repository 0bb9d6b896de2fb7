"""Spaced repetition with FSRS (the `fsrs` package, as in Anki): a right answer is rated Good, a wrong one Again.

A wrong answer keeps the card due: FSRS records the lapse (its stability and difficulty change), but the
card stays in the due list, behind the cards already waiting, instead of leaving it for a minute.
The daily schedule (a learner's choice) has no learning steps of minutes and asks FSRS for 85 % retention
instead of 90 %: a right answer brings a card back after a day or more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

import fsrs

from tutor.store.records import TIMESTAMP_FORMAT, utc_stamp


@dataclass(frozen=True, slots=True)
class Memory:
    """A card's FSRS state as the store keeps it (times as the store's UTC text)."""

    state: int = int(fsrs.State.Learning)
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    due: str = ""
    last_review: str | None = None
    reps: int = 0
    lapses: int = 0


DAILY_RETENTION = 0.85
NO_STEPS: tuple[timedelta, ...] = ()


@cache
def scheduler(daily: bool = False) -> fsrs.Scheduler:
    """Return the scheduler: FSRS-6 default parameters, no fuzzing (the same answers give the same dates);
    `daily`: no learning steps of minutes and a lower desired retention."""
    if daily:
        return fsrs.Scheduler(desired_retention=DAILY_RETENTION, learning_steps=NO_STEPS, relearning_steps=NO_STEPS,
                              enable_fuzzing=False)
    return fsrs.Scheduler(enable_fuzzing=False)


def new_memory(now: datetime) -> Memory:
    """Return the state of a new card: learning, due at once."""
    return Memory(due=utc_stamp(now))


def review(memory: Memory, correct: bool, now: datetime, *, daily: bool = False) -> tuple[Memory, int]:
    """Return the card's state after an answer at `now`, and the FSRS rating given (3 Good, 1 Again);
    `daily` uses the daily schedule."""
    rating = fsrs.Rating.Good if correct else fsrs.Rating.Again
    card = fsrs.Card(card_id=1, state=fsrs.State(memory.state), step=memory.step, stability=memory.stability,
                     difficulty=memory.difficulty, due=parse_stamp(memory.due) if memory.due else now,
                     last_review=parse_stamp(memory.last_review) if memory.last_review else None)
    after, _ = scheduler(daily).review_card(card, rating, now)
    due = after.due if correct else now  # a wrong answer keeps the card due
    lapses = memory.lapses + (not correct)
    return Memory(state=int(after.state), step=after.step, stability=after.stability, difficulty=after.difficulty,
                  due=utc_stamp(due), last_review=utc_stamp(now), reps=memory.reps + 1, lapses=lapses), int(rating)


def is_review_state(memory: Memory) -> bool:
    """Return True when the card has left the learning steps (FSRS state Review)."""
    return memory.state == int(fsrs.State.Review)


def parse_stamp(text: str) -> datetime:
    """Return a store timestamp ('2025-03-01T14:30:00.000000Z') as an aware UTC datetime."""
    return datetime.strptime(text, TIMESTAMP_FORMAT).replace(tzinfo=UTC)
