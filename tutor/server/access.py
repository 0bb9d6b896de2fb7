"""Who may do what on the class server (docs/access.md): the class code, a learner's key, the teacher's passphrase.

- The **class code** (`Authorization: Bearer …`) opens the /v1 routes at all; every learner's app knows it,
  so it proves nothing about who is asking.
- A **learner key** (`X-Learner-Key`) is issued by the server the first time a learner is seen (in the
  answer's `X-Learner-Key` header) and kept by that learner's app. Writing rows under a learner the server
  already knows, and reading that learner's own history, need it.
- The **teacher passphrase** (`X-Teacher-Passphrase`, the one `grammar-tutor teacher set-passphrase` set on
  the server's database) reads every learner's history and may write for any learner. Without a passphrase
  set on the server, no one can read history over the network.

Keys are 256-bit random values; the server keeps only their sha256 (in the store's `secrets` table), so a
copy of the database does not reveal them. A learner made by an older server or by a teacher's import has
no key yet: the first request naming it *by UUID* (which only that learner's app and the teacher know)
gets one; by name alone it cannot be claimed.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.errors import TutorError
from tutor.store import queries, schema
from tutor.store.bundle import same_learner_name
from tutor.store.lock import SecretLock
from tutor.store.names import name_key
from tutor.store.records import utc_stamp

if TYPE_CHECKING:
    from tutor.store import Store

LEARNER_KEY_HEADER = "X-Learner-Key"
LEARNER_UUID_HEADER = "X-Learner-Uuid"
TEACHER_HEADER = "X-Teacher-Passphrase"
KEY_SUBJECT = "learner-key:"  # + the learner's UUID, in the store's secrets table
TEACHER_CACHE_S = 15 * 60  # a passphrase verified once is recognised without scrypt for this long


class Forbidden(TutorError):
    """The caller's class code is right, but it may not do this (HTTP 403); the message says what is needed."""


@dataclass(frozen=True)
class Writer:
    """The learner a request writes for: local id, UUID and name, and the key issued to it now (first contact)."""

    learner_id: int
    uuid: str
    name: str
    issued_key: str | None = None

    def headers(self) -> dict[str, str]:
        """Return the answer's headers that hand a newly issued key (and the learner's UUID) to the app."""
        if self.issued_key is None:
            return {}
        return {LEARNER_KEY_HEADER: self.issued_key, LEARNER_UUID_HEADER: self.uuid}


def _key_hash(key: str) -> str:
    return "sha256$" + hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


