"""Learner keys in the `secrets` table: the class server's (the sha256 of each key it issued) and a learner's
app's (the keys a class server issued to it, kept as they are, per server address).

What a key allows is tutor.server.access's business; this module only reads and writes the rows, and finds or
creates a learner and settles their key in one transaction, so two first requests for one learner cannot
both be issued a key.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.store import dialect, queries, schema
from tutor.store.db import translated
from tutor.store.names import name_key
from tutor.store.records import utc_stamp

if TYPE_CHECKING:
    from tutor.store.store import Store

SERVER_SUBJECT = "learner-key:"  # + the learner's UUID: the hash of the key a class server issued
KEY_SECRET_SUBJECT = "server:key-secret"  # what a retried first request's key is derived from (key_secret)
APP_SUBJECT = "class-key:"  # + learner UUID + "@" + server address: the key an app was issued


@dataclass(frozen=True)
class LearnerClaim:
    """A learner a request names, as found (or just created) in one write transaction, with their key's hash."""

    id: int
    name: str
    uuid: str
    key_hash: str | None  # None: no key issued yet
    created: bool


def claim_learner(store: Store, name: str, learner_uuid: str | None,
                  settle: Callable[[LearnerClaim], str | None]) -> LearnerClaim:
    """Find the learner by UUID (when given, else by name), or create them (a taken name gets " (2)", as an
    import does), then call `settle(claim)` inside the same transaction: it returns the hash of a key to keep
    for them (None: keep what is there) or raises to refuse, and then nothing is written."""
    with store._conns.write(f"finding the learner {name!r}") as db:
        dialect.take_turns(db, "learner:" + name_key(name))  # two servers' first requests for one learner queue
        row = _find(db, name, learner_uuid)
        if row is None:
            lid, stored_name, made_uuid = _create(db, name, learner_uuid)
            claim = LearnerClaim(lid, stored_name, made_uuid, None, True)
        else:
            claim = LearnerClaim(int(row[0]), str(row[1]), str(row[2]), _server_hash(db, str(row[2])), False)
        issued = settle(claim)
        if issued is not None:
            db.execute(f"INSERT INTO {schema.SECRETS} (subject, hash, failures, next_try, updated)"
                       " VALUES (?, ?, 0, 0, ?)", [SERVER_SUBJECT + claim.uuid, issued, _now()])
    return claim


def key_secret(store: Store) -> bytes:
    """Return the secret every class server on this store derives a first request's learner key from (made on
    first use; kept in the store, so all the servers of one database share it, and a copy carries it)."""
    with store._conns.write("reading the servers' key secret") as db:
        db.execute(f"INSERT OR IGNORE INTO {schema.SECRETS} (subject, hash, failures, next_try, updated)"
                   " VALUES (?, ?, 0, 0, ?)", [KEY_SECRET_SUBJECT, secrets.token_hex(32), _now()])
        row = db.execute(f"SELECT hash FROM {schema.SECRETS} WHERE subject = ?", [KEY_SECRET_SUBJECT]).fetchone()
    return bytes.fromhex(str(row[0]))


def server_key_hash(store: Store, learner_uuid: str) -> str | None:
    """Return the hash of the key the server issued to a learner, or None."""
    with translated(store.path, "reading a learner key"):
        return _server_hash(store._conns.get(), learner_uuid)


def app_key(store: Store, learner_uuid: str, server_url: str) -> str | None:
    """Return the key a class server issued to this app for a learner, or None."""
    with translated(store.path, "reading the class server's learner key"):
        row = store._conns.get().execute(f"SELECT hash FROM {schema.SECRETS} WHERE subject = ?",
                                         [_app_subject(learner_uuid, server_url)]).fetchone()
    return None if row is None else str(row[0])


def keep_app_key(store: Store, learner_uuid: str, server_url: str, key: str) -> None:
    """Keep the key a class server issued for a learner (replacing an older one)."""
    with store._conns.write("keeping the class server's learner key") as db:
        db.execute(f"INSERT INTO {schema.SECRETS} (subject, hash, failures, next_try, updated)"
                   " VALUES (?, ?, 0, 0, ?)"
                   " ON CONFLICT(subject) DO UPDATE SET hash = excluded.hash, updated = excluded.updated",
                   [_app_subject(learner_uuid, server_url), key, _now()])


def _app_subject(learner_uuid: str, server_url: str) -> str:
    return f"{APP_SUBJECT}{learner_uuid}@{server_url}"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _server_hash(db: Any, learner_uuid: str) -> str | None:
    row = db.execute(f"SELECT hash FROM {schema.SECRETS} WHERE subject = ?",
                     [SERVER_SUBJECT + learner_uuid]).fetchone()
    return None if row is None else str(row[0])


def _find(db: Any, name: str, learner_uuid: str | None) -> Any:
    if learner_uuid is not None:
        return db.execute(f"SELECT id, name, uuid FROM {schema.LEARNERS} WHERE uuid = ?",
                          [learner_uuid]).fetchone()
    lid = queries.learner_id(db, name)
    return db.execute(f"SELECT id, name, uuid FROM {schema.LEARNERS} WHERE id = ?", [lid]).fetchone()


def _create(db: Any, name: str, learner_uuid: str | None) -> tuple[int, str, str]:
    """Add a learner (a taken name gets " (2)"); return (id, name, UUID)."""
    stored, n = name, 1
    while queries.learner_id(db, stored) != queries.NO_LEARNER:
        n += 1
        stored = f"{name} ({n})"
    # Without a UUID the column is left out: SQLite's trigger, or PostgreSQL's default, gives one (an explicit
    # NULL would stay NULL on PostgreSQL).
    columns, values = ("name, name_key, created", [stored, name_key(stored), utc_stamp()])
    if learner_uuid is not None:
        columns, values = columns + ", uuid", [*values, learner_uuid]
    lid, made = db.conn.execute(
        f"INSERT INTO {schema.LEARNERS} ({columns}) VALUES ({', '.join('?' * len(values))}) RETURNING id, uuid",
        values).fetchone()
    if made is None:  # SQLite's trigger gives the UUID after the row is in, so RETURNING shows it empty
        made = db.execute(f"SELECT uuid FROM {schema.LEARNERS} WHERE id = ?", [lid]).fetchone()[0]
    return int(lid), stored, str(made)
