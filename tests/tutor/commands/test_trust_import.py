"""`grammar-tutor import` under attack (issue 19, items 2, 4, 5, 6, 8, 9): through tutor.cli.main on real
SQLite files. A locked store takes files from the teacher only; every row is checked against the store's
schema and the §A13 table; a bundle cannot claim another learner's UUID; one bad file never stops the rest."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tutor.cli import main
from tutor.result import CorrectionResult, Timings
from tutor.store import ENV_VAR, Store
from tutor.store import bundle as bundles
from tutor.store.bundle import make_bundle
from tutor.store.lock import SecretLock

PASSPHRASE = "maestra-2026"


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env" / "from-env.db"))


def _result(sentence: str, *, correct: bool = False) -> CorrectionResult:
    output = {"original": sentence, "verb": "go", "tense": "present simple", "person": "3rd singular",
              "correct_form": "goes", "spanish": "va"}
    return CorrectionResult(original=sentence, output=output, out_of_scope=False, is_correct=correct,
                            confidence=0.9, error_span=None if correct else "go", error_start=None if correct else 3,
                            error_end=None if correct else 5, explanation_en="With he/she/it, add -s.",
                            explanation_es="Con he/she/it se añade -s.",
                            timings=Timings(mask_p50_us=2.0, mask_p99_us=5.0, mask_max_us=9.0, total_ms=300.0))


def _export(tmp_path: Path, learner: str, sentences: list[str]) -> Path:
    """Return a bundle file exported by the CLI from the learner's own store."""
    db, out = tmp_path / f"{learner}.db", tmp_path / f"{learner}.json"
    with Store.open(db) as store:
        store.save_corrections([_result(s) for s in sentences], learner=learner)
    assert main(["history", "--db", str(db), "--learner", learner, "--export", "bundle", "--out", str(out)]) == 0
    return out


def _rewrite(path: Path, out: Path, edit: Callable[[dict[str, Any]], None], *, rehash: bool = True) -> Path:
    """Write an edited copy of a bundle; with `rehash`, its sha256 is recomputed as an attacker would."""
    value = json.loads(path.read_text(encoding="utf-8"))
    edit(value)
    if rehash:
        value["sha256"] = make_bundle(value["learner"], value["corrections"])["sha256"]
    out.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return out


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


@pytest.fixture
def locked(tmp_path: Path) -> Path:
    """Return the teacher's store: Bo's history already imported, then locked with the teacher passphrase."""
    teacher = tmp_path / "teacher.db"
    bo = _export(tmp_path, "Bo", ["He go to school", "She go home", "It go well"])
    assert main(["import", "--db", str(teacher), str(bo)]) == 0
    with Store.open(teacher) as store:
        SecretLock(store).set_teacher(PASSPHRASE)
    return teacher


def _state(db: Path) -> tuple[dict[str, int], int]:
    with Store.open(db) as store:
        return {x["name"]: x["corrections"] for x in store.learners()}, store.count_history()


