"""A district through the real thing: three `grammar-tutor serve` processes (each with the bundled model) on one
real PostgreSQL 15, on loopback. Any server answers any learner; keys, the throttle and exactly-once hold across
them; a server killed with SIGKILL or PostgreSQL restarted mid-run loses nothing and stores nothing twice.

The fault runs are the issue's full 60 learners × 5 checks (GRAMMAR_TUTOR_DISTRICT_LOAD=15x4 runs a smaller one).
"""

from __future__ import annotations

import os
import secrets
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tutor.server.client import ClassClient, ServerError, Unreachable
from tutor.server.district import Server, servers
from tutor.server.keys import KeyRing
from tutor.server.loadtest import load_texts
from tutor.store import Store
from tutor.store.lock import SecretLock

TEACHER = "district teacher passphrase"
REQUEST_TIMEOUT_S = 120.0
RETRY_FOR_S = 120.0  # a client retries (on another server, after a 503's Retry-After) this long at most


def _load_size() -> tuple[int, int]:
    learners, _, checks = os.environ.get("GRAMMAR_TUTOR_DISTRICT_LOAD", "60x5").partition("x")
    return int(learners), int(checks)


@dataclass
class District:
    url: str  # the database
    token: str
    servers: list[Server]

    def client(self, n: int, keys: KeyRing | None = None, teacher: str | None = None) -> ClassClient:
        return ClassClient(self.servers[n].url, self.token, timeout=REQUEST_TIMEOUT_S, keys=keys, teacher=teacher)


