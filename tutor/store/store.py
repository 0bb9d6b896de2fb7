"""The Store: learners, corrections and their latency in one SQLite file (or a PostgreSQL database), safe across
threads, processes and crashes."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any

from tutor.errors import ConflictError, StoreError
from tutor.result import CorrectionResult
from tutor.store import outbox, queries, schema
from tutor.store.db import Connections, corrupt_error, damage, explain, move_aside, translated
from tutor.store.names import clean_name, name_key
from tutor.store.paths import create_private, resolve_db
from tutor.store.postgres import PgConnections
from tutor.store.records import (
    CORRECTION_COLUMNS,
    Learner,
    check_results,
    correction_row,
    history_row,
    pack_us,
    unpack_us,
    utc_stamp,
)

When = datetime | date | str

_INSERT_CORRECTION = (
    f"INSERT INTO {schema.CORRECTIONS} ({', '.join(CORRECTION_COLUMNS)})"
    f" VALUES ({', '.join(':' + c for c in CORRECTION_COLUMNS)})"
)
_INSERT_CORRECTION_ONCE = _INSERT_CORRECTION.replace("INSERT INTO", "INSERT OR IGNORE INTO", 1)
_INSERT_CORRECTION_SEQ = _INSERT_CORRECTION + " RETURNING seq"
_SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA", "OFF")
_INSERT_TIMINGS = f"INSERT INTO {schema.MASK_TIMINGS} (correction_seq, count, us_f32) VALUES (?, ?, ?)"


class Store:
    """A grammar-tutor store over one SQLite file or one PostgreSQL database. Open with Store.open(); safe to share
    between threads (and, on PostgreSQL, between servers).

    Each write is one transaction, committed before the method returns. A SQLite file is in WAL mode with
    foreign keys on, one connection per thread; PostgreSQL is reached through a connection pool
    (tutor.store.postgres).
    """

    def __init__(self, connections: Connections | PgConnections, *, moved_aside: Path | None = None) -> None:
        """Use Store.open() instead; this wraps already-migrated connections."""
        self._conns = connections
        self.path: Path | str = connections.path  # a PostgreSQL store's is its URL without the password
        self.moved_aside: Path | None = moved_aside  # where fresh=True put a damaged file, if it did

    # -- opening ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None, *, fresh: bool = False,
             synchronous: str = "FULL") -> Store:
        """Open (creating or upgrading) the store at `path`; None resolves --db/$GRAMMAR_TUTOR_DB/data folder.

        A `postgresql://` URL is handed to tutor.store.postgres; any other `scheme://` raises StoreError.

        A corrupt or non-SQLite file raises StoreError and is left untouched, unless `fresh` is True:
        then it is renamed to `<name>.corrupt-<UTC time>` (see `moved_aside`) and a new store is
        created. A healthy file is never moved. A read-only place or a full disk raises StoreError.
        `synchronous` is SQLite's: FULL (default) survives power loss; NORMAL survives process crashes.
        """
        if synchronous.upper() not in _SYNCHRONOUS:
            raise ValueError(f"synchronous={synchronous!r}; expected one of {', '.join(_SYNCHRONOUS)}")
        target = resolve_db(path)
        if isinstance(target, str):
            from tutor.store.postgres import PgConnections

            return cls(PgConnections.open(target))
        problem = damage(target)
        if problem is None:
            try:
                return cls._open_checked(target, synchronous)
            except _Damaged as exc:
                problem = exc.reason
        if not fresh:
            raise corrupt_error(target, problem)
        moved = move_aside(target)
        store = cls._open_checked(target, synchronous)
        store.moved_aside = moved
        return store

    @classmethod
    def _open_checked(cls, target: Path, synchronous: str) -> Store:
        try:
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            create_private(target)  # a new store is readable by its owner only (SQLite's -wal/-shm follow it)
        except OSError as exc:
            raise StoreError(
                f"cannot create the store {target} ({exc.strerror or exc}); "
                "choose a writable place with --db PATH or $GRAMMAR_TUTOR_DB"
            ) from exc
        conns = Connections(target, synchronous=synchronous)
        try:
            db = conns.get()
            _check_readable(db, target)
            with translated(target, "switching it to WAL mode"):
                if db.journal_mode != "wal":
                    db.enable_wal()
            _migrate(conns)
        except BaseException:
            conns.close()
            raise
        return cls(conns)

    def close(self) -> None:
        """Close every connection (all threads); the store cannot be used afterwards."""
        self._conns.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """Return the schema version of the open file (or PostgreSQL database)."""
        with translated(self.path, "reading its schema version"):
            if isinstance(self._conns, PgConnections):
                return int(self._conns.get().execute(f"SELECT MAX(version) FROM {schema.VERSION_TABLE}").fetchone()[0])
            return schema.current_version(self._conns.get())

    # -- learners --------------------------------------------------------------------------------

    def ensure_learner(self, name: str) -> int:
        """Return the id of the learner called `name` (matched by names.name_key), creating them if needed.

        The stored name is names.clean_name(name): no control, bidi or zero-width characters, NFC,
        at most names.MAX_NAME_LENGTH characters (StoreError otherwise).
        """
        clean = clean_name(name)
        db = self._conns.get()
        with translated(self.path, f"looking up learner {clean!r}"):
            found = queries.learner_id(db, clean)
        if found not in (None, queries.NO_LEARNER):
            return int(found)
        with self._conns.write(f"adding learner {clean!r}") as db:
            if queries.learner_id(db, clean) == queries.NO_LEARNER:  # checked again inside the write lock
                db.execute(
                    f"INSERT OR IGNORE INTO {schema.LEARNERS} (name, name_key, created) VALUES (?, ?, ?)",
                    [clean, name_key(clean), utc_stamp()],
                )
            return int(queries.learner_id(db, clean))

    def learners(self) -> list[dict[str, Any]]:
        """Return every learner as {"id", "name", "created", "uuid", "corrections", "counted"}, by name.

        `corrections` counts every row (what the History lists); `counted` leaves out what the statistics
        leave out (practice retries and findings the judge was not sure of: queries.COUNTED), so it is the
        total the teacher's charts add up to.
        """
        sql = (
            f"SELECT l.id, l.name, l.created, l.uuid, COUNT(c.seq) AS corrections,"
            f" COALESCE({queries.count_if('c.seq IS NOT NULL AND ' + queries.COUNTED)}, 0) AS counted"
            f" FROM {schema.LEARNERS} l"
            f" LEFT JOIN {schema.CORRECTIONS} c ON c.learner_id = l.id"
            " GROUP BY l.id ORDER BY l.name COLLATE NOCASE"
        )
        with translated(self.path, "listing learners"):
            return list(self._conns.get().query(sql))

    def find_learner(self, learner: Learner) -> dict[str, Any] | None:
        """Return {"id", "name", "created", "uuid"} for a learner name (case-insensitive) or id, or None."""
        db = self._conns.get()
        with translated(self.path, "looking up a learner"):
            lid = queries.learner_id(db, learner)
            rows = list(db.query(f"SELECT id, name, created, uuid FROM {schema.LEARNERS} WHERE id = ?", [lid]))
        return rows[0] if rows else None

    # -- writing ---------------------------------------------------------------------------------

    def save_correction(self, result: CorrectionResult, *, learner: Learner, model_name: str | None = None,
                        model_sha256: str | None = None, settings: dict[str, Any] | None = None,
                        created: datetime | None = None) -> str:
        """Save one correction in one transaction, committed on return; return its UUID.

        The model name/sha256 and settings default to the result's own. `created` (default: now)
        is stored in UTC. Per-token mask timings (result.timings.mask_us) are kept when present.
        """
        return self.save_corrections([result], learner=learner, model_name=model_name,
                                     model_sha256=model_sha256, settings=settings, created=created)[0]

    def save_corrections(self, results: Iterable[CorrectionResult], *, learner: Learner,
                         model_name: str | None = None, model_sha256: str | None = None,
                         settings: dict[str, Any] | None = None,
                         created: datetime | None = None) -> list[str]:
        """Save many corrections in one transaction (all or none); return their UUIDs in order."""
        return self.save_dated(((result, created) for result in results), learner=learner,
                               model_name=model_name, model_sha256=model_sha256, settings=settings)

    def save_check(self, result: Any, *, learner: Learner) -> list[str]:
        """Save every finding of a text check (tutor.text.check.CheckResult) in one transaction, each with the
        text it came from; findings below the "not sure" threshold are marked so and left out of statistics.

        Checking the same text again replaces its findings instead of adding them: the learner's earlier
        findings from a text that is the same (queries.same_text_key: equal but for spacing and line breaks)
        are deleted in the same transaction, so a text's mistakes count once. An edited text is another text.
        """
        learner_id = self._learner_for_write(learner)
        with self._conns.write("saving a text check") as db:
            queries.forget_text(db, learner_id, result.text)
            return self._insert(db, ((row, None) for row in check_results(result)), learner_id)

    def save_dated(self, items: Iterable[tuple[CorrectionResult, datetime | None]], *, learner: Learner,
                   model_name: str | None = None, model_sha256: str | None = None,
                   settings: dict[str, Any] | None = None) -> list[str]:
        """Save (result, created) pairs in one transaction, e.g. an import; return their UUIDs in order."""
        learner_id = self._learner_for_write(learner)
        with self._conns.write("saving a correction") as db:
            return self._insert(db, items, learner_id, model_name=model_name, model_sha256=model_sha256,
                                settings=settings)

    def save_once(self, learner: Learner, items: Iterable[tuple[str, CorrectionResult]], *,
                  replacing_text: str | None = None) -> int:
        """Save (row UUID, result) pairs in one transaction, skipping UUIDs already there; return the rows added.

        Saving the same pairs again adds nothing, so a request retried after a lost answer, or a row kept both
        here and on a class server, is stored once. A UUID already there is a repeat only when it holds the
        same learner's same text; anything else raises ConflictError and nothing is stored. With
        `replacing_text` (a text check's findings), the learner's findings from earlier checks of the same text
        are deleted in the same transaction, as `save_check` does, except the rows being saved again.
        """
        learner_id = self._learner_for_write(learner)
        added = 0
        items = list(items)
        with self._conns.write("saving corrections under their UUIDs") as db:
            if replacing_text is not None:  # a text checked again: its earlier findings go, as in save_check
                queries.forget_text(db, learner_id, replacing_text, keep=[row_id for row_id, _ in items])
            for row_id, result in items:
                row = correction_row(result, learner_id=learner_id, model_name=None, model_sha256=None,
                                     settings=None)
                row["id"] = row_id
                if db.conn.execute(_INSERT_CORRECTION_ONCE, row).rowcount:
                    added += 1
                    continue
                known = db.execute(f"SELECT learner_id, original, kind, source_text FROM {schema.CORRECTIONS}"
                                   " WHERE id = ?", [row_id]).fetchone()
                if known is None or tuple(known) != (learner_id, row["original"], row["kind"], row["source_text"]):
                    raise ConflictError(f"the correction UUID {row_id} is already in {self.path} for another "
                                        "learner or text; nothing was stored")
        return added

    # -- the outbox: rows waiting for a class server ---------------------------------------------

    def queue_upload(self, correction_ids: Iterable[str]) -> None:
        """Queue rows of this store for upload to a class server (a row queued twice is queued once)."""
        with self._conns.write("queueing corrections for the class server") as db:
            outbox.queue(db, list(correction_ids))

    def queued_count(self) -> int:
        """Return how many rows wait for upload."""
        with translated(self.path, "counting the rows waiting for upload"):
            return outbox.count(self._conns.get())

    def queued_rows(self) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """Return the rows waiting for upload as (learner {"uuid", "name", "created"}, history rows), per learner."""
        with translated(self.path, "reading the rows waiting for upload"):
            return outbox.queued(self._conns.get())

    def unqueue(self, correction_ids: Iterable[str]) -> None:
        """Forget uploaded rows from the outbox (the rows themselves stay)."""
        with self._conns.write("clearing uploaded corrections from the outbox") as db:
            outbox.forget(db, list(correction_ids))

    @staticmethod
    def _insert(db: Any, items: Iterable[tuple[CorrectionResult, datetime | None]], learner_id: int, *,
                model_name: str | None = None, model_sha256: str | None = None,
                settings: dict[str, Any] | None = None) -> list[str]:
        """Insert (result, created) rows inside the caller's write transaction; return their UUIDs in order."""
        ids: list[str] = []
        # Plain parameterised INSERTs: sqlite-utils' insert() re-reads the table's columns per call.
        for result, created in items:
            row = correction_row(result, learner_id=learner_id, model_name=model_name,
                                 model_sha256=model_sha256, settings=settings, created=created)
            seq = db.conn.execute(_INSERT_CORRECTION_SEQ, row).fetchone()[0]
            if result.timings.mask_us:
                db.conn.execute(_INSERT_TIMINGS, (seq, len(result.timings.mask_us), pack_us(result.timings.mask_us)))
            ids.append(row["id"])
        return ids

    def _learner_for_write(self, learner: Learner) -> int:
        if isinstance(learner, int):
            with translated(self.path, f"looking up learner id {learner}"):
                found = queries.learner_id(self._conns.get(), learner)
            if found == queries.NO_LEARNER:
                raise StoreError(
                    f"no learner with id {learner} in {self.path}; use ensure_learner(name) first"
                )
            return int(found)
        return self.ensure_learner(learner)

    # -- reading ---------------------------------------------------------------------------------

    def _filters(self, learner: Learner | None, verb: str | None, tense: str | None, person: str | None,
                 since: When | None, until: When | None, search: str | None,
                 only_mistakes: bool) -> queries.Filters:
        with translated(self.path, "looking up a learner"):
            lid = queries.learner_id(self._conns.get(), learner)
        return queries.Filters(lid, verb, tense, person, since, until, search, only_mistakes)

    def history(self, learner: Learner | None = None, *, verb: str | None = None, tense: str | None = None,
                person: str | None = None, since: When | None = None, until: When | None = None,
                search: str | None = None, only_mistakes: bool = False, limit: int = 100,
                offset: int = 0) -> list[dict[str, Any]]:
        """Return one page of corrections, newest first, as dicts (see records.HISTORY_COLUMNS).

        `learner` is a name or id (an unknown one matches nothing); `since` is inclusive and `until`
        exclusive (a plain date as `until` includes that day); dates are ISO text, date or datetime
        (naive = UTC). `search` matches every word as a prefix in the sentence (FTS5).
        `only_mistakes` keeps in-scope corrections the learner got wrong.
        """
        filters = self._filters(learner, verb, tense, person, since, until, search, only_mistakes)
        with translated(self.path, "reading the history"):
            return queries.history(self._conns.get(), filters, limit=limit, offset=offset)

    def count_history(self, learner: Learner | None = None, *, verb: str | None = None,
                      tense: str | None = None, person: str | None = None, since: When | None = None,
                      until: When | None = None, search: str | None = None,
                      only_mistakes: bool = False) -> int:
        """Return how many corrections history() would page through with the same filters."""
        filters = self._filters(learner, verb, tense, person, since, until, search, only_mistakes)
        with translated(self.path, "counting the history"):
            return queries.count_history(self._conns.get(), filters)

    def get(self, correction_id: str) -> dict[str, Any] | None:
        """Return one correction by UUID (with `mask_us`, the per-token timings, possibly empty), or None."""
        db = self._conns.get()
        sql = (
            f"SELECT c.*, l.name AS learner, m.us_f32 FROM {schema.CORRECTIONS} c"
            f" JOIN {schema.LEARNERS} l ON l.id = c.learner_id"
            f" LEFT JOIN {schema.MASK_TIMINGS} m ON m.correction_seq = c.seq WHERE c.id = ?"
        )
        with translated(self.path, f"reading correction {correction_id}"):
            rows = list(db.query(sql, [correction_id]))
        if not rows:
            return None
        out = history_row(rows[0])
        out["mask_us"] = unpack_us(rows[0]["us_f32"]) if rows[0]["us_f32"] else []
        return out

    def mistakes(self, learner: Learner, *, limit: int = 100) -> list[dict[str, Any]]:
        """Return the learner's past errors (in scope, not correct), newest first ("review my mistakes")."""
        return self.history(learner, only_mistakes=True, limit=limit)

    def error_counts(self, learner: Learner | None = None) -> dict[str, dict[str, int]]:
        """Return error counts per verb, tense and person: {"verb": {"go": 3, ...}, "tense": {...}, ...}."""
        db = self._conns.get()
        with translated(self.path, "counting errors"):
            return queries.error_counts(db, queries.learner_id(db, learner))

    def progress_by_week(self, learner: Learner | None = None) -> list[dict[str, Any]]:
        """Return weekly totals, oldest first (week = its Monday; see queries.progress_by_week)."""
        db = self._conns.get()
        with translated(self.path, "summarising progress"):
            return queries.progress_by_week(db, queries.learner_id(db, learner))

    def latency_summary(self) -> list[dict[str, Any]]:
        """Return per model the mask µs p50/p99/max, total ms p50/p99 and a histogram (see queries)."""
        with translated(self.path, "summarising latency"):
            return queries.latency_summary(self._conns.get())

    def export(self, fmt: str, out: str | os.PathLike[str] | IO[str], learner: Learner | None = None) -> int:
        """Write the history (one learner's or everyone's), oldest first, as "csv" or "json"; return rows."""
        from tutor.store.export import export

        return export(self, fmt, out, learner)

    def integrity_check(self) -> list[str]:
        """Return SQLite's integrity_check messages (["ok"] for a healthy file); PostgreSQL checks its own pages,
        so there it is ["ok"] once the database answers."""
        with translated(self.path, "checking its integrity"):
            if isinstance(self._conns, PgConnections):
                self._conns.get().execute("SELECT 1").fetchone()
                return ["ok"]
            return [row[0] for row in self._conns.get().execute("PRAGMA integrity_check")]


class _Damaged(Exception):
    """The file has a SQLite header but cannot be used (corrupt, or another program's database)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _check_readable(db: Any, target: Path) -> None:
    """Raise _Damaged unless the file reads as a healthy store (or an empty file); writes nothing."""
    try:
        tables = set(db.table_names())
        quick = db.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in str(exc):
            raise _Damaged(f"is damaged ({exc})") from exc
        raise explain(exc, target, "opening it") from exc
    if quick is None or quick[0] != "ok":
        raise _Damaged(f"is damaged (SQLite quick_check: {quick[0] if quick else 'no answer'})")
    if tables and schema.VERSION_TABLE not in tables:
        # Not damage: never offered for moving aside, since another program may rely on this file.
        raise StoreError(
            f"the file {target} is another program's SQLite database (it has tables but no grammar-tutor "
            "schema_version). It was left untouched; choose another file with --db PATH"
        )


def _migrate(conns: Connections) -> None:
    """Bring the file up to schema.LATEST, one migration per transaction; refuse a newer file."""
    db = conns.get()
    with translated(conns.path, "reading its schema version"):
        version = schema.current_version(db)
    if version > schema.LATEST:
        raise StoreError(
            f"the store {conns.path} was written by a newer grammar-tutor (schema {version}, this one "
            f"knows {schema.LATEST}); update grammar-tutor or choose another file with --db PATH"
        )
    while version < schema.LATEST:
        with conns.write(f"upgrading it to schema {version + 1}") as db:
            version = schema.current_version(db)  # another process may have migrated meanwhile
            if version < schema.LATEST:
                schema.apply(db, version + 1)
                version += 1
