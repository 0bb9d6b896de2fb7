"""Learner bundles: one learner's history as a self-describing JSON file, and its exactly-once import.

A bundle carries the learner's UUID and name, every correction with its row UUID, the schema and app
versions, and a sha256 over its content, so a damaged file is refused instead of half-imported.
Importing matches the learner by UUID (never by display name) and rows by UUID: a row already present
is skipped, and a known UUID with different content is reported as a conflict and left untouched.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from tutor import __version__
from tutor.errors import StoreError
from tutor.store import queries, schema
from tutor.store.db import translated
from tutor.store.export import rows as history_rows
from tutor.store.export import snapshot
from tutor.store.names import clean_name, name_key
from tutor.store.records import CORRECTION_COLUMNS, HISTORY_COLUMNS, history_row, utc_stamp

if TYPE_CHECKING:
    from tutor.store.store import Learner, Store

FORMAT_NAME = "grammar-tutor-bundle"
FORMAT_VERSION = 1
# A bundle row is a history row without the learner's display name (the learner is named once, on top).
ROW_KEYS: tuple[str, ...] = tuple(key for key in HISTORY_COLUMNS if key != "learner")
# What every bundle row has (format version 1); columns added later are optional, so older bundles import.
REQUIRED_KEYS: tuple[str, ...] = (
    "id", "created", "original", "verb", "tense", "person", "correct_form", "spanish", "out_of_scope",
    "is_correct", "confidence", "error_span", "error_start", "error_end", "explanation_en", "explanation_es",
    "model_name", "model_sha256", "settings", "prompt_ms", "forward_ms", "mask_p50_us", "mask_p99_us",
    "mask_max_us", "tokens_sampled", "tokens_forced", "total_ms", "output",
)
_REQUIRED_STR = ("id", "created", "original")
# records.TIMESTAMP_FORMAT as a pattern
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
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
        names = ", ".join(x["name"] for x in store.learners()) or "none yet"
        raise StoreError(f"no learner {learner!r} in {store.path}; known learners: {names}")
    with translated(store.path, "reading a learner's UUID"):
        row = store._conns.get().execute(
            f"SELECT uuid FROM {schema.LEARNERS} WHERE id = ?", [found["id"]]).fetchone()
    return {"id": found["id"], "uuid": row[0], "name": found["name"], "created": found["created"]}


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
        bundle.update(_practice_hook().section_for(store, info["id"]))
    text = json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"
    if not isinstance(out, (str, os.PathLike)):
        out.write(text)
        return len(bundle["corrections"])
    path = Path(out).expanduser()
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.part")
    try:
        with tmp.open("x", encoding="utf-8") as fh:
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
        text = where.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "it is not UTF-8 text"
        raise StoreError(f"cannot read the bundle {where} ({reason or exc}); check the file name") from exc
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(f"the bundle {where} is damaged: not valid JSON at line {exc.lineno} ({exc.msg}); "
                         "ask the learner to send it again") from None
    return check_bundle(value, str(where))


def check_bundle(value: Any, source: str) -> dict[str, Any]:
    """Return `value` if it is an intact bundle; raise StoreError naming the damage and what to do."""
    def damaged(what: str) -> StoreError:
        return StoreError(f"the bundle {source} is damaged: {what}; nothing was imported from it. "
                          "Ask the learner to send it again (File → Send my history to the teacher…)")

    if not isinstance(value, dict) or value.get("format") != FORMAT_NAME:
        raise StoreError(f"{source} is not a grammar-tutor bundle (no \"format\": \"{FORMAT_NAME}\"); "
                         "export one with `grammar-tutor history --learner NAME --export bundle`")
    if value.get("version") != FORMAT_VERSION:
        raise StoreError(f"the bundle {source} has format version {value.get('version')!r}; this grammar-tutor "
                         f"reads version {FORMAT_VERSION}: update grammar-tutor")
    learner, body = value.get("learner"), value.get("corrections")
    if not isinstance(learner, dict) or not _is_uuid(learner.get("uuid")):
        raise damaged("the learner has no valid UUID")
    if not isinstance(learner.get("name"), str) or not learner["name"].strip():
        raise damaged("the learner has no name")
    if not isinstance(body, list):
        raise damaged("it has no list of corrections")
    if value.get("sha256") != _digest({k: learner.get(k) for k in ("uuid", "name", "created")}, body):
        raise damaged("its content does not match its sha256 (the file was changed or cut short)")
    if _practice_hook().SECTION_KEY in value:
        trouble = _practice_hook().problem(value[_practice_hook().SECTION_KEY])
        if trouble:
            raise damaged(trouble)
    seen: set[str] = set()
    for n, row in enumerate(body, 1):
        problem = _row_problem(row)
        if problem:
            raise damaged(f"correction {n} {problem}")
        if row["id"] in seen:
            raise damaged(f"correction {n} repeats the UUID {row['id']}")
        seen.add(row["id"])
    return value


def import_bundle(store: Store, bundle: dict[str, Any], *, source: str = "bundle") -> ImportSummary:
    """Merge one checked bundle into the store in one transaction; return what was new, present or in conflict."""
    head = bundle["learner"]
    body = bundle["corrections"]
    with store._conns.write(f"importing the bundle {source}") as db:
        lid, name, added, renamed = learner_for_import(db, head)
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
        practice = bundle.get(_practice_hook().SECTION_KEY)
        if practice is not None:
            summary.practice = _practice_hook().merge(db, lid, practice).to_dict()
    return summary


def import_files(store: Store, paths: Iterable[str | os.PathLike[str]]) -> Iterator[ImportSummary | StoreError]:
    """Import each file in turn, yielding its summary, or the StoreError that refused it (others go on)."""
    for path in paths:
        try:
            bundle = read_bundle(path)
        except StoreError as exc:
            yield exc
            continue
        yield import_bundle(store, bundle, source=str(path))


# -- internals -------------------------------------------------------------------------------------

def _practice_hook() -> Any:
    """Return tutor.practice.bundle, which carries the practice state (imported late: it imports the store)."""
    from tutor.practice import bundle as practice_bundle

    return practice_bundle


@functools.cache
def _insert_sql(columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {schema.CORRECTIONS} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"


def _digest(learner: dict[str, Any], body: list[Any]) -> str:
    canonical = json.dumps({"learner": learner, "corrections": body}, sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _is_uuid(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return str(uuid.UUID(value)) == value.lower()
    except ValueError:
        return False


def _row_problem(row: Any) -> str | None:
    if not isinstance(row, dict):
        return "is not an object"
    missing = [key for key in REQUIRED_KEYS if key not in row]
    if missing:
        return f"lacks {', '.join(missing)}"
    if any(not isinstance(row[key], str) for key in _REQUIRED_STR):
        return "has a non-text id, created or original"
    if not _is_uuid(row["id"]):
        return f"has an id that is not a UUID ({row['id']!r})"
    if not _STAMP.match(row["created"]):
        return f"has a created time not in the store's UTC format ({row['created']!r})"
    if not isinstance(row["output"], dict) or not isinstance(row["settings"], dict):
        return "has an output or settings that is not an object"
    if not isinstance(row["out_of_scope"], bool) or not isinstance(row["is_correct"], bool):
        return "has out_of_scope or is_correct that is not true/false"
    return None


def learner_for_import(db: Any, head: dict[str, Any]) -> tuple[int, str, bool, str | None]:
    """Return (local id, local name, added?, the bundle's name if it had to change) for the bundle's learner."""
    found = db.execute(f"SELECT id, name FROM {schema.LEARNERS} WHERE uuid = ?", [head["uuid"]]).fetchone()
    if found:
        return int(found[0]), found[1], False, None
    wanted = clean_name(head["name"])  # a name from another machine is cleaned as if typed here
    name, n = wanted, 1
    while queries.learner_id(db, name) != queries.NO_LEARNER:
        n += 1
        name = f"{wanted} ({n})"
    created = head.get("created") if isinstance(head.get("created"), str) else utc_stamp()
    cursor = db.conn.execute(
        f"INSERT INTO {schema.LEARNERS} (name, name_key, created, uuid) VALUES (?, ?, ?, ?)",
        [name, name_key(name), created, head["uuid"]])
    return int(cursor.lastrowid), name, True, wanted if name != wanted else None


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
    # Columns the bundle does not carry (an older app's) take the table's defaults.
    values = {key: row[key] for key in CORRECTION_COLUMNS if key in row}
    values["learner_id"] = learner_id
    values["out_of_scope"] = int(row["out_of_scope"])
    values["is_correct"] = int(row["is_correct"])
    values["settings"] = json.dumps(row["settings"], sort_keys=True)
    values["output_json"] = json.dumps(row["output"], ensure_ascii=False)
    return values
