"""Issue 13 with the real model in a subprocess: encodings of the --jsonl stream, a store that fails while
saving, and `grammar-tutor compile` on the bundled model's vocabulary."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tutor.store import Store

REPO = Path(__file__).resolve().parents[3]
CLI = [sys.executable, "-m", "tutor.cli"]
pytestmark = pytest.mark.model


def run(args: list[str], *, stdin: bytes | None = None, env: dict[str, str] | None = None,
        cwd: Path = REPO) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, env={**os.environ, **(env or {})},
                          cwd=cwd, timeout=600)


def test_jsonl_under_strict_cp1252_keeps_the_good_lines(tmp_path: Path) -> None:
    lines = [
        b'\xef\xbb\xbf"He goed to school."',  # a UTF-8 BOM on line 1
        b'{"id": "bad", "original": "She \xff\xfe go"}',  # not UTF-8
        '{"id": 7, "original": "Ella dijo 😀 que she go to school."}'.encode(),  # emoji out
        b'{"id": NaN, "original": "He goed home."}',
        b'{"id": 1e400, "original": "I forgetted it."}',
        b'{"id": "last", "original": "He goed home."}',
    ]
    done = run(["correct", "--jsonl", "--no-save"], stdin=b"\n".join(lines) + b"\n",
               env={"PYTHONIOENCODING": "cp1252:strict", "GRAMMAR_TUTOR_DB": str(tmp_path / "x.db")})
    err = done.stderr.decode("utf-8")
    assert "Traceback" not in err and "UnicodeDecodeError" not in err and "UnicodeEncodeError" not in err
    rows = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]  # every line is JSON
    assert len(rows) == 6
    assert rows[0]["id"] == 1 and rows[0]["output"]["correct_form"] == "went"
    assert rows[1]["id"] == 2 and "not UTF-8 text (bad bytes b'\\xff' at byte 31" in rows[1]["error"]
    assert rows[2]["id"] == 7 and "😀" in done.stdout.decode("utf-8")
    assert rows[3]["id"] == 4 and "NaN is not allowed in JSON" in rows[3]["error"]
    assert rows[4]["id"] == "1e400" and "output" in rows[4]
    assert rows[5]["id"] == "last" and rows[5]["output"]["correct_form"] == "went"
    assert done.returncode == 1  # line 2 and line 4 failed, and said so


def _failing_store(path: Path) -> None:
    """Make every correction insert fail inside SQLite, the way a broken disk or a full quota would."""
    Store.open(path).close()
    con = sqlite3.connect(path)
    con.execute("CREATE TRIGGER boom BEFORE INSERT ON corrections BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
    con.commit()
    con.close()


def test_a_failing_store_does_not_hide_the_correction(tmp_path: Path) -> None:
    db = tmp_path / "broken.db"
    _failing_store(db)
    done = run(["correct", "He goed to school.", "--db", str(db)])
    assert json.loads(done.stdout)["correct_form"] == "went"
    assert b"the correction was not saved" in done.stderr and b"Traceback" not in done.stderr
    assert done.returncode == 1

    stream = b'"He goed home."\n"I forgetted it."\n"She go to school."\n'
    done = run(["correct", "--jsonl", "--db", str(db)], stdin=stream)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(rows) == 3 and all("output" in row and "save_error" in row for row in rows)
    assert rows[2]["output"]["correct_form"] == "goes"


def test_compile_reports_states_time_bytes_and_cache(tmp_path: Path) -> None:
    env = {"GRAMMAR_TUTOR_CACHE": str(tmp_path / "cache")}
    done = run(["compile", "--regex", "[0-9]{5}", "--json"], env=env)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"kind", "model", "vocab_size", "states", "compile_ms", "index_bytes", "cache_path",
                           "from_cache"}
    assert report["kind"] == "regex" and report["states"] == 6 and report["index_bytes"] > 0
    assert Path(report["cache_path"]).is_file() and not report["from_cache"]
    again = json.loads(run(["compile", "--regex", "[0-9]{5}", "--json"], env=env).stdout)
    assert again["from_cache"] and again["cache_path"] == report["cache_path"]

    grammar = tmp_path / "list.gbnf"
    grammar.write_text('root ::= item ("," item)*\nitem ::= [a-z]+\n', encoding="utf-8")
    done = run(["compile", "--gbnf", str(grammar)], env=env)
    assert done.returncode == 0 and b"states" in done.stdout and b"index bytes" in done.stdout


def _nested_arrays(depth: int) -> dict:
    schema: dict = {"type": "integer"}
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


@pytest.mark.parametrize("what", ["regex", "nested arrays"])
def test_compile_stops_hostile_grammars_with_exit_2(tmp_path: Path, what: str) -> None:
    env = {"GRAMMAR_TUTOR_CACHE": str(tmp_path / "cache")}
    if what == "regex":
        args = ["compile", "--regex", "(a{1000}){1000}"]
    else:
        schema = tmp_path / "nested.json"
        schema.write_text(json.dumps(_nested_arrays(16)), encoding="utf-8")
        args = ["compile", "--schema", str(schema)]
    t0 = time.perf_counter()
    done = run(args, env=env)
    took = time.perf_counter() - t0
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2 and "\ngrammar-tutor: " in "\n" + err and "limit max_" in err
    assert "Traceback" not in err
    print(f"{what}: exit 2 after {took:.1f} s: {err.strip()}")  # the check's 15 s is reported, not asserted


def test_compile_names_a_missing_file(tmp_path: Path) -> None:
    done = run(["compile", "--schema", str(tmp_path / "nope.json")])
    assert done.returncode == 2 and b"does not exist" in done.stderr


def test_jsonl_into_a_closed_pipe_exits_quietly(tmp_path: Path, kill_after) -> None:
    stream = b'"He goed home."\n' * 200
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(tmp_path / "x.db")}
    proc = subprocess.Popen([*CLI, "correct", "--jsonl", "--no-save"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=REPO, env=env)
    kill_after(proc, 600)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(stream)
    proc.stdin.close()
    assert json.loads(proc.stdout.readline())["output"]["correct_form"] == "went"  # `| head -1`
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8")
    assert proc.wait(timeout=600) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err