@pytest.fixture(scope="module")
def district(postgres_server: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[District]:
    url = postgres_server.store_database()
    with Store.open(url) as store:
        SecretLock(store).set_teacher(TEACHER)
    token = secrets.token_urlsafe(16)
    logs = tmp_path_factory.mktemp("district-logs")
    with servers(url, token, 3, log_dir=logs) as started:
        yield District(url, token, started)


def _stored(url: str, names: list[str]) -> dict[str, list[str]]:
    """Return every stored row UUID per learner name."""
    with Store.open(url) as store:
        return {name: [row["id"] for row in store.history(name, limit=10_000)] for name in names}


def test_a_learner_key_issued_by_one_server_works_on_another_and_is_needed_there(district: District) -> None:
    keys = KeyRing()
    name = f"ana-{uuid.uuid4().hex[:6]}"
    _, first = district.client(0, keys).correct(name, "She go to school every day")
    assert keys.get(name, None)  # server 0 issued the key
    _, second = district.client(1, keys).correct(name, "He have a dog")  # server 1 accepts it
    with pytest.raises(ServerError) as refused:  # without the key, server 2 refuses the learner it knows
        district.client(2, KeyRing()).correct(name, "They goes home")
    assert refused.value.status == 403
    assert sorted(_stored(district.url, [name])[name]) == sorted([first, second])


def test_a_request_retried_on_another_server_stores_nothing_twice_and_returns_the_same_rows(
        district: District) -> None:
    keys, name, request = KeyRing(), f"bo-{uuid.uuid4().hex[:6]}", str(uuid.uuid4())
    text = "Yesterday I go to the beach with my cousins. We eat fish and it was very good."
    first = district.client(0, keys).check(name, text, request_id=request)
    again = district.client(2, keys).check(name, text, request_id=request)  # the answer was "lost": retried
    ids = [f["id"] for f in first["findings"]]
    assert ids and [f["id"] for f in again["findings"]] == ids
    with pytest.raises(ServerError) as reused:  # the same id for another text, on a third server: refused
        district.client(1, keys).check(name, "She want to be a doctor.", request_id=request)
    assert reused.value.status == 409
    assert sorted(_stored(district.url, [name])[name]) == sorted(ids)


def test_the_teacher_reads_on_one_server_what_a_learner_wrote_on_another(district: District) -> None:
    keys, name = KeyRing(), f"cy-{uuid.uuid4().hex[:6]}"
    _, row = district.client(2, keys).correct(name, "My brother play football")
    teacher = district.client(0, teacher=TEACHER)
    assert [c["id"] for c in teacher.history(name)["corrections"]] == [row]
    assert name in {x["name"] for x in teacher.learners()}


def test_wrong_passphrases_are_counted_across_servers(district: District) -> None:
    statuses = []
    for n in (0, 1, 2, 0):  # three free wrong attempts, spread over the servers; the fourth waits
        try:
            district.client(n, teacher="not the passphrase").learners()
        except ServerError as exc:
            statuses.append(exc.status)
    assert statuses == [403, 403, 403, 429]
    time.sleep(1.5)  # the delay after three is 1 s; later tests read as the teacher


# -- faults ---------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """What a simulated class got: the row UUIDs acknowledged per learner, the answers while the store was down."""

    acknowledged: dict[str, list[str]] = field(default_factory=dict)
    down_answers: list[tuple[int, str | None, Any]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    done: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _class(district: District, learners: int, checks: int, *, during: Any) -> tuple[Run, list[str]]:
    """Run `learners` at once, each sending `checks` checks with request ids to its own server, retrying on another
    (the same id) when a server cannot be reached or answers 503; call during(run) meanwhile, in its own thread."""
    texts, run, tag = load_texts(), Run(), uuid.uuid4().hex[:6]
    names = [f"fault-{tag}-{i:02d}" for i in range(learners)]

    def learner(i: int) -> None:
        keys, ids = KeyRing(), []
        for n in range(checks):
            request, text = str(uuid.uuid4()), texts[(i * checks + n) % len(texts)]
            deadline, attempt = time.monotonic() + RETRY_FOR_S, 0
            while time.monotonic() < deadline + 2 * REQUEST_TIMEOUT_S:  # the body gives up at the deadline first
                server = (i + attempt) % len(district.servers)
                client = district.client(server, keys)
                try:
                    status, headers, value = client.request("POST", "/v1/check",
                                                            {"learner": names[i], "text": text, "id": request},
                                                            extra=_key(keys, names[i]))
                except Unreachable:
                    status, headers, value = 0, {}, None
                finally:
                    client.close()
                if headers.get("x-learner-key"):  # issued on this learner's first request, kept for the next
                    keys.put(names[i], headers.get("x-learner-uuid"), headers["x-learner-key"])
                if status == 200:
                    ids += [f["id"] for f in value["findings"]]
                    break
                if status == 503:
                    with run.lock:
                        run.down_answers.append((status, headers.get("retry-after"), value))
                elif status != 0:
                    with run.lock:
                        run.failures.append(f"{names[i]}: {status} {value}")
                    break
                if time.monotonic() > deadline:
                    with run.lock:
                        run.failures.append(f"{names[i]}: no answer within {RETRY_FOR_S:.0f} s")
                    break
                attempt += 1
                time.sleep(float(headers.get("retry-after", 0.3)) if status == 503 else 0.3)
            with run.lock:
                run.done += 1
        with run.lock:
            run.acknowledged[names[i]] = ids

    def fault() -> None:
        try:
            during(run)
        except BaseException as exc:  # a fault that could not be made fails the test
            with run.lock:
                run.failures.append(f"the fault thread failed: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=learner, args=(i,), daemon=True) for i in range(learners)]
    side = threading.Thread(target=fault, daemon=True)
    for thread in (*threads, side):
        thread.start()
    for thread in (*threads, side):
        thread.join(timeout=600)
        assert not thread.is_alive(), "a client or the fault thread hung"
    return run, names


def _key(keys: KeyRing, name: str) -> dict[str, str]:
    from tutor.server.access import LEARNER_KEY_HEADER

    key = keys.get(name, None)
    return {LEARNER_KEY_HEADER: key} if key else {}


def _audit(district: District, run: Run, names: list[str]) -> None:
    """Every acknowledged row is stored exactly once under its learner, and no other row of theirs is."""
    assert not run.failures, run.failures[:5]
    stored = _stored(district.url, names)
    for name in names:
        assert len(stored[name]) == len(set(stored[name])), f"{name}: a row stored twice"
        assert sorted(stored[name]) == sorted(run.acknowledged[name]), f"{name}: stored rows differ from answers"
    assert sum(len(ids) for ids in run.acknowledged.values()) > 0  # the texts have mistakes: rows were stored


def test_a_server_killed_mid_run_loses_nothing_and_stores_nothing_twice(district: District) -> None:
    learners, checks = _load_size()
    killed = district.servers[0]

    def kill_when_a_third_is_done(run: Run) -> None:
        deadline = time.monotonic() + 300
        while run.done < learners * checks // 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        killed.kill()

    run, names = _class(district, learners, checks, during=kill_when_a_third_is_done)
    assert not killed.alive()
    _audit(district, run, names)
    district.servers.remove(killed)  # the rest of the module runs on the two left


def test_postgres_restarted_mid_run_gives_503_then_recovers_with_no_half_written_check(
        district: District, postgres_server: Any) -> None:
    learners, checks = 6, 3

    def wait_done(run: Run, n: int) -> None:
        deadline = time.monotonic() + 300
        while run.done < n and time.monotonic() < deadline:
            time.sleep(0.05)

    def restart(run: Run) -> None:
        wait_done(run, 2)  # a restart as an administrator does it, under load
        postgres_server.restart()
        wait_done(run, 6)  # then down long enough to look at the answers while it is
        postgres_server.run("pg_ctl", "-D", str(postgres_server.data), "-m", "fast", "-w", "-t", "60", "stop")
        try:
            time.sleep(1.0)
            probe = district.client(0, KeyRing())  # while it is down: 503, Retry-After, a JSON error, no hang
            t0 = time.monotonic()
            status, headers, value = probe.request("POST", "/v1/check", {"learner": "probe", "text": "He go home"})
            with run.lock:
                run.down_answers.append((status, headers.get("retry-after"), value))
            assert time.monotonic() - t0 < 30
        finally:
            postgres_server.start()

    run, names = _class(district, learners, checks, during=restart)
    assert run.down_answers, "no request met the database down"
    for status, retry_after, value in run.down_answers:
        assert status == 503 and retry_after and int(retry_after) >= 1
        assert isinstance(value, dict) and "PostgreSQL" in value["error"] and "Traceback" not in value["error"]
    _audit(district, run, names)
    # and once it is back, the servers answer by themselves
    assert district.client(0, KeyRing()).correct(f"after-{uuid.uuid4().hex[:6]}", "She go home")[1]
