"""Learner bundles: one learner's history as a self-describing JSON file, and its exactly-once import.

A bundle carries the learner's UUID and name, every correction with its row UUID, the schema and app
versions, and a sha256 over its content, so a damaged file is refused instead of half-imported.
Importing matches the learner by UUID (never by display name) and rows by UUID: a row already present
is skipped, and a known UUID with different content is reported as a conflict and left untouched.
Every row is checked against the store's schema and the §A13 table first (tutor.store.bundle_rows), and
a bundle whose learner UUID belongs to a learner of another name here is refused whole: a file cannot
write into another learner's record by claiming their UUID. The sha256 shows damage, not forgery: who
may import at all is the teacher's passphrase's business (tutor.commands.importing, docs/access.md).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import stat
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from tutor import __version__
from tutor.errors import StoreError
from tutor.jsontext import BadJSON, loads
from tutor.record import BUNDLE_KEYS, FIELDS, REQUIRED_BUNDLE_KEYS
from tutor.store import practice_rows, queries, schema
from tutor.store.bundle_rows import BundleRowError, check_learner, check_row
from tutor.store.export import rows as history_rows
from tutor.store.export import snapshot
from tutor.store.lock import unknown_learner
from tutor.store.names import clean_name, name_key
from tutor.store.paths import open_private
from tutor.store.records import history_row, utc_stamp

if TYPE_CHECKING:
    from tutor.store.store import Learner, Store

FORMAT_NAME = "grammar-tutor-bundle"
FORMAT_VERSION = 1
MAX_BUNDLE_BYTES = 64 * 2**20  # about 35,000 corrections; a bigger file is refused before it is read
# A bundle row is a history row without the learner's display name (the learner is named once, on top).
ROW_KEYS: tuple[str, ...] = BUNDLE_KEYS
# What every bundle row has (format version 1); fields added later are optional, so older bundles import.
REQUIRED_KEYS: tuple[str, ...] = REQUIRED_BUNDLE_KEYS
_LOOKUP_CHUNK = 500


@dataclass
class ImportSummary:
    """What importing one bundle did: rows new, already present, and conflicting (by row UUID)."""

    source: str
    learner: str
    learner_uuid: str
    new: int = 0
    present: int = 0
    conflicts: list[str] = field(default_factory=list)
    learner_added: bool = False
    renamed_from: str | None = None  # the bundle's name, when another learner already had it here
    practice: dict[str, int] | None = None  # what the practice section added (tutor.practice.bundle), if any

    def line(self) -> str:
        """Return a one-line summary, e.g. 'ana.json: Ana: 12 new, 3 already present, 0 conflicts'."""
        text = (f"{self.source}: {self.learner}: {self.new} new, {self.present} already present, "
                f"{len(self.conflicts)} conflicts")
        if self.renamed_from:
            text += f" (another learner here is called {self.renamed_from!r}; imported as {self.learner!r})"
        elif self.learner_added:
            text += " (new learner)"
        if self.practice is not None:
            text += (f"; practice: {self.practice['cards_new']} new cards, {self.practice['cards_updated']} updated, "
                     f"{self.practice['reviews_new']} new answers")
        return text


def learner_info(store: Store, learner: Learner) -> dict[str, Any]:
    """Return {"id", "uuid", "name", "created"} of a learner (name or local id); raise StoreError if unknown."""
    found = store.find_learner(learner)
    if found is None:
        raise unknown_learner(store, learner)
    return {"id": found["id"], "uuid": found["uuid"], "name": found["name"], "created": found["created"]}


def make_bundle(learner: dict[str, Any], corrections: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Return the bundle object for a learner ({"uuid", "name", "created"}) and their history rows."""
    head = {"uuid": learner["uuid"], "name": learner["name"], "created": learner["created"]}
    body = [{key: row.get(key) for key in ROW_KEYS} for row in corrections]
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "app_version": __version__,
            "schema_version": schema.LATEST, "exported": utc_stamp(), "learner": head,
            "corrections": body, "sha256": _digest(head, body)}


def write_bundle(store: Store, learner: Learner, out: str | os.PathLike[str] | IO[str]) -> int:
    """Write one learner's whole history as a bundle (a path is replaced atomically); return the rows."""
    info = learner_info(store, learner)
    with snapshot(store):
        bundle = make_bundle(info, history_rows(store, info["id"]))
        bundle[practice_rows.SECTION_KEY] = practice_rows.section(store, info["id"])
    text = json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"
    if not isinstance(out, (str, os.PathLike)):
        out.write(text)
        return len(bundle["corrections"])
    path = Path(out).expanduser()
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.part")
    try:
        with open_private(tmp) as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise StoreError(f"cannot write the bundle {path} ({exc.strerror or exc}); choose another --out FILE") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return len(bundle["corrections"])


