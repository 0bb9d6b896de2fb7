"""The store's schema as versioned migrations, each applied in one transaction through sqlite-utils.

A file records every migration applied to it in `schema_version`. Opening a file written by an
older version applies the missing migrations in order; rows are never dropped. Add a migration by
appending a function to MIGRATIONS; never edit one that has shipped.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import sqlite_utils

LEARNERS = "learners"
CORRECTIONS = "corrections"
MASK_TIMINGS = "mask_timings"
OUTBOX = "outbox"
SECRETS = "secrets"
CARDS = "cards"
CARD_REVIEWS = "card_reviews"
CARD_SOURCES = "card_sources"
VERSION_TABLE = "schema_version"
# The Monday (UTC) of a correction's week. Indexed as an expression, so queries must use this exact text.
WEEK_SQL = "date(substr(created, 1, 10), '-6 days', 'weekday 1')"
# Corrections whose time is the model's: a text's findings share out one check's time, and an answer given
# without the model (a verb outside the 20) took no model time. A partial index holds exactly these rows, so
# queries must use this exact text (and bound total_ms themselves: a second bound here would be the one
# SQLite's range scan takes).
TIMED_SQL = "kind != 'check' AND tokens_sampled + tokens_forced > 0"


def _v1_base(db: sqlite_utils.Database) -> None:
    """Learners and corrections (with their latency), and the indexes the history queries use."""
    db[VERSION_TABLE].create({"version": int, "applied": str}, pk="version")
    db[LEARNERS].create(
        {"id": int, "name": str, "created": str},
        pk="id",
        not_null={"name", "created"},
    )
    # NOCASE: "Ana" and "ana" are one learner.
    db.execute(f"CREATE UNIQUE INDEX idx_{LEARNERS}_name ON {LEARNERS}(name COLLATE NOCASE)")
    # `seq` is the rowid (stable across VACUUM, which the FTS index relies on); `id` is the UUID.
    db[CORRECTIONS].create(
        {
            "seq": int,
            "id": str,
            "learner_id": int,
            "created": str,
            "original": str,
            "verb": str,
            "tense": str,
            "person": str,
            "correct_form": str,
            "spanish": str,
            "out_of_scope": int,
            "is_correct": int,
            "confidence": float,
            "error_span": str,
            "error_start": int,
            "error_end": int,
            "explanation_en": str,
            "explanation_es": str,
            "model_name": str,
            "model_sha256": str,
            "settings": str,
            "output_json": str,
            "prompt_ms": float,
            "forward_ms": float,
            "mask_p50_us": float,
            "mask_p99_us": float,
            "mask_max_us": float,
            "tokens_sampled": int,
            "tokens_forced": int,
            "total_ms": float,
        },
        pk="seq",
        foreign_keys=[("learner_id", LEARNERS, "id")],
        not_null={"id", "learner_id", "created", "original", "out_of_scope", "is_correct", "output_json"},
        defaults={"model_name": "", "model_sha256": "", "settings": "{}"},
    )
    table = db[CORRECTIONS]
    table.create_index(["id"], index_name="idx_corrections_id", unique=True)
    # History pages, newest first, for everyone or one learner: covering the filter columns, so a
    # filtered or deep page walks only the index; `seq` keeps (created, seq) order without a sort.
    page_columns = ["created", "seq", "verb", "tense", "person", "is_correct", "out_of_scope"]
    table.create_index(page_columns, index_name="idx_corrections_created")
    table.create_index(["learner_id", *page_columns], index_name="idx_corrections_learner_created")
    # Statistics read these covering indexes in order (per learner, summed over learners in Python).
    table.create_index(["learner_id", "verb", "tense", "person", "is_correct", "out_of_scope"],
                       index_name="idx_corrections_learner_cell")
    db.execute(
        f"CREATE INDEX idx_corrections_learner_week ON {CORRECTIONS}"
        f" (learner_id, {WEEK_SQL}, is_correct, out_of_scope)"
    )
    # Latency percentiles are an OFFSET into these, not a sort.
    for column in ("mask_p50_us", "mask_p99_us", "mask_max_us"):
        table.create_index(["model_name", column], index_name=f"idx_corrections_model_{column}")


def _v2_search(db: sqlite_utils.Database) -> None:
    """FTS5 index over the learner's sentence, kept in step by triggers (existing rows are indexed)."""
    db[CORRECTIONS].enable_fts(["original"], create_triggers=True, tokenize="unicode61 remove_diacritics 2")


