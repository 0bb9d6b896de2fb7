"""The practice tables' rows: cards, their answers, which mistakes they came from, and a learner's section.

Only SQL lives here; what a card says, how it is graded and scheduled is tutor.practice's. A learner's
practice *section* (the `practice` key of a bundle, and what the class server's practice routes carry) is
{"cards", "reviews", "sources", "sha256"}: cards and answers are matched by UUID, answers are only ever
added, and a card known on both sides keeps the state of the side that has seen more answers (then the later
review), so merging twice, or an older section after a newer one, changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tutor.errors import StoreError
from tutor.limits import MAX_TEXT_CHARS  # a card or answer in a section carries at most a checked text
from tutor.scope import load_scope
from tutor.scoring import norm
from tutor.store import queries, schema
from tutor.store.db import translated
from tutor.store.records import TIMESTAMP_FORMAT, history_row

if TYPE_CHECKING:
    from tutor.store.store import Store

SECTION_KEY = "practice"
# Corrections that become cards: real errors the learner made (not retries, not findings the judge doubted).
MISTAKES_SQL = "c.is_correct = 0 AND c.out_of_scope = 0 AND c.kind != 'review' AND c.not_sure = 0 AND c.noted = 0"
CARD_COLUMNS: tuple[str, ...] = (
    "id", "learner_id", "created", "source_id", "origin", "verb", "tense", "person", "before", "after", "hint",
    "hint_kind", "answer", "accepted", "explanation_en", "explanation_es", "error_type", "state", "step",
    "stability", "difficulty", "due", "last_review", "reps", "lapses",
)
MEMORY_COLUMNS: tuple[str, ...] = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
REVIEW_KEYS: tuple[str, ...] = ("id", "card_id", "reviewed", "given", "correct", "rating")
SOURCE_KEYS: tuple[str, ...] = ("correction_id", "built", "cards")
# A card in a section: the `cards` row less the local learner id; `accepted` as a list.
CARD_KEYS: tuple[str, ...] = tuple(key for key in CARD_COLUMNS if key != "learner_id")
CARD_ORIGINS = ("mistake", "other person", "other verb")  # the learner's own sentence, or a variant of it
HINT_KINDS = ("base", "written")  # what the hint in brackets shows: the base form, or what the learner wrote
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
SQLITE_MAX_INT = 2**63 - 1  # the largest integer SQLite keeps; a larger one would end the write in an OverflowError
_INSERT_CARD = (f"INSERT OR IGNORE INTO {schema.CARDS} ({', '.join(CARD_COLUMNS)})"
                f" VALUES ({', '.join(':' + c for c in CARD_COLUMNS)})")
_ORDER = "ORDER BY due, origin != 'mistake', seq"


@dataclass
class PracticeSummary:
    """What merging one practice section did."""

    cards_new: int = 0
    cards_updated: int = 0
    reviews_new: int = 0
    sources_new: int = 0

    def to_dict(self) -> dict[str, int]:
        """Return the counts as a dict."""
        return {"cards_new": self.cards_new, "cards_updated": self.cards_updated, "reviews_new": self.reviews_new}


# -- cards ------------------------------------------------------------------------------------------

def new_mistakes(store: Store, learner_id: int) -> list[dict[str, Any]]:
    """Return the learner's mistakes that have no cards yet (history rows), oldest first."""
    sql = (f"SELECT c.*, '' AS learner FROM {schema.CORRECTIONS} c LEFT JOIN {schema.CARD_SOURCES} s"
           f" ON s.correction_id = c.id WHERE c.learner_id = ? AND {MISTAKES_SQL} AND s.correction_id IS NULL"
           " ORDER BY c.created, c.seq")
    with translated(store.path, "reading mistakes to practise"):
        return [history_row(r) for r in store._conns.get().query(sql, [learner_id])]


