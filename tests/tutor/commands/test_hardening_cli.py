"""Issue 13 through the real CLI (tutor.cli.main or a subprocess) on real SQLite files: safe CSV, the
teacher's lock, names, bounded --limit, missing databases, closed pipes and invalid UTF-8 in argv."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tutor.cli import main
from tutor.result import CorrectionResult, Timings
from tutor.store import Store
from tutor.store.lock import SecretLock, Throttled, delay_after

REPO = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "tutor.cli"]
PASSPHRASE = "maestra-2026"


def result(original: str) -> CorrectionResult:
    """Return a correction as the engine builds it (go → goes)."""
    return CorrectionResult(
        original=original,
        output={"original": original, "verb": "go", "tense": "present simple", "person": "3rd singular",
                "correct_form": "goes", "spanish": "va"},
        out_of_scope=False, is_correct=False, confidence=0.9, error_span="go",
        explanation_en="With he/she/it, add -s.", explanation_es="Con he/she/it se añade -s.",
        timings=Timings(prompt_ms=1.0, forward_ms=1.0, mask_p50_us=1.0, mask_p99_us=1.0, mask_max_us=1.0,
                        tokens_sampled=1, tokens_forced=1, total_ms=2.0),
        model_name="smollm2-135m", model_sha256="ab" * 32, settings={},
    )


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Return a store with two learners (one named like a formula) and a few corrections."""
    monkeypatch.setenv("GRAMMAR_TUTOR_DB", str(tmp_path / "env" / "never.db"))
    path = tmp_path / "class.db"
    with Store.open(path) as store:
        store.save_correction(result("=1+1 she go home"), learner="=HYPERLINK(\"http://x\",\"Ana\")")
        store.save_correction(result("+she go"), learner="Ben")
        store.save_correction(result("-she go"), learner="Ben")
        store.save_correction(result("@SUM she go"), learner="Ben")
        store.save_correction(result("\tshe go"), learner="Ben")
        store.save_correction(result("She go to school"), learner="ángel")
    return path


def feed_stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Make sys.stdin a pipe-like stream (not a terminal) holding `text`."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def test_csv_export_neutralises_formulas(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--db", str(db), "--export", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    by_sentence = {row["original"]: row for row in rows}
    assert set(by_sentence) == {"'=1+1 she go home", "'+she go", "'-she go", "'@SUM she go", "'\tshe go",
                                "She go to school"}
    assert by_sentence["'=1+1 she go home"]["learner"] == "'=HYPERLINK(\"http://x\",\"Ana\")"
    assert all(not value.startswith(("=", "+", "-", "@", "\t")) for row in rows for value in row.values())
    assert by_sentence["She go to school"]["confidence"] == "0.9"  # numbers untouched