def test_a_locked_store_imports_nothing_without_the_passphrase_and_names_no_one(
        locked: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = _state(locked)
    ana = _export(tmp_path, "Ana", ["She go to work"])
    mallory = _rewrite(tmp_path / "Bo.json", tmp_path / "mallory.json",
                       lambda b: b["learner"].update(name="Mallory"))
    capsys.readouterr()
    _stdin(monkeypatch, "")
    assert main(["import", "--db", str(locked), str(ana), str(mallory)]) == 2
    captured = capsys.readouterr()
    assert "protected by the teacher passphrase" in captured.err and "nothing was imported" in captured.err
    assert "Bo" not in captured.out + captured.err and "Ana" not in captured.out + captured.err
    _stdin(monkeypatch, "a wrong guess\n")
    assert main(["import", "--db", str(locked), "--passphrase-stdin", str(ana)]) == 2
    assert "not right; nothing was imported" in capsys.readouterr().err
    assert _state(locked) == before  # no learner created, no row added


def test_a_bundle_claiming_another_learners_uuid_is_refused(
        locked: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = _state(locked)
    mallory = _rewrite(tmp_path / "Bo.json", tmp_path / "mallory.json", lambda b: (
        b["learner"].update(name="Mallory"),
        [row.update(id=f"00000000-0000-4000-8000-{n:012d}") for n, row in enumerate(b["corrections"])]))
    _stdin(monkeypatch, PASSPHRASE + "\n")
    assert main(["import", "--db", str(locked), "--passphrase-stdin", str(mallory)]) == 2
    err = capsys.readouterr().err
    assert "says its learner is 'Mallory', but their UUID belongs to another learner here" in err
    assert _state(locked) == before


def test_a_rehashed_edited_bundle_is_refused(
        locked: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def hack(value: dict[str, Any]) -> None:
        row = value["corrections"][0]
        row["id"] = "00000000-0000-4000-8000-000000000001"
        row["correct_form"] = row["output"]["correct_form"] = "HACKED"

    hacked = _rewrite(tmp_path / "Bo.json", tmp_path / "hacked.json", hack)
    before = _state(locked)
    _stdin(monkeypatch, "")
    assert main(["import", "--db", str(locked), str(hacked)]) == 2  # locked: not even read without the passphrase
    _stdin(monkeypatch, PASSPHRASE + "\n")
    assert main(["import", "--db", str(locked), "--passphrase-stdin", str(hacked)]) == 2
    err = capsys.readouterr().err
    assert "correction 1: 'go', 'present simple', '3rd singular' → 'HACKED' / 'va' is not a cell of the §A13" in err
    assert _state(locked) == before


def _edit_row(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(bundle: dict[str, Any]) -> None:
        bundle["corrections"][1][key] = value
    return edit


def _edit_cell(verb: str) -> Callable[[dict[str, Any]], None]:
    def edit(bundle: dict[str, Any]) -> None:
        bundle["corrections"][1]["verb"] = bundle["corrections"][1]["output"]["verb"] = verb
    return edit


@pytest.mark.parametrize(("edit", "message"), [
    (_edit_cell("dranked"), "output is not a §A13 answer"),
    (_edit_row("created", "9999-99-99T00:00:00.000000Z"), "is not a real date and time"),
    (_edit_row("created", "2999-01-01T00:00:00.000000Z"), "lies in the future"),
    (_edit_row("mask_p50_us", "slow"), "mask_p50_us: Input should be a valid number"),
    (_edit_row("total_ms", -5), "total_ms: Input should be greater than or equal to 0"),
    (_edit_row("original", ["She go home"]), "original: Input should be a valid string"),
    (_edit_row("is_correct", 1), "is_correct: Input should be a valid boolean"),
    (_edit_row("error_end", 999), "error span 3..999 is not inside its text"),
    (_edit_row("settings", {"x": [1, 2]}), "is not a plain setting"),
    (_edit_row("kind", "grade"), "kind: Input should be 'correct', 'check' or 'review'"),
    (lambda b: b["learner"].update(name="\u200b\u202e\u200b"), "visible character"),
    (lambda b: b["learner"].update(name="x" * 61), "at most 60"),
    (lambda b: b.update(corrections=b["corrections"] + [b["corrections"][0]]), "repeats the UUID"),
])
def test_rows_are_checked_against_the_store_and_the_table_and_one_bad_file_stops_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Callable[[dict[str, Any]], None],
        message: str) -> None:
    teacher = tmp_path / "teacher.db"
    good_before = _export(tmp_path, "Ana", ["She go to work"])
    bad = _rewrite(_export(tmp_path, "Cy", ["He go out", "She go in", "It go up"]), tmp_path / "bad.json", edit)
    good_after = _export(tmp_path, "Dee", ["He go to bed", "She go to bed"])
    capsys.readouterr()
    assert main(["import", "--db", str(teacher), str(good_before), str(bad), str(good_after)]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and "nothing was imported from it" in captured.err
    assert "total: 3 new, 0 already present, 0 conflicts, 1 files refused" in captured.out
    assert _state(teacher) == ({"Ana": 1, "Dee": 2}, 3)
    with Store.open(teacher) as store:  # the teacher's statistics read what was imported
        assert store.error_counts()["verb"] == {"go": 3}
        assert sum(week["total"] for week in store.progress_by_week()) == 3
        assert store.latency_summary()[0]["corrections"] == 3


def test_upper_case_uuids_are_the_same_learner_and_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    teacher = tmp_path / "teacher.db"
    ana = _export(tmp_path, "Ana", ["She go to work", "He go home"])
    shouting = _rewrite(ana, tmp_path / "ANA.json", lambda b: (
        b["learner"].update(uuid=b["learner"]["uuid"].upper()),
        [row.update(id=row["id"].upper()) for row in b["corrections"]]))
    assert main(["import", "--db", str(teacher), str(ana)]) == 0
    capsys.readouterr()
    assert main(["import", "--db", str(teacher), str(shouting)]) == 0
    assert "0 new, 2 already present, 0 conflicts" in capsys.readouterr().out
    assert _state(teacher) == ({"Ana": 2}, 2)


def test_deeply_nested_and_oversized_files_are_refused_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = tmp_path / "teacher.db"
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000, encoding="utf-8")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    ana = _export(tmp_path, "Ana", ["She go to work"])
    capsys.readouterr()
    assert main(["import", "--db", str(teacher), str(nested), str(folder), str(ana)]) == 2
    captured = capsys.readouterr()
    assert "nests arrays and objects more than 32 levels deep" in captured.err
    assert "is a folder, not a bundle" in captured.err and "Traceback" not in captured.err
    assert "total: 1 new, 0 already present, 0 conflicts, 2 files refused" in captured.out
    monkeypatch.setattr(bundles, "MAX_BUNDLE_BYTES", 1024)
    assert main(["import", "--db", str(teacher), str(_export(tmp_path, "Bea", ["He go out"] * 5))]) == 2
    assert "MB a bundle may have" in capsys.readouterr().err
