"""Progress over time for a learner or the class: errors per 100 words by week, errors by §A13 cell and by
error type, practice answers per cell, the cells mastered and the cells that keep going wrong.

Words are counted in what the store keeps of the learner's writing: every corrected sentence, and every
checked text once (a text is kept with its findings, so a text with none is not counted; see the note).
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tutor.practice.error_types import error_type
from tutor.practice.frames import mastered_stability_days
from tutor.store import practice_rows
from tutor.store.records import utc_stamp

if TYPE_CHECKING:
    from tutor.store import Store
    from tutor.store.records import Learner

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
REVIEW_STATE = 2  # fsrs.State.Review
TROUBLE_MIN = 2  # a cell "keeps going wrong" once it has gone wrong at least this often, and is not mastered


def count_words(text: str | None) -> int:
    """Return the number of words (runs of letters, with inner apostrophes) in `text`."""
    return len(_WORD.findall(text or ""))


def progress(store: Store, learner: Learner | None = None, *, now: datetime | None = None) -> dict[str, Any]:
    """Return the progress of one learner (name or id) or, with None, of every learner together:

    {"weeks": [{"week", "words", "errors", "per_100_words"}], "error_types": {type: errors},
     "cells": [{"verb", "tense", "person", "errors", "right", "wrong", "cards", "mastered", "learners",
                "mastered_by"}],
     "mastered": [cell…], "trouble": [cell…], "practice": {"cards", "due", "answers", "right"}}
    """
    found = practice_rows.progress_rows(store, learner, mastered_state=REVIEW_STATE,
                                        mastered_stability=mastered_stability_days(),
                                        now=utc_stamp(now or datetime.now(UTC)))
    weeks, types, cells = _writing(found.writing)
    _cards(found, cells)
    summary = found.totals
    rows = []
    for (verb, tense, person), c in sorted(cells.items()):
        learners = c.pop("learner_ids")
        mastered_by = c.pop("mastered_ids")
        carded = c.pop("carded_ids")
        rows.append({"verb": verb, "tense": tense, "person": person, **c, "learners": len(learners),
                     "mastered_by": len(mastered_by), "mastered": bool(carded) and carded <= mastered_by})
    trouble = sorted((r for r in rows if r["errors"] + r["wrong"] >= TROUBLE_MIN and not r["mastered"]),
                     key=lambda r: (-(r["errors"] + r["wrong"]), -r["learners"], r["verb"], r["tense"], r["person"]))
    return {"weeks": weeks, "error_types": dict(sorted(types.items(), key=lambda kv: (-kv[1], kv[0]))),
            "cells": rows, "mastered": [_key(r) for r in rows if r["mastered"]], "trouble": trouble,
            "practice": summary}


def _key(row: dict[str, Any]) -> dict[str, str]:
    return {"verb": row["verb"], "tense": row["tense"], "person": row["person"]}


def _new_cell() -> dict[str, Any]:
    return {"errors": 0, "right": 0, "wrong": 0, "cards": 0, "learner_ids": set(), "mastered_ids": set(),
            "carded_ids": set()}


def _writing(rows: list[tuple]) -> tuple[list[dict[str, Any]], dict[str, int], dict]:
    """Return (weeks, errors per type, cells with their error counts) from the corrections."""
    words: dict[str, int] = defaultdict(int)
    errors: dict[str, int] = defaultdict(int)
    texts: set[tuple[str, int, str]] = set()
    types: dict[str, int] = defaultdict(int)
    cells: dict[tuple[str, str, str], dict[str, Any]] = defaultdict(_new_cell)
    for week, lid, kind, original, source_text, is_correct, out_of_scope, uncounted, verb, tense, person, span in rows:
        if kind == "check" and source_text:
            if (week, lid, source_text) not in texts:
                texts.add((week, lid, source_text))
                words[week] += count_words(source_text)
        else:
            words[week] += count_words(original)
        if is_correct or out_of_scope or uncounted or not verb:  # doubted by the judge, or shown as a note
            continue
        errors[week] += 1
        types[str(error_type(verb, tense, person, span))] += 1
        cell = cells[(verb, tense, person)]
        cell["errors"] += 1
        cell["learner_ids"].add(lid)
    weeks = [{"week": week, "words": words[week], "errors": errors[week],
              "per_100_words": round(100 * errors[week] / words[week], 2) if words[week] else None}
             for week in sorted(words)]
    return weeks, types, cells


def _cards(found: practice_rows.ProgressRows, cells: dict) -> None:
    """Add the practice answers, cards and mastery per cell."""
    for lid, verb, tense, person, n, mastered in found.cards:
        cell = cells[(verb, tense, person)]
        cell["cards"] += n
        cell["carded_ids"].add(lid)
        if mastered == n:
            cell["mastered_ids"].add(lid)
    for lid, verb, tense, person, right, wrong in found.answers:
        cell = cells[(verb, tense, person)]
        cell["right"] += right
        cell["wrong"] += wrong
        cell["learner_ids"].add(lid)
