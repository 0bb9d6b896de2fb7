"""Practice over a Store: cards from the learner's saved mistakes, the due list, grading and rescheduling.

    from tutor.practice import Practice
    practice = Practice(store)
    due = practice.due("Ana")                      # builds cards for new mistakes first
    done = practice.answer("Ana", due[0]["id"], "went")
    done["correct"], done["still_due"]

Every saved correction with a real error (in scope, not a practice retry, not a "not sure" finding) becomes
cards once (tutor.practice.cards); the schedule is FSRS's (tutor.practice.schedule); every answer is kept.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tutor.errors import InputError, StoreError
from tutor.practice.cards import Card, cards_for, sentence_fixes
from tutor.practice.schedule import Memory, new_memory, review
from tutor.store import practice_rows as rows
from tutor.store.lock import unknown_learner
from tutor.store.names import visible_text
from tutor.store.practice_rows import CARD_COLUMNS, MEMORY_COLUMNS
from tutor.store.records import utc_stamp

if TYPE_CHECKING:
    from tutor.store import Store
    from tutor.store.records import Learner

MAX_ANSWER_CHARS = 60
SAVE_ATTEMPTS = 20  # tries to save an answer while other answers change the card
MIN_ID_PREFIX = 6
# What a card shows to other tools (the CLI's --json, the class server): the row less its local ids.
PUBLIC_KEYS: tuple[str, ...] = (
    "id", "prompt", "cell", "answer", "accepted", "hint", "hint_kind", "before", "after", "origin", "error_type",
    "explanation_en", "explanation_es", "source_id", "created", "due", "last_review", "reps", "lapses",
)


class Practice:
    """The practice state of one Store: cards, their schedule and every answer, per learner."""

    def __init__(self, store: Store, *, daily: bool = False) -> None:
        """Use this store (it must stay open while the Practice is used); `daily`: schedule answers on the
        daily schedule (tutor.practice.schedule), no steps of minutes."""
        self.store = store
        self.daily = daily

    # -- learners ----------------------------------------------------------------------------------

    def learner(self, learner: Learner) -> tuple[int, str, str]:
        """Return (id, name, uuid) of a learner by name or id; StoreError naming the known learners."""
        found = self.store.find_learner(learner)
        if found is None:
            raise unknown_learner(self.store, learner)
        return int(found["id"]), found["name"], found["uuid"]

    # -- building cards ----------------------------------------------------------------------------

    def build(self, learner: Learner, *, now: datetime | None = None) -> int:
        """Turn the learner's mistakes that have no cards yet into cards, due at once; return the cards added."""
        lid, _, learner_uuid = self.learner(learner)
        mistakes = rows.new_mistakes(self.store, lid)
        if not mistakes:
            return 0
        stamp = utc_stamp(now)
        memory = new_memory(now or datetime.now(UTC))
        fixes = sentence_fixes(mistakes)
        built = [(row["id"], [card_row(card, lid, stamp, memory)
                              for card in cards_for(row, learner_uuid, fixes.get(row["id"], ()))])
                 for row in mistakes]
        return rows.add_cards(self.store, lid, built, stamp)

    # -- the due list ------------------------------------------------------------------------------

    def due(self, learner: Learner, *, limit: int = 20, now: datetime | None = None) -> list[dict[str, Any]]:
        """Return the learner's due cards (after building cards for new mistakes), longest waiting first and
        the learner's own sentences before the variants; each as card_dict()."""
        now = now or datetime.now(UTC)
        self.build(learner, now=now)
        lid, _, _ = self.learner(learner)
        return [card_dict(r) for r in rows.due_cards(self.store, lid, utc_stamp(now), limit)]

    def count_due(self, learner: Learner, *, now: datetime | None = None) -> int:
        """Return how many of the learner's cards are due (cards are not built here)."""
        lid, _, _ = self.learner(learner)
        return rows.count_due(self.store, lid, utc_stamp(now))

    def cards(self, learner: Learner) -> list[dict[str, Any]]:
        """Return every card of the learner (due or not), as card_dict(), in the due list's order."""
        lid, _, _ = self.learner(learner)
        return [card_dict(r) for r in rows.all_cards(self.store, lid)]

    def card(self, learner: Learner, card_id: str) -> dict[str, Any]:
        """Return one of the learner's cards by UUID or a unique prefix of it; InputError when there is none."""
        lid, name, _ = self.learner(learner)
        key = card_id.strip().lower()
        if len(key) < MIN_ID_PREFIX:
            raise InputError(f"the card id {card_id!r} is too short; give at least {MIN_ID_PREFIX} characters of "
                             f"it, as `grammar-tutor exercises --learner NAME` lists them")
        found = rows.cards_starting(self.store, lid, key)
        if not found:
            raise InputError(f"{name} has no practice card {card_id!r}; "
                             "`grammar-tutor exercises --learner NAME` lists the due ones")
        if len(found) > 1:
            raise InputError(f"more than one of {name}'s cards starts with {card_id!r}; give more of the id")
        return card_dict(found[0])

    # -- answering ---------------------------------------------------------------------------------

    def answer(self, learner: Learner, card_id: str, given: str, *, now: datetime | None = None) -> dict[str, Any]:
        """Grade an answer to one card, reschedule it and keep the answer; return what happened:
        {"id", "correct", "given", "answer", "accepted", "explanation_en", "explanation_es", "cell", "due",
        "still_due"}. A wrong answer keeps the card due."""
        text = visible_text(given or "")  # no control, bidi or zero-width characters kept as typed
        if not text:
            raise InputError("the answer is empty; type the verb form that fills the gap, e.g. went")
        if len(text) > MAX_ANSWER_CHARS:
            raise InputError(f"an answer is one verb form of at most {MAX_ANSWER_CHARS} characters; "
                             f"this one has {len(text)}")
        now = now or datetime.now(UTC)
        for _ in range(SAVE_ATTEMPTS):  # two answers at one moment: each is scheduled on the other's result
            card = self.card(learner, card_id)
            correct = to_card(card).accepts(text)
            memory, rating = review(Memory(**{k: card[k] for k in MEMORY_COLUMNS}), correct, now, daily=self.daily)
            if rows.save_answer(self.store, card, {k: getattr(memory, k) for k in MEMORY_COLUMNS},
                                {"id": str(uuid.uuid4()), "reviewed": utc_stamp(now), "given": text,
                                 "correct": correct, "rating": rating}):
                break
        else:
            raise StoreError(f"the card {card_id} kept changing while this answer was saved (other answers to it "
                             "at the same moment); the answer was not kept, give it again")
        return {"id": card["id"], "correct": correct, "given": text, "answer": card["answer"],
                "accepted": card["accepted"], "prompt": card["prompt"], "cell": card["cell"],
                "explanation_en": card["explanation_en"], "explanation_es": card["explanation_es"],
                "due": memory.due, "still_due": memory.due <= utc_stamp(now), "reps": memory.reps,
                "lapses": memory.lapses}