def _v3_mask_timings(db: sqlite_utils.Database) -> None:
    """Optional per-token mask timings: one float32 little-endian blob per correction."""
    db[MASK_TIMINGS].create(
        {"correction_seq": int, "count": int, "us_f32": bytes},
        pk="correction_seq",
        foreign_keys=[("correction_seq", CORRECTIONS, "seq")],
        not_null={"count", "us_f32"},
    )


# A version-4 UUID made by SQLite itself, so a learner added by any code path gets one.
_SQL_UUID4 = (
    "lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||"
    " substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||"
    " substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))"
)


def _v4_class(db: sqlite_utils.Database) -> None:
    """Learner UUIDs (bundles and the class server match learners by them) and the class-server outbox."""
    db.execute(f"ALTER TABLE {LEARNERS} ADD COLUMN uuid TEXT")
    db.execute(f"UPDATE {LEARNERS} SET uuid = {_SQL_UUID4} WHERE uuid IS NULL")
    db.execute(f"CREATE UNIQUE INDEX idx_{LEARNERS}_uuid ON {LEARNERS}(uuid)")
    db.execute(
        f"CREATE TRIGGER {LEARNERS}_uuid AFTER INSERT ON {LEARNERS} FOR EACH ROW WHEN NEW.uuid IS NULL"
        f" BEGIN UPDATE {LEARNERS} SET uuid = {_SQL_UUID4} WHERE id = NEW.id; END"
    )
    # Corrections made offline while a class server was chosen, waiting to be uploaded (by row UUID).
    db[OUTBOX].create({"correction_id": str, "queued": str}, pk="correction_id", not_null={"queued"})


def _v5_lock(db: sqlite_utils.Database) -> None:
    """The teacher passphrase and learner PINs as scrypt hashes with their wrong-attempt throttle, and
    learners' `name_key` (NFC + case folding) so that lookups match the way names are created."""
    from tutor.store.names import name_key

    db[SECRETS].create(
        {"subject": str, "hash": str, "failures": int, "next_try": float, "updated": str},
        pk="subject",
        not_null={"hash", "failures", "next_try"},
        defaults={"failures": 0, "next_try": 0.0},
    )
    db.execute(f"ALTER TABLE {LEARNERS} ADD COLUMN name_key TEXT")
    for lid, name in db.execute(f"SELECT id, name FROM {LEARNERS}").fetchall():
        db.execute(f"UPDATE {LEARNERS} SET name_key = ? WHERE id = ?", [name_key(name), lid])
    # Not unique: two old names may fold together ("Ángel", "ángel"); lookups take the oldest.
    db.execute(f"CREATE INDEX idx_{LEARNERS}_name_key ON {LEARNERS}(name_key, id)")


def _v6_texts(db: sqlite_utils.Database) -> None:
    """Findings of whole texts: the text each came from, whether it was a practice retry ('review', kept
    out of the teacher's statistics) and whether the judge was not sure (left out of error counts)."""
    db.execute(f"ALTER TABLE {CORRECTIONS} ADD COLUMN kind TEXT NOT NULL DEFAULT 'correct'")
    db.execute(f"ALTER TABLE {CORRECTIONS} ADD COLUMN source_text TEXT")
    db.execute(f"ALTER TABLE {CORRECTIONS} ADD COLUMN not_sure INTEGER NOT NULL DEFAULT 0")