def read_bundle(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Return the checked bundle in `path`; raise StoreError naming what is damaged."""
    where = Path(path)
    try:
        info = where.stat()
        size = info.st_size
        if where.is_dir():
            raise StoreError(f"{where} is a folder, not a bundle; give the bundle files themselves")
        if not stat.S_ISREG(info.st_mode):  # /dev/zero never ends, a FIFO may never open: neither is read
            raise StoreError(f"{where} is not a regular file (a device, a pipe or a socket), not a bundle; "
                             "give the bundle files themselves")
        if size > MAX_BUNDLE_BYTES:
            raise StoreError(f"the bundle {where} is {size / 2**20:.0f} MB, over the {MAX_BUNDLE_BYTES // 2**20} MB "
                             "a bundle may have; it is not one grammar-tutor wrote. Ask the learner to send it again")
        data = where.read_bytes()
    except OSError as exc:
        raise StoreError(f"cannot read the bundle {where} ({exc.strerror or exc}); check the file name") from exc
    try:
        value = loads(data)
    except BadJSON as exc:
        raise StoreError(f"the bundle {where} is damaged: {exc}; nothing was imported from it. "
                         "Ask the learner to send it again") from None
    return check_bundle(value, str(where))


def check_bundle(value: Any, source: str) -> dict[str, Any]:
    """Return `value` checked and cleaned (UUIDs as the store writes them, names as typed here, every row
    valid for the store and the §A13 table); raise StoreError naming the damage and what to do."""
    def damaged(what: str) -> StoreError:
        return StoreError(f"the bundle {source} is damaged: {what}; nothing was imported from it. "
                          "Ask the learner to send it again (File → Send my history to the teacher…)")

    if not isinstance(value, dict) or value.get("format") != FORMAT_NAME:
        raise StoreError(f"{source} is not a grammar-tutor bundle (no \"format\": \"{FORMAT_NAME}\"); "
                         "export one with `grammar-tutor history --learner NAME --export bundle`")
    if value.get("version") != FORMAT_VERSION:
        raise StoreError(f"the bundle {source} has format version {str(value.get('version'))[:20]!r}; this "
                         f"grammar-tutor reads version {FORMAT_VERSION}: update grammar-tutor")
    learner, body = value.get("learner"), value.get("corrections")
    if not isinstance(body, list):
        raise damaged("it has no list of corrections")
    if not isinstance(learner, dict) or value.get("sha256") != _digest(
            {k: learner.get(k) for k in ("uuid", "name", "created")}, body):
        raise damaged("its content does not match its sha256 (the file was changed or cut short)")
    if practice_rows.SECTION_KEY in value:
        trouble = practice_rows.section_problem(value[practice_rows.SECTION_KEY])
        if trouble:
            raise damaged(trouble)
    try:
        head = check_learner(learner)
    except BundleRowError as exc:
        raise damaged(str(exc)) from None
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, row in enumerate(body, 1):
        missing = [key for key in REQUIRED_KEYS if key not in row] if isinstance(row, dict) else []
        if missing:
            raise damaged(f"correction {n} lacks {', '.join(missing)}")
        try:
            checked = check_row(row)
        except BundleRowError as exc:
            raise damaged(f"correction {n}: {exc}") from None
        if checked["id"] in seen:
            raise damaged(f"correction {n} repeats the UUID {checked['id']}")
        seen.add(checked["id"])
        rows.append(checked)
    return {**value, "learner": head, "corrections": rows}


def import_bundle(store: Store, bundle: dict[str, Any], *, source: str = "bundle",
                  learner_id: int | None = None) -> ImportSummary:
    """Merge one checked bundle (check_bundle) into the store in one transaction; return what was new, present
    or in conflict. `learner_id` files the rows under a learner already resolved (the class server's
    upload, whose sender proved who they are); otherwise the learner is matched by UUID and name."""
    head = bundle["learner"]
    body = bundle["corrections"]
    with store._conns.write(f"importing the bundle {source}") as db:
        if learner_id is None:
            lid, name, added, renamed = learner_for_import(db, head, source=source)
        else:
            found = db.execute(f"SELECT id, name, uuid FROM {schema.LEARNERS} WHERE id = ?", [learner_id]).fetchone()
            if found is None:
                raise StoreError(f"no learner with id {learner_id} in {store.path}")
            lid, name, added, renamed = int(found[0]), found[1], False, None
            head = {**head, "uuid": found[2]}
        summary = ImportSummary(source=source, learner=name, learner_uuid=head["uuid"], learner_added=added,
                                renamed_from=renamed)
        existing = _existing(db, [row["id"] for row in body])
        for row in body:
            known = existing.get(row["id"])
            if known is None:
                values = _insert_values(row, lid)
                db.conn.execute(_insert_sql(tuple(values)), values)
                summary.new += 1
            elif _same(known, row, head["uuid"]):
                summary.present += 1
            else:
                summary.conflicts.append(row["id"])
        practice = bundle.get(practice_rows.SECTION_KEY)
        if practice is not None:
            summary.practice = practice_rows.merge(db, lid, practice).to_dict()
    return summary


def import_files(store: Store, paths: Iterable[str | os.PathLike[str]]) -> Iterator[ImportSummary | StoreError]:
    """Import each file in turn, yielding its summary, or the StoreError that refused it (others go on)."""
    for path in paths:
        try:
            yield import_bundle(store, read_bundle(path), source=str(path))
        except StoreError as exc:  # this file is refused whole (its transaction rolled back); the next one goes on
            yield exc


# -- internals -------------------------------------------------------------------------------------

@functools.cache
def _insert_sql(columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {schema.CORRECTIONS} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


def _digest(learner: dict[str, Any], body: list[Any]) -> str:
    canonical = json.dumps({"learner": learner, "corrections": body}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def learner_for_import(db: Any, head: dict[str, Any], *, source: str = "the bundle"
                       ) -> tuple[int, str, bool, str | None]:
    """Return (local id, local name, added?, the bundle's name if it had to change) for the bundle's learner.

    A UUID already here under another name is refused (StoreError): the file claims someone else's record.
    """
    found = db.execute(f"SELECT id, name FROM {schema.LEARNERS} WHERE uuid = ?", [head["uuid"]]).fetchone()
    if found:
        if not same_learner_name(found[1], head["name"]):
            raise StoreError(
                f"{source} says its learner is {head['name']!r}, but their UUID belongs to another learner here; "
                "nothing was imported from it. A bundle can only add to the learner who wrote it: ask that "
                "learner to export their history again from their own app")
        return int(found[0]), found[1], False, None
    wanted = clean_name(head["name"])  # a name from another machine is cleaned as if typed here
    name, n = wanted, 1
    while queries.learner_id(db, name) != queries.NO_LEARNER:
        n += 1
        name = f"{wanted} ({n})"
    created = head.get("created") if isinstance(head.get("created"), str) else utc_stamp()
    lid = db.conn.execute(
        f"INSERT INTO {schema.LEARNERS} (name, name_key, created, uuid) VALUES (?, ?, ?, ?) RETURNING id",
        [name, name_key(name), created, head["uuid"]]).fetchone()[0]
    return int(lid), name, True, wanted if name != wanted else None


def same_learner_name(here: str, theirs: str) -> bool:
    """Return True when a learner called `here` may be the bundle's `theirs`: the same name (folded), or the
    name with the " (2)" an earlier import gave it because another learner here had it already."""
    local, wanted = name_key(here), name_key(theirs)
    return local == wanted or re.fullmatch(re.escape(wanted) + r" \(\d+\)", local) is not None


def _existing(db: Any, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Return the stored rows (history dicts plus learner_uuid) among `ids`, by UUID."""
    out: dict[str, dict[str, Any]] = {}
    for start in range(0, len(ids), _LOOKUP_CHUNK):
        chunk = ids[start:start + _LOOKUP_CHUNK]
        sql = (f"SELECT c.*, l.name AS learner, l.uuid AS learner_uuid FROM {schema.CORRECTIONS} c"
               f" JOIN {schema.LEARNERS} l ON l.id = c.learner_id WHERE c.id IN ({', '.join('?' * len(chunk))})")
        for row in db.query(sql, chunk):
            parsed = history_row(row)
            parsed["learner_uuid"] = row["learner_uuid"]
            out[row["id"]] = parsed
    return out


def _same(known: dict[str, Any], row: dict[str, Any], learner_uuid: str) -> bool:
    shared = [key for key in ROW_KEYS if key in row and key in known]
    return known["learner_uuid"] == learner_uuid and all(known[key] == row[key] for key in shared)


def _insert_values(row: dict[str, Any], learner_id: int) -> dict[str, Any]:
    values = {f.stored_as: f.to_column(row[f.name]) for f in FIELDS if f.bundled and f.name in row}
    values["learner_id"] = learner_id
    return values
