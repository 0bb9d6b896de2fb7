"""A learner's practice section cut into pieces that each fit under the class server's body limit.

The section itself (cards with their FSRS state, every answer, the mistakes they came from, its sha256) is
read, checked and merged by tutor.store.practice_rows; every piece is a whole section that merges once.
"""

from __future__ import annotations

import json
from typing import Any

from tutor.store.practice_rows import with_digest


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
