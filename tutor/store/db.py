"""Opening the SQLite file: look before touching it, one connection per thread, errors a person can act on."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from tutor.errors import StoreError

SQLITE_HEADER = b"SQLite format 3\x00"
BUSY_TIMEOUT_S = 30.0


EMPTY_GRACE_S = 2.0  # how long an empty file may be another opener's store being created


def damage(path: Path) -> str | None:
    """Return why `path` cannot be used as a store without being rewritten, or None when it can.

    A missing file is fine (it becomes a new store). An empty (0-byte) file is not: it may be a store
    cut short, and silently starting a new one there would hide the loss; it is given EMPTY_GRACE_S to
    gain its header, since another process may be creating the store at this moment. Only reads the
    file. A folder or an unreadable file raises StoreError at once: moving it aside would not help.
    """
    if not path.exists():
        return None
    if path.is_dir():
        example = path / "grammar-tutor.db"
        raise StoreError(f"the store path {path} is a folder; give a file path such as {example}")
    try:
        with path.open("rb") as fh:
            header = fh.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreError(
            f"cannot read the store {path} ({exc.strerror or exc}); check its permissions or choose "
            "another file with --db PATH"
        ) from exc
    if header == b"":
        return None if _gains_a_header(path) else EMPTY_FILE
    if header != SQLITE_HEADER:
        return "is not a SQLite database"
    return None


EMPTY_FILE = ("is an empty file (0 bytes): if it held your history, it was cut short, so restore a copy; "
              "if it is new, delete it and grammar-tutor will start a store there")


def _gains_a_header(path: Path) -> bool:
    """Return True when an empty file gets a SQLite header within EMPTY_GRACE_S (a store being created)."""
    deadline = time.monotonic() + EMPTY_GRACE_S
    while time.monotonic() < deadline:
        time.sleep(0.02)
        try:
            with path.open("rb") as fh:
                if fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER:
                    return True
        except OSError:
            return False
    return False


def move_aside(path: Path) -> Path:
    """Rename a damaged store (and its -wal/-shm files) to `<name>.corrupt-<UTC time>`; return where."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    try:
        path.rename(target)
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                companion.rename(target.with_name(target.name + suffix))
    except OSError as exc:
        raise StoreError(
            f"cannot move the damaged store {path} aside to {target.name} ({exc.strerror or exc}); "
            "move it yourself or choose another file with --db PATH"
        ) from exc
    return target


