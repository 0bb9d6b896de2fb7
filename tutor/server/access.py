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

import base64
import hashlib
import hmac
import os
import secrets
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.errors import TutorError
from tutor.store.bundle import same_learner_name
from tutor.store.learner_keys import LearnerClaim, claim_learner, key_secret, server_key_hash
from tutor.store.lock import SecretLock

if TYPE_CHECKING:
    from tutor.store import Store

LEARNER_KEY_HEADER = "X-Learner-Key"
LEARNER_UUID_HEADER = "X-Learner-Uuid"
TEACHER_HEADER = "X-Teacher-Passphrase"
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
        self._secret: bytes | None = None  # learner_keys.key_secret, read once

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
            right = lock.check_teacher(passphrase, network=True)  # throttled apart from the CLI's and app's
        if not right:
            raise Forbidden("that teacher passphrase is not right")
        self._verified = (stored, mac, time.monotonic() + TEACHER_CACHE_S)

    # -- learners ------------------------------------------------------------------------------------

    def writer(self, name: str, learner_uuid: str | None, key: str | None, passphrase: str | None,
               request_id: str | None = None) -> Writer:
        """Return the learner a request may write for, creating it (and issuing its key) on first contact.

        Found by UUID when given, else by name. A known learner needs its key, or the teacher passphrase;
        Forbidden otherwise. A known UUID under another name is refused too (a claim on someone's record).
        A first request with a request id gets a key derived from that id (and a secret only the store holds),
        so when its answer is lost, the same request retried here or on another server of the same database
        gets the same key again; no other request can.
        """
        teacher = False
        if passphrase:
            self.require_teacher(passphrase)
            teacher = True
        issued: list[str] = []

        secret = self._key_secret() if request_id else b""

        def first_key(learner: str) -> str:
            if not request_id:
                return secrets.token_urlsafe(32)
            mac = hmac.new(secret, f"{learner}/{request_id}".encode(), hashlib.sha256).digest()
            return base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")

        def settle(claim: LearnerClaim) -> str | None:
            """Return the hash of a key to issue now, None to issue none; raise Forbidden to refuse."""
            if claim.created:
                issued.append(first_key(claim.uuid))
                return _key_hash(issued[0])
            if learner_uuid is not None and not same_learner_name(claim.name, name) and not teacher:
                raise Forbidden(f"the learner UUID {learner_uuid} belongs to another learner on this server; "
                                "an app can only write for its own learner")
            stored_key = claim.key_hash
            if teacher or (key and stored_key and hmac.compare_digest(_key_hash(key), stored_key)):
                return None
            if request_id and stored_key and hmac.compare_digest(_key_hash(first_key(claim.uuid)), stored_key):
                issued.append(first_key(claim.uuid))  # the first request again, its answer lost: the same key
                return None
            if stored_key is None and learner_uuid is not None:  # made before keys: claimed by its UUID
                issued.append(secrets.token_urlsafe(32))
                return _key_hash(issued[0])
            raise Forbidden(self._refusal(claim.name, bool(key), stored_key is None))

        claim = claim_learner(self.store, name, learner_uuid, settle)
        return Writer(claim.id, claim.uuid, claim.name, issued[0] if issued else None)

    def reader(self, name: str, key: str | None, passphrase: str | None) -> dict[str, Any]:
        """Return {"id", "name", "uuid"} of the learner whose history may be read: any learner for the teacher
        (None when unknown), the key's own learner otherwise; Forbidden when neither proves enough."""
        found = self.store.find_learner(name)
        if key and not passphrase:
            stored = server_key_hash(self.store, found["uuid"]) if found else None
            if stored and hmac.compare_digest(_key_hash(key), stored):
                return {"id": int(found["id"]), "name": found["name"], "uuid": found["uuid"]}
            raise Forbidden("that learner key does not open this learner's history")
        self.require_teacher(passphrase)
        return {} if found is None else {"id": int(found["id"]), "name": found["name"], "uuid": found["uuid"]}

    # -- internals -----------------------------------------------------------------------------------

    def _key_secret(self) -> bytes:
        if self._secret is None:
            self._secret = key_secret(self.store)
        return self._secret

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