def add_cards(store: Store, learner_id: int, built: list[tuple[str, list[dict[str, Any]]]], stamp: str) -> int:
    """Add the card rows built from each mistake (correction UUID, rows) in one transaction, and mark each
    mistake as built (a card or mistake already there is skipped); return the cards added."""
    added = 0
    with store._conns.write("adding practice cards") as db:
        for correction_id, rows in built:
            for row in rows:
                added += db.conn.execute(_INSERT_CARD, row).rowcount
            db.conn.execute(
                f"INSERT OR IGNORE INTO {schema.CARD_SOURCES} (correction_id, learner_id, built, cards)"
                " VALUES (?, ?, ?, ?)", [correction_id, learner_id, stamp, len(rows)])
    return added


def due_cards(store: Store, learner_id: int, now: str, limit: int) -> list[dict[str, Any]]:
    """Return the `cards` rows due at `now` (a store timestamp), longest waiting and own sentences first."""
    sql = f"SELECT * FROM {schema.CARDS} WHERE learner_id = ? AND due <= ? {_ORDER} LIMIT ?"
    with translated(store.path, "reading the due cards"):
        return list(store._conns.get().query(sql, [learner_id, now, int(limit)]))


def count_due(store: Store, learner_id: int, now: str) -> int:
    """Return how many of the learner's cards are due at `now`."""
    sql = f"SELECT COUNT(*) FROM {schema.CARDS} WHERE learner_id = ? AND due <= ?"
    with translated(store.path, "counting the due cards"):
        return int(store._conns.get().execute(sql, [learner_id, now]).fetchone()[0])


def all_cards(store: Store, learner_id: int) -> list[dict[str, Any]]:
    """Return every `cards` row of the learner, in the due list's order."""
    with translated(store.path, "reading the practice cards"):
        return list(store._conns.get().query(f"SELECT * FROM {schema.CARDS} WHERE learner_id = ? {_ORDER}",
                                             [learner_id]))


def cards_starting(store: Store, learner_id: int, prefix: str) -> list[dict[str, Any]]:
    """Return up to two of the learner's `cards` rows whose UUID starts with `prefix` (taken literally)."""
    sql = f"SELECT * FROM {schema.CARDS} WHERE learner_id = ? AND id LIKE ? ESCAPE '\\' LIMIT 2"
    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    with translated(store.path, "reading a practice card"):
        return list(store._conns.get().query(sql, [learner_id, pattern]))


