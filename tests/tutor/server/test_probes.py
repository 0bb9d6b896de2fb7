"""Issue 32's probes of the class server, through a real uvicorn on loopback, a real worker and real SQLite files."""

from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from tutor.server.app import create_app
from tutor.server.client import ClassClient, ServerError
from tutor.server.outbox import flush, pending
from tutor.server.pool import Busy
from tutor.server.remote import ClassTutor
from tutor.server.run import in_thread
from tutor.store import Store
from tutor.store.lock import SecretLock
from tutor.store.names import clean_name
from tutor.store.practice_rows import digest

pytestmark = pytest.mark.model
REPO = Path(__file__).resolve().parents[3]


def _empty_section() -> dict:
    section: dict = {"cards": [], "reviews": [], "sources": []}
    section["sha256"] = digest(section)
    return section


SLOW_TEXT = " ".join(["Yesterday my brother go to the market and buy three apples."] * 6)


def _fill_queue(pool) -> list:
    """Fill the pool's queue while its one worker is busy on a long text, so the next request gets 503."""
    futures = [pool.submit("check", SLOW_TEXT)]
    deadline = time.monotonic() + 60
    while pool.queued() and time.monotonic() < deadline:  # wait until the worker has taken the first job
        time.sleep(0.01)
    while True:
        try:
            futures.append(pool.submit("check", SLOW_TEXT))
        except Busy:
            return futures


def test_a_new_learner_refused_by_a_full_queue_keeps_its_key_and_is_not_locked_out(live_server, tutor_engine,
                                                                                  tmp_path) -> None:
    with Store.open(tmp_path / "laptop.db") as laptop:
        app = ClassTutor(ClassClient(live_server.url, live_server.token), laptop, lambda: tutor_engine)
        futures = _fill_queue(live_server.pool)
        done = app.correct("My sister play the piano", learner="Nadia")  # 503: corrected locally, queued
        assert not app.last_was_remote and pending(laptop) == 1
        info = laptop.find_learner("Nadia")
        assert app.client.keys.get("Nadia", info["uuid"])  # the key came back with the 503
        for f in futures:
            f.result(timeout=300)
        assert flush(laptop, app.client).new == 1 and pending(laptop) == 0  # the outbox goes up with that key
        again = app.correct("They was late", learner="Nadia")
        assert app.last_was_remote and again.saved
        server_row = live_server.store.find_learner("Nadia")
        assert {r["id"] for r in live_server.store.history(server_row["id"])} >= set(done.row_ids)


@pytest.mark.parametrize("name, learner_uuid", [("   ", None), ("A" * 100, None), ("Zoe", "not-a-uuid")])
def test_post_practice_refuses_names_and_uuids_as_every_route(live_server, name, learner_uuid) -> None:
    client = ClassClient(live_server.url, live_server.token)
    before = len(live_server.store.learners())
    status, _, answer = client.request("POST", "/v1/practice", {
        "learner": name, "learner_uuid": learner_uuid or str(uuid.uuid4()), "practice": _empty_section()})
    assert status == 422 and "error" in answer
    assert len(live_server.store.learners()) == before


@pytest.mark.parametrize("name", ["Eva\u202eevil", "Eli\x1b[31m"])
def test_post_practice_keeps_only_the_visible_name_as_every_route(live_server, name) -> None:
    client = ClassClient(live_server.url, live_server.token)
    status, _, _ = client.request("POST", "/v1/practice", {
        "learner": name, "learner_uuid": str(uuid.uuid4()), "practice": _empty_section()})
    assert status == 200
    names = [row["name"] for row in live_server.store.learners()]
    assert clean_name(name) in names and name not in names


def test_post_practice_matches_a_uuid_in_any_letter_case(live_server) -> None:
    client = ClassClient(live_server.url, live_server.token)
    learner_uuid = str(uuid.uuid4())
    client.correct("Ines", "He go home", learner_uuid=learner_uuid)
    status, _, _ = client.request("POST", "/v1/practice", {
        "learner": "Ines (2)", "learner_uuid": learner_uuid.upper(), "practice": _empty_section()})
    assert status == 403  # Ines's UUID, written in upper case, names no new learner "Ines (2)"
    assert live_server.store.find_learner("Ines (2)") is None


def test_wrong_passphrases_over_the_network_do_not_lock_the_teachers_own_cli(live_server, tmp_path) -> None:
    db = tmp_path / "own.db"
    with Store.open(db) as store:
        SecretLock(store).set_teacher(live_server.teacher)
        store.ensure_learner("Ana")
        with in_thread(create_app(store, live_server.pool, live_server.token)) as running:
            parts = urllib.parse.urlsplit(running.url)
            counted = 0
            deadline = time.monotonic() + 120
            while counted < 7 and time.monotonic() < deadline:  # 7 wrong guesses, each waiting out the delay
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                conn.request("GET", "/v1/learners", headers={"Authorization": f"Bearer {live_server.token}",
                                                             "X-Teacher-Passphrase": "not the passphrase"})
                answer = conn.getresponse()
                answer.read()
                conn.close()
                assert answer.status in (403, 429)
                if answer.status == 429:
                    time.sleep(float(answer.getheader("Retry-After", "1")))
                else:
                    counted += 1
            assert counted == 7  # now the network's delay runs 16 s
            with pytest.raises(ServerError) as right_over_network:  # ... even the right one, for now
                ClassClient(running.url, live_server.token, teacher=live_server.teacher).learners()
            assert right_over_network.value.status == 429
            done = subprocess.run([sys.executable, "-m", "tutor.cli", "history", "--db", str(db), "--passphrase-stdin"],
                                  input=(live_server.teacher + "\n").encode(), capture_output=True, timeout=300,
                                  cwd=REPO)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 0 and "try again" not in err, err


def test_a_worker_that_died_while_idle_is_restarted_before_the_next_request(live_server) -> None:
    worker = live_server.pool._workers[0]
    worker.process.kill()
    worker.process.join(30)
    assert not worker.process.is_alive()
    answer, _ = ClassClient(live_server.url, live_server.token, timeout=300).correct("Omar", "He go to school")
    assert answer["correct_form"] == "goes"
    assert worker.process.is_alive()


def _health(url: str) -> int:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request("GET", "/health")
        return conn.getresponse().status
    finally:
        conn.close()


def test_connections_dribbling_a_body_do_not_shut_the_class_out(live_server, tmp_path) -> None:
    with Store.open(tmp_path / "conn.db") as store, in_thread(
            create_app(store, live_server.pool, "code-3456"), max_connections=8) as run:
        parts = urllib.parse.urlsplit(run.url)
        stalled = []
        for _ in range(12):  # more than the cap, each a head and one byte of a 16 kB body, then nothing
            sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
            sock.sendall(b"POST /v1/correct HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer code-3456\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 16000\r\n\r\n{")
            stalled.append(sock)
            time.sleep(0.02)
        t0 = time.monotonic()
        assert [_health(run.url) for _ in range(3)] == [200] * 3
        assert time.monotonic() - t0 < 5  # well within the 15 s body timeout
        for sock in stalled:
            sock.close()


@pytest.mark.parametrize("size", [20_000, 60_000])
def test_a_head_over_16_kB_sent_in_one_write_is_refused(live_server, size) -> None:
    parts = urllib.parse.urlsplit(live_server.url)
    head = (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: " + b"a" * size + b"\r\n\r\n")
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(head)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert _health(live_server.url) == 200
