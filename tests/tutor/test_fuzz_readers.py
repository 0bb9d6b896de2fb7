"""Every reader of outside input, fed random bytes and random JSON (issue 19): `correct --jsonl` and `check --jsonl`
(through tutor.cli.main with the real model), `import` (main, real SQLite) and the class server's JSON routes
(real uvicorn on loopback, a real worker). Each answers every item with a result or a clear error, never a
traceback or a 500, and the next item is still processed."""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import math
import secrets
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tutor.api import Tutor
from tutor.cli import main
from tutor.result import CorrectionResult
from tutor.server.app import create_app
from tutor.server.client import ClassClient
from tutor.server.pool import ModelPool
from tutor.server.run import in_thread
from tutor.store import Store
from tutor.store.bundle import make_bundle

pytestmark = pytest.mark.model
FUZZ = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30),
                     st.sampled_from(["He goed home.", "She go to school", "\ud800", "1234", "", "x" * 70]))
JSON_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=12)
_TRICKY = st.sampled_from([b"[" * 100_000, b'{"a":' * 50 + b"1" + b"}" * 50, b"NaN", b"Infinity", b"1e400",
                           b'"\\ud800"', b"1" * 5000, b'{"original": "\\udfff"}', b"\xef\xbb\xbf\"He goed home.\"",
                           b'"' + b'\\"' * 2000, b"\x00\x01\x02", b"{}", b"[]", b'{"id": [], "text": {}}'])


def _json_text(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=bool(len(str(value)) % 2), allow_nan=True).encode("utf-8", "surrogatepass")


def _line(key: str) -> st.SearchStrategy[bytes]:
    """A line a reader may meet: random bytes, random JSON, a request object with random fields, or a trap."""
    record = st.fixed_dictionaries({"id": JSON_VALUES, key: JSON_VALUES}).map(_json_text)
    return st.one_of(st.binary(max_size=120), JSON_VALUES.map(_json_text), record, _TRICKY)


def _expected_lines(data: bytes) -> int:
    """How many lines the stream reader answers: every line but the blank (UTF-8, whitespace only) ones.

    A byte-order mark at the very start of the stream marks its encoding (UTF-8-SIG), not content: a first
    line holding only that mark is blank.
    """
    count = 0
    for raw in io.BytesIO(data.removeprefix(b"\xef\xbb\xbf")):
        try:
            blank = not raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            blank = False
        count += not blank
    return count


@pytest.fixture
def loaded_once(monkeypatch: pytest.MonkeyPatch, tutor_engine: Tutor) -> None:
    """Make the CLI's Tutor.load return the session's real Tutor (the model is loaded once, not per example)."""
    monkeypatch.setattr(Tutor, "load", classmethod(lambda cls, *args, **kwargs: tutor_engine))


