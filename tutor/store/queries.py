"""The read side: history filters (with FTS5 search), error counts, weekly progress and latency summaries.

Every function takes a sqlite-utils Database and returns plain Python data.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlite_utils

from tutor.store.records import bound, history_row
from tutor.store.schema import CORRECTIONS, LEARNERS

# Upper edges (µs) of the latency histogram buckets; the last bucket is open-ended.
HISTOGRAM_EDGES_US: tuple[float, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
NO_LEARNER = -1  # an id no row has: filtering by an unknown learner matches nothing

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Filters:
    """What a history query keeps: all fields optional, all conditions combined with AND."""

    learner_id: int | None = None
    verb: str | None = None
    tense: str | None = None
    person: str | None = None
    since: datetime | date | str | None = None
    until: datetime | date | str | None = None
    search: str | None = None
    only_mistakes: bool = False

    def where(self) -> tuple[str, list[Any]]:
        """Return the SQL WHERE clause (over alias `c`) and its parameters."""
        clauses: list[str] = []
        params: list[Any] = []
        if self.learner_id is not None:
            clauses.append("c.learner_id = ?")
            params.append(self.learner_id)
        for column in ("verb", "tense", "person"):
            value = getattr(self, column)
            if value:
                clauses.append(f"c.{column} = ?")
                params.append(value)
        if self.since is not None:
            clauses.append("c.created >= ?")
            params.append(bound(self.since, upper=False))
        if self.until is not None:
            clauses.append("c.created < ?")
            params.append(bound(self.until, upper=True))
        if self.only_mistakes:
            clauses.append("c.is_correct = 0 AND c.out_of_scope = 0")
        match = fts_query(self.search or "")
        if match:
            clauses.append(f"c.seq IN (SELECT rowid FROM {CORRECTIONS}_fts WHERE {CORRECTIONS}_fts MATCH ?)")
            params.append(match)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def fts_query(text: str) -> str:
    """Return an FTS5 query matching every word of `text` as a prefix ("she go" finds "She goes")."""
    return " ".join(f'"{word}"*' for word in _WORD.findall(text))


def learner_id(db: sqlite_utils.Database, learner: str | int | None) -> int | None:
    """Return the id for a learner name or id; None for None; NO_LEARNER when no such learner exists."""
    if learner is None:
        return None
    if isinstance(learner, int):
        sql, param = f"SELECT id FROM {LEARNERS} WHERE id = ?", learner
    else:
        sql, param = f"SELECT id FROM {LEARNERS} WHERE name = ? COLLATE NOCASE", learner.strip()
    row = db.execute(sql, [param]).fetchone()
    return int(row[0]) if row else NO_LEARNER


def history(db: sqlite_utils.Database, filters: Filters, *, limit: int, offset: int,
            oldest_first: bool = False) -> list[dict[str, Any]]:
    """Return one page of corrections matching `filters`, newest first unless `oldest_first`."""
    where, params = filters.where()
    order = "ASC" if oldest_first else "DESC"
    sql = (
        f"SELECT c.*, l.name AS learner FROM {CORRECTIONS} c JOIN {LEARNERS} l ON l.id = c.learner_id"
        f"{where} ORDER BY c.created {order}, c.seq {order} LIMIT ? OFFSET ?"
    )
    return [history_row(row) for row in db.query(sql, [*params, int(limit), int(offset)])]


def count_history(db: sqlite_utils.Database, filters: Filters) -> int:
    """Return how many corrections match `filters`."""
    where, params = filters.where()
    return int(db.execute(f"SELECT COUNT(*) FROM {CORRECTIONS} c{where}", params).fetchone()[0])


def error_counts(db: sqlite_utils.Database, learner: int | None) -> dict[str, dict[str, int]]:
    """Return {"verb"|"tense"|"person": {value: errors}}, most frequent first; errors exclude out-of-scope."""
    where = "WHERE is_correct = 0 AND out_of_scope = 0"
    params: list[Any] = []
    if learner is not None:
        where += " AND learner_id = ?"
        params.append(learner)
    totals: dict[str, dict[str, int]] = {"verb": {}, "tense": {}, "person": {}}
    sql = f"SELECT verb, tense, person, COUNT(*) FROM {CORRECTIONS} {where} GROUP BY verb, tense, person"
    for verb, tense, person, n in db.execute(sql, params):
        for key, value in (("verb", verb), ("tense", tense), ("person", person)):
            if value is not None:
                totals[key][value] = totals[key].get(value, 0) + n
    return {key: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for key, c in totals.items()}


def progress_by_week(db: sqlite_utils.Database, learner: int | None) -> list[dict[str, Any]]:
    """Return per week with corrections: week (its Monday), total, correct, errors, out_of_scope, accuracy."""
    where, params = ("WHERE learner_id = ?", [learner]) if learner is not None else ("", [])
    # Monday on or before the day: step back 6 days, then forward to the next Monday.
    sql = (
        "SELECT date(substr(created, 1, 10), '-6 days', 'weekday 1') AS week, COUNT(*) AS total,"
        " SUM(is_correct = 1 AND out_of_scope = 0) AS correct,"
        " SUM(is_correct = 0 AND out_of_scope = 0) AS errors,"
        " SUM(out_of_scope = 1) AS out_of_scope"
        f" FROM {CORRECTIONS} {where} GROUP BY week ORDER BY week"
    )
    weeks = []
    for row in db.query(sql, params):
        judged = row["correct"] + row["errors"]
        row["accuracy"] = row["correct"] / judged if judged else None
        weeks.append(row)
    return weeks


def _percentile(sorted_values: list[float], q: float) -> float:
    """Return the nearest-rank q-th percentile (0 < q <= 100) of an ascending, non-empty list."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def latency_summary(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Return per model: corrections, p50/p99 of mask µs/token, max, total-ms p50/p99 and a histogram.

    Only corrections that sampled at least one token count (a fully forced one never ran the mask).
    mask_p50_us is the median of the per-correction medians; mask_p99_us the 99th percentile of the
    per-correction p99s; the histogram buckets the per-correction medians by HISTOGRAM_EDGES_US.
    """
    by_model: dict[tuple[str, str], tuple[list[float], list[float], list[float], list[float]]] = {}
    sql = (
        f"SELECT model_name, model_sha256, mask_p50_us, mask_p99_us, mask_max_us, total_ms FROM {CORRECTIONS}"
        " WHERE tokens_sampled > 0"
    )
    for name, sha, p50, p99, mx, total in db.execute(sql):
        lists = by_model.setdefault((name or "", sha or ""), ([], [], [], []))
        lists[0].append(p50 or 0.0)
        lists[1].append(p99 or 0.0)
        lists[2].append(mx or 0.0)
        lists[3].append(total or 0.0)
    summary = []
    for (name, sha), (p50s, p99s, maxes, totals) in sorted(by_model.items()):
        p50s.sort()
        p99s.sort()
        totals.sort()
        counts = [0] * (len(HISTOGRAM_EDGES_US) + 1)
        edge_index = 0
        for value in p50s:  # ascending, so the bucket index only moves forward
            while edge_index < len(HISTOGRAM_EDGES_US) and value > HISTOGRAM_EDGES_US[edge_index]:
                edge_index += 1
            counts[edge_index] += 1
        histogram = [
            {"le_us": edge, "count": count}
            for edge, count in zip((*HISTOGRAM_EDGES_US, None), counts, strict=True)
        ]
        summary.append(
            {
                "model_name": name,
                "model_sha256": sha,
                "corrections": len(p50s),
                "mask_p50_us": _percentile(p50s, 50),
                "mask_p99_us": _percentile(p99s, 99),
                "mask_max_us": max(maxes),
                "total_ms_p50": _percentile(totals, 50),
                "total_ms_p99": _percentile(totals, 99),
                "histogram": histogram,
            }
        )
    return summary
