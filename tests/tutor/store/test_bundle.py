"""Learner bundles: export, exactly-once import, learners matched by UUID, conflicts, damaged files."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from tutor.errors import StoreError
from tutor.store import Store, schema
from tutor.store.bundle import check_bundle, import_bundle, import_files, learner_info, read_bundle, write_bundle

from .conftest import make_result


def _two_learner_dbs(tmp_path: Path) -> tuple[Path, Path]:
    ana, bo = tmp_path / "ana.db", tmp_path / "bo.db"
    with Store.open(ana) as store:
        store.save_corrections([make_result("She go to school"), make_result("Hello", out_of_scope=True)],
                               learner="Ana")
    with Store.open(bo) as store:
        store.save_corrections([make_result("He eat rice"), make_result("It go well"),
                                make_result("I goes", is_correct=False)], learner="Bo")
    return ana, bo


def _export(db: Path, learner: str, out: Path) -> Path:
    with Store.open(db) as store:
        write_bundle(store, learner, out)
    return out


def test_learners_get_uuids_also_in_upgraded_files(store: Store) -> None:
    a, b = learner_info(store, store.ensure_learner("Ana")), learner_info(store, store.ensure_learner("Bo"))
    assert a["uuid"] != b["uuid"] and len(a["uuid"]) == 36 and a["uuid"][14] == "4"
    assert schema.LATEST >= 4 and store.schema_version == schema.LATEST


def test_bundle_describes_itself(tmp_path: Path) -> None:
    ana, _ = _two_learner_dbs(tmp_path)
    bundle = json.loads(_export(ana, "ana", tmp_path / "ana.json").read_text(encoding="utf-8"))
    assert bundle["format"] == "grammar-tutor-bundle" and bundle["schema_version"] == schema.LATEST
    assert bundle["app_version"] and bundle["learner"]["name"] == "Ana" and len(bundle["learner"]["uuid"]) == 36
    assert [row["original"] for row in bundle["corrections"]] == ["She go to school", "Hello"]
    assert all(len(row["id"]) == 36 and "learner" not in row for row in bundle["corrections"])


def test_two_learners_imported_twice_arrive_exactly_once(tmp_path: Path, store_target: Path | str) -> None:
    ana, bo = _two_learner_dbs(tmp_path)
    files = [_export(ana, "Ana", tmp_path / "ana.json"), _export(bo, "Bo", tmp_path / "bo.json")]
    with Store.open(store_target) as teacher:  # the teacher's file, or a district's PostgreSQL
        first = list(import_files(teacher, files))
        second = list(import_files(teacher, files))
        assert [(s.new, s.present, s.conflicts) for s in first] == [(2, 0, []), (3, 0, [])]
        assert [(s.new, s.present, s.conflicts) for s in second] == [(0, 2, []), (0, 3, [])]
        assert {x["name"]: x["corrections"] for x in teacher.learners()} == {"Ana": 2, "Bo": 3}
        with Store.open(ana) as source:
            expected = {row["id"]: row for row in source.history()}
        got = {row["id"]: row for row in teacher.history("Ana")}
        assert got == expected  # every field, the UUID included, survives the trip


def test_learner_matched_by_uuid_not_by_name(tmp_path: Path) -> None:
    ana, _ = _two_learner_dbs(tmp_path)
    bundle = read_bundle(_export(ana, "Ana", tmp_path / "ana.json"))
    with Store.open(tmp_path / "teacher.db") as teacher:
        teacher.save_correction(make_result("They go"), learner="ana")  # another pupil, also called Ana
        summary = import_bundle(teacher, bundle)
        assert summary.renamed_from == "Ana" and summary.learner == "Ana (2)" and summary.new == 2
        assert {x["name"]: x["corrections"] for x in teacher.learners()} == {"ana": 1, "Ana (2)": 2}
        assert teacher.find_learner("ANA (2)")["name"] == "Ana (2)"  # found by name like any other learner
        with Store.open(ana) as source:
            source.save_correction(make_result("We go"), learner="Ana")
            later = io.StringIO()
            write_bundle(source, "Ana", later)
        again = import_bundle(teacher, check_bundle(json.loads(later.getvalue()), "later"))
        assert (again.learner, again.new, again.present, again.learner_added) == ("Ana (2)", 1, 2, False)


def test_changed_row_is_a_conflict_and_nothing_is_overwritten(tmp_path: Path) -> None:
    ana, _ = _two_learner_dbs(tmp_path)
    path = _export(ana, "Ana", tmp_path / "ana.json")
    with Store.open(tmp_path / "teacher.db") as teacher:
        import_bundle(teacher, read_bundle(path))
        with sqlite3.connect(ana) as conn:
            conn.execute("UPDATE corrections SET confidence = 0.5 WHERE original = 'She go to school'")
        changed = read_bundle(_export(ana, "Ana", tmp_path / "ana2.json"))
        summary = import_bundle(teacher, changed)
        assert (summary.new, summary.present, len(summary.conflicts)) == (0, 1, 1)
        assert teacher.get(summary.conflicts[0])["confidence"] == 0.87


@pytest.mark.parametrize("damage", ["truncate", "flip", "not_json", "other_json", "bad_uuid"])
def test_damaged_bundle_is_refused_and_imports_nothing(tmp_path: Path, damage: str) -> None:
    ana, _ = _two_learner_dbs(tmp_path)
    path = _export(ana, "Ana", tmp_path / "ana.json")
    text = path.read_text(encoding="utf-8")
    if damage == "truncate":
        text = text[: len(text) // 2]
    elif damage == "flip":
        text = text.replace("She go to school", "She go to schoal")
    elif damage == "not_json":
        text = "\x00\x01 binary"
    elif damage == "other_json":
        text = json.dumps({"format": "grammar-tutor-history", "corrections": []})
    else:
        bundle = json.loads(text)
        bundle["corrections"][0]["id"] = "not-a-uuid"
        text = json.dumps(bundle)
    path.write_text(text, encoding="utf-8")
    with Store.open(tmp_path / "teacher.db") as teacher:
        outcomes = list(import_files(teacher, [path]))
        assert len(outcomes) == 1 and isinstance(outcomes[0], StoreError)
        assert str(path) in str(outcomes[0])
        assert teacher.count_history() == 0 and teacher.learners() == []


def test_findings_of_a_text_travel_in_a_bundle_with_their_text(tmp_path):
    """A text check's finding keeps its kind, its source text and its not-sure flag through export/import."""
    from tutor.store import Store
    from tutor.store.bundle import import_files, write_bundle
    from tutor.text.check import CheckResult, Finding

    text = "I goed home. It was late."
    result = CheckResult(text, [(0, 12), (13, 25)], findings=[Finding(
        "I goed home.", "go", "past simple", "1st singular", "went", "fui", 2, 6, "goed", 0.55, "en", "es",
        sure=False)])
    with Store.open(tmp_path / "learner.db") as store:
        store.save_check(result, learner="Ana")
        bundle = tmp_path / "ana.json"
        write_bundle(store, "Ana", bundle)
    with Store.open(tmp_path / "teacher.db") as teacher:
        list(import_files(teacher, [bundle]))
        (row,) = teacher.history("Ana")
        assert row["kind"] == "check" and row["source_text"] == text and row["not_sure"] is True
        assert teacher.error_counts()["verb"] == {}  # a not-sure finding stays out of the statistics
