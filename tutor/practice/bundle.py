"""The practice state in bundles and on the class server: checking a learner's `practice` section before it
is merged (tutor.store.practice_rows reads and merges it), and cutting it into pieces for the class server.

Cards and answers are matched by UUID (a card's UUID derives from the learner and its text, so the same
mistake gives the same card on every machine). Answers are only ever added; a card known on both sides
keeps the state of the side that has seen more answers (then the later review), so importing twice, or an
older bundle after a newer one, changes nothing. The section has its own sha256 (the bundle's covers its
corrections only), and is optional: bundles without one import as before.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from tutor.practice.cards import BASE, ORIGINS, WRITTEN
from tutor.scope import load_scope
from tutor.store.practice_rows import CARD_KEYS, MAX_TEXT, REVIEW_KEYS, digest, with_digest

_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")


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
    if any(not isinstance(card[key], str) or len(card[key]) > MAX_TEXT for key in texts):
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