def save_answer(store: Store, card: dict[str, Any], memory: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Keep one answer to a card (answer: id, reviewed, given, correct, rating) and the card's new schedule
    (memory: MEMORY_COLUMNS), in one transaction; only while the card is as `card` was read (its reps and last
    review). Return False, writing nothing, when another answer changed it meanwhile (the caller reads it again)."""
    with store._conns.write("saving a practice answer") as db:
        changed = db.conn.execute(
            f"UPDATE {schema.CARDS} SET {', '.join(f'{k} = :{k}' for k in MEMORY_COLUMNS)} WHERE id = :id"
            " AND reps = :was_reps AND IFNULL(last_review, '') = :was_last",
            {**{k: memory[k] for k in MEMORY_COLUMNS}, "id": card["id"], "was_reps": card["reps"],
             "was_last": card["last_review"] or ""}).rowcount
        if not changed:
            return False
        db.conn.execute(
            f"INSERT INTO {schema.CARD_REVIEWS} (id, card_id, learner_id, reviewed, given, correct, rating)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [answer["id"], card["id"], card["learner_id"], answer["reviewed"], answer["given"],
             int(answer["correct"]), answer["rating"]])
    return True


# -- progress ---------------------------------------------------------------------------------------

@dataclass
class ProgressRows:
    """What progress is computed from, for one learner (or everyone): the writing, the cards, the answers."""

    writing: list[tuple]  # (week, learner_id, kind, original, source_text, is_correct, out_of_scope, uncounted,
    #                       verb, tense, person, error_span) of every correction but practice retries
    cards: list[tuple]  # (learner_id, verb, tense, person, cards, cards mastered) per learner and cell
    answers: list[tuple]  # (learner_id, verb, tense, person, right, wrong) per learner and cell
    totals: dict[str, int]  # {"cards", "due", "answers", "right"}


def progress_rows(store: Store, learner: Any, *, mastered_state: int, mastered_stability: float,
                  now: str) -> ProgressRows:
    """Return the rows progress is computed from, for a learner (name or id) or, with None, everyone; a card is
    mastered in `mastered_state` with at least `mastered_stability` days; `now` decides what is due."""
    db = store._conns.get()
    with translated(store.path, "summarising practice progress"):
        lid = queries.learner_id(db, learner)
        where, params = ("AND c.learner_id = ?", [lid]) if lid is not None else ("", [])
        writing = db.execute(
            f"SELECT {schema.WEEK_SQL} AS week, c.learner_id, c.kind, c.original, c.source_text, c.is_correct,"
            f" c.out_of_scope, CASE WHEN c.not_sure != 0 OR c.noted != 0 THEN 1 ELSE 0 END,"
            f" c.verb, c.tense, c.person, c.error_span"
            f" FROM {schema.CORRECTIONS} c"
            f" WHERE c.kind != 'review' {where}", params).fetchall()
        cards = db.execute(
            f"SELECT c.learner_id, c.verb, c.tense, c.person, COUNT(*),"
            f" {queries.count_if(f'c.state = {int(mastered_state)} AND c.stability >= ?')} FROM {schema.CARDS} c"
            f" WHERE 1 = 1 {where}"
            " GROUP BY c.learner_id, c.verb, c.tense, c.person", [mastered_stability, *params]).fetchall()
        answers = db.execute(
            f"SELECT r.learner_id, c.verb, c.tense, c.person, {queries.count_if('r.correct = 1')},"
            f" {queries.count_if('r.correct = 0')}"
            f" FROM {schema.CARD_REVIEWS} r JOIN {schema.CARDS} c ON c.id = r.card_id WHERE 1 = 1 {where}"
            " GROUP BY r.learner_id, c.verb, c.tense, c.person", params).fetchall()
        n_cards, due = db.execute(
            f"SELECT COUNT(*), COALESCE({queries.count_if('c.due <= ?')}, 0) FROM {schema.CARDS} c WHERE 1 = 1 {where}",
            [now, *params]).fetchone()
        n_answers, right = db.execute(
            f"SELECT COUNT(*), COALESCE({queries.count_if('r.correct = 1')}, 0) FROM {schema.CARD_REVIEWS} r"
            f" JOIN {schema.CARDS} c ON c.id = r.card_id WHERE 1 = 1 {where}", params).fetchone()
    return ProgressRows(writing, cards, answers, {"cards": int(n_cards), "due": int(due), "answers": int(n_answers),
                                                  "right": int(right)})


# -- a learner's section -----------------------------------------------------------------------------

def section(store: Store, learner_id: int) -> dict[str, Any]:
    """Return the learner's practice section: {"cards", "reviews", "sources", "sha256"}."""
    db = store._conns.get()
    with translated(store.path, "reading a learner's practice"):
        cards = [_card_out(row) for row in db.query(
            f"SELECT * FROM {schema.CARDS} WHERE learner_id = ? ORDER BY seq", [learner_id])]
        reviews = [{**row, "correct": bool(row["correct"])} for row in db.query(
            f"SELECT {', '.join(REVIEW_KEYS)} FROM {schema.CARD_REVIEWS} WHERE learner_id = ? ORDER BY seq",
            [learner_id])]
        sources = list(db.query(f"SELECT {', '.join(SOURCE_KEYS)} FROM {schema.CARD_SOURCES} WHERE learner_id = ?"
                                " ORDER BY correction_id", [learner_id]))
    return with_digest({"cards": cards, "reviews": reviews, "sources": sources})


def with_digest(body: dict[str, Any]) -> dict[str, Any]:
    """Return the section with its sha256 over cards, reviews and sources."""
    return {**body, "sha256": digest(body)}


def digest(body: dict[str, Any]) -> str:
    """Return the sha256 of a section's content (canonical JSON of its cards, reviews and sources)."""
    canonical = json.dumps({k: body.get(k) for k in ("cards", "reviews", "sources")}, sort_keys=True,
                           ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def merge_section(store: Store, learner_id: int, value: dict[str, Any]) -> PracticeSummary:
    """Merge a checked section (tutor.practice.bundle.problem found nothing) into the learner's practice state,
    in one transaction."""
    with store._conns.write("merging a learner's practice") as db:
        return merge(db, learner_id, value)


def merge(db: Any, learner_id: int, value: dict[str, Any]) -> PracticeSummary:
    """Merge a checked section into the learner's state inside the caller's write transaction (a bundle import)."""
    summary = PracticeSummary()
    for card in value["cards"]:
        row = _card_in(card, learner_id)
        known = db.execute(f"SELECT learner_id, reps, last_review FROM {schema.CARDS} WHERE id = ?",
                           [card["id"]]).fetchone()
        if known is None:
            columns = ", ".join(row)
            db.conn.execute(f"INSERT INTO {schema.CARDS} ({columns}) VALUES ({', '.join(':' + c for c in row)})",
                            row)
            summary.cards_new += 1
        elif known[0] == learner_id and (row["reps"], row["last_review"] or "") > (known[1], known[2] or ""):
            db.conn.execute(
                f"UPDATE {schema.CARDS} SET {', '.join(f'{k} = :{k}' for k in MEMORY_COLUMNS)} WHERE id = :id",
                {k: row[k] for k in (*MEMORY_COLUMNS, "id")})
            summary.cards_updated += 1
    for review in value["reviews"]:
        owner = db.execute(f"SELECT learner_id FROM {schema.CARDS} WHERE id = ?", [review["card_id"]]).fetchone()
        if owner is None or owner[0] != learner_id:
            continue  # a card another learner holds here (a UUID clash): never attach answers across learners
        added = db.conn.execute(
            f"INSERT OR IGNORE INTO {schema.CARD_REVIEWS} (id, card_id, learner_id, reviewed, given, correct, rating)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [review["id"], review["card_id"], learner_id, review["reviewed"], review["given"][:MAX_TEXT_CHARS],
             int(review["correct"]), review["rating"]]).rowcount
        summary.reviews_new += added
    for source in value.get("sources", []):
        owner = db.execute(f"SELECT learner_id FROM {schema.CORRECTIONS} WHERE id = ?",
                           [source["correction_id"]]).fetchone()
        if owner is not None and owner[0] != learner_id:
            continue  # another learner's mistake: only its owner's practice may mark it as done
        summary.sources_new += db.conn.execute(
            f"INSERT OR IGNORE INTO {schema.CARD_SOURCES} (correction_id, learner_id, built, cards)"
            " VALUES (?, ?, ?, ?)", [source["correction_id"], learner_id, source["built"], source["cards"]]).rowcount
    return summary


def section_problem(value: Any) -> str | None:
    """Return what is wrong with a practice section (for the bundle's 'is damaged' message), or None."""
    if not isinstance(value, dict):
        return "its practice section is not an object"
    cards, reviews, sources = value.get("cards"), value.get("reviews"), value.get("sources", [])
    if not isinstance(cards, list) or not isinstance(reviews, list) or not isinstance(sources, list):
        return "its practice section lacks the lists of cards and answers"
    if value.get("sha256") != digest(value):
        return "its practice section does not match its sha256 (the file was changed or cut short)"
    known: set[str] = set()
    for n, card in enumerate(cards, 1):
        found = _card_problem(card)
        if found:
            return f"practice card {n} {found}"
        if card["id"].lower() in known:
            return f"practice card {n} is {card['id']}, which the section already carries"
        known.add(card["id"].lower())
    for n, review in enumerate(reviews, 1):
        if not isinstance(review, dict) or any(key not in review for key in REVIEW_KEYS):
            return f"practice answer {n} lacks {', '.join(REVIEW_KEYS)}"
        if not _is_uuid(review["id"]) or not isinstance(review["card_id"], str) or \
                review["card_id"].lower() not in known:
            return f"practice answer {n} has a bad id or names a card the section does not carry"
        if not _is_stamp(review["reviewed"]) or not isinstance(review["given"], str) or \
                not isinstance(review["correct"], bool) or review["rating"] not in (1, 2, 3, 4):
            return f"practice answer {n} has a bad time, answer, result or rating"
    for n, source in enumerate(sources, 1):
        if not isinstance(source, dict) or not _is_uuid(source.get("correction_id")) or \
                not _is_count(source.get("cards")) or not _is_stamp(source.get("built")):
            return f"practice source {n} is not a correction UUID with a time and a card count"
    return None


def _card_problem(card: Any) -> str | None:
    if not isinstance(card, dict):
        return "is not an object"
    missing = [key for key in CARD_KEYS if key not in card]
    if missing:
        return f"lacks {', '.join(missing)}"
    if not _is_uuid(card["id"]) or (card["source_id"] is not None and not isinstance(card["source_id"], str)):
        return "has an id that is not a UUID"
    try:
        cell = load_scope().cell(card["verb"], card["tense"], card["person"])
    except KeyError:
        return "names no §A13 cell"
    if card["origin"] not in CARD_ORIGINS or card["hint_kind"] not in HINT_KINDS:
        return "has an unknown origin or hint"
    texts = ("before", "after", "hint", "answer", "explanation_en", "explanation_es")
    if any(not isinstance(card[key], str) or len(card[key]) > MAX_TEXT_CHARS for key in texts):
        return "has a text field that is not text (or is too long)"
    accepted = card["accepted"]
    if not isinstance(accepted, list) or not accepted or not all(isinstance(a, str) for a in accepted):
        return "has no list of accepted answers"
    forms = cell_answers(cell.english)
    wrong = [a for a in (card["answer"], *accepted) if norm(a) not in forms]
    if wrong:
        return (f"has the answer {wrong[0][:40]!r}, which is not a form of {cell.verb!r} in the {cell.tense}, "
                f"{cell.person} (§A13)")
    for key in ("created", "due", "last_review"):
        if (card[key] is not None or key != "last_review") and not _is_stamp(card[key]):
            return f"has a {key} {str(card[key])[:40]!r} that is not a real time in the store's UTC format"
    if card["step"] is not None and not _is_count(card["step"]):
        return "has a bad FSRS step"
    for key in ("state", "reps", "lapses"):
        if not _is_count(card[key]):
            return f"has a {key} that is not a whole number from 0 to {SQLITE_MAX_INT}"
    if card["state"] not in (1, 2, 3):
        return "has a bad FSRS state"
    for key in ("stability", "difficulty"):
        if card[key] is not None and (not isinstance(card[key], (int, float)) or isinstance(card[key], bool)):
            return f"has a {key} that is not a number"
    return None


def _is_uuid(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return str(uuid.UUID(value)) == value.lower()
    except ValueError:
        return False


def _is_stamp(value: Any) -> bool:
    """A store timestamp naming a real moment (not 2025-13-45T99:99:99); card due dates may lie in the future."""
    if not isinstance(value, str) or not _STAMP.match(value):
        return False
    try:
        datetime.strptime(value, TIMESTAMP_FORMAT)
    except ValueError:
        return False
    return True


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= SQLITE_MAX_INT


def cell_answers(english: tuple[str, ...]) -> set[str]:
    """Return the normalised answers a card of a cell with these English forms may accept: each form, and each
    without its 'will' (a gap after the learner's own 'will')."""
    return {norm(f) for f in english} | {norm(f.removeprefix("will ")) for f in english}


def accepted_of(row: dict[str, Any]) -> list[str]:
    """Return a card row's accepted answers; StoreError when the column is not a JSON list of texts (the file was
    edited by another tool)."""
    try:
        value = json.loads(row["accepted"])
    except (TypeError, ValueError):
        value = None
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise StoreError(f"the practice card {row.get('id')} has a damaged 'accepted' column (not a JSON list of "
                         "answers); was the file edited by another tool? Delete the card's row to rebuild it")
    return value


def _card_out(row: dict[str, Any]) -> dict[str, Any]:
    out = {key: row[key] for key in CARD_KEYS}
    out["accepted"] = accepted_of(row)
    return out


def _card_in(card: dict[str, Any], learner_id: int) -> dict[str, Any]:
    row = {key: card[key] for key in CARD_KEYS}
    row["learner_id"] = learner_id
    row["accepted"] = json.dumps(list(card["accepted"]), ensure_ascii=False)
    return row
