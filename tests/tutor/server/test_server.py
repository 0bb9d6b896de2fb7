"""The class server end to end: real uvicorn on loopback, a real worker process with the bundled model."""

from __future__ import annotations

import http.client
import urllib.parse
import uuid

import pytest

from tutor.server.client import ClassClient, ServerError, Unreachable
from tutor.server.loadtest import drive, load_texts, refusals, verify
from tutor.server.outbox import flush, pending
from tutor.server.pool import Busy
from tutor.server.remote import ClassTutor
from tutor.server.run import bind, url_of
from tutor.store import Store

pytestmark = pytest.mark.model
SENTENCES = ["He go to school every day", "She have went to the bank", "I eated an apple", "My mother cook well",
             "Tomorrow I will to work", "She study English at night", "She go to school", "I goed home"]


def _raw(url: str, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> int:
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


def _closed_port_url() -> str:
    sock = bind("127.0.0.1", 0)
    url = url_of(sock)
    sock.close()  # nothing listens there any more
    return url


def test_health_needs_no_token_and_names_the_model(live_server) -> None:
    health = ClassClient(live_server.url, "").health()
    assert health["status"] == "ok" and health["model"] == live_server.pool.info.name and health["workers"] == 1


def test_every_v1_call_needs_the_token(live_server) -> None:
    body = {"learner": "x", "sentence": "He go home"}
    assert ClassClient(live_server.url, "").request("POST", "/v1/correct", body, token=False)[0] == 401
    assert ClassClient(live_server.url, live_server.token + "x").request("POST", "/v1/correct", body)[0] == 401
    assert ClassClient(live_server.url, "").request("GET", "/v1/learners", token=False)[0] == 401
    assert _raw(live_server.url, "GET", "/v1/learners", None, {"Authorization": "Basic " + live_server.token}) == 401
    with pytest.raises(ServerError, match="class code"):
        ClassClient(live_server.url, "wrong-code").learners()


def test_bodies_over_16_kB_get_413_by_length_and_by_content(live_server) -> None:
    auth = {"Authorization": f"Bearer {live_server.token}", "Content-Type": "application/json"}
    big = b'{"learner": "x", "sentence": "' + b"a" * (16 * 1024) + b'"}'
    assert _raw(live_server.url, "POST", "/v1/correct", big, auth) == 413
    chunked = dict(auth, **{"Transfer-Encoding": "chunked"})  # no Content-Length: the bytes are counted
    parts = urllib.parse.urlsplit(live_server.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    conn.request("POST", "/v1/correct", body=iter([big[:9000], big[9000:]]), headers=chunked, encode_chunked=True)
    assert conn.getresponse().status == 413
    conn.close()
    assert _raw(live_server.url, "POST", "/v1/correct", big, {"Content-Type": "application/json"}) == 413


def test_correct_returns_the_a13_object_and_stores_it_once(live_server, tutor_engine) -> None:
    client = ClassClient(live_server.url, live_server.token)
    request_id = str(uuid.uuid4())
    output, row_id = client.correct("Ana", "She have gone to the bank", request_id=request_id)
    assert output == tutor_engine.correct("She have gone to the bank").output
    again, same_id = client.correct("Ana", "She have gone to the bank", request_id=request_id)  # a retry
    assert (again, same_id) == (output, row_id)
    stored = [row for row in live_server.store.history("Ana") if row["id"] == row_id]
    assert len(stored) == 1 and stored[0]["output"] == output
    teacher = ClassClient(live_server.url, live_server.token, teacher=live_server.teacher)
    names = {x["name"]: x for x in teacher.learners()}
    assert names["Ana"]["corrections"] >= 1 and len(names["Ana"]["uuid"]) == 36
    history = client.history("ana", limit=1)  # Ana's own history, with the key her first request got
    assert history["learner"] == "Ana" and [row["id"] for row in history["corrections"]] == [row_id]
    with pytest.raises(ServerError, match="404"):
        teacher.history("nobody")


def test_unusable_input_gets_422_with_the_tutors_message(live_server) -> None:
    client = ClassClient(live_server.url, live_server.token)
    with pytest.raises(ServerError, match=r"422.*empty"):
        client.correct("Ana", "   ")


def test_the_queue_is_bounded(live_server) -> None:
    futures, refused = [], 0
    for _ in range(40):
        try:
            futures.append(live_server.pool.submit("correct", "He go to school"))
        except Busy:
            refused += 1
    assert refused > 0 and len(futures) >= live_server.pool.queue_size
    assert all(f.result(timeout=120).output["correct_form"] == "goes" for f in futures)


def test_a_small_class_at_once_every_row_stored_exactly_once(live_server) -> None:
    before = live_server.store.count_history()
    load = drive(live_server.url, live_server.token, SENTENCES, learners=5, requests=2, endpoint="correct")
    assert load.failures == [] and len(load.latencies) == 10
    assert sum(len(ids) for ids in load.rows.values()) == 10
    assert live_server.store.count_history() == before + 10
    problems = [p for p in verify(live_server.db, load) if "no request returned" not in p]  # earlier tests' rows
    assert problems == []
    codes = refusals(live_server.url, live_server.token)
    assert (codes["no_token"], codes["wrong_token"], codes["oversized"], codes["health"]) == (401, 401, 413, 200)


def test_offline_corrections_upload_once_when_the_server_is_back(live_server, tutor_engine, tmp_path) -> None:
    with Store.open(tmp_path / "laptop.db") as laptop:
        offline = ClassTutor(ClassClient(_closed_port_url(), live_server.token, timeout=5), laptop,
                             lambda: tutor_engine)
        done = offline.correct("My brother eat rice every day", learner="Luz")
        result = done.result
        assert not offline.last_was_remote and result.output["correct_form"] == "eats"
        assert done.saved and pending(laptop) == 1 and laptop.queued_rows()[0][1][0]["id"] == done.row_ids[0]
        [local] = laptop.history("Luz")
        online = ClassTutor(ClassClient(live_server.url, live_server.token), laptop, lambda: tutor_engine)
        second = online.correct("She go to work by bus", learner="Luz").result
        assert online.last_was_remote and second.explanation_en  # the card's text came from the server
        assert pending(laptop) == 0  # the server was back, so the outbox was sent
        server_rows = {row["id"]: row for row in live_server.store.history("Luz")}
        laptop_rows = {row["id"]: row for row in laptop.history("Luz")}
        assert set(server_rows) == set(laptop_rows) and len(server_rows) == 2
        assert server_rows[local["id"]]["output"] == local["output"]
        from tutor.server.outbox import queue

        queue(laptop, [local["id"]])  # sent again, e.g. after a crash before the outbox was cleared
        summary = flush(laptop, ClassClient(live_server.url, live_server.token))
        assert (summary.new, summary.present, summary.left) == (0, 1, 0)
        assert live_server.store.count_history("Luz") == 2
        retry = online.correct("She go to work by bus", learner=None)  # no learner: the local use case
        assert not online.last_was_remote and not retry.recorded and laptop.count_history("Luz") == 2
        with pytest.raises(Unreachable):
            ClassClient(_closed_port_url(), live_server.token, timeout=5).learners()


def test_check_is_one_line_of_check_jsonl_and_every_finding_is_stored_once(live_server, tutor_engine) -> None:
    client = ClassClient(live_server.url, live_server.token)
    text = "Yesterday I go to the beach with my cousins. My sister study medicine in Bogota."
    request_id = str(uuid.uuid4())
    out = client.check("Rosa", text, request_id=request_id)
    expected = tutor_engine.check(text).to_dict()
    assert [{k: v for k, v in f.items() if k != "id"} for f in out["findings"]] == expected["findings"]
    assert out["sentences"] == expected["sentences"] and out["notes"] == expected["notes"]
    assert "went" in {f["correct_form"] for f in out["findings"]} and len(out["sentences"]) == 2
    assert client.check("Rosa", text, request_id=request_id)["findings"] == out["findings"]  # a retry
    rows = {row["id"]: row for row in live_server.store.history("Rosa")}
    assert set(rows) == {f["id"] for f in out["findings"]}
    assert all(text[f["start"]:f["end"]] == f["written"] for f in out["findings"])


def test_checking_the_same_text_again_replaces_its_findings_and_an_edited_text_is_another(live_server) -> None:
    """As in the app (Store.save_check): a text's mistakes count once, however often it is checked."""
    client = ClassClient(live_server.url, live_server.token)
    text = "Last summer my brother go to Lima. He have a new job there."
    first = client.check("Tomás", text, request_id=str(uuid.uuid4()))
    assert len(first["findings"]) == 2
    again = client.check("Tomás", text + "\n", request_id=str(uuid.uuid4()))  # the same text, a new request
    rows = live_server.store.history("Tomás")
    assert {row["id"] for row in rows} == {f["id"] for f in again["findings"]}
    assert not {f["id"] for f in first["findings"]} & {row["id"] for row in rows}
    other = client.check("Tomás", "My cousin go to Quito every year.", request_id=str(uuid.uuid4()))
    assert len(live_server.store.history("Tomás")) == len(again["findings"]) + len(other["findings"])


def test_a_small_class_checks_texts_at_once_every_finding_stored_exactly_once(live_server) -> None:
    before = live_server.store.count_history()
    load = drive(live_server.url, live_server.token, load_texts(), learners=5, requests=2, endpoint="check")
    assert load.failures == [] and len(load.latencies) == 10
    returned = sum(len(ids) for ids in load.rows.values())
    assert returned >= 1  # the texts hold verb errors; how many are found is the judge's business
    assert live_server.store.count_history() == before + returned
    assert [p for p in verify(live_server.db, load) if "no request returned" not in p] == []
    no_token = ClassClient(live_server.url, "").request("POST", "/v1/check", {"learner": "x", "text": "He go"},
                                                        token=False)
    assert no_token[0] == 401