def _v7_practice(db: sqlite_utils.Database) -> None:
    """Practice cards built from the learner's mistakes, their FSRS schedule, every answer, and which
    corrections have been turned into cards (tutor/practice)."""
    # `id` is a UUID derived from the learner and the card's text, so building twice, or on two machines,
    # gives the same card; bundles and the class server match cards and answers by UUID.
    db[CARDS].create(
        {
            "seq": int, "id": str, "learner_id": int, "created": str, "source_id": str, "origin": str,
            "verb": str, "tense": str, "person": str, "before": str, "after": str, "hint": str,
            "hint_kind": str, "answer": str, "accepted": str, "explanation_en": str, "explanation_es": str,
            "error_type": str,
            # the FSRS memory state (fsrs.Card), times in the store's UTC text format
            "state": int, "step": int, "stability": float, "difficulty": float, "due": str,
            "last_review": str, "reps": int, "lapses": int,
        },
        pk="seq",
        foreign_keys=[("learner_id", LEARNERS, "id")],
        not_null={"id", "learner_id", "created", "origin", "verb", "tense", "person", "before", "after", "hint",
                  "answer", "accepted", "state", "due", "reps", "lapses"},
        defaults={"reps": 0, "lapses": 0, "explanation_en": "", "explanation_es": "", "hint_kind": "base"},
    )
    db[CARDS].create_index(["id"], index_name="idx_cards_id", unique=True)
    db[CARDS].create_index(["learner_id", "due"], index_name="idx_cards_learner_due")
    db[CARDS].create_index(["learner_id", "verb", "tense", "person"], index_name="idx_cards_learner_cell")
    db[CARD_REVIEWS].create(
        {"seq": int, "id": str, "card_id": str, "learner_id": int, "reviewed": str, "given": str,
         "correct": int, "rating": int},
        pk="seq",
        foreign_keys=[("learner_id", LEARNERS, "id"), ("card_id", CARDS, "id")],
        not_null={"id", "card_id", "learner_id", "reviewed", "given", "correct", "rating"},
    )
    db[CARD_REVIEWS].create_index(["id"], index_name="idx_card_reviews_id", unique=True)
    db[CARD_REVIEWS].create_index(["card_id", "reviewed"], index_name="idx_card_reviews_card")
    db[CARD_REVIEWS].create_index(["learner_id", "reviewed"], index_name="idx_card_reviews_learner")
    # One row per correction already turned into cards (none when its gap could not be found), so
    # building new cards reads only the corrections made since.
    db[CARD_SOURCES].create(
        {"correction_id": str, "learner_id": int, "built": str, "cards": int},
        pk="correction_id",
        foreign_keys=[("learner_id", LEARNERS, "id")],
        not_null={"learner_id", "built", "cards"},
    )


def _v8_time_per_correction(db: sqlite_utils.Database) -> None:
    """The time per correction for the Latency tab: a partial index of the timed rows by model and total ms,
    so its percentiles are an OFFSET and its histogram range counts, not a scan of every row."""
    db.execute(f"CREATE INDEX idx_corrections_model_total_ms ON {CORRECTIONS} (model_name, total_ms)"
               f" WHERE {TIMED_SQL}")


def _v9_noted(db: sqlite_utils.Database) -> None:
    """Whether the learner was shown a note (a pattern §A13 does not label) instead of the answer: such a
    sentence is neither correct nor a mistake to practise, and stays out of the statistics."""
    db.execute(f"ALTER TABLE {CORRECTIONS} ADD COLUMN noted INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: tuple[Callable[[sqlite_utils.Database], None], ...] = (
    _v1_base, _v2_search, _v3_mask_timings, _v4_class, _v5_lock, _v6_texts, _v7_practice, _v8_time_per_correction,
    _v9_noted,
)
LATEST = len(MIGRATIONS)


def current_version(db: sqlite_utils.Database) -> int:
    """Return the highest migration applied to this file (0 for an empty file)."""
    if not db[VERSION_TABLE].exists():
        return 0
    row = db.execute(f"SELECT MAX(version) FROM {VERSION_TABLE}").fetchone()
    return int(row[0] or 0)


def apply(db: sqlite_utils.Database, version: int) -> None:
    """Apply migration `version` (1-based) and record it; the caller holds the write transaction."""
    MIGRATIONS[version - 1](db)
    db[VERSION_TABLE].insert({"version": version, "applied": datetime.now(UTC).isoformat()})
