"""Issue 32's probes of the class server, through a real uvicorn on loopback, a real worker and real SQLite files."""

from __future__ import annotations

import subprocess
import sys
import time
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
            guesser = ClassClient(running.url, live_server.token, teacher="not the passphrase")
            codes = []
            for _ in range(7):
                try:
                    guesser.learners()
                except ServerError as exc:
                    codes.append(exc.status)
            assert 429 in codes and set(codes) <= {403, 429}  # the network's guesses are throttled
            with pytest.raises(ServerError) as right_over_network:  # ... even the right one, for now
                ClassClient(running.url, live_server.token, teacher=live_server.teacher).learners()
            assert right_over_network.value.status == 429
            done = subprocess.run([sys.executable, "-m", "tutor.cli", "history", "--db", str(db), "--passphrase-stdin"],
                                  input=(live_server.teacher + "\n").encode(), capture_output=True, timeout=300,
                                  cwd=REPO)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 0 and "try again" not in err, err
