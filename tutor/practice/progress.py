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
from tutor.store import queries, schema
from tutor.store.db import translated
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
    db = store._conns.get()
    with translated(store.path, "summarising practice progress"):
        lid = queries.learner_id(db, learner)
        where, params = ("AND c.learner_id = ?", [lid]) if lid is not None else ("", [])
        weeks, types, cells = _writing(db, where, params)
        _cards(db, where, params, cells)
        summary = _practice(db, where, params, now or datetime.now(UTC))
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


def _writing(db: Any, where: str, params: list[Any]) -> tuple[list[dict[str, Any]], dict[str, int], dict]:
    """Return (weeks, errors per type, cells with their error counts) from the corrections."""
    sql = (f"SELECT {schema.WEEK_SQL} AS week, c.learner_id, c.kind, c.original, c.source_text, c.is_correct,"
           f" c.out_of_scope, c.not_sure, c.verb, c.tense, c.person, c.error_span FROM {schema.CORRECTIONS} c"
           f" WHERE c.kind != 'review' {where}")
    words: dict[str, int] = defaultdict(int)
    errors: dict[str, int] = defaultdict(int)
    texts: set[tuple[str, int, str]] = set()
    types: dict[str, int] = defaultdict(int)
    cells: dict[tuple[str, str, str], dict[str, Any]] = defaultdict(_new_cell)
    for week, lid, kind, original, source_text, is_correct, out_of_scope, not_sure, verb, tense, person, span in \
            db.execute(sql, params):
        if kind == "check" and source_text:
            if (week, lid, source_text) not in texts:
                texts.add((week, lid, source_text))
                words[week] += count_words(source_text)
        else:
            words[week] += count_words(original)
        if is_correct or out_of_scope or not_sure or not verb:  # a finding the judge doubted is not counted
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


def _cards(db: Any, where: str, params: list[Any], cells: dict) -> None:
    """Add the practice answers, cards and mastery per cell."""
    stability = mastered_stability_days()
    sql = (f"SELECT c.learner_id, c.verb, c.tense, c.person, COUNT(*),"
           f" SUM(c.state = {REVIEW_STATE} AND c.stability >= ?) FROM {schema.CARDS} c WHERE 1 {where}"
           " GROUP BY c.learner_id, c.verb, c.tense, c.person")
    for lid, verb, tense, person, n, mastered in db.execute(sql, [stability, *params]):
        cell = cells[(verb, tense, person)]
        cell["cards"] += n
        cell["carded_ids"].add(lid)
        if mastered == n:
            cell["mastered_ids"].add(lid)
    sql = (f"SELECT r.learner_id, c.verb, c.tense, c.person, SUM(r.correct), SUM(1 - r.correct)"
           f" FROM {schema.CARD_REVIEWS} r JOIN {schema.CARDS} c ON c.id = r.card_id WHERE 1 {where}"
           " GROUP BY r.learner_id, c.verb, c.tense, c.person")
    for lid, verb, tense, person, right, wrong in db.execute(sql, params):
        cell = cells[(verb, tense, person)]
        cell["right"] += right
        cell["wrong"] += wrong
        cell["learner_ids"].add(lid)


def _practice(db: Any, where: str, params: list[Any], now: datetime) -> dict[str, int]:
    """Return {"cards", "due", "answers", "right"} over the practice state."""
    cards, due = db.execute(f"SELECT COUNT(*), COALESCE(SUM(c.due <= ?), 0) FROM {schema.CARDS} c WHERE 1 {where}",
                            [utc_stamp(now), *params]).fetchone()
    answers, right = db.execute(
        f"SELECT COUNT(*), COALESCE(SUM(r.correct), 0) FROM {schema.CARD_REVIEWS} r"
        f" JOIN {schema.CARDS} c ON c.id = r.card_id WHERE 1 {where}", params).fetchone()
    return {"cards": int(cards), "due": int(due), "answers": int(answers), "right": int(right)}
