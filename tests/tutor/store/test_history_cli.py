"""`grammar-tutor history`: listing, filters, export, and where --db comes from."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.store import Store

from .conftest import make_result

REPO = Path(__file__).resolve().parents[3]


def _fill(path: Path) -> None:
    with Store.open(path) as store:
        store.save_correction(make_result("She go to school"), learner="Ana")
        store.save_correction(make_result("I eated", verb="eat", tense="past simple", person="1st singular",
                                          correct_form="ate", spanish="comí"), learner="Bo")
        store.save_correction(make_result("Hello there", out_of_scope=True), learner="Ana")


def test_lists_newest_first(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fill(db_path)
    assert main(["history", "--db", str(db_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "learner" in out[0] and "sentence" in out[0]
    assert [line.split()[-1] for line in out[1:4]] == ["there", "eated", "school"]
    assert "-> goes (va)" in out[3] and "out of scope" in out[1]
    assert out[-1].startswith("3 of 3 shown")


def test_learner_and_filters(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fill(db_path)
    assert main(["history", "--db", str(db_path), "--learner", "ana", "--search", "scho"]) == 0
    out = capsys.readouterr().out
    assert "She go to school" in out and "Hello" not in out and "1 of 1 shown" in out
    assert main(["history", "--db", str(db_path), "--verb", "eat"]) == 0
    assert "I eated" in capsys.readouterr().out


def test_unknown_learner_lists_the_known_ones(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fill(db_path)
    assert main(["history", "--db", str(db_path), "--learner", "Zoe"]) == 2
    assert "known learners: Ana, Bo" in capsys.readouterr().err


def test_export_csv_to_stdout(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _fill(db_path)
    assert main(["history", "--db", str(db_path), "--learner", "Ana", "--export", "csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    assert [r["original"] for r in rows] == ["She go to school", "Hello there"]


def test_export_json_to_file_format_from_suffix(db_path: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _fill(db_path)
    out = tmp_path / "all.json"
    assert main(["history", "--db", str(db_path), "--out", str(out)]) == 0
    assert len(json.loads(out.read_text(encoding="utf-8"))["corrections"]) == 3
    assert "wrote 3 corrections" in capsys.readouterr().err
    assert main(["history", "--db", str(db_path), "--out", str(tmp_path / "x.txt")]) == 2
    assert "--export csv or --export json" in capsys.readouterr().err


def test_db_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    sub_db, global_db, env_db = tmp_path / "sub.db", tmp_path / "global.db", tmp_path / "env.db"
    for path in (sub_db, global_db, env_db):  # history reads an existing store only (it creates none)
        Store.open(path).close()
    monkeypatch.setenv("GRAMMAR_TUTOR_DB", str(env_db))
    assert main(["--db", str(global_db), "history", "--db", str(sub_db)]) == 0
    assert str(sub_db) in capsys.readouterr().out
    assert main(["--db", str(global_db), "history"]) == 0
    assert str(global_db) in capsys.readouterr().out
    assert main(["history"]) == 0
    assert str(env_db) in capsys.readouterr().out


def test_corrupt_store_is_a_clean_error(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db_path.write_text("definitely not sqlite")
    assert main(["history", "--db", str(db_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("grammar-tutor: the store") and "left untouched" in err
    assert db_path.read_text() == "definitely not sqlite"


def test_runs_as_a_module(db_path: Path) -> None:
    _fill(db_path)
    command = [sys.executable, "-m", "tutor.cli", "history", "--db", str(db_path), "--export", "json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["corrections"]) == 3


def test_history_reads_a_postgresql_database_named_by_its_url(postgres_store_url: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with Store.open(postgres_store_url) as store:
        store.save_correction(make_result("She go to school"), learner="Ana")
    assert main(["history", "--db", postgres_store_url, "--learner", "Ana", "--search", "scho"]) == 0
    assert "She go to school" in capsys.readouterr().out