def _run_stream(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
                data: bytes) -> tuple[int, list[dict[str, Any]], str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = main(args)
    captured = capsys.readouterr()
    lines = captured.out.splitlines()  # any reader's idea of a line: the output escapes U+0085, U+2028, U+2029
    return code, [json.loads(line) for line in lines], captured.err


@FUZZ
@given(lines=st.lists(_line("original"), min_size=1, max_size=3))
@example(lines=['{"id": {"\u0085": null}, "original": "a\u2028b"}'.encode()])  # line separators inside strings
@example(lines=[b"\xef\xbb\xbf"])  # a first line holding only the byte-order mark is blank
def test_correct_jsonl_answers_every_line(loaded_once, monkeypatch, capsys, tmp_path, lines: list[bytes]) -> None:
    sentinel = b'{"id": "sentinel", "original": "He goed home."}'
    data = b"\n".join([*lines, sentinel]) + b"\n"
    db = tmp_path / f"{secrets.token_hex(4)}.db"
    code, rows, err = _run_stream(monkeypatch, capsys, ["correct", "--jsonl", "--db", str(db)], data)
    assert code in (0, 1) and "Traceback" not in err
    assert len(rows) == _expected_lines(data)
    assert all(("output" in row) != ("error" in row) and (row.get("error") or "output" in row) for row in rows)
    assert rows[-1]["id"] == "sentinel" and rows[-1]["output"]["correct_form"] == "went"


@FUZZ
@given(lines=st.lists(_line("text"), min_size=1, max_size=3))
def test_check_jsonl_answers_every_line(loaded_once, monkeypatch, capsys, tmp_path, lines: list[bytes]) -> None:
    sentinel = b'{"id": "sentinel", "text": "Yesterday I go to the beach."}'
    data = b"\n".join([*lines, sentinel]) + b"\n"
    db = tmp_path / f"{secrets.token_hex(4)}.db"
    code, rows, err = _run_stream(monkeypatch, capsys, ["check", "--jsonl", "--db", str(db)], data)
    assert code in (0, 1) and "Traceback" not in err
    assert len(rows) == _expected_lines(data)
    assert all(("findings" in row) != ("error" in row) for row in rows)
    assert rows[-1]["id"] == "sentinel" and "went" in {f["correct_form"] for f in rows[-1]["findings"]}


# -- import ------------------------------------------------------------------------------------------

def _good_bundle(tmp_path: Path) -> dict[str, Any]:
    db = tmp_path / "learner.db"
    output = {"original": "She go home", "verb": "go", "tense": "present simple", "person": "3rd singular",
              "correct_form": "goes", "spanish": "va"}
    with Store.open(db) as store:
        store.save_correction(CorrectionResult(original="She go home", output=output, out_of_scope=False,
                                               is_correct=False, confidence=0.9, error_span="go", error_start=4,
                                               error_end=6), learner="Ana")
        store.save_correction(CorrectionResult(original="I forgetted", output={"original": "I forgetted",
                                               "out_of_scope": True}, out_of_scope=True, is_correct=False,
                                               confidence=1.0), learner="Ana")
    out = tmp_path / "good.json"
    assert main(["history", "--db", str(db), "--learner", "Ana", "--export", "bundle", "--out", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


_MUTATION = st.tuples(st.integers(0, 1), st.sampled_from(
    ["id", "created", "original", "verb", "tense", "person", "correct_form", "spanish", "out_of_scope",
     "is_correct", "confidence", "error_span", "error_start", "error_end", "settings", "mask_p50_us",
     "tokens_sampled", "kind", "source_text", "output", "explanation_en"]), JSON_VALUES)


def _rehash(bundle: dict[str, Any]) -> dict[str, Any]:
    """Return the bundle with its sha256 recomputed as an attacker would (lone surrogates included)."""
    head = {k: bundle["learner"].get(k) for k in ("uuid", "name", "created")}
    canonical = json.dumps({"learner": head, "corrections": bundle["corrections"]}, sort_keys=True,
                           ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    return {**bundle, "sha256": hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()}


@FUZZ
@given(content=st.one_of(st.binary(max_size=300), JSON_VALUES.map(_json_text), _TRICKY, _MUTATION))
@example(content=(0, "id", "\ud800"))  # a lone surrogate in a re-hashed bundle
def test_import_answers_every_file_and_the_teacher_can_read_what_it_took(capsys, tmp_path, content) -> None:
    folder = tmp_path / secrets.token_hex(4)  # one folder per example: hypothesis reuses tmp_path
    folder.mkdir()
    good = _good_bundle(folder)
    if isinstance(content, tuple):  # a real bundle with one field of one row changed, then re-hashed
        n, key, value = content
        good["corrections"][n][key] = value
        data = _json_text(_rehash(good))
    else:
        data = content
    odd, other = folder / "odd.json", folder / "bo.json"
    odd.write_bytes(data)
    bo = {**good["learner"], "uuid": "5b0c2b8e-0000-4000-8000-000000000000", "name": "Bo"}
    other.write_text(json.dumps(make_bundle(bo, [])), encoding="utf-8")
    teacher = folder / "teacher.db"
    capsys.readouterr()
    code = main(["import", "--db", str(teacher), str(odd), str(other)])
    captured = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in captured.err
    assert "total:" in captured.out and "bo.json: Bo: 0 new" in captured.out  # the next file still went in
    with Store.open(teacher) as store:  # whatever was accepted, the statistics read it
        store.error_counts()
        store.progress_by_week()
        store.latency_summary()
        for row in store.history(limit=10):
            assert all(isinstance(row[k], float) or row[k] is None for k in ("mask_p50_us", "total_ms"))
            assert row["created"][:4].isdigit() and math.isfinite(row["confidence"])


# -- the class server --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Run one class server (real uvicorn, one worker with the bundled model) for the module."""
    token = secrets.token_urlsafe(12)
    pool = ModelPool(1, queue_size=8)
    try:
        with Store.open(tmp_path_factory.mktemp("fuzz-server") / "class.db") as store, \
                in_thread(create_app(store, pool, token)) as running:
            yield running.url, token
    finally:
        pool.close()


def _post(url: str, token: str, path: str, body: bytes) -> tuple[int, Any]:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300)
    try:
        conn.request("POST", path, body=body, headers={"Authorization": f"Bearer {token}",
                                                       "Content-Type": "application/json"})
        response = conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    finally:
        conn.close()


_BODIES = st.one_of(
    st.binary(max_size=200), JSON_VALUES.map(_json_text), _TRICKY,
    st.fixed_dictionaries({"learner": JSON_VALUES, "sentence": JSON_VALUES, "text": JSON_VALUES},
                          optional={"learner_uuid": JSON_VALUES, "id": JSON_VALUES}).map(_json_text),
)


@FUZZ
@given(path=st.sampled_from(["/v1/check", "/v1/correct", "/v1/correct?detail=true", "/v1/upload"]), body=_BODIES)
def test_the_servers_json_routes_answer_every_body(server, path: str, body: bytes) -> None:
    url, token = server
    status, value = _post(url, token, path, body)
    assert status in (200, 403, 409, 413, 422), (status, value)
    if status != 200:
        assert isinstance(value, dict) and value.get("error"), value
    client = ClassClient(url, token)  # the next request is still served
    output, _ = client.correct(f"learner-{secrets.token_hex(4)}", "He goed home.")
    assert output["correct_form"] == "went"
