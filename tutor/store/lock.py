"""The teacher passphrase and learner PINs, kept in the store as scrypt hashes, with a growing delay
after wrong attempts (persisted, so restarting the app or the CLI does not reset it).

What it protects: the app's Teacher page, a learner's profile in the app, and `grammar-tutor history`
and every export. What it cannot protect: the SQLite file itself. Anyone who can copy the file can
read every correction with any SQLite tool; the file is not encrypted (see docs/app.md).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import time
from typing import TYPE_CHECKING

from tutor.errors import StoreError, TutorError
from tutor.store import dialect, schema
from tutor.store.db import translated

if TYPE_CHECKING:
    from tutor.store.store import Learner, Store

# scrypt at N = 2^17, r = 8: 128 MiB of memory and about half a second per guess on a laptop core.
SCRYPT_N, SCRYPT_R, SCRYPT_P, DKLEN = 2**17, 8, 1, 32
MIN_SCRYPT_N = 2**17  # a stored hash with a lower cost is refused (an old N = 2^14 hash, or a forged one)
PASSPHRASE_MIN_LENGTH = 8
PIN_MIN_LENGTH = 6
FREE_ATTEMPTS = 3  # wrong attempts before the delay starts
MAX_DELAY_S = 15 * 60
TEACHER = "teacher"
# Wrong teacher passphrases sent over the network (the class server's X-Teacher-Passphrase) are counted on this
# row of their own, so that anyone with the class code cannot lock the teacher's own CLI and app out.
NETWORK_TEACHER = "throttle:teacher@network"


class LockError(TutorError):
    """A passphrase or PIN is missing, wrong, too short, or asked for too soon after wrong ones."""


class Throttled(LockError):
    """Too many wrong attempts: the next one is accepted only after `retry_after` seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _maxmem(n: int, r: int) -> int:
    return 2 * 128 * r * n  # scrypt needs 128·r·N bytes; leave room for its other buffers


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    """Return 'scrypt$<log2 N>$<r>$<p>$<salt hex>$<hash hex>' for a secret, with a fresh 16-byte salt."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=DKLEN,
                            maxmem=_maxmem(SCRYPT_N, SCRYPT_R))
    return f"scrypt${SCRYPT_N.bit_length() - 1}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def verify_secret(secret: str, stored: str) -> bool:
    """Return True when `secret` hashes to `stored` (from hash_secret); False for any other value."""
    try:
        scheme, log_n, r, p, salt_hex, digest_hex = stored.split("$")
        n, r_, p_ = 2 ** int(log_n), int(r), int(p)
        salt, digest = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex)
    except (ValueError, AttributeError):
        return False
    if scheme != "scrypt" or n < MIN_SCRYPT_N or not 1 <= r_ <= 32 or not 1 <= p_ <= 16 or len(digest) != DKLEN:
        return False
    got = hashlib.scrypt(secret.encode("utf-8"), salt=salt, n=n, r=r_, p=p_, dklen=DKLEN, maxmem=_maxmem(n, r_))
    return hmac.compare_digest(got, digest)


def delay_after(failures: int) -> float:
    """Return the seconds to wait after `failures` wrong attempts in a row: 0, 0, 0, 1, 2, 4, … 900."""
    if failures < FREE_ATTEMPTS:
        return 0.0
    return float(min(2 ** (failures - FREE_ATTEMPTS), MAX_DELAY_S))


class SecretLock:
    """The secrets of one store: the teacher passphrase (subject 'teacher') and learner PINs."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- rows ------------------------------------------------------------------------------------

    def _row(self, subject: str) -> dict | None:
        db = self.store._conns.get()
        with translated(self.store.path, "reading the passphrase"):
            rows = list(db.query(f"SELECT * FROM {schema.SECRETS} WHERE subject = ?", [subject]))
        return rows[0] if rows else None

    def _learner_subject(self, learner: Learner) -> str:
        found = self.store.find_learner(learner)
        if found is None:
            raise LockError(f"no learner {learner!r} in {self.store.path}")
        return f"learner:{found['id']}"

    def _store_hash(self, subject: str, hashed: str | None) -> None:
        with self.store._conns.write("saving the passphrase") as db:
            if hashed is None:
                db.execute(f"DELETE FROM {schema.SECRETS} WHERE subject = ?", [subject])
            else:
                db.execute(
                    f"INSERT INTO {schema.SECRETS} (subject, hash, failures, next_try, updated)"
                    " VALUES (?, ?, 0, 0, ?) ON CONFLICT(subject) DO UPDATE SET hash = excluded.hash,"
                    " failures = 0, next_try = 0, updated = excluded.updated",
                    [subject, hashed, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())],
                )

    def _check(self, subject: str, secret: str, what: str, counter: str | None = None) -> bool:
        """Return whether `secret` is right; raise Throttled while a delay runs; record the outcome.

        Attempts are counted on the `counter` row (default: the secret's own row). The attempt is counted as
        wrong *before* the slow hash runs, in the same write transaction that
        reads the delay: attempts sent at once (threads or processes) queue on that transaction, so each
        sees the ones before it, and none is lost or slips past the throttle. A right one then clears it.
        """
        with self.store._conns.write("recording a passphrase attempt") as db:
            # FOR UPDATE on PostgreSQL: attempts on several servers at once queue on the row, as SQLite's do on
            # BEGIN IMMEDIATE, so each counts the ones before it.
            lock_row = dialect.for_update(db)
            rows = list(db.query(f"SELECT hash, failures, next_try FROM {schema.SECRETS} WHERE subject = ?{lock_row}",
                                 [subject]))
            if not rows:
                return False
            stored = rows[0]["hash"]
            now = time.time()
            counter = counter or subject
            if counter != subject:
                db.execute(f"INSERT OR IGNORE INTO {schema.SECRETS} (subject, hash, failures, next_try, updated)"
                           " VALUES (?, '', 0, 0, ?)", [counter, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())])
                row = db.execute(f"SELECT failures, next_try FROM {schema.SECRETS} WHERE subject = ?{lock_row}",
                                 [counter]).fetchone()
                row = {"failures": row[0], "next_try": row[1]}
            else:
                row = rows[0]
            wait = float(row["next_try"] or 0) - now
            if wait > 0:
                raise Throttled(f"too many wrong {what} attempts; try again in {math.ceil(wait)} s", wait)
            failures = int(row["failures"] or 0) + 1
            db.execute(f"UPDATE {schema.SECRETS} SET failures = ?, next_try = ? WHERE subject = ?",
                       [failures, now + delay_after(failures), counter])
        right = verify_secret(secret, stored)
        with self.store._conns.write("recording a passphrase attempt") as db:
            if right:
                db.execute(f"UPDATE {schema.SECRETS} SET failures = 0, next_try = 0 WHERE subject = ?", [counter])
            else:  # the delay runs from the end of the (slow) attempt, with the count as it is now
                found = db.execute(f"SELECT failures, next_try FROM {schema.SECRETS} WHERE subject = ?"
                                   f"{dialect.for_update(db)}", [counter]).fetchone()
                if found is not None:
                    until = max(float(found[1] or 0), time.time() + delay_after(int(found[0] or 0)))
                    db.execute(f"UPDATE {schema.SECRETS} SET next_try = ? WHERE subject = ?", [until, counter])
        return right

    # -- the teacher passphrase ------------------------------------------------------------------

    def teacher_set(self) -> bool:
        """Return True when a teacher passphrase protects this store."""
        return self._row(TEACHER) is not None

    def teacher_hash(self) -> str | None:
        """Return the stored hash of the teacher passphrase (None when none is set); it changes with the passphrase."""
        row = self._row(TEACHER)
        return None if row is None else str(row["hash"])

    def check_teacher(self, secret: str, *, network: bool = False) -> bool:
        """Return True for the right passphrase (False when none is set); Throttled after wrong ones. Attempts
        over the network (`network`, the class server's) are throttled apart from the local CLI's and app's."""
        return self._check(TEACHER, secret, "passphrase", NETWORK_TEACHER if network else None)

    def set_teacher(self, new: str, *, current: str | None = None) -> None:
        """Set (or change) the teacher passphrase; changing it needs the current one."""
        if self.teacher_set() and not self.check_teacher(current or ""):
            raise LockError("the current teacher passphrase is not right; the passphrase was not changed")
        if len(new) < PASSPHRASE_MIN_LENGTH:
            raise LockError(f"the teacher passphrase needs at least {PASSPHRASE_MIN_LENGTH} characters")
        self._store_hash(TEACHER, hash_secret(new))

    # -- learner PINs ----------------------------------------------------------------------------

    def has_pin(self, learner: Learner) -> bool:
        """Return True when the learner's profile has a PIN."""
        return self._row(self._learner_subject(learner)) is not None

    def set_pin(self, learner: Learner, pin: str) -> None:
        """Give a learner a PIN (at least PIN_MIN_LENGTH characters), or remove it with ''."""
        subject = self._learner_subject(learner)
        if pin and len(pin) < PIN_MIN_LENGTH:
            raise LockError(f"a PIN needs at least {PIN_MIN_LENGTH} characters")
        self._store_hash(subject, hash_secret(pin) if pin else None)

    def check_pin(self, learner: Learner, secret: str) -> bool:
        """Return True for the learner's PIN (Throttled after wrong ones)."""
        return self._check(self._learner_subject(learner), secret, "PIN")


def unknown_learner(store: Store, learner: Learner) -> StoreError:
    """Return the error for a learner the store does not know: it lists the known learners, except on a store a
    teacher passphrase locks (their names are the teacher's to see, as `history` shows them)."""
    if SecretLock(store).teacher_set():
        return StoreError(f"no learner {learner!r} in {store.path}; check the name (the teacher can list the "
                          "learners with `grammar-tutor history`)")
    names = ", ".join(x["name"] for x in store.learners()) or "none yet"
    return StoreError(f"no learner {learner!r} in {store.path}; known learners: {names}")