def test_teacher_passphrase_guards_history_and_every_export(db: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    feed_stdin(monkeypatch, PASSPHRASE + "\n")
    assert main(["teacher", "--db", str(db), "set-passphrase"]) == 0
    assert "teacher passphrase set" in capsys.readouterr().err
    with Store.open(db) as store:
        stored = store._conns.get().execute("SELECT hash FROM secrets WHERE subject = 'teacher'").fetchone()[0]
    assert stored.startswith("scrypt$17$8$1$") and PASSPHRASE not in stored  # N = 2^17, in the database

    feed_stdin(monkeypatch, "")
    for command in (["history"], ["history", "--export", "csv"], ["history", "--export", "json"],
                    ["history", "--learner", "Ben", "--export", "bundle"]):
        assert main([*command, "--db", str(db)]) == 2
        err = capsys.readouterr()
        assert "protected by the teacher passphrase" in err.err and "--passphrase-stdin" in err.err
        assert "Ben" not in err.out and "she go" not in err.out

    feed_stdin(monkeypatch, "wrong guess\n")
    assert main(["history", "--db", str(db), "--export", "csv", "--passphrase-stdin"]) == 2
    assert "not right" in capsys.readouterr().err

    feed_stdin(monkeypatch, PASSPHRASE + "\n")
    assert main(["history", "--db", str(db), "--export", "csv", "--passphrase-stdin"]) == 0
    assert len(list(csv.DictReader(io.StringIO(capsys.readouterr().out)))) == 6

    feed_stdin(monkeypatch, "not the current one\nsomething-new-1\n")  # changing needs the current one
    assert main(["teacher", "--db", str(db), "set-passphrase"]) == 2
    assert "current teacher passphrase is not right" in capsys.readouterr().err
    feed_stdin(monkeypatch, PASSPHRASE + "\nsomething-new-1\n")
    assert main(["teacher", "--db", str(db), "set-passphrase"]) == 0
    assert main(["teacher", "--db", str(db), "status"]) == 0
    assert ": set" in capsys.readouterr().out


def test_short_passphrase_is_refused(db: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    feed_stdin(monkeypatch, "1234\n")
    assert main(["teacher", "--db", str(db), "set-passphrase"]) == 2
    assert "at least 8 characters" in capsys.readouterr().err
    with Store.open(db) as store:
        assert not SecretLock(store).teacher_set()


def test_wrong_attempts_are_throttled_across_processes(db: Path) -> None:
    with Store.open(db) as store:
        lock = SecretLock(store)
        lock.set_teacher(PASSPHRASE)
        for _ in range(3):
            assert not lock.check_teacher("nope nope")
        with pytest.raises(Throttled):  # the 3rd wrong try started a 1 s wait
            lock.check_teacher(PASSPHRASE)
        # Later wrong tries wait longer (2, 4 … 900 s); stand in for a few more so that the wait
        # outlasts starting a process, then check it holds in another process.
        with store._conns.write("test") as conn:
            conn.execute("UPDATE secrets SET failures = 9, next_try = ? WHERE subject = 'teacher'",
                         [time.time() + delay_after(9)])
    assert delay_after(3) == 1.0 and delay_after(9) == 64.0 and delay_after(30) == 900.0
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([*CLI, "history", "--db", str(db), "--passphrase-stdin"], input=PASSPHRASE + "\n",
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert done.returncode == 2 and "too many wrong passphrase attempts; try again in" in done.stderr
    assert "Traceback" not in done.stderr


def test_learner_names_are_cleaned_capped_and_folded(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store.open(db) as store:
        lid = store.ensure_learner("\x1b[31mEve\u202e\u200b\nSmith <b>")
        assert store.find_learner(lid)["name"] == "[31mEve Smith <b>"
        assert store.ensure_learner("ÁNGEL") == store.ensure_learner("ángel")  # one learner, Unicode case
        assert store.find_learner("ÁNGEL")["name"] == "ángel"
        assert store.ensure_learner("go\u200bes") == store.ensure_learner("goes")
        with pytest.raises(Exception, match="at most 60"):
            store.ensure_learner("x" * 10_000)
        with pytest.raises(Exception, match="visible character"):
            store.ensure_learner("\u200b\x1b")
    assert main(["history", "--db", str(db), "--learner", "ÁNGEL"]) == 0
    assert "She go to school" in capsys.readouterr().out


def test_old_learners_get_a_folded_key_when_the_file_is_upgraded(tmp_path: Path) -> None:
    from tutor.store import schema

    path = tmp_path / "v4.db"
    import sqlite_utils

    db = sqlite_utils.Database(path)
    for version in range(1, 5):
        schema.apply(db, version)
    db.execute("INSERT INTO learners (name, created) VALUES ('Ángel', '2025-01-01T00:00:00Z')")
    db.conn.commit()
    db.close()
    with Store.open(path) as store:
        assert store.schema_version == schema.LATEST
        assert store.find_learner("ÁNGEL")["name"] == "Ángel"


@pytest.mark.parametrize("value", ["-5", "0", "99999999999999999999", "many"])
def test_limit_must_be_a_sane_count(db: Path, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["history", "--db", str(db), "--limit", value])
    assert info.value.code == 2
    assert "from 1 to 10,000" in capsys.readouterr().err


def test_history_on_a_missing_file_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no" / "such" / "folder" / "x.db"
    assert main(["history", "--db", str(target)]) == 2
    assert "there is no history database at" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


def test_history_into_a_closed_pipe_exits_quietly(db: Path, kill_after) -> None:
    with Store.open(db) as store:
        store.save_corrections([result(f"she go {i}") for i in range(3000)], learner="Ben")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen([*CLI, "history", "--db", str(db), "--export", "csv"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=REPO, env=env)
    kill_after(proc, 120)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"id,learner")  # `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_invalid_utf8_in_argv_is_reported_as_such(tmp_path: Path) -> None:
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(tmp_path / "x.db")}
    done = subprocess.run([*CLI, "correct", b"He goed \xff\xfe home"], capture_output=True, cwd=REPO, env=env,
                          timeout=120)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and "argument 2 is not valid UTF-8 text (bad bytes b'\\xff\\xfe')" in err
    assert "control character" not in err and "Traceback" not in err
