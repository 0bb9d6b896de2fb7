"""Export the history as CSV or JSON, oldest first, streamed page by page; a file is replaced atomically."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

from tutor.errors import StoreError
from tutor.record import BY_NAME, EXPORTED_KEYS, Field
from tutor.store import queries, schema
from tutor.store.db import Connections, translated
from tutor.store.paths import open_private
from tutor.store.records import Learner, utc_stamp


class Store(Protocol):
    """What an export reads of a tutor.store.store.Store (named here so export.py does not import store.py)."""

    path: Path
    _conns: Connections

    def find_learner(self, learner: Learner) -> dict[str, Any] | None:
        """Return the learner's row, or None."""
        ...

FORMATS = ("csv", "json")
JSON_FORMAT_NAME = "grammar-tutor-history"
JSON_FORMAT_VERSION = 1
# CSV: one column per exported field of the record; flags are 0/1, `settings` and `output` hold JSON text.
CSV_COLUMNS: tuple[str, ...] = EXPORTED_KEYS
_EXPORTED: tuple[Field, ...] = tuple(BY_NAME[key] for key in EXPORTED_KEYS)
_PAGE = 1000
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def rows(store: Store, learner: Learner | None) -> Iterator[dict[str, Any]]:
    """Yield every correction (of one learner, or all), oldest first, one page at a time."""
    db = store._conns.get()
    with translated(store.path, "reading the history to export"):
        filters = queries.Filters(learner_id=queries.learner_id(db, learner))
        offset = 0
        while True:
            page = queries.history(db, filters, limit=_PAGE, offset=offset, oldest_first=True)
            yield from page
            if len(page) < _PAGE:
                return
            offset += _PAGE


@contextlib.contextmanager
def snapshot(store: Store) -> Iterator[None]:
    """Hold one read transaction on this thread's connection: a WAL snapshot of the whole store.

    Rows saved meanwhile by other threads neither appear half-way through an export nor shift its pages.
    """
    db = store._conns.get()
    with translated(store.path, "starting the export"):
        db.conn.execute("BEGIN")
        db.conn.execute(f"SELECT 1 FROM {schema.LEARNERS} LIMIT 1").fetchall()  # the snapshot starts here
    try:
        yield
    finally:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")  # nothing was written; this only ends the snapshot


def spreadsheet_safe(value: Any) -> Any:
    """Return a text cell a spreadsheet will not run as a formula (OWASP's advice: a leading quote).

    Text starting with = + - @, a tab or a carriage return gets a ' in front; numbers are left alone.
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


_EMPHASIS = re.compile(r"\*([^*\n]+)\*")


def plain(value: Any) -> Any:
    """Return an explanation without its *emphasis* marks (*went* -> went), as a spreadsheet shows text."""
    return _EMPHASIS.sub(r"\1", value) if isinstance(value, str) else value


def write_csv(items: Iterator[dict[str, Any]], fh: IO[str]) -> int:
    """Write rows as CSV with a header line, formulas neutralised; return how many rows were written."""
    writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    n = 0
    for row in items:
        writer.writerow({f.name: spreadsheet_safe(plain(row[f.name]) if f.emphasis else f.to_column(row[f.name]))
                         for f in _EXPORTED})
        n += 1
    return n


def write_json(items: Iterator[dict[str, Any]], fh: IO[str], learner: str | None) -> int:
    """Write {"format", "version", "exported", "learner", "corrections": [...]}; return the row count."""
    head = {"format": JSON_FORMAT_NAME, "version": JSON_FORMAT_VERSION, "exported": utc_stamp(),
            "learner": learner}
    fh.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "corrections": [')
    n = 0
    for row in items:
        fh.write(("," if n else "") + "\n  " + json.dumps({key: row[key] for key in EXPORTED_KEYS}, ensure_ascii=False))
        n += 1
    fh.write("\n]}\n" if n else "]}\n")
    return n


def export(store: Store, fmt: str, out: str | os.PathLike[str] | IO[str], learner: Learner | None) -> int:
    """Write the history to `out` (a path, replaced atomically, or an open text stream); return rows."""
    if fmt not in FORMATS:
        raise StoreError(f"cannot export as {fmt!r}; choose one of: {', '.join(FORMATS)}")
    name = None
    if learner is not None:
        found = store.find_learner(learner)
        if found is None:
            raise StoreError(f"no learner {learner!r} in {store.path}; `grammar-tutor history` lists them")
        name = found["name"]

    def write(fh: IO[str]) -> int:
        with snapshot(store):
            items = rows(store, learner)
            return write_csv(items, fh) if fmt == "csv" else write_json(items, fh, name)

    if not isinstance(out, (str, os.PathLike)):
        return write(out)
    path = Path(out).expanduser()
    # Written beside the target, then renamed: a failed export never leaves half a file.
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.part")
    try:
        with open_private(tmp, newline="") as fh:
            n = write(fh)
        os.replace(tmp, path)
    except OSError as exc:
        raise _export_error(path, exc) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return n


def _export_error(path: Path, exc: OSError) -> StoreError:
    return StoreError(f"cannot write the export {path} ({exc.strerror or exc}); choose another --out FILE")