def explain(exc: sqlite3.Error, path: Path, doing: str) -> StoreError:
    """Return a StoreError that says what went wrong with `path` while `doing` something, and what to do."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    low_space = name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) and _nearly_full(path)
    if name.startswith("SQLITE_FULL") or "disk is full" in text or low_space:  # a full disk may show as I/O
        return StoreError(
            f"the disk holding the store {path} is full while {doing}; free some space and try again "
            "(nothing was half-written: the last correction was rolled back)"
        )
    if name.startswith(("SQLITE_READONLY", "SQLITE_PERM", "SQLITE_CANTOPEN", "SQLITE_AUTH")) or (
        "readonly" in text or "unable to open" in text
    ):
        return StoreError(
            f"cannot write the store {path} while {doing}: the file or its folder is read-only or not "
            f"accessible ({text}); choose a writable place with --db PATH or $GRAMMAR_TUTOR_DB"
        )
    damaged = "malformed" in text or "not a database" in text
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or damaged:
        return corrupt_error(path, text)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return StoreError(
            f"the store {path} stayed locked by another program for {BUSY_TIMEOUT_S:.0f} s while {doing}; "
            "close other copies of grammar-tutor and try again"
        )
    if name.startswith("SQLITE_IOERR") or "I/O error" in text:
        return StoreError(
            f"the disk reported an I/O error on the store {path} while {doing} ({text}); check the disk "
            "and that the file is not on a network share that went away"
        )
    return StoreError(f"the store {path} failed while {doing}: {text}")


NEARLY_FULL_BYTES = 4 * 2**20  # less free space than this, and an I/O error is taken for a full disk


def _nearly_full(path: Path) -> bool:
    """Return True when the disk holding `path` has almost no space left (SQLite then often reports an I/O
    error, growing its -wal or -shm file, rather than SQLITE_FULL)."""
    try:
        return shutil.disk_usage(path.parent).free < NEARLY_FULL_BYTES
    except OSError:
        return False


def corrupt_error(path: Path, reason: str) -> StoreError:
    """Return the error for a file that is not a usable store; it says the file was left untouched."""
    return StoreError(
        f"the store {path} {reason}. It was left untouched. Choose another file with --db PATH, or "
        "move this one away to start a new store; the app can also start a fresh database and keep "
        "this file beside it as <name>.corrupt-<time>"
    )


@contextlib.contextmanager
def translated(path: Path | str, doing: str) -> Iterator[None]:
    """Turn any sqlite3 error (or, for a store named by a postgresql:// URL, psycopg error) raised inside the
    block into an actionable StoreError."""
    if isinstance(path, str):
        from tutor.store import postgres

        with postgres.translated(path, doing):
            yield
        return
    try:
        yield
    except sqlite3.Error as exc:
        raise explain(exc, path, doing) from exc


def connect(path: Path, *, synchronous: str = "FULL") -> sqlite_utils.Database:
    """Open one connection with the store's settings (foreign keys, busy timeout, explicit transactions)."""
    # isolation_level=None: the driver never opens transactions behind our back; Connections.write()
    # opens BEGIN IMMEDIATE so two writers queue on the busy timeout instead of deadlocking.
    conn = sqlite3.connect(
        str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA synchronous={synchronous}")
        return sqlite_utils.Database(conn, execute_plugins=False)
    except BaseException:
        conn.close()
        raise


class Connections:
    """One sqlite-utils Database per thread over the same file; close() closes them all.

    A thread's connection lives in thread-local storage, so it is closed when its thread ends
    (a GUI that starts one thread per job does not pile up open files); close() ends the rest.
    """

    def __init__(self, path: Path, *, synchronous: str = "FULL") -> None:
        self.path = path
        self.synchronous = synchronous
        self._local = threading.local()
        self._all: weakref.WeakSet[sqlite_utils.Database] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._closed = False

    def get(self) -> sqlite_utils.Database:
        """Return this thread's connection, opening it on first use."""
        if self._closed:
            raise StoreError(f"the store {self.path} was closed; open it again with Store.open()")
        db = getattr(self._local, "db", None)
        if db is not None:
            return db
        with self._lock:
            if self._closed:
                raise StoreError(f"the store {self.path} was closed; open it again with Store.open()")
            with translated(self.path, "opening it"):
                db = connect(self.path, synchronous=self.synchronous)
            self._all.add(db)
        self._local.db = db
        return db

    @contextlib.contextmanager
    def write(self, doing: str) -> Iterator[sqlite_utils.Database]:
        """Run the block in one IMMEDIATE transaction: committed on exit, rolled back on any error."""
        db = self.get()
        with translated(self.path, doing):
            db.conn.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                if db.conn.in_transaction:
                    db.conn.execute("ROLLBACK")
                raise
            try:
                db.conn.execute("COMMIT")
            except BaseException:
                if db.conn.in_transaction:
                    db.conn.execute("ROLLBACK")
                raise

    def open_count(self) -> int:
        """Return how many per-thread connections are still open."""
        with self._lock:
            return len(self._all)

    def close(self) -> None:
        """Close every thread's connection; later use raises StoreError."""
        with self._lock:
            self._closed = True
            dbs, self._all = list(self._all), weakref.WeakSet()
        for db in dbs:
            with contextlib.suppress(sqlite3.Error):
                db.conn.close()
