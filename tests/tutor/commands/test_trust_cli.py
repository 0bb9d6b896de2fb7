"""The CLI under bad input (issue 19, items 3, 9, 14, 15), in subprocesses with the real model and real SQLite
files: nested JSON lines get an error and the stream goes on, a store that will not open never hides the
correction, `check` refuses text without letters and keeps CRLF offsets, and wrong passphrases sent at once
are throttled and every one counted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tutor.store import Store
from tutor.store.lock import SecretLock

REPO = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "tutor.cli"]
PASSPHRASE = "maestra-2026"


def run(args: list[str], *, stdin: bytes | None = None, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(tmp_path / "env" / "default.db")}
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, env=env, cwd=REPO, timeout=600)


@pytest.mark.model
@pytest.mark.parametrize(("command", "key"), [("correct", "original"), ("check", "text")])
def test_a_nested_json_line_gets_an_error_and_the_stream_goes_on(tmp_path: Path, command: str, key: str) -> None:
    lines = [json.dumps({"id": "first", key: "He goed to school."}).encode(), b"[" * 100_000,
             b'{"id": "deep", "' + key.encode() + b'": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}",
             json.dumps({"id": "last", key: "She goed home."}).encode()]
    done = run([command, "--jsonl", "--db", str(tmp_path / "s.db")], stdin=b"\n".join(lines) + b"\n",
               tmp_path=tmp_path)
    err = done.stderr.decode("utf-8")
    assert "Traceback" not in err and "RecursionError" not in err
    rows = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [row["id"] for row in rows] == ["first", 2, 3, "last"]
    assert "nests arrays and objects more than 32 levels deep" in rows[1]["error"]
    assert "more than 32 levels deep" in rows[2]["error"]
    assert "error" not in rows[0] and "error" not in rows[3]
    assert done.returncode == 1


def _corrupt(path: Path) -> Path:
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(8000))
    return path


@pytest.mark.model
def test_correct_on_a_corrupt_store_prints_the_correction(tmp_path: Path) -> None:
    db = _corrupt(tmp_path / "corrupt.db")
    before = db.read_bytes()
    done = run(["correct", "He goed to school.", "--db", str(db)], tmp_path=tmp_path)
    assert json.loads(done.stdout)["correct_form"] == "went"
    err = done.stderr.decode("utf-8")
    assert "the correction was not saved" in err and "left untouched" in err and "Traceback" not in err
    assert done.returncode == 1 and db.read_bytes() == before

    done = run(["correct", "--jsonl", "--db", str(db)], stdin=b'"He goed home."\n"She go to school."\n',
               tmp_path=tmp_path)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["output"]["correct_form"] for row in rows] == ["went", "goes"]
    assert all("left untouched" in row["save_error"] for row in rows)
    assert done.stderr.decode("utf-8").count("no correction will be saved") == 1  # said once, not per line

    done = run(["check", "Yesterday I go to the beach.", "--db", str(tmp_path)], tmp_path=tmp_path)  # a folder
    assert "went" in {f["correct_form"] for f in json.loads(done.stdout)["findings"]}
    assert b"is a folder" in done.stderr and done.returncode == 1


@pytest.mark.model
@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes read-only files anyway")
def test_correct_on_a_read_only_store_prints_the_correction(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    with Store.open(folder / "s.db") as store:
        store.ensure_learner("Ana")
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)
    try:
        done = run(["correct", "He goed to school.", "--db", str(folder / "s.db")], tmp_path=tmp_path)
    finally:
        folder.chmod(0o755)
    assert json.loads(done.stdout)["correct_form"] == "went"
    assert b"not saved" in done.stderr and done.returncode == 1


def test_check_refuses_text_without_letters_and_a_folder(tmp_path: Path) -> None:
    done = run(["check", "1234567890 42", "--no-save"], tmp_path=tmp_path)
    assert done.returncode == 2 and b"the text has no words" in done.stderr
    done = run(["check", "--file", str(tmp_path), "--no-save"], tmp_path=tmp_path)
    assert done.returncode == 2 and b"is a folder; give the path of a text file" in done.stderr
    done = run(["check", "--file", str(tmp_path / "missing.txt"), "--no-save"], tmp_path=tmp_path)
    assert done.returncode == 2 and b"no such file" in done.stderr


@pytest.mark.model
def test_offsets_of_a_crlf_file_point_into_the_file(tmp_path: Path) -> None:
    text = "Yesterday I go to the beach.\r\nShe have went home.\r\n"
    path = tmp_path / "crlf.txt"
    path.write_bytes(text.encode("utf-8"))
    done = run(["check", "--file", str(path), "--no-save"], tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    findings = json.loads(done.stdout)["findings"]
    assert {f["correct_form"] for f in findings} >= {"went", "gone"}
    assert all(text[f["start"]:f["end"]] == f["written"] for f in findings)
    assert any(f["start"] > text.index("\r\n") for f in findings)  # past a line break, still exact


def test_wrong_passphrases_sent_at_once_are_throttled_and_every_one_counted(tmp_path: Path, kill_after) -> None:
    db = tmp_path / "locked.db"
    with Store.open(db) as store:
        SecretLock(store).set_teacher(PASSPHRASE)
        store.ensure_learner("Ana")
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(db)}
    procs = [subprocess.Popen([*CLI, "history", "--db", str(db), "--passphrase-stdin"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=env) for _ in range(5)]
    for proc in procs:
        kill_after(proc, 600)
    time.sleep(3)  # let each process reach the passphrase prompt, then answer all five at once
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"a wrong guess\n")
        proc.stdin.flush()
    errors = [proc.communicate(timeout=300)[1].decode("utf-8") for proc in procs]
    wrong = sum("passphrase is not right" in e for e in errors)
    throttled = sum("too many wrong passphrase attempts" in e for e in errors)
    assert wrong + throttled == 5 and throttled >= 1, errors
    assert all(proc.returncode == 2 for proc in procs) and not any("Traceback" in e for e in errors)
    with Store.open(db) as store:
        failures = store._conns.get().execute("SELECT failures FROM secrets WHERE subject = 'teacher'").fetchone()[0]
    assert failures == wrong  # every attempt that was checked was counted: none lost


def test_eval_names_a_nested_line_instead_of_a_traceback(tmp_path: Path) -> None:
    data = tmp_path / "set.jsonl"
    data.write_bytes(b'{"id": 1, "original": "He go home."}\n' + b"[" * 100_000 + b"\n")
    done = run(["eval", str(data)], tmp_path=tmp_path)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and "is not JSON Lines (line 2: it nests arrays and objects more than 32" in err
    assert "Traceback" not in err


@pytest.mark.model
def test_a_learner_with_a_pin_is_written_to_only_with_it(tmp_path: Path) -> None:
    """`correct` and `check` under a PIN-protected learner save only with the PIN (`--pin-stdin`, or a prompt on a
    terminal); without it the correction is still printed, nothing is saved, and the exit code says so."""
    db = tmp_path / "pin.db"
    with Store.open(db) as store:
        store.ensure_learner("Bo")
        SecretLock(store).set_pin("Bo", "246810")

    def saved() -> int:
        with Store.open(db) as store:
            return len(store.history("Bo"))

    done = run(["correct", "He goed to school.", "--learner", "Bo", "--db", str(db)], stdin=b"", tmp_path=tmp_path)
    assert json.loads(done.stdout)["correct_form"] == "went"
    assert done.returncode == 1 and "Bo's profile has a PIN" in done.stderr.decode() and saved() == 0
    done = run(["correct", "He goed to school.", "--learner", "Bo", "--db", str(db), "--pin-stdin"],
               stdin=b"111111\n", tmp_path=tmp_path)
    assert done.returncode == 1 and "not Bo's PIN" in done.stderr.decode() and saved() == 0
    assert json.loads(done.stdout)["correct_form"] == "went"
    done = run(["correct", "He goed to school.", "--learner", "Bo", "--db", str(db), "--pin-stdin"],
               stdin=b"246810\n", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert saved() == 1
    lines = b"246810\n" + json.dumps({"id": "t", "text": "Yesterday she goed home."}).encode() + b"\n"
    done = run(["check", "--jsonl", "--learner", "Bo", "--db", str(db), "--pin-stdin"], stdin=lines,
               tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [row["id"] for row in map(json.loads, done.stdout.decode().splitlines())] == ["t"]
    assert saved() == 2
    done = run(["check", "--jsonl", "--learner", "Bo", "--db", str(db)], stdin=lines[7:], tmp_path=tmp_path)
    assert done.returncode == 1 and "Bo's profile has a PIN" in done.stderr.decode() and saved() == 2
