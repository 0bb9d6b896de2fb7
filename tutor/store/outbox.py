"""The outbox table: rows of this store waiting for a class server (tutor.server.outbox uploads them).

The outbox holds row UUIDs only; the rows stay in the corrections table. Each function runs on the
connection it is given, inside the Store's transaction or read.
"""

from __future__ import annotations

from typing import Any

from tutor.store import schema
from tutor.store.records import history_row, utc_stamp


def queue(db: Any, correction_ids: list[str]) -> None:
    """Queue rows (a row queued twice is queued once)."""
    for row_id in correction_ids:
        db.conn.execute(f"INSERT OR IGNORE INTO {schema.OUTBOX} (correction_id, queued) VALUES (?, ?)",
                        [row_id, utc_stamp()])


def count(db: Any) -> int:
    """Return how many rows wait for upload."""
    return int(db.execute(f"SELECT COUNT(*) FROM {schema.OUTBOX}").fetchone()[0])


def queued(db: Any) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Return the queued rows as (learner {"uuid", "name", "created"}, history rows), per learner, oldest first."""
    sql = (f"SELECT c.*, l.name AS learner, l.uuid AS learner_uuid, l.created AS learner_created"
           f" FROM {schema.OUTBOX} o JOIN {schema.CORRECTIONS} c ON c.id = o.correction_id"
           f" JOIN {schema.LEARNERS} l ON l.id = c.learner_id ORDER BY l.id, c.created, c.seq")
    groups: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
    for row in db.query(sql):
        head = {"uuid": row["learner_uuid"], "name": row["learner"], "created": row["learner_created"]}
        groups.setdefault(head["uuid"], (head, []))[1].append(history_row(row))
    return list(groups.values())


def forget(db: Any, correction_ids: list[str]) -> None:
    """Take rows off the queue."""
    db.conn.executemany(f"DELETE FROM {schema.OUTBOX} WHERE correction_id = ?",
                        [(row_id,) for row_id in correction_ids])
