"""The Store is the only writer: idempotent saves, the outbox, learner keys, and no SQL connection elsewhere."""

from __future__ import annotations

import ast
import uuid
from pathlib import Path

import pytest

from tutor.errors import ConflictError
from tutor.store import Store
from tutor.store.learner_keys import app_key, claim_learner, keep_app_key, server_key_hash

from .conftest import make_result

ROOT = Path(__file__).resolve().parents[3]


def test_no_module_outside_the_store_reaches_its_connections() -> None:
    """Every read and write of the SQLite file goes through tutor/store (a Store method or a tutor/store module)."""
    offenders = []
    for folder in ("tutor", "app"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.is_relative_to(ROOT / "tutor" / "store"):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree)
                          if isinstance(node, ast.Attribute) and node.attr == "_conns"]
    assert offenders == [], "SQL outside tutor/store: " + ", ".join(offenders)


def test_saving_under_given_uuids_twice_stores_each_row_once(store: Store) -> None:
    ids = [str(uuid.uuid4()), str(uuid.uuid4())]
    items = [(ids[0], make_result("She go home")), (ids[1], make_result("He go out"))]
    assert store.save_once("Ana", items) == 2
    assert store.save_once("Ana", items) == 0  # a retry after a lost answer
    assert store.count_history("Ana") == 2
    assert {row["id"] for row in store.history("Ana")} == set(ids)


def test_a_uuid_holding_another_text_is_refused_and_nothing_is_stored(store: Store) -> None:
    taken = str(uuid.uuid4())
    store.save_once("Ana", [(taken, make_result("She go home"))])
    fresh = str(uuid.uuid4())
    with pytest.raises(ConflictError, match="already in"):
        store.save_once("Ana", [(fresh, make_result("We go out")), (taken, make_result("They go away"))])
    assert store.get(fresh) is None and store.count_history() == 1  # the whole batch rolled back
    with pytest.raises(ConflictError):
        store.save_once("Bo", [(taken, make_result("She go home"))])  # the same text under another learner


def test_the_outbox_queues_each_row_once_and_forgets_only_what_it_is_told(store: Store) -> None:
    first, second = store.save_corrections([make_result("She go home"), make_result("He go out")], learner="Ana")
    other = store.save_correction(make_result("I goes"), learner="Bo")
    store.queue_upload([first, second])
    store.queue_upload([first, other])
    assert store.queued_count() == 3
    groups = {head["name"]: [row["id"] for row in rows] for head, rows in store.queued_rows()}
    assert groups == {"Ana": [first, second], "Bo": [other]}
    heads = {head["name"]: head for head, _ in store.queued_rows()}
    assert heads["Ana"]["uuid"] == store.find_learner("Ana")["uuid"]
    store.unqueue([first, other])
    assert store.queued_count() == 1 and [r["id"] for _, rows in store.queued_rows() for r in rows] == [second]
    assert store.count_history() == 3  # the rows stay


def test_a_learner_is_claimed_and_keyed_in_one_transaction(store: Store) -> None:
    seen = []

    def issue(claim):
        seen.append(claim)
        return "sha256$" + "0" * 64 if claim.created else None

    claim = claim_learner(store, "Luz", None, issue)
    assert claim.created and claim.key_hash is None and server_key_hash(store, claim.uuid) == "sha256$" + "0" * 64
    again = claim_learner(store, "LUZ", None, issue)
    assert not again.created and again.id == claim.id and again.key_hash == "sha256$" + "0" * 64

    def refuse(claim):
        raise PermissionError("not yours")

    with pytest.raises(PermissionError):
        claim_learner(store, "Mar", None, refuse)
    assert store.find_learner("Mar") is None  # refused inside the transaction: the new learner was rolled back


def test_an_apps_learner_key_is_kept_per_server(store: Store) -> None:
    learner_uuid = store.find_learner(store.ensure_learner("Ana"))["uuid"]
    assert app_key(store, learner_uuid, "http://a:1") is None
    keep_app_key(store, learner_uuid, "http://a:1", "key-1")
    keep_app_key(store, learner_uuid, "http://a:1", "key-2")  # a server started afresh issues another
    keep_app_key(store, learner_uuid, "http://b:2", "key-b")
    assert app_key(store, learner_uuid, "http://a:1") == "key-2"
    assert app_key(store, learner_uuid, "http://b:2") == "key-b"
