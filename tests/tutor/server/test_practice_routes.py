"""The class server carries the practice state: real uvicorn on loopback, a real SQLite file on each side."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import pytest

from tutor.practice import Practice
from tutor.practice.bundle import chunks
from tutor.result import CorrectionResult
from tutor.scope import load_scope
from tutor.server.client import ClassClient
from tutor.server.practice_routes import MAX_PIECE_BYTES, push
from tutor.store import Store
from tutor.store.bundle import learner_info, make_bundle
from tutor.store.practice_rows import section

pytestmark = pytest.mark.model
NOW = datetime(2025, 3, 3, 10, 0, tzinfo=UTC)


def _mistake(original: str, written: str, verb: str, tense: str, person: str, form: str) -> CorrectionResult:
    start = original.index(written)
    spanish = load_scope().cell(verb, tense, person).spanish[0]  # a whole §A13 answer: bundles are checked
    output = {"original": original, "verb": verb, "tense": tense, "person": person, "correct_form": form,
              "spanish": spanish}
    return CorrectionResult(original=original, output=output, out_of_scope=False, is_correct=False, confidence=0.9,
                            error_span=written, error_start=start, error_end=start + len(written))


@pytest.fixture
def learner_store(tmp_path: Path):
    """A learner's own store: Rosa's mistakes, her cards and two answers."""
    with Store.open(tmp_path / "rosa.db") as store:
        for n in range(30):  # enough cards and answers to need several pieces
            store.save_correction(_mistake(f"Yesterday he go to school with friend {n}.", "go", "go", "past simple",
                                           "3rd singular", "went"), learner="Rosa")
        store.save_correction(_mistake("She have two dogs.", "have", "have", "present simple", "3rd singular",
                                       "has"), learner="Rosa")
        practice = Practice(store)
        for card in practice.due("Rosa", now=NOW, limit=200):
            practice.answer("Rosa", card["id"], "goed", now=NOW)
        yield store


def test_push_sends_the_state_in_pieces_and_twice_adds_nothing(live_server, learner_store):
    client = ClassClient(live_server.url, live_server.token)
    first = push(learner_store, client, "Rosa")
    assert first["pieces"] > 1 and first["reviews_new"] == len(section(learner_store, 1)["reviews"])
    again = push(learner_store, client, "Rosa")
    assert again["cards_new"] == again["cards_updated"] == again["reviews_new"] == 0
    server = Practice(live_server.store)
    assert {c["id"] for c in server.cards("Rosa")} == {c["id"] for c in Practice(learner_store).cards("Rosa")}
    info = learner_info(live_server.store, "Rosa")
    assert info["uuid"] == learner_info(learner_store, "Rosa")["uuid"]  # the same learner, matched by UUID


def test_the_server_lists_a_learners_due_cards_and_progress(live_server, learner_store):
    client = ClassClient(live_server.url, live_server.token)
    push(learner_store, client, "Rosa")  # Rosa's first contact: the server issues her key, the client keeps it
    uuid = learner_info(learner_store, "Rosa")["uuid"]
    # the server files her under her UUID; a Rosa of an earlier test (another UUID) keeps the plain name
    [name] = [r["name"] for r in live_server.store._conns.get().query("SELECT name FROM learners WHERE uuid = ?",
                                                                          [uuid])]
    path = f"/v1/learners/{quote(name)}/practice"
    _, listing = client.call("GET", path, learner=(name, uuid))
    assert listing["learner"] == name and listing["count"] >= 1
    assert all(set(c["cell"]) == {"verb", "tense", "person"} for c in listing["due"])
    assert listing["progress"]["practice"]["answers"] >= 30
    # the class code alone opens nobody's practice (docs/access.md), nor does a stranger's request
    assert client.request("GET", path)[0] == 403
    assert client.request("GET", "/v1/learners/Nobody/practice")[0] == 403
    assert ClassClient(live_server.url, "").request("GET", "/v1/learners/Rosa/practice", token=False)[0] == 401


def test_a_damaged_piece_is_refused_and_nothing_is_merged(live_server, learner_store):
    client = ClassClient(live_server.url, live_server.token)
    info = learner_info(learner_store, "Rosa")
    piece = chunks(section(learner_store, info["id"]), MAX_PIECE_BYTES)[0]
    piece["reviews"][0]["given"] = "went"  # changed after the digest
    status, _, answer = client.request("POST", "/v1/practice", {"learner": "Rosa", "learner_uuid": info["uuid"],
                                                                  "practice": piece})
    message = str(answer.get("detail") or answer.get("error"))
    assert status == 422 and "sha256" in message and "nothing was merged" in message
    given = {r["given"] for r in live_server.store._conns.get().query("SELECT given FROM card_reviews")}
    assert "went" not in given


def test_an_upload_bundle_carries_practice_too(live_server, tmp_path):
    with Store.open(tmp_path / "tiny.db") as store:
        store.save_correction(_mistake("She have a cat.", "have", "have", "present simple", "3rd singular", "has"),
                              learner="Teo")
        practice = Practice(store)
        card = practice.due("Teo", now=NOW)[0]
        practice.answer("Teo", card["id"], "has", now=NOW)
        info = learner_info(store, "Teo")
        bundle = make_bundle(info, store.history("Teo"))
        bundle["practice"] = section(store, info["id"])
        assert len(json.dumps(bundle).encode()) < MAX_PIECE_BYTES
    answer = ClassClient(live_server.url, live_server.token).upload(bundle)
    assert answer["new"] == 1
    cards = Practice(live_server.store).cards("Teo")
    assert card["id"] in {c["id"] for c in cards} and next(c for c in cards if c["id"] == card["id"])["reps"] == 1


def test_an_integer_beyond_sqlite_is_a_json_422_over_http_and_nothing_is_stored(live_server, learner_store):
    """Issue 32, item 5, through the real server: 2^64 in a practice card's `reps` or in an uploaded correction
    row is refused with a JSON error naming the field (never a 500 in plain text), and nothing of it is kept."""
    from tutor.store.bundle import _digest
    from tutor.store.practice_rows import digest

    client = ClassClient(live_server.url, live_server.token)
    info = learner_info(learner_store, "Rosa")
    piece = chunks(section(learner_store, info["id"]), MAX_PIECE_BYTES)[0]
    piece["cards"][0]["reps"] = 2**64
    piece["sha256"] = digest(piece)  # anyone can recompute it: the field's own check must catch it
    status, _, answer = client.request("POST", "/v1/practice", {"learner": "Rosa", "learner_uuid": info["uuid"],
                                                                 "practice": piece})
    assert status == 422 and isinstance(answer, dict) and "reps" in str(answer.get("error") or answer.get("detail"))
    assert live_server.store.find_learner("Rosa") is None or all(
        c["reps"] < 2**63 for c in Practice(live_server.store).cards("Rosa"))

    bundle = make_bundle(info, learner_store.history("Rosa")[:1])
    bundle["corrections"][0]["error_start"] = 2**64
    bundle["sha256"] = _digest(bundle["learner"], bundle["corrections"])
    from tutor.server.client import ServerError

    with pytest.raises(ServerError) as refused:  # with Rosa's key, as her laptop's outbox sends it
        client.upload(bundle)
    assert refused.value.status == 422 and "error_start" in str(refused.value), str(refused.value)
    row_id = bundle["corrections"][0]["id"]
    assert live_server.store.get(row_id) is None
