"""The practice state in bundles and on the class server: a learner's cards (with their FSRS state) and every
answer, carried as a `practice` section and merged exactly once.

Cards and answers are matched by UUID (a card's UUID derives from the learner and its text, so the same
mistake gives the same card on every machine). Answers are only ever added; a card known on both sides
keeps the state of the side that has seen more answers (then the later review), so importing twice, or an
older bundle after a newer one, changes nothing. The section has its own sha256 (the bundle's covers its
corrections only), and is optional: bundles without one import as before.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from typing import Any

from tutor.practice.cards import BASE, ORIGINS, WRITTEN
from tutor.practice.practice import CARD_COLUMNS, MEMORY_COLUMNS, card_dict
from tutor.scope import load_scope
from tutor.store import schema

SECTION_KEY = "practice"
REVIEW_KEYS: tuple[str, ...] = ("id", "card_id", "reviewed", "given", "correct", "rating")
SOURCE_KEYS: tuple[str, ...] = ("correction_id", "built", "cards")
# A card in a section: the `cards` row less the local learner id; `accepted` as a list.
CARD_KEYS: tuple[str, ...] = tuple(key for key in CARD_COLUMNS if key != "learner_id")
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
_MAX_TEXT = 2000


@dataclass
class PracticeSummary:
    """What merging one practice section did."""

    cards_new: int = 0
    cards_updated: int = 0
    reviews_new: int = 0
    sources_new: int = 0

    def to_dict(self) -> dict[str, int]:
        """Return the counts as a dict."""
        return {"cards_new": self.cards_new, "cards_updated": self.cards_updated, "reviews_new": self.reviews_new}


def section(db: Any, learner_id: int) -> dict[str, Any]:
    """Return the learner's practice section: {"cards", "reviews", "sources", "sha256"}."""
    cards = [_card_out(card_dict(row)) for row in db.query(
        f"SELECT * FROM {schema.CARDS} WHERE learner_id = ? ORDER BY seq", [learner_id])]
    reviews = [{**row, "correct": bool(row["correct"])} for row in db.query(
        f"SELECT {', '.join(REVIEW_KEYS)} FROM {schema.CARD_REVIEWS} WHERE learner_id = ? ORDER BY seq",
        [learner_id])]
    sources = list(db.query(f"SELECT {', '.join(SOURCE_KEYS)} FROM {schema.CARD_SOURCES} WHERE learner_id = ?"
                            " ORDER BY correction_id", [learner_id]))
    return with_digest({"cards": cards, "reviews": reviews, "sources": sources})


def section_for(store: Any, learner_id: int) -> dict[str, Any]:
    """Return {"practice": section} for a bundle of the learner (read on this thread's connection)."""
    return {SECTION_KEY: section(store._conns.get(), learner_id)}


def with_digest(body: dict[str, Any]) -> dict[str, Any]:
    """Return the section with its sha256 over cards, reviews and sources."""
    return {**body, "sha256": digest(body)}


def digest(body: dict[str, Any]) -> str:
    """Return the sha256 of a section's content (canonical JSON of its cards, reviews and sources)."""
    canonical = json.dumps({k: body.get(k) for k in ("cards", "reviews", "sources")}, sort_keys=True,
                           ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def problem(value: Any) -> str | None:
    """Return what is wrong with a practice section (for the bundle's 'is damaged' message), or None."""
    if not isinstance(value, dict):
        return "its practice section is not an object"
    cards, reviews, sources = value.get("cards"), value.get("reviews"), value.get("sources", [])
    if not isinstance(cards, list) or not isinstance(reviews, list) or not isinstance(sources, list):
        return "its practice section lacks the lists of cards and answers"
    if value.get("sha256") != digest(value):
        return "its practice section does not match its sha256 (the file was changed or cut short)"
    known: set[str] = set()
    for n, card in enumerate(cards, 1):
        found = _card_problem(card)
        if found:
            return f"practice card {n} {found}"
        known.add(card["id"])
    for n, review in enumerate(reviews, 1):
        if not isinstance(review, dict) or any(key not in review for key in REVIEW_KEYS):
            return f"practice answer {n} lacks {', '.join(REVIEW_KEYS)}"
        if not _is_uuid(review["id"]) or review["card_id"] not in known:
            return f"practice answer {n} has a bad id or names a card the section does not carry"
        if not _is_stamp(review["reviewed"]) or not isinstance(review["given"], str) or \
                not isinstance(review["correct"], bool) or review["rating"] not in (1, 2, 3, 4):
            return f"practice answer {n} has a bad time, answer, result or rating"
    for n, source in enumerate(sources, 1):
        if not isinstance(source, dict) or not _is_uuid(source.get("correction_id")) or \
                not isinstance(source.get("cards"), int) or not _is_stamp(source.get("built")):
            return f"practice source {n} is not a correction UUID with a time and a card count"
    return None


def merge(db: Any, learner_id: int, value: dict[str, Any]) -> PracticeSummary:
    """Merge a checked practice section into the learner's state; the caller holds the write transaction."""
    summary = PracticeSummary()
    for card in value["cards"]:
        row = _card_in(card, learner_id)
        known = db.execute(f"SELECT learner_id, reps, last_review FROM {schema.CARDS} WHERE id = ?",
                           [card["id"]]).fetchone()
        if known is None:
            columns = ", ".join(row)
            db.conn.execute(f"INSERT INTO {schema.CARDS} ({columns}) VALUES ({', '.join(':' + c for c in row)})",
                            row)
            summary.cards_new += 1
        elif known[0] == learner_id and (row["reps"], row["last_review"] or "") > (known[1], known[2] or ""):
            db.conn.execute(
                f"UPDATE {schema.CARDS} SET {', '.join(f'{k} = :{k}' for k in MEMORY_COLUMNS)} WHERE id = :id",
                {k: row[k] for k in (*MEMORY_COLUMNS, "id")})
            summary.cards_updated += 1
    for review in value["reviews"]:
        owner = db.execute(f"SELECT learner_id FROM {schema.CARDS} WHERE id = ?", [review["card_id"]]).fetchone()
        if owner is None or owner[0] != learner_id:
            continue  # a card another learner holds here (a UUID clash): never attach answers across learners
        added = db.conn.execute(
            f"INSERT OR IGNORE INTO {schema.CARD_REVIEWS} (id, card_id, learner_id, reviewed, given, correct, rating)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [review["id"], review["card_id"], learner_id, review["reviewed"], review["given"][:_MAX_TEXT],
             int(review["correct"]), review["rating"]]).rowcount
        summary.reviews_new += added
    for source in value.get("sources", []):
        summary.sources_new += db.conn.execute(
            f"INSERT OR IGNORE INTO {schema.CARD_SOURCES} (correction_id, learner_id, built, cards)"
            " VALUES (?, ?, ?, ?)", [source["correction_id"], learner_id, source["built"], source["cards"]]).rowcount
    return summary