def card_row(card: Card, learner_id: int, created: str, memory: Memory) -> dict[str, Any]:
    """Return the `cards` row of a new card."""
    return {"id": card.id, "learner_id": learner_id, "created": created, "source_id": card.source_id,
            "origin": card.origin, "verb": card.verb, "tense": card.tense, "person": card.person,
            "before": card.before, "after": card.after, "hint": card.hint, "hint_kind": card.hint_kind,
            "answer": card.answer, "accepted": json.dumps(list(card.accepted), ensure_ascii=False),
            "explanation_en": card.explanation_en, "explanation_es": card.explanation_es,
            "error_type": card.error_type, **{k: getattr(memory, k) for k in MEMORY_COLUMNS}}


def card_dict(row: dict[str, Any]) -> dict[str, Any]:
    """Return a `cards` row as the public card: the prompt, its cell, the answer, the schedule."""
    out = {key: row[key] for key in CARD_COLUMNS if key != "accepted"}
    out["accepted"] = rows.accepted_of(row)
    out["cell"] = {"verb": row["verb"], "tense": row["tense"], "person": row["person"]}
    out["prompt"] = to_card(out).prompt
    return out


def public_card(card: dict[str, Any]) -> dict[str, Any]:
    """Return a card (card_dict) as the CLI and the class server show it."""
    return {key: card[key] for key in PUBLIC_KEYS}


def to_card(row: dict[str, Any]) -> Card:
    """Return the Card of a card dict (or row with `accepted` parsed)."""
    return Card(id=row["id"], origin=row["origin"], verb=row["verb"], tense=row["tense"], person=row["person"],
                before=row["before"], after=row["after"], hint=row["hint"], hint_kind=row["hint_kind"],
                answer=row["answer"], accepted=tuple(row["accepted"]), explanation_en=row["explanation_en"],
                explanation_es=row["explanation_es"], error_type=row["error_type"] or "",
                source_id=row["source_id"])

