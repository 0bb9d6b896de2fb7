"""What the class server stores and answers, field by field of the correction record, over real HTTP."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from tutor.record import FIELDS
from tutor.server import records
from tutor.server.client import ClassClient

pytestmark = pytest.mark.model


def test_the_detail_answer_and_the_stored_row_agree_on_every_field_of_the_result(live_server) -> None:
    client = ClassClient(live_server.url, live_server.token)
    result, row_id = client.correct_detail("Rosa", "She have gone to the bank", request_id=str(uuid.uuid4()))
    (row,) = [r for r in live_server.store.history("Rosa") if r["id"] == row_id]
    for f in FIELDS:
        if f.source == "result":
            assert row[f.name] == getattr(result, f.name), f.name
        elif f.source == "timings":
            assert row[f.name] == pytest.approx(getattr(result.timings, f.name)), f.name
    assert not result.is_correct and result.error_span and result.explanation_es


def test_a_detail_from_an_older_server_keeps_the_defaults_of_what_it_does_not_send(tutor_engine) -> None:
    result = tutor_engine.correct("She have gone to the bank")
    sent = records.detail(result, str(uuid.uuid4()))
    for later in ("kind", "source_text", "not_sure", "noted", "out_of_scope_reason"):
        sent.pop(later)
    back = records.from_detail(sent)
    assert back == dataclasses.replace(result, timings=back.timings, out_of_scope_reason="", others=())
    assert back.timings.to_dict() == result.timings.to_dict()