class Access:
    """The class server's gate over one store; safe to share between the server's threads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._mac_key = os.urandom(32)
        self._verified: tuple[str, bytes, float] | None = None  # (stored hash, HMAC of the passphrase, until)
        self._slow = threading.Lock()  # one scrypt at a time: each takes 128 MiB

    # -- the teacher ---------------------------------------------------------------------------------

    def require_teacher(self, passphrase: str | None) -> None:
        """Return when `passphrase` is the server's teacher passphrase; Forbidden (or Throttled) otherwise."""
        lock = SecretLock(self.store)
        stored = lock.teacher_hash()
        if stored is None:
            raise Forbidden("no teacher passphrase is set on this server, so history cannot be read over the "
                            "network; set one with `grammar-tutor teacher set-passphrase --db FILE` on the server")
        if not passphrase:
            raise Forbidden(f"reading history needs the teacher passphrase (send it as {TEACHER_HEADER}) or, "
                            f"for a learner's own history, their learner key ({LEARNER_KEY_HEADER})")
        mac = hmac.new(self._mac_key, passphrase.encode("utf-8", "surrogateescape"), hashlib.sha256).digest()
        known = self._verified
        if known is not None and known[0] == stored and known[2] > time.monotonic() and hmac.compare_digest(
                known[1], mac):
            return
        with self._slow:
            right = lock.check_teacher(passphrase)  # throttled and counted like the CLI's and the app's
        if not right:
            raise Forbidden("that teacher passphrase is not right")
        self._verified = (stored, mac, time.monotonic() + TEACHER_CACHE_S)

    # -- learners ------------------------------------------------------------------------------------

    def writer(self, name: str, learner_uuid: str | None, key: str | None, passphrase: str | None) -> Writer:
        """Return the learner a request may write for, creating it (and issuing its key) on first contact.

        Found by UUID when given, else by name. A known learner needs its key, or the teacher passphrase;
        Forbidden otherwise. A known UUID under another name is refused too (a claim on someone's record).
        """
        teacher = False
        if passphrase:
            self.require_teacher(passphrase)
            teacher = True
        with self.store._conns.write(f"finding the learner {name!r}") as db:
            row = self._find(db, name, learner_uuid)
            if row is None:
                lid, stored_name, new_uuid = self._create(db, name, learner_uuid)
                return Writer(lid, new_uuid, stored_name, self._issue(db, new_uuid))
            lid, stored_name, found_uuid = int(row[0]), str(row[1]), str(row[2])
            if learner_uuid is not None and not same_learner_name(stored_name, name) and not teacher:
                raise Forbidden(f"the learner UUID {learner_uuid} belongs to another learner on this server; "
                                "an app can only write for its own learner")
            stored_key = self._stored_key(db, found_uuid)
            if teacher or (key and stored_key and hmac.compare_digest(_key_hash(key), stored_key)):
                return Writer(lid, found_uuid, stored_name)
            if stored_key is None and learner_uuid is not None:  # made before keys: claimed by its UUID
                return Writer(lid, found_uuid, stored_name, self._issue(db, found_uuid))
            raise Forbidden(self._refusal(stored_name, bool(key), stored_key is None))

    def reader(self, name: str, key: str | None, passphrase: str | None) -> dict[str, Any]:
        """Return {"id", "name", "uuid"} of the learner whose history may be read: any learner for the teacher
        (None when unknown), the key's own learner otherwise; Forbidden when neither proves enough."""
        db = self.store._conns.get()
        lid = queries.learner_id(db, name)
        row = db.execute(f"SELECT id, name, uuid FROM {schema.LEARNERS} WHERE id = ?", [lid]).fetchone()
        if key and not passphrase:
            stored = self._stored_key(db, row[2]) if row else None
            if stored and hmac.compare_digest(_key_hash(key), stored):
                return {"id": int(row[0]), "name": row[1], "uuid": row[2]}
            raise Forbidden("that learner key does not open this learner's history")
        self.require_teacher(passphrase)
        return {} if row is None else {"id": int(row[0]), "name": row[1], "uuid": row[2]}

    # -- internals -----------------------------------------------------------------------------------

    @staticmethod
    def _find(db: Any, name: str, learner_uuid: str | None) -> Any:
        if learner_uuid is not None:
            return db.execute(f"SELECT id, name, uuid FROM {schema.LEARNERS} WHERE uuid = ?",
                              [learner_uuid]).fetchone()
        lid = queries.learner_id(db, name)
        return db.execute(f"SELECT id, name, uuid FROM {schema.LEARNERS} WHERE id = ?", [lid]).fetchone()

    @staticmethod
    def _create(db: Any, name: str, learner_uuid: str | None) -> tuple[int, str, str]:
        """Add a learner (a taken name gets " (2)", as an import does); return (id, name, UUID)."""
        stored, n = name, 1
        while queries.learner_id(db, stored) != queries.NO_LEARNER:
            n += 1
            stored = f"{name} ({n})"
        cursor = db.conn.execute(
            f"INSERT INTO {schema.LEARNERS} (name, name_key, created, uuid) VALUES (?, ?, ?, ?)",
            [stored, name_key(stored), utc_stamp(), learner_uuid])
        lid = int(cursor.lastrowid)
        made = db.execute(f"SELECT uuid FROM {schema.LEARNERS} WHERE id = ?", [lid]).fetchone()[0]
        return lid, stored, str(made)

    @staticmethod
    def _stored_key(db: Any, learner_uuid: str) -> str | None:
        row = db.execute(f"SELECT hash FROM {schema.SECRETS} WHERE subject = ?",
                         [KEY_SUBJECT + learner_uuid]).fetchone()
        return None if row is None else str(row[0])

    @staticmethod
    def _issue(db: Any, learner_uuid: str) -> str:
        key = secrets.token_urlsafe(32)
        db.execute(f"INSERT INTO {schema.SECRETS} (subject, hash, failures, next_try, updated) VALUES (?, ?, 0, 0, ?)",
                   [KEY_SUBJECT + learner_uuid, _key_hash(key), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())])
        return key

    @staticmethod
    def _refusal(name: str, sent_key: bool, keyless: bool) -> str:
        if keyless:
            return (f"the learner {name!r} was made before learner keys; their own app claims them by sending "
                    "their learner UUID, or the teacher can write for them with the teacher passphrase")
        if sent_key:
            return f"that learner key is not {name!r}'s; an app can only write for its own learner"
        return (f"the learner {name!r} is already on this server; only their own app (which holds their "
                f"learner key, {LEARNER_KEY_HEADER}) or the teacher can add to their record. Choose another "
                "name if you are someone else")
