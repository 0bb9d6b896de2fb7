"""The few SQL fragments that differ between SQLite and PostgreSQL, for the queries written once in SQLite's SQL.

The store's SQL is SQLite's (`?` and `:name` placeholders, `INSERT OR IGNORE`); tutor.store.postgres translates
what can be translated word for word. What cannot (a row lock, a full-text match, transaction-scoped turns)
comes from here, given the connection the query will run on.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

POSTGRES = "postgresql"
_WORD = re.compile(r"\w+", re.UNICODE)


def is_postgres(db: Any) -> bool:
    """Return True when `db` (a Store's connection) is PostgreSQL's (tutor.store.postgres.PgDb)."""
    return getattr(db, "dialect", None) == POSTGRES


def for_update(db: Any) -> str:
    """Return the clause that locks the selected rows until the transaction ends (SQLite's writes already take
    turns on BEGIN IMMEDIATE, so there it is empty)."""
    return " FOR UPDATE" if is_postgres(db) else ""


def take_turns(db: Any, topic: str) -> None:
    """Make write transactions about `topic` run one at a time until this one ends (PostgreSQL: a transaction
    advisory lock; SQLite: every write already does)."""
    if is_postgres(db):
        db.execute("SELECT pg_advisory_xact_lock(?)", [zlib.crc32(topic.encode("utf-8"))])


def text_match(db: Any, seq: str, table: str, text: str) -> tuple[str, str] | None:
    """Return (condition on `seq`, parameter) keeping the rows of `table` whose sentence has every word of `text`
    as a prefix ("she go" finds "She goes"), or None when `text` has no words."""
    words = _WORD.findall(text)
    if not words:
        return None
    if is_postgres(db):  # the GIN index over to_tsvector('simple', original)
        return (f"{seq.lstrip('+')} IN (SELECT seq FROM {table} WHERE to_tsvector('simple', original)"
                " @@ to_tsquery('simple', ?))", " & ".join(f"'{word.lower()}':*" for word in words))
    return f"{seq} IN (SELECT rowid FROM {table}_fts WHERE {table}_fts MATCH ?)", " ".join(f'"{w}"*' for w in words)
