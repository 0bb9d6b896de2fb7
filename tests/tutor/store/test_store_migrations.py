"""Versioned migrations: a file written by an older version upgrades in place and keeps every row."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import sqlite_utils

from tutor.store import Store, schema

from .conftest import make_result

# The schema exactly as version 1 wrote it (copied from a v1 file; do not regenerate from schema.py).
V1_SQL = """
CREATE TABLE "schema_version" ("version" INTEGER PRIMARY KEY, "applied" TEXT);
CREATE TABLE "learners" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "created" TEXT NOT NULL);
CREATE UNIQUE INDEX idx_learners_name ON learners(name COLLATE NOCASE);
CREATE TABLE "corrections" (
   "seq" INTEGER PRIMARY KEY, "id" TEXT NOT NULL, "learner_id" INTEGER NOT NULL REFERENCES "learners"("id"),
   "created" TEXT NOT NULL, "original" TEXT NOT NULL, "verb" TEXT, "tense" TEXT, "person" TEXT,
   "correct_form" TEXT, "spanish" TEXT, "out_of_scope" INTEGER NOT NULL, "is_correct" INTEGER NOT NULL,
   "confidence" REAL, "error_span" TEXT, "error_start" INTEGER, "error_end" INTEGER, "explanation_en" TEXT,
   "explanation_es" TEXT, "model_name" TEXT DEFAULT '', "model_sha256" TEXT DEFAULT '',
   "settings" TEXT DEFAULT '{}', "output_json" TEXT NOT NULL, "prompt_ms" REAL, "forward_ms" REAL,
   "mask_p50_us" REAL, "mask_p99_us" REAL, "mask_max_us" REAL, "tokens_sampled" INTEGER,
   "tokens_forced" INTEGER, "total_ms" REAL
);
CREATE UNIQUE INDEX "idx_corrections_id" ON "corrections" ("id");
CREATE INDEX "idx_corrections_created"
    ON "corrections" ("created", "seq", "verb", "tense", "person", "is_correct", "out_of_scope");
CREATE INDEX "idx_corrections_learner_created"
    ON "corrections" ("learner_id", "created", "seq", "verb", "tense", "person", "is_correct", "out_of_scope");
CREATE INDEX "idx_corrections_learner_cell"
    ON "corrections" ("learner_id", "verb", "tense", "person", "is_correct", "out_of_scope");
CREATE INDEX idx_corrections_learner_week
    ON corrections (learner_id, date(substr(created, 1, 10), '-6 days', 'weekday 1'),
                    is_correct, out_of_scope);
CREATE INDEX "idx_corrections_model_mask_p50_us" ON "corrections" ("model_name", "mask_p50_us");
CREATE INDEX "idx_corrections_model_mask_p99_us" ON "corrections" ("model_name", "mask_p99_us");
CREATE INDEX "idx_corrections_model_mask_max_us" ON "corrections" ("model_name", "mask_max_us");
INSERT INTO schema_version VALUES (1, '2025-01-01T00:00:00+00:00');
"""


def _insert_old_rows(conn: sqlite3.Connection, n: int) -> list[str]:
    """Insert n corrections the way an old version would (plain SQL, v1 columns only); return their ids."""
    conn.execute("INSERT INTO learners (name, created) VALUES ('Ana', '2025-01-01T00:00:00.000000Z')")
    ids = []
    for i in range(n):
        uid = f"00000000-0000-4000-8000-{i:012d}"
        output = {"original": f"She go to school {i}", "verb": "go", "tense": "present simple",
                  "person": "3rd singular", "correct_form": "goes", "spanish": "va"}
        conn.execute(
            "INSERT INTO corrections (id, learner_id, created, original, verb, tense, person, correct_form,"
            " spanish, out_of_scope, is_correct, output_json, mask_p50_us, tokens_sampled)"
            " VALUES (?, 1, ?, ?, 'go', 'present simple', '3rd singular', 'goes', 'va', 0, 0, ?, 2.5, 3)",
            [uid, f"2025-01-{1 + i % 28:02d}T10:00:00.000000Z", output["original"], json.dumps(output)],
        )
        ids.append(uid)
    return ids


def test_v1_file_written_by_hand_upgrades_and_keeps_every_row(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.executescript(V1_SQL)
        ids = _insert_old_rows(conn, 40)
    with Store.open(db_path) as store:
        assert store.schema_version == schema.LATEST
        assert store.count_history() == 40
        assert {row["id"] for row in store.history(limit=100)} == set(ids)
        assert store.count_history(search="school") == 40  # old rows were indexed for search
        assert [r["original"] for r in store.history(search="17")] == ["She go to school 17"]
        assert store.error_counts()["verb"] == {"go": 40}
        uid = store.save_correction(make_result(mask_us=(1.0, 2.0)), learner="ana")
        assert store.get(uid)["mask_us"] == [1.0, 2.0]
        assert store.find_learner("Ana")["id"] == 1
        assert store.integrity_check() == ["ok"]
    with sqlite3.connect(db_path) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, schema.LATEST + 1))


@pytest.mark.parametrize("version", range(1, schema.LATEST))
def test_every_older_version_upgrades_in_place(db_path: Path, version: int) -> None:
    db = sqlite_utils.Database(sqlite3.connect(db_path, isolation_level=None))
    for step in range(1, version + 1):
        schema.apply(db, step)
    ids = _insert_old_rows(db.conn, 10)
    db.conn.close()
    with Store.open(db_path) as store:
        assert store.schema_version == schema.LATEST
        assert sorted(r["id"] for r in store.history()) == ids
        assert store.count_history(search="school") == 10


def test_v1_sql_here_matches_the_v1_migration(tmp_path: Path) -> None:
    """Guards the fixture: the hand-written v1 file has migration 1's tables, columns and indexes."""

    def shape(conn: sqlite3.Connection) -> set[tuple[str, str]]:
        names = conn.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchall()
        columns = {(t, f"{t}.{c[1]}:{c[2]}") for (_, t) in names if _ == "table"
                   for c in conn.execute(f"PRAGMA table_info({t})")}
        return set(names) | columns

    by_hand = sqlite3.connect(tmp_path / "hand.db")
    by_hand.executescript(V1_SQL)
    migrated = sqlite_utils.Database(sqlite3.connect(tmp_path / "mig.db", isolation_level=None))
    schema.apply(migrated, 1)
    assert shape(by_hand) == shape(migrated.conn)
