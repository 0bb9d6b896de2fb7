"""Issue 32's probes of the command line's input (items 6, 7, 12), in subprocesses on real SQLite files: special
files are refused with a clear message and the next file still goes in, an over-long JSON line is skipped with
an error and the stream goes on, and a locked store names no learner without the passphrase."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.result import CorrectionResult
from tutor.scope import load_scope
from tutor.store import Store
from tutor.store.bundle import write_bundle
from tutor.store.lock import SecretLock

REPO = Path(__file__).resolve().parents[3]


def cli(*args: str, stdin: bytes | None = None, tmp_path: Path, timeout: float = 300
        ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(tmp_path / "env" / "default.db")}
    done = subprocess.run([sys.executable, "-m", "tutor.cli", *args], input=stdin, capture_output=True, env=env,
                          cwd=REPO, timeout=timeout)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def _mistake(original: str = "She have two dogs.") -> CorrectionResult:
    spanish = load_scope().cell("have", "present simple", "3rd singular").spanish[0]
    output = {"original": original, "verb": "have", "tense": "present simple", "person": "3rd singular",
              "correct_form": "has", "spanish": spanish}
    start = original.index("have")
    return CorrectionResult(original=original, output=output, out_of_scope=False, is_correct=False,
                            confidence=0.9, error_span="have", error_start=start, error_end=start + 4)


@pytest.fixture
def good_bundle(tmp_path: Path) -> Path:
    with Store.open(tmp_path / "teo-laptop.db") as teo:
        teo.save_correction(_mistake(), learner="Teo")
        write_bundle(teo, "Teo", tmp_path / "teo.json")
    return tmp_path / "teo.json"


def test_import_refuses_a_device_and_a_fifo_and_imports_the_next_file(tmp_path: Path, good_bundle: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it would wait for ever
    teacher = tmp_path / "teacher.db"
    done = cli("import", "--db", str(teacher), "/dev/zero", str(fifo), str(good_bundle), tmp_path=tmp_path,
               timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("is not a regular file") == 2
    assert "2 files refused" in done.stdout
    with Store.open(teacher) as store:
        assert store.find_learner("Teo") is not None


@pytest.mark.model
def test_check_file_refuses_a_device_and_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    for special in ("/dev/zero", str(fifo)):
        done = cli("check", "--file", special, "--db", str(tmp_path / "s.db"), tmp_path=tmp_path, timeout=180)
        assert done.returncode != 0 and "is not a regular file" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.model
def test_an_over_long_jsonl_line_is_skipped_and_the_stream_goes_on(tmp_path: Path) -> None:
    huge = b'{"id": "huge", "original": "' + b"a" * (3 * 2**20) + b'"}'
    stdin = huge + b"\n" + b"x" * (2**20) + b"\n" + json.dumps({"id": "last", "original": "He go home."}).encode()
    done = cli("correct", "--jsonl", "--db", str(tmp_path / "s.db"), stdin=stdin + b"\n", tmp_path=tmp_path)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in rows] == [1, 2, "last"], done.stderr
    assert all("over 256 kB" in r["error"] for r in rows[:2])
    assert rows[2]["output"]["correct_form"] == "goes"


def test_a_locked_store_names_no_learner_without_the_passphrase(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    with Store.open(db) as store:
        store.save_correction(_mistake(), learner="Rosalind")
        SecretLock(store).set_teacher("maestra-2026")
    done = cli("practice", "--learner", "UNKNOWN", "--db", str(db), tmp_path=tmp_path)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "UNKNOWN" in done.stderr and "Rosalind" not in done.stderr + done.stdout
