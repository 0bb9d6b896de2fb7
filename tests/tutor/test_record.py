"""The correction record: its fields and what the store, the exports and the bundles make of them, on real
SQLite files."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor.errors import StoreError
from tutor.record import (
    BUNDLE_KEYS,
    BY_NAME,
    EXPORTED_KEYS,
    FIELDS,
    HISTORY_KEYS,
    REQUIRED,
    REQUIRED_BUNDLE_KEYS,
    SHOWN,
    STORED_COLUMNS,
)
from tutor.result import CorrectionResult, Timings
from tutor.store import Store, schema
from tutor.store.bundle import import_files, read_bundle, write_bundle
from tutor.text.check import CheckResult, Finding

from .store.conftest import make_result

OLD_BUNDLE = Path(__file__).parent / "store" / "data" / "bundle_written_before_record.json"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "store.db") as opened:
        yield opened


def _checked_text() -> CheckResult:
    text = "I goed home. It was late."
    return CheckResult(text, [(0, 12), (13, 25)], findings=[Finding(
        original="I goed home.", verb="go", tense="past simple", person="1st singular", correct_form="went",
        spanish="fui", start=2, end=6, written="goed", confidence=0.55, explanation_en="en", explanation_es="es",
        sure=False)])


def _reseal(bundle: dict) -> dict:
    """Return the bundle with its sha256 over its (edited) content, as a file from another machine has it."""
    canonical = json.dumps({"learner": bundle["learner"], "corrections": bundle["corrections"]}, sort_keys=True,
                           ensure_ascii=False, separators=(",", ":"))
    return {**bundle, "sha256": hashlib.sha256(canonical.encode("utf-8")).hexdigest()}


def test_every_field_has_one_name_and_a_source_that_holds_it() -> None:
    assert len(BY_NAME) == len(FIELDS) and len(set(STORED_COLUMNS)) == len(FIELDS)
    results = {f.name for f in dataclasses.fields(CorrectionResult)}
    timings = {f.name for f in dataclasses.fields(Timings)}
    for f in FIELDS:
        if f.source == "result":
            assert f.name in results, f"{f.name} is said to come from CorrectionResult, which has no such field"
        if f.source == "timings":
            assert f.name in timings, f"{f.name} is said to come from Timings, which has no such field"
    assert {f.name for f in FIELDS if f.source == "output"} == {"verb", "tense", "person", "correct_form", "spanish"}
    assert set(REQUIRED_BUNDLE_KEYS) <= set(BUNDLE_KEYS) and "learner" not in BUNDLE_KEYS


def test_history_shows_its_fields_left_to_right_with_a_title_in_each_language() -> None:
    assert [f.name for f in SHOWN][:8] == ["learner", "created", "original", "is_correct", "correct_form", "verb",
                                          "tense", "person"]
    assert all(english and spanish and english != spanish for english, spanish in (f.header for f in SHOWN))
    assert len({f.shown for f in SHOWN}) == len(SHOWN)


def test_the_record_and_a_new_store_file_have_the_same_columns(store: Store) -> None:
    db = store._conns.get()
    columns = {row[1]: row[2] for row in db.execute(f"PRAGMA table_info({schema.CORRECTIONS})")}
    columns.pop("seq")
    assert columns == {f.stored_as: f.sql_type for f in FIELDS}


def test_a_saved_correction_reads_back_field_for_field(store: Store) -> None:
    result = dataclasses.replace(make_result(), error_start=4, error_end=6, not_sure=True)
    row_id = store.save_correction(result, learner="Ana")
    (row,) = store.history("Ana")
    assert list(row) == list(HISTORY_KEYS) and row["id"] == row_id and row["learner"] == "Ana"
    for f in FIELDS:
        if f.source == "result":
            assert row[f.name] == getattr(result, f.name), f.name
        elif f.source == "timings":
            assert row[f.name] == getattr(result.timings, f.name), f.name
        elif f.source == "output":
            assert row[f.name] == result.output[f.name], f.name


def test_the_csv_has_a_column_per_exported_field_and_every_flag_as_0_or_1(store: Store, tmp_path: Path) -> None:
    store.save_correction(make_result(), learner="Ana")
    store.save_check(_checked_text(), learner="Ana")
    out = tmp_path / "ana.csv"
    store.export("csv", out, learner="Ana")
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert tuple(rows[0]) == EXPORTED_KEYS
    flags = ["out_of_scope", "is_correct", "not_sure", "noted"]
    assert all(BY_NAME[flag].type is bool for flag in flags)
    assert {r["original"]: [r[k] for k in flags] for r in rows} == {
        "She go to school every day": ["0", "0", "0", "0"], "I goed home.": ["0", "0", "1", "0"]}


def test_a_bundle_row_with_a_field_this_version_does_not_know_is_refused_by_name(tmp_path: Path) -> None:
    with Store.open(tmp_path / "learner.db") as store:
        store.save_correction(make_result(), learner="Ana")
        write_bundle(store, "Ana", tmp_path / "ana.json")
    bundle = json.loads((tmp_path / "ana.json").read_text(encoding="utf-8"))
    bundle["corrections"][0]["judge_ms"] = 12.5  # a field a newer grammar-tutor might add
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(_reseal(bundle)), encoding="utf-8")
    with pytest.raises(StoreError, match=r"correction 1: 'judge_ms' is not a field of a correction"):
        read_bundle(path)
    with Store.open(tmp_path / "teacher.db") as teacher:
        (outcome,) = import_files(teacher, [path])
        assert isinstance(outcome, StoreError) and "update grammar-tutor" in str(outcome)
        assert teacher.count_history() == 0 and teacher.learners() == []


def test_a_bundle_written_before_the_record_imports_whole() -> None:
    bundle = read_bundle(OLD_BUNDLE)
    assert [tuple(row) for row in bundle["corrections"]] == [BUNDLE_KEYS] * 4


def test_rows_from_before_texts_and_notes_import_with_the_defaults(tmp_path: Path) -> None:
    """A bundle from before the store kept texts' findings (schema 6) and notes (schema 9) lacks those fields."""
    later = ["kind", "source_text", "not_sure", "noted"]
    assert all(BY_NAME[name].default is not REQUIRED for name in later)
    old = json.loads(OLD_BUNDLE.read_text(encoding="utf-8"))
    old["corrections"] = [{k: v for k, v in row.items() if k not in later} for row in old["corrections"]
                          if row["kind"] == "correct"]
    path = tmp_path / "older.json"
    path.write_text(json.dumps(_reseal(old)), encoding="utf-8")
    with Store.open(tmp_path / "teacher.db") as teacher:
        (summary,) = import_files(teacher, [path])
        assert summary.new == 3
        rows = teacher.history("Ana")
        assert {(r["kind"], r["source_text"], r["not_sure"], r["noted"]) for r in rows} == {
            ("correct", None, False, False)}
        wrong = [r for r in rows if not r["is_correct"] and not r["out_of_scope"]]
        assert teacher.error_counts()["verb"] == {"go": len(wrong)}


def test_a_bundle_row_missing_a_field_every_row_has_is_refused_by_name(tmp_path: Path) -> None:
    old = json.loads(OLD_BUNDLE.read_text(encoding="utf-8"))
    del old["corrections"][1]["total_ms"]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(_reseal(old)), encoding="utf-8")
    with pytest.raises(StoreError, match="correction 2 lacks total_ms"):
        read_bundle(path)


def test_the_record_and_a_new_postgresql_database_have_the_same_columns(postgres_url: str) -> None:
    import psycopg

    from tutor.store.postgres import migrate

    migrate(postgres_url)
    pg_types = {"INTEGER": "bigint", "REAL": "double precision", "TEXT": "text"}
    with psycopg.connect(postgres_url, connect_timeout=10) as conn:
        columns = dict(conn.execute("SELECT column_name, data_type FROM information_schema.columns"
                                    " WHERE table_name = %s", [schema.CORRECTIONS]).fetchall())
    columns.pop("seq")
    assert columns == {f.stored_as: pg_types[f.sql_type] for f in FIELDS}
