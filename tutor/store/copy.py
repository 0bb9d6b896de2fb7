"""Copying a store's history between a SQLite file and a PostgreSQL database, in one transaction, idempotently.

Rows are matched by what identifies them on every machine (a learner's UUID, a correction's, card's and
answer's UUID, a secret's subject), never by local ids: learner ids and row `seq`s are the target's own.
Each row goes in with INSERT … ON CONFLICT DO NOTHING, so a second copy adds nothing. The outbox (rows a
laptop still has to upload) stays with its device and is not copied.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tutor.errors import StoreError
from tutor.store import postgres, schema
from tutor.store.paths import redact, resolve_db

PIN_SUBJECT = "learner:"  # tutor/store/lock.py: a learner's PIN is kept under their local id

# (table, its column that identifies a row everywhere, the local id columns dropped on the way)
_ROWS = (
    (schema.CORRECTIONS, "id", ("seq",)),
    (schema.CARDS, "id", ("seq",)),
    (schema.CARD_REVIEWS, "id", ("seq",)),
    (schema.CARD_SOURCES, "correction_id", ()),
)


@dataclass
class Copied:
    """What one copy did, per table: rows copied and rows found already there."""

    source: str
    target: str
    added: dict[str, int] = field(default_factory=dict)
    present: dict[str, int] = field(default_factory=dict)

    def count(self, table: str, added: bool) -> None:
        bucket = self.added if added else self.present
        bucket[table] = bucket.get(table, 0) + 1

    def lines(self) -> list[str]:
        tables = (schema.LEARNERS, *(t for t, _, _ in _ROWS), schema.MASK_TIMINGS, schema.SECRETS)
        out = [f"{table}: {self.added.get(table, 0)} copied, {self.present.get(table, 0)} already there"
               for table in tables]
        total_added, total_present = sum(self.added.values()), sum(self.present.values())
        out.append(f"total: {total_added} copied, {total_present} already there, from {self.source} to {self.target}")
        return out


class _Side:
    """One end of a copy: a SQLite connection or a psycopg one, with its placeholder."""

    def __init__(self, conn: Any, mark: str) -> None:
        self.conn, self.mark = conn, mark

    def rows(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        cur = self.conn.execute(sql.replace("?", self.mark), params or [])
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]

    def one(self, sql: str, params: list[Any]) -> Any:
        row = self.conn.execute(sql.replace("?", self.mark), params).fetchone()
        return None if row is None else row[0]

    def insert_once(self, table: str, row: dict[str, Any]) -> bool:
        """Insert `row` unless a unique key already holds it; return whether it went in."""
        columns = list(row)
        sql = (f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join([self.mark] * len(columns))})"
               " ON CONFLICT DO NOTHING")
        return bool(self.conn.execute(sql, [row[c] for c in columns]).rowcount)


@contextlib.contextmanager
def _open(location: Path | str, *, writing: bool) -> Iterator[_Side]:
    """Open one end (brought to the latest schema first) inside one transaction, committed on a clean exit."""
    if isinstance(location, str):
        postgres.migrate(location)
        conn = postgres.connect(location)
        try:
            with postgres.translated(location, "copying"), conn.transaction():
                if not writing:
                    conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield _Side(conn, "%s")
        finally:
            conn.close()
        return
    from tutor.store import Store
    from tutor.store.db import translated

    if not writing and not location.exists():
        raise StoreError(f"there is no store at {location} to copy from; check the path")
    Store.open(location).close()  # creates or upgrades the file, and refuses a damaged one
    conn = sqlite3.connect(location, isolation_level=None, timeout=30)
    try:
        with translated(location, "copying"):
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("BEGIN IMMEDIATE" if writing else "BEGIN")
            try:
                yield _Side(conn, "?")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
    finally:
        conn.close()


def copy_store(source: str | Path, target: str | Path) -> Copied:
    """Copy every learner, correction (with its mask timings), card, answer and secret from `source` to
    `target` (a path or a postgresql:// URL each) in one transaction; return what was copied and found."""
    src_at, dst_at = resolve_db(source), resolve_db(target)
    if str(src_at) == str(dst_at):
        raise StoreError(f"--from and --to name the same store ({redact(str(src_at))})")
    done = Copied(redact(str(src_at)), redact(str(dst_at)))
    with _open(src_at, writing=False) as src, _open(dst_at, writing=True) as dst:
        ids = _copy_learners(src, dst, done)
        for table, key, local in _ROWS:
            for row in src.rows(f"SELECT * FROM {table} ORDER BY {key}"):
                for column in local:
                    row.pop(column)
                row["learner_id"] = ids[row["learner_id"]]
                added = dst.insert_once(table, row)
                if not added and dst.one(f"SELECT learner_id FROM {table} WHERE {key} = ?",
                                         [row[key]]) != row["learner_id"]:
                    raise StoreError(f"{table} row {row[key]} is in {done.target} under another learner; "
                                     "nothing was copied")
                done.count(table, added)
        _copy_timings(src, dst, done)
        _copy_secrets(src, dst, ids, done)
    return done


def _copy_learners(src: _Side, dst: _Side, done: Copied) -> dict[int, int]:
    """Copy learners by UUID; return source id -> target id. A name held by another UUID there is refused."""
    ids: dict[int, int] = {}
    # In UUID order, as every table here is in its key's: two copies at once lock rows in one order, never a deadlock
    for row in src.rows(f"SELECT * FROM {schema.LEARNERS} ORDER BY uuid"):
        source_id = row.pop("id")
        added = dst.insert_once(schema.LEARNERS, row)
        found = dst.one(f"SELECT id FROM {schema.LEARNERS} WHERE uuid = ?", [row["uuid"]])
        if found is None:
            raise StoreError(f"the learner {row['name']!r} in {done.target} is another person (another UUID); "
                             "rename one of them first. Nothing was copied")
        ids[source_id] = int(found)
        done.count(schema.LEARNERS, added)
    return ids


def _copy_timings(src: _Side, dst: _Side, done: Copied) -> None:
    """Copy per-token mask timings, attached to the target's row of the same correction UUID."""
    rows = src.rows(f"SELECT c.id AS correction_id, m.count, m.us_f32 FROM {schema.MASK_TIMINGS} m"
                    f" JOIN {schema.CORRECTIONS} c ON c.seq = m.correction_seq ORDER BY c.id")
    for row in rows:
        seq = dst.one(f"SELECT seq FROM {schema.CORRECTIONS} WHERE id = ?", [row["correction_id"]])
        added = dst.insert_once(schema.MASK_TIMINGS,
                                {"correction_seq": seq, "count": row["count"], "us_f32": bytes(row["us_f32"])})
        done.count(schema.MASK_TIMINGS, added)


def _copy_secrets(src: _Side, dst: _Side, ids: dict[int, int], done: Copied) -> None:
    """Copy the passphrase, PINs (their subject names the target's learner id) and learner keys; never overwrite."""
    for row in src.rows(f"SELECT * FROM {schema.SECRETS} ORDER BY subject"):
        if row["subject"].startswith(PIN_SUBJECT):
            row["subject"] = f"{PIN_SUBJECT}{ids[int(row['subject'][len(PIN_SUBJECT):])]}"
        done.count(schema.SECRETS, dst.insert_once(schema.SECRETS, row))
