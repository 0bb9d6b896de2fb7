"""A learner's first request whose answer was lost: retried with its request id, it gets the same key again."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from tutor.server.access import Access, Forbidden
from tutor.store import Store


def test_a_retried_first_request_gets_its_key_again_and_no_other_request_does(tmp_path: Path) -> None:
    request = str(uuid.uuid4())
    with Store.open(tmp_path / "class.db") as store:
        first = Access(store).writer("Ana", None, None, None, request)
        assert first.issued_key
        again = Access(store).writer("Ana", None, None, None, request)  # another server: a new Access, one store
        assert again.issued_key == first.issued_key and again.learner_id == first.learner_id
        with pytest.raises(Forbidden):  # a new request without the key is someone else
            Access(store).writer("Ana", None, None, None, str(uuid.uuid4()))
        with pytest.raises(Forbidden):
            Access(store).writer("Ana", None, None, None, None)
        assert Access(store).writer("Ana", None, first.issued_key, None).issued_key is None  # the key works