def chunks(value: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    """Split a section into sections whose cards and answers take at most about `limit` bytes of JSON; each
    answer travels with its card (a card with more answers than fit goes again with the rest)."""
    by_card: dict[str, list[dict[str, Any]]] = {}
    for review in value["reviews"]:
        by_card.setdefault(review["card_id"], []).append(review)
    items: list[tuple[dict[str, Any], list[dict[str, Any]], int]] = []
    for card in value["cards"]:
        card_cost = _size(card)
        group: list[dict[str, Any]] = []
        used = card_cost
        for review in by_card.get(card["id"], []):
            if group and used + _size(review) > limit:
                items.append((card, group, used))
                group, used = [], card_cost
            group.append(review)
            used += _size(review)
        items.append((card, group, used))
    out: list[dict[str, Any]] = []
    current: dict[str, list[Any]] = {"cards": [], "reviews": [], "sources": []}
    used = 0
    for card, group, cost in items:
        if current["cards"] and used + cost > limit:
            out.append(with_digest(current))
            current, used = {"cards": [], "reviews": [], "sources": []}, 0
        current["cards"].append(card)
        current["reviews"].extend(group)
        used += cost
    if current["cards"] or not out:
        out.append(with_digest(current))
    return out


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8")) + 1


def _card_out(card: dict[str, Any]) -> dict[str, Any]:
    return {key: card[key] for key in CARD_KEYS}


def _card_in(card: dict[str, Any], learner_id: int) -> dict[str, Any]:
    row = {key: card[key] for key in CARD_KEYS}
    row["learner_id"] = learner_id
    row["accepted"] = json.dumps(list(card["accepted"]), ensure_ascii=False)
    return row


def _card_problem(card: Any) -> str | None:
    if not isinstance(card, dict):
        return "is not an object"
    missing = [key for key in CARD_KEYS if key not in card]
    if missing:
        return f"lacks {', '.join(missing)}"
    if not _is_uuid(card["id"]) or (card["source_id"] is not None and not isinstance(card["source_id"], str)):
        return "has an id that is not a UUID"
    try:
        load_scope().cell(card["verb"], card["tense"], card["person"])
    except KeyError:
        return "names no §A13 cell"
    if card["origin"] not in ORIGINS or card["hint_kind"] not in (BASE, WRITTEN):
        return "has an unknown origin or hint"
    texts = ("before", "after", "hint", "answer", "explanation_en", "explanation_es")
    if any(not isinstance(card[key], str) or len(card[key]) > _MAX_TEXT for key in texts):
        return "has a text field that is not text (or is too long)"
    accepted = card["accepted"]
    if not isinstance(accepted, list) or not accepted or not all(isinstance(a, str) for a in accepted):
        return "has no list of accepted answers"
    if not _is_stamp(card["created"]) or not _is_stamp(card["due"]) or (
            card["last_review"] is not None and not _is_stamp(card["last_review"])):
        return "has a time not in the store's UTC format"
    if card["step"] is not None and (not isinstance(card["step"], int) or isinstance(card["step"], bool)):
        return "has a bad FSRS step"
    numbers = (card["state"], card["reps"], card["lapses"])
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in numbers) or card["state"] not in (1, 2, 3):
        return "has a bad FSRS state or count"
    for key in ("stability", "difficulty"):
        if card[key] is not None and (not isinstance(card[key], (int, float)) or isinstance(card[key], bool)):
            return f"has a {key} that is not a number"
    return None


def _is_uuid(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return str(uuid.UUID(value)) == value.lower()
    except ValueError:
        return False


def _is_stamp(value: Any) -> bool:
    return isinstance(value, str) and bool(_STAMP.match(value))
