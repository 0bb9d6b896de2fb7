"""`grammar-tutor history --export bundle` and `grammar-tutor import FILE…`: summary, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.result import CorrectionResult
from tutor.store import ENV_VAR, Store


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env" / "from-env.db"))


def _result(sentence: str) -> CorrectionResult:
    output = {"original": sentence, "verb": "go", "tense": "present simple", "person": "3rd singular",
              "correct_form": "goes", "spanish": "va"}
    return CorrectionResult(original=sentence, output=output, out_of_scope=False, is_correct=False,
                            confidence=0.9, error_span="go")


def test_export_then_import_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    learner_db, teacher_db, bundle = tmp_path / "l.db", tmp_path / "t.db", tmp_path / "ana.json"
    with Store.open(learner_db) as store:
        store.save_corrections([_result("She go home"), _result("He go out")], learner="Ana")
    assert main(["history", "--db", str(learner_db), "--learner", "ana", "--export", "bundle",
                 "--out", str(bundle)]) == 0
    assert json.loads(bundle.read_text(encoding="utf-8"))["learner"]["name"] == "Ana"
    capsys.readouterr()
    assert main(["import", "--db", str(teacher_db), str(bundle)]) == 0
    assert "2 new, 0 already present, 0 conflicts" in capsys.readouterr().out
    assert main(["import", "--db", str(teacher_db), str(bundle), str(bundle)]) == 0
    out = capsys.readouterr().out
    assert "total: 0 new, 4 already present, 0 conflicts, 0 files refused" in out
    with Store.open(teacher_db) as store:
        assert store.count_history() == 2


def test_damaged_bundle_gives_message_and_nonzero_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    learner_db, teacher_db = tmp_path / "l.db", tmp_path / "t.db"
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    with Store.open(learner_db) as store:
        store.save_correction(_result("She go home"), learner="Ana")
    assert main(["history", "--db", str(learner_db), "--learner", "Ana", "--export", "bundle",
                 "--out", str(good)]) == 0
    bad.write_text(good.read_text(encoding="utf-8")[:-40], encoding="utf-8")
    capsys.readouterr()
    assert main(["import", "--db", str(teacher_db), str(bad), str(good)]) == 2
    captured = capsys.readouterr()
    assert "bad.json is damaged" in captured.err and "send it again" in captured.err
    assert "1 new" in captured.out and "1 files refused" in captured.out  # the good file still arrived


def test_bundle_needs_a_learner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store.open(tmp_path / "x.db").close()
    assert main(["history", "--db", str(tmp_path / "x.db"), "--export", "bundle"]) == 2
    assert "add --learner NAME" in capsys.readouterr().err
