"""The class server's access model and limits (issue 19), end to end: real uvicorn on loopback, a real worker
process with the bundled model, real SQLite files. docs/access.md describes what each party may do."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

import pytest

from tutor.server.access import LEARNER_KEY_HEADER, TEACHER_HEADER
from tutor.server.app import create_app
from tutor.server.client import ClassClient, ServerError
from tutor.server.run import bind, in_thread, url_of
from tutor.store import Store
from tutor.store.bundle import learner_info, make_bundle
from tutor.store.lock import NETWORK_TEACHER, SecretLock

pytestmark = pytest.mark.model
HISTORY_ROUTES = ("/v1/learners", "/v1/learners/Ana/history", "/v1/learners/ana/history?limit=5",
                  "/v1/learners/nobody/history")


def _raw(url: str, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        raw = response.read()
        value = json.loads(raw) if raw else None
        return response.status, {k.lower(): v for k, v in response.getheaders()}, value
    finally:
        conn.close()


def _auth(token: str, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **extra}


def _post(url: str, token: str, path: str, body: Any, **extra: str) -> tuple[int, dict[str, str], Any]:
    return _raw(url, "POST", path, json.dumps(body).encode(), _auth(token, **extra))


def test_the_class_code_alone_opens_no_history(live_server) -> None:
    url, token = live_server.url, live_server.token
    ana = ClassClient(url, token)
    ana.correct("Ana", "He go to school every day")
    for path in HISTORY_ROUTES:
        assert _raw(url, "GET", path)[0] == 401
        status, _, value = _raw(url, "GET", path, headers=_auth(token))
        assert status == 403 and "teacher passphrase" in value["error"], path
        assert _raw(url, "GET", path, headers=_auth(token, **{TEACHER_HEADER: "not the passphrase"}))[0] == 403
        expected = 404 if "nobody" in path else 200
        assert _raw(url, "GET", path, headers=_auth(token, **{TEACHER_HEADER: live_server.teacher}))[0] == expected
    assert ana.history("Ana")["learner"] == "Ana"  # a learner reads their own history with their key
    bo = ClassClient(url, token)
    bo.correct("Bo", "She have went home")
    bo_key = bo.keys.get("Bo", None)
    assert bo_key and bo_key != ana.keys.get("Ana", None)
    status, _, value = _raw(url, "GET", "/v1/learners/Ana/history",
                            headers=_auth(token, **{LEARNER_KEY_HEADER: bo_key}))
    assert status == 403 and "does not open this learner's history" in value["error"]


def test_without_a_teacher_passphrase_no_one_reads_history(live_server, tmp_path: Path) -> None:
    with Store.open(tmp_path / "open.db") as store, in_thread(create_app(store, live_server.pool, "code-1234")) as run:
        ClassClient(run.url, "code-1234").correct("Ana", "He go to school every day")
        for path in HISTORY_ROUTES:
            status, _, value = _raw(run.url, "GET", path, headers=_auth("code-1234"))
            assert status == 403 and "set-passphrase" in value["error"], path


def test_no_one_writes_into_another_learners_record(live_server) -> None:
    url, token, store = live_server.url, live_server.token, live_server.store
    ana_uuid = str(uuid.uuid4())
    ana = ClassClient(url, token)
    ana.correct("Ana Two", "He go to school every day", learner_uuid=ana_uuid)
    before = store.count_history("Ana Two")
    mallory = ClassClient(url, token)
    mallory.correct("Mallory", "She go home", learner_uuid=str(uuid.uuid4()))  # Mallory has a key of her own
    attempts = [
        lambda: mallory.correct("Mallory", "I goes to work", learner_uuid=ana_uuid),
        lambda: mallory.correct("Ana Two", "I goes to work", learner_uuid=ana_uuid),
        lambda: mallory.correct("Ana Two", "I goes to work"),
        lambda: mallory.check("Ana Two", "I goes to work every day.", learner_uuid=ana_uuid),
    ]
    for attempt in attempts:
        with pytest.raises(ServerError) as info:
            attempt()
        assert info.value.status == 403
    stolen_key = {LEARNER_KEY_HEADER: mallory.keys.get("Mallory", None)}
    claim = {"learner": "Ana Two", "sentence": "I goes", "learner_uuid": ana_uuid}
    status, _, _ = _post(url, token, "/v1/correct", claim, **stolen_key)
    assert status == 403
    head = learner_info(store, "Ana Two")
    bundle = make_bundle({**head, "name": "Mallory"}, [])
    assert _post(url, token, "/v1/upload", bundle, **stolen_key)[0] == 403
    assert store.count_history("Ana Two") == before
    teacher = ClassClient(url, token, teacher=live_server.teacher)  # the teacher may write for anyone
    teacher.correct("Ana Two", "She go home", learner_uuid=ana_uuid)
    assert store.count_history("Ana Two") == before + 1


def test_a_learner_made_before_keys_is_claimed_by_its_uuid_only(live_server) -> None:
    store = live_server.store
    old = learner_info(store, store.ensure_learner("Olga"))  # as an older server or a teacher's import made it
    stranger = ClassClient(live_server.url, live_server.token)
    with pytest.raises(ServerError, match="made before learner keys"):
        stranger.correct("Olga", "She go home")
    own = ClassClient(live_server.url, live_server.token)
    own.correct("Olga", "She go home", learner_uuid=old["uuid"])
    assert own.keys.get(None, old["uuid"])
    with pytest.raises(ServerError) as info:
        stranger.correct("Olga", "She go home", learner_uuid=old["uuid"])
    assert info.value.status == 403


def test_a_reused_request_id_is_refused_not_dropped(live_server) -> None:
    url, token, store = live_server.url, live_server.token, live_server.store
    request_id = str(uuid.uuid4())
    first = ClassClient(url, token)
    output, row_id = first.correct("Rita", "He go to school every day", request_id=request_id)
    other = ClassClient(url, token)
    with pytest.raises(ServerError) as info:
        other.correct("Raul", "She have went home", request_id=request_id)
    assert info.value.status == 409 and "already used" in str(info.value)
    assert store.count_history("Raul") == 0
    assert first.correct("Rita", "He go to school every day", request_id=request_id) == (output, row_id)  # a retry
    with pytest.raises(ServerError, match="409"):
        first.correct("Rita", "I eated an apple", request_id=request_id)
    assert store.count_history("Rita") == 1


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/v1/correct", '{"learner": "' + "x" * 80 + '", "sentence": "He go home"}', "at most 60"),
    ("/v1/check", '{"learner": "\u200b\u200b", "text": "He go home"}', "visible character"),
    ("/v1/check", '{"learner": "Ana", "text": NaN}', "NaN is not allowed"),
    ("/v1/check", '{"learner": "Ana", "text": "1234567890 42"}', "no words"),
    ("/v1/correct", '{"learner": "Ana", "sentence": "He go\\ud800 home"}', "lone surrogate"),
    ("/v1/correct", '{"learner": "Ana", "sentence": 1e400}', "too large"),
    ("/v1/correct", "[" * 5000 + "]" * 5000, "levels deep"),
    ("/v1/upload", '{"a": ' * 40 + "1" + "}" * 40, "levels deep"),
    ("/v1/correct", b'{"learner": "Ana", "sentence": "\xff"}', "not UTF-8"),
    ("/v1/correct", '{"learner": "Ana", "sentence": "He go home", "id": "not-a-uuid"}', "is not a UUID"),
])
def test_unusable_bodies_get_422_with_a_message(live_server, path: str, body: str | bytes, message: str) -> None:
    data = body if isinstance(body, bytes) else body.encode("utf-8")
    status, _, value = _raw(live_server.url, "POST", path, data, _auth(live_server.token))
    assert status == 422 and message in value["error"], value
    assert _raw(live_server.url, "GET", "/health")[0] == 200


def test_an_edited_upload_is_refused(live_server) -> None:
    client = ClassClient(live_server.url, live_server.token)
    client.correct("Hugo", "He go to school every day")
    head = learner_info(live_server.store, "Hugo")
    [row] = live_server.store.history("Hugo")
    row = {**row, "id": str(uuid.uuid4()), "correct_form": "HACKED"}
    row["output"] = {**row["output"], "correct_form": "HACKED"}
    with pytest.raises(ServerError) as info:
        client.upload(make_bundle(head, [row]))  # re-hashed by make_bundle, sent with Hugo's own key
    assert info.value.status == 422 and "not a cell of the §A13 table" in str(info.value)
    assert live_server.store.count_history("Hugo") == 1


def test_no_api_pages_are_served(live_server) -> None:
    for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
        assert _raw(live_server.url, "GET", path)[0] == 404
        assert _raw(live_server.url, "GET", path, headers=_auth(live_server.token))[0] == 404


def test_ping_checks_the_code_without_reading_history(live_server) -> None:
    assert ClassClient(live_server.url, live_server.token).ping() == {"status": "ok", "teacher": False}
    assert ClassClient(live_server.url, live_server.token, teacher=live_server.teacher).ping()["teacher"] is True
    with pytest.raises(ServerError, match="class code"):
        ClassClient(live_server.url, "wrong code").ping()


def test_wrong_passphrases_sent_at_once_are_throttled_and_every_one_counted(live_server, tmp_path: Path) -> None:
    with Store.open(tmp_path / "locked.db") as store:
        SecretLock(store).set_teacher("the right passphrase")
        with in_thread(create_app(store, live_server.pool, "code-5678")) as run:
            statuses: list[int] = []
            start = threading.Barrier(5)

            def attempt() -> None:
                start.wait(timeout=30)
                statuses.append(_raw(run.url, "GET", "/v1/learners",
                                     headers=_auth("code-5678", **{TEACHER_HEADER: "a wrong guess"}))[0])

            threads = [threading.Thread(target=attempt) for _ in range(5)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(120)
            assert sorted(statuses) == [403, 403, 403, 429, 429]
            failures = store._conns.get().execute("SELECT failures FROM secrets WHERE subject = ?",
                                                  [NETWORK_TEACHER]).fetchone()
            assert failures[0] == 3  # every wrong attempt that was checked was counted, on the network's counter
            local = store._conns.get().execute("SELECT failures FROM secrets WHERE subject = 'teacher'").fetchone()
            assert local[0] == 0  # the teacher's own CLI and app are not slowed down


def test_idle_and_slow_connections_are_closed_and_health_still_answers(live_server, tmp_path: Path) -> None:
    with Store.open(tmp_path / "conn.db") as store, in_thread(
            create_app(store, live_server.pool, "code-9012", body_timeout=1.0), head_timeout=1.0,
            max_connections=8, keep_alive=1) as run:
        parts = urllib.parse.urlsplit(run.url)
        address = (parts.hostname, parts.port)
        idle = [socket.create_connection(address, timeout=10) for _ in range(40)]
        assert _raw(run.url, "GET", "/health")[0] == 200  # more idle sockets than the cap: the oldest go
        for sock in idle:
            assert sock.recv(1) == b""  # closed by the server within the head timeout (10 s socket timeout)
            sock.close()
        with socket.create_connection(address, timeout=10) as slow:
            slow.sendall(b"GET /health HTTP/1.1\r\n")
            t0 = time.monotonic()
            with pytest.raises(OSError):
                while time.monotonic() - t0 < 10:  # one header byte every 0.2 s never finishes the head
                    slow.sendall(b"X")
                    time.sleep(0.2)
            assert time.monotonic() - t0 < 5
        with socket.create_connection(address, timeout=10) as slow:
            slow.sendall(b"POST /v1/correct HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer code-9012\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"learner\"")
            assert slow.recv(100).startswith(b"HTTP/1.1 408")


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_NOFILE is POSIX")
def test_few_descriptors_and_hundreds_of_idle_sockets_do_not_stop_the_server(tmp_path: Path, kill_after) -> None:
    """The probe's case: a server with 128 file descriptors and 220 idle sockets kept answering nothing and
    wrote 248 MB of tracebacks in 40 s. Now /health answers throughout and stderr stays a few lines."""
    import resource

    def few_descriptors() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))

    probe = bind("127.0.0.1", 0)
    url, port = url_of(probe), probe.getsockname()[1]
    probe.close()
    env = {**os.environ, "GRAMMAR_TUTOR_TOKEN": "code-fd-1234"}
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as err:
        server = subprocess.Popen([sys.executable, "-m", "tutor.cli", "serve", "--port", str(port), "--db",
                                   str(tmp_path / "fd.db")], env=env, stderr=err, preexec_fn=few_descriptors)
    kill_after(server, 600)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if _raw(url, "GET", "/health")[0] == 200:
                    break
            except OSError:
                assert server.poll() is None, errors.read_text()
                time.sleep(0.3)
        else:
            pytest.fail(f"the server did not answer /health within 180 s: {errors.read_text()}")
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(220)]
        answered = []
        for _ in range(4):
            answered.append(_raw(url, "GET", "/health")[0])
            time.sleep(0.5)
        assert answered == [200] * 4
        for sock in idle:
            sock.close()
    finally:
        server.terminate()
        server.wait(60)
    text = errors.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and len(text) < 4096, text[-2000:]
