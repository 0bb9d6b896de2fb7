"""The read side: history filters (with FTS5 search), error counts, weekly progress and latency summaries.

Every function takes a Store's connection (a sqlite-utils Database, or tutor.store.postgres.PgDb) and returns
plain Python data.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlite_utils

from tutor.store import dialect
from tutor.store.names import name_key, visible_text
from tutor.store.records import bound, history_row
from tutor.store.schema import CORRECTIONS, LEARNERS, MASK_TIMINGS, OUTBOX, TIMED_SQL, WEEK_SQL

# Upper edges (µs) of the latency histogram buckets; the last bucket is open-ended.
HISTOGRAM_EDGES_US: tuple[float, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
# Upper edges (ms) of the time-per-correction histogram; the last bucket is open-ended.
TIME_EDGES_MS: tuple[float, ...] = (50, 100, 200, 500, 1000, 2000, 5000, 10000)
TIMED = TIMED_SQL  # the rows with the model's time per correction (indexed: keep the exact text)
NO_LEARNER = -1  # an id no row has: filtering by an unknown learner matches nothing


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

    def where(self, db: Any = None, *, ordered: bool = True) -> tuple[str, list[Any]]:
        """Return the SQL WHERE clause (over alias `c`) and its parameters for the connection `db` (its dialect's
        text search); `ordered` for paged queries."""
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
            clauses.append("c.is_correct = 0 AND c.out_of_scope = 0 AND c.kind != 'review' AND c.not_sure = 0"
                           " AND c.noted = 0")
        # A page walks the created/learner index in order and tests membership (`+c.seq` keeps SQLite's
        # planner from fetching and sorting every match of a common word); a count reads the matches.
        match = dialect.text_match(db, "+c.seq" if ordered else "c.seq", CORRECTIONS, self.search or "")
        if match:
            clauses.append(match[0])
            params.append(match[1])
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def learner_id(db: sqlite_utils.Database, learner: str | int | None) -> int | None:
    """Return the id for a learner name or id; None for None; NO_LEARNER when no such learner exists."""
    if learner is None:
        return None
    if isinstance(learner, int):
        sql, param = f"SELECT id FROM {LEARNERS} WHERE id = ?", learner
    else:
        # By the folded key (NFC + casefold); a row written without a key (by older code) by its name.
        sql = (f"SELECT id FROM {LEARNERS} WHERE name_key = ? OR (name_key IS NULL AND name = ? COLLATE NOCASE)"
               " ORDER BY id LIMIT 1")
        row = db.execute(sql, [name_key(learner), visible_text(learner)]).fetchone()
        return int(row[0]) if row else NO_LEARNER
    row = db.execute(sql, [param]).fetchone()
    return int(row[0]) if row else NO_LEARNER


def history(db: sqlite_utils.Database, filters: Filters, *, limit: int, offset: int,
            oldest_first: bool = False) -> list[dict[str, Any]]:
    """Return one page of corrections matching `filters`, newest first unless `oldest_first`."""
    where, params = filters.where(db)
    direction = "ASC" if oldest_first else "DESC"
    order = f"ORDER BY c.created {direction}, c.seq {direction}"
    # Pick the page's rowids from the covering index first, then read only those rows: skipping
    # `offset` rows costs index entries, not table rows.
    sql = (
        f"SELECT c.*, l.name AS learner FROM"
        f" (SELECT c.seq FROM {CORRECTIONS} c{where} {order} LIMIT ? OFFSET ?) AS page"
        f" JOIN {CORRECTIONS} c ON c.seq = page.seq JOIN {LEARNERS} l ON l.id = c.learner_id {order}"
    )
    return [history_row(row) for row in db.query(sql, [*params, int(limit), int(offset)])]


def count_history(db: sqlite_utils.Database, filters: Filters) -> int:
    """Return how many corrections match `filters`."""
    where, params = filters.where(db, ordered=False)
    return int(db.execute(f"SELECT COUNT(*) FROM {CORRECTIONS} c{where}", params).fetchone()[0])


# Rows that count in the statistics: not practice retries, not findings the judge was unsure of, not
# sentences shown as a note.
COUNTED = "kind != 'review' AND not_sure = 0 AND noted = 0"


def count_if(condition: str) -> str:
    """Return SQL counting the rows of a group where `condition` holds (SQLite and PostgreSQL alike)."""
    return f"SUM(CASE WHEN {condition} THEN 1 ELSE 0 END)"


def same_text_key(text: str) -> str:
    """Return what two checks of "the same text" share: the text with every run of spaces and line breaks as
    one space, trimmed (a re-check after adding a blank line is the same text; any other edit is not)."""
    return " ".join(text.split())


def forget_text(db: sqlite_utils.Database, learner: int, text: str, keep: Sequence[str] = ()) -> int:
    """Delete the learner's findings from earlier checks of the same text (same_text_key), with their mask
    timings and outbox entries, except the rows whose UUID is in `keep` (a retried request's own rows);
    return the rows deleted. The caller holds the write transaction."""
    key = same_text_key(text)
    texts = [t for (t,) in db.execute(f"SELECT DISTINCT source_text FROM {CORRECTIONS}"
                                       " WHERE learner_id = ? AND kind = 'check' AND source_text IS NOT NULL",
                                       [learner]) if same_text_key(t) == key]
    spare = f" AND id NOT IN ({', '.join('?' * len(keep))})" if keep else ""
    deleted = 0
    for old in texts:
        args = [learner, old, *keep]
        rows = f"SELECT {{}} FROM {CORRECTIONS} WHERE learner_id = ? AND kind = 'check' AND source_text = ?{spare}"
        db.execute(f"DELETE FROM {MASK_TIMINGS} WHERE correction_seq IN ({rows.format('seq')})", args)
        db.execute(f"DELETE FROM {OUTBOX} WHERE correction_id IN ({rows.format('id')})", args)
        deleted += db.execute(f"DELETE FROM {CORRECTIONS} WHERE learner_id = ? AND kind = 'check'"
                              f" AND source_text = ?{spare}", args).rowcount
    return deleted


def error_counts(db: sqlite_utils.Database, learner: int | None) -> dict[str, dict[str, int]]:
    """Return {"verb"|"tense"|"person": {value: errors}}, most frequent first; errors exclude out-of-scope."""
    where, params = _learner_clause(learner, "AND")
    totals: dict[str, dict[str, int]] = {"verb": {}, "tense": {}, "person": {}}
    sql = (
        f"SELECT verb, tense, person, COUNT(*) FROM {CORRECTIONS}"
        f" WHERE is_correct = 0 AND out_of_scope = 0 AND {COUNTED}{where} GROUP BY learner_id, verb, tense, person"
    )
    for verb, tense, person, n in db.execute(sql, params):
        for key, value in (("verb", verb), ("tense", tense), ("person", person)):
            if value is not None:
                totals[key][value] = totals[key].get(value, 0) + n
    return {key: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for key, c in totals.items()}


def progress_by_week(db: sqlite_utils.Database, learner: int | None) -> list[dict[str, Any]]:
    """Return per week with corrections: week (its Monday), total, correct, errors, out_of_scope, accuracy."""
    where, params = _learner_clause(learner, "AND")
    where = f" WHERE {COUNTED}{where}"
    # Grouping by learner first walks idx_corrections_learner_week in order, with no sort.
    sql = (
        f"SELECT {WEEK_SQL} AS week, COUNT(*), {count_if('is_correct = 1 AND out_of_scope = 0')},"
        f" {count_if('is_correct = 0 AND out_of_scope = 0')}, {count_if('out_of_scope = 1')}"
        f" FROM {CORRECTIONS}{where} GROUP BY learner_id, week"
    )
    weeks: dict[str, list[int]] = {}
    for week, *counts in db.execute(sql, params):
        sums = weeks.setdefault(week, [0, 0, 0, 0])
        for i, n in enumerate(counts):
            sums[i] += n
    out = []
    for week in sorted(weeks):
        total, correct, errors, out_of_scope = weeks[week]
        judged = correct + errors
        out.append({"week": week, "total": total, "correct": correct, "errors": errors,
                    "out_of_scope": out_of_scope, "accuracy": correct / judged if judged else None})
    return out


def _learner_clause(learner: int | None, keyword: str) -> tuple[str, list[Any]]:
    return (f" {keyword} learner_id = ?", [learner]) if learner is not None else ("", [])


def _nth(db: sqlite_utils.Database, column: str, model: str, n: int, q: float) -> float:
    """Return the nearest-rank q-th percentile of `column` over a model's n timed corrections."""
    rank = max(1, math.ceil(q / 100 * n))
    sql = (
        f"SELECT {column} FROM {CORRECTIONS} WHERE model_name = ? AND {column} > 0"
        f" ORDER BY {column} LIMIT 1 OFFSET ?"
    )
    row = db.execute(sql, [model, rank - 1]).fetchone()
    return float(row[0]) if row else 0.0


_BY_TOTAL = f"{CORRECTIONS} INDEXED BY idx_corrections_model_total_ms"  # the partial index of the TIMED rows


def _timed_models(db: sqlite_utils.Database) -> list[str]:
    """Return the models that have timed corrections, one index seek each (no walk over the rows)."""
    names: list[str] = []
    sql = f"SELECT MIN(model_name) FROM {_BY_TOTAL} WHERE {TIMED} AND model_name > ?"
    row = db.execute(f"SELECT MIN(model_name) FROM {_BY_TOTAL} WHERE {TIMED}").fetchone()
    while row is not None and row[0] is not None:
        names.append(row[0])
        row = db.execute(sql, [row[0]]).fetchone()
    return names


def _timed_rank(db: sqlite_utils.Database, model: str, counts: list[int], q: float) -> float:
    """Return the nearest-rank q-th percentile of a model's total ms, given its TIME_EDGES_MS bucket counts:
    an OFFSET from the start of the bucket that holds that rank, so only part of one bucket is walked."""
    rank = max(1, math.ceil(q / 100 * sum(counts)))  # 1-based
    below = 0
    for low, count in zip((0, *TIME_EDGES_MS), counts, strict=True):
        if below + count >= rank:
            sql = (f"SELECT total_ms FROM {_BY_TOTAL} WHERE model_name = ? AND {TIMED} AND total_ms > ?"
                   " ORDER BY total_ms LIMIT 1 OFFSET ?")
            row = db.execute(sql, [model, low, rank - below - 1]).fetchone()
            return float(row[0]) if row else 0.0
        below += count
    return 0.0


def latency_summary(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Return per model: the time per correction and the mask's µs per token.

    `timed` counts the corrections the model worked on (TIMED); `total_p50_ms` and `total_p99_ms` are
    nearest-rank percentiles of their total time, and `time_histogram` buckets it by TIME_EDGES_MS
    ({"le_ms": upper edge or None for the open last bucket, "count"}); all read the partial index of the
    TIMED rows, never the table.

    `corrections` counts corrections whose mask ran (mask_p50_us > 0; the default pipeline forces its
    answer, so only the ablations' paths sample under the mask). mask_p50_us is the median of the
    per-correction medians; mask_p99_us the 99th percentile of the per-correction p99s; mask_max_us
    the largest single mask; `histogram` buckets the per-correction medians by HISTOGRAM_EDGES_US
    ({"le_us": upper edge or None for the open last bucket, "count"}).
    """
    models_sql = (
        f"SELECT model_name, COUNT(*) FROM {CORRECTIONS} INDEXED BY idx_corrections_model_mask_p50_us"
        " WHERE mask_p50_us > 0 GROUP BY model_name ORDER BY model_name"
    )
    # One range count per bucket walks only that bucket's slice of the index.
    bucket_sql = (
        f"SELECT COUNT(*) FROM {CORRECTIONS} WHERE model_name = ? AND mask_p50_us > ? AND mask_p50_us <= ?"
    )
    masked = dict(db.execute(models_sql).fetchall())
    timed = _timed_models(db)
    time_bucket_sql = (f"SELECT COUNT(*) FROM {_BY_TOTAL} WHERE model_name = ? AND {TIMED}"
                       " AND total_ms > ? AND total_ms <= ?")  # the first bucket starts above 0: no time, no row
    summary = []
    for name in sorted(set(masked) | set(timed)):
        n = masked.get(name, 0)
        counts = [0] * (len(HISTOGRAM_EDGES_US) + 1)
        if n:
            for index, (low, high) in enumerate(zip((0, *HISTOGRAM_EDGES_US), (*HISTOGRAM_EDGES_US, math.inf),
                                                    strict=True)):
                counts[index] = int(db.execute(bucket_sql, [name, low, high]).fetchone()[0])
        max_sql = f"SELECT MAX(mask_max_us) FROM {CORRECTIONS} WHERE model_name = ?"
        max_row = db.execute(max_sql, [name]).fetchone() if n else (0.0,)
        time_counts = [int(db.execute(time_bucket_sql, [name, low, high]).fetchone()[0]) if name in timed else 0
                       for low, high in zip((0, *TIME_EDGES_MS), (*TIME_EDGES_MS, math.inf), strict=True)]
        m = sum(time_counts)
        summary.append({
            "model_name": name,
            "timed": m,
            "total_p50_ms": _timed_rank(db, name, time_counts, 50) if m else 0.0,
            "total_p99_ms": _timed_rank(db, name, time_counts, 99) if m else 0.0,
            "time_histogram": [{"le_ms": edge, "count": count}
                               for edge, count in zip((*TIME_EDGES_MS, None), time_counts, strict=True)],
            "corrections": n,
            "mask_p50_us": _nth(db, "mask_p50_us", name, n, 50) if n else 0.0,
            "mask_p99_us": _nth(db, "mask_p99_us", name, n, 99) if n else 0.0,
            "mask_max_us": float(max_row[0] or 0.0),
            "histogram": [{"le_us": edge, "count": count}
                          for edge, count in zip((*HISTOGRAM_EDGES_US, None), counts, strict=True)],
        })
    return summary
