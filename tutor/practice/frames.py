"""Frame sentences for practice variants (data/practice/frames.json): one short sentence per §A13 cell."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from tutor.resources import data_path
from tutor.scope import load_scope

GAP = "___"


@dataclass(frozen=True, slots=True)
class Frame:
    """A sentence with one gap: the text before it, the text after it (the hint is the verb's base form)."""

    verb: str
    tense: str
    person: str
    before: str
    after: str


@cache
def frames_data() -> dict[str, Any]:
    """Return data/practice/frames.json without its comments."""
    raw = json.loads(data_path("practice", "frames.json").read_text(encoding="utf-8"))
    return {key: value for key, value in raw.items() if not key.startswith("_")}


def mastered_stability_days() -> float:
    """Return the FSRS stability (days) from which a card counts as mastered."""
    return float(frames_data()["mastered"]["stability_days"])


def frame(verb: str, tense: str, person: str) -> Frame | None:
    """Return the frame sentence of a cell, or None when the verb leaves that tense out."""
    load_scope().cell(verb, tense, person)  # KeyError for a cell outside §A13
    data = frames_data()
    entry = data["verbs"][verb]
    if tense in entry.get("skip", ()):
        return None
    words = dict(data["subjects"][person])
    words["Subject"] = words["subject"][:1].upper() + words["subject"][1:]
    words["complement"] = entry["complement"]
    template: str = data["frames"][entry["kind"]][tense]
    marker = f"{GAP} ({{verb}})"
    if template.count(marker) != 1:
        raise ValueError(f"data/practice/frames.json: the {tense!r} frame needs exactly one {marker!r}")
    before, after = template.split(marker)
    return Frame(verb, tense, person, before.format(**words), after.format(**words))
