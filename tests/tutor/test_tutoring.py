"""Tutoring, the use case both faces call: the real model corrects or checks, a real SQLite file records it."""

from __future__ import annotations

import pytest

from tutor.store import Store
from tutor.tutoring import Tutoring

WRONG = "He goed to school yesterday."
TEXT = "Yesterday my brother goed to the park. He have a new bike. We was happy."


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "tutor.db") as store:
        yield store


def test_a_correction_is_recorded_with_its_learner_kind_and_masking_latency(tutor_engine, store):
    done = Tutoring(tutor_engine, store).correct(WRONG, learner="Ana")
    assert done.saved and done.save_error is None and len(done.row_ids) == 1
    assert not done.result.is_correct and done.result.output["correct_form"] == "went"
    row = store.get(done.row_ids[0])
    assert row["learner"] == "Ana" and row["kind"] == "correct" and row["original"] == WRONG
    assert row["correct_form"] == "went" and not row["is_correct"] and not row["not_sure"]
    timings = done.result.timings
    assert timings.tokens_forced > 0 and row["tokens_forced"] == timings.tokens_forced  # the latency is kept
    for column in ("total_ms", "prompt_ms", "forward_ms", "mask_p50_us", "mask_p99_us", "mask_max_us"):
        assert row[column] == pytest.approx(getattr(timings, column))
    assert row["mask_us"] == pytest.approx(list(timings.mask_us))
    assert store.mistakes("Ana")[0]["id"] == done.row_ids[0]


def test_no_learner_or_no_store_records_nothing(tutor_engine, store):
    for learner in (None, ""):
        done = Tutoring(tutor_engine, store).correct(WRONG, learner=learner)
        assert not done.recorded and done.row_ids == () and done.result.output["correct_form"] == "went"
    assert not Tutoring(tutor_engine, None).correct(WRONG, learner="Ana").recorded
    assert store.count_history() == 0 and store.learners() == []


def test_a_retry_in_review_is_kept_as_practice(tutor_engine, store):
    tutoring = Tutoring(tutor_engine, store)
    first = tutoring.correct(WRONG, learner="Ana")
    counts = store.error_counts("Ana")
    retry = tutoring.correct(WRONG, learner="Ana", review=True)
    assert retry.result.kind == "review" and store.get(retry.row_ids[0])["kind"] == "review"
    assert store.error_counts("Ana") == counts  # out of the teacher's statistics
    assert [row["id"] for row in tutoring.mistakes("Ana")] == [first.row_ids[0]]  # not asked again


def test_a_check_records_each_finding_with_its_source_text(tutor_engine, store):
    done = Tutoring(tutor_engine, store).check(TEXT, learner="Ben")
    findings = done.result.findings
    assert findings and done.saved and len(done.row_ids) == len(findings)
    rows = [store.get(row_id) for row_id in done.row_ids]
    assert [row["original"] for row in rows] == [f.original for f in findings]
    assert [row["error_span"] for row in rows] == [f.written for f in findings]
    assert [row["not_sure"] for row in rows] == [not f.sure for f in findings]
    assert all(row["kind"] == "check" and row["source_text"] == TEXT and row["learner"] == "Ben" for row in rows)


def test_a_store_failure_keeps_the_result_and_says_why(tutor_engine, tmp_path):
    store = Store.open(tmp_path / "closed.db")
    store.close()  # any write now fails with a StoreError
    done = Tutoring(tutor_engine, store).correct(WRONG, learner="Ana")
    assert done.recorded and not done.saved and done.row_ids == ()
    assert "closed" in str(done.save_error) and done.result.output["correct_form"] == "went"
    checked = Tutoring(tutor_engine, store).check(TEXT, learner="Ana")
    assert checked.result.findings and checked.save_error is not None
