"""The Store's public API over a real SQLite file: saving, learners, history filters and statistics."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from tutor.errors import StoreError
from tutor.store import Store

from .conftest import make_result


def test_save_correction_round_trips_every_field(store: Store) -> None:
    result = make_result(mask_us=(1.5, 2.25, 40.0))
    uid = store.save_correction(result, learner="Ana")
    assert uuid.UUID(uid).version == 4
    row = store.get(uid)
    assert row is not None
    assert row["learner"] == "Ana"
    assert row["output"] == result.output
    assert (row["verb"], row["tense"], row["person"]) == ("go", "present simple", "3rd singular")
    assert (row["correct_form"], row["spanish"]) == ("goes", "va")
    assert row["is_correct"] is False and row["out_of_scope"] is False
    assert row["model_name"] == "smollm2-135m" and row["model_sha256"] == "ab" * 32
    assert row["settings"] == {"temperature": 0.0}
    assert row["explanation_es"] == "Con he/she/it se añade -s."
    for key, value in result.timings.to_dict().items():
        assert row[key] == pytest.approx(value)
    assert row["mask_us"] == [1.5, 2.25, 40.0]  # exactly representable in float32
    assert row["created"].endswith("Z")


def test_keyword_model_and_settings_override_the_result(store: Store) -> None:
    uid = store.save_correction(make_result(), learner="Ana", model_name="other", model_sha256="cd" * 32,
                                settings={"top_k": 1})
    row = store.get(uid)
    assert row is not None
    assert (row["model_name"], row["model_sha256"], row["settings"]) == ("other", "cd" * 32, {"top_k": 1})


def test_a_saved_correction_is_visible_to_another_connection(store: Store, store_target: Path | str) -> None:
    uid = store.save_correction(make_result(), learner="Ana")
    with Store.open(store_target) as other:  # another pool or file connection: the write was committed
        assert other.get(uid) is not None and other.count_history("Ana") == 1


def test_out_of_scope_result_is_stored_without_cell(store: Store) -> None:
    uid = store.save_correction(make_result("I am happy", out_of_scope=True), learner="Ana")
    row = store.get(uid)
    assert row is not None
    assert row["out_of_scope"] is True
    assert row["verb"] is None and row["output"] == {"original": "I am happy", "out_of_scope": True}


def test_learners_are_case_insensitive_and_trimmed(store: Store) -> None:
    first = store.ensure_learner("Ana")
    assert store.ensure_learner("  ana ") == first
    assert store.ensure_learner("Bo") != first
    store.save_correction(make_result(), learner="ANA")
    listed = {row["name"]: row["corrections"] for row in store.learners()}
    assert listed == {"Ana": 1, "Bo": 0}
    assert store.find_learner(first)["name"] == "Ana"
    assert store.find_learner("nobody") is None


def test_learner_by_id_must_exist(store: Store) -> None:
    lid = store.ensure_learner("Ana")
    store.save_correction(make_result(), learner=lid)
    with pytest.raises(StoreError, match="no learner with id 999"):
        store.save_correction(make_result(), learner=999)
    with pytest.raises(StoreError, match="needs a name"):
        store.ensure_learner("   ")


def test_history_is_newest_first_and_pages(store: Store) -> None:
    start = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
    hour = timedelta(hours=1)
    ids = [store.save_correction(make_result(f"She go {i}"), learner="Ana", created=start + i * hour)
           for i in range(25)]
    page1 = store.history("Ana", limit=10)
    page3 = store.history("Ana", limit=10, offset=20)
    assert [r["id"] for r in page1] == ids[::-1][:10]
    assert [r["id"] for r in page3] == ids[::-1][20:]
    assert store.count_history("Ana") == 25
    assert store.history("nobody") == [] and store.count_history("nobody") == 0


def test_history_filters(store: Store) -> None:
    day = datetime(2025, 3, 3, 12, 0, tzinfo=UTC)
    store.save_correction(make_result("She go to school"), learner="Ana", created=day)
    ate = make_result("I eated pizza", verb="eat", tense="past simple", person="1st singular",
                      correct_form="ate", spanish="comí")
    store.save_correction(ate, learner="Ana", created=day + timedelta(days=2))
    plays = make_result("He play football", verb="play", correct_form="plays", spanish="juega")
    store.save_correction(plays, learner="Bo", created=day + timedelta(days=9))
    goes = make_result("She goes home", is_correct=True)
    store.save_correction(goes, learner="Bo", created=day + timedelta(days=10))

    def originals(**kw: object) -> list[str]:
        rows = store.history(**kw)
        assert store.count_history(**kw) == len(rows)
        return [r["original"] for r in rows]

    assert originals(learner="Bo") == ["She goes home", "He play football"]
    assert originals(verb="eat") == ["I eated pizza"]
    assert originals(tense="present simple", learner="Ana") == ["She go to school"]
    assert originals(person="1st singular") == ["I eated pizza"]
    assert originals(since="2025-03-06", until="2025-03-12") == ["He play football"]
    assert originals(since=date(2025, 3, 6), until=date(2025, 3, 13)) == ["She goes home", "He play football"]
    assert originals(until=datetime(2025, 3, 3, 12, 0, tzinfo=UTC)) == []  # until is exclusive for a datetime
    assert originals(search="school") == ["She go to school"]
    assert originals(search="foot") == ["He play football"]  # words match as prefixes
    assert originals(search="she go") == ["She goes home", "She go to school"]
    assert originals(search="pizza school") == []  # every word must match
    assert originals(search='"; DROP TABLE corrections; --') == []  # FTS syntax is escaped
    assert originals(learner="Bo", only_mistakes=True) == ["He play football"]


def test_bad_date_is_a_clear_error(store: Store) -> None:
    with pytest.raises(ValueError, match="ISO 8601"):
        store.history(since="last tuesday")


def test_mistakes_are_in_scope_errors_newest_first(store: Store) -> None:
    now, day = datetime(2025, 5, 1, tzinfo=UTC), timedelta(days=1)
    store.save_correction(make_result("She go out"), learner="Ana", created=now)
    store.save_correction(make_result("She goes out", is_correct=True), learner="Ana", created=now + day)
    store.save_correction(make_result("Hello", out_of_scope=True), learner="Ana", created=now + 2 * day)
    store.save_correction(make_result("She go in"), learner="Ana", created=now + 3 * day)
    store.save_correction(make_result("He go in"), learner="Bo", created=now + 4 * day)
    assert [r["original"] for r in store.mistakes("Ana")] == ["She go in", "She go out"]
    assert [r["original"] for r in store.mistakes("Ana", limit=1)] == ["She go in"]


def test_error_counts_per_verb_tense_person(store: Store) -> None:
    store.save_correction(make_result(), learner="Ana")
    store.save_correction(make_result(), learner="Ana")
    store.save_correction(make_result(verb="eat", tense="past simple", person="1st singular"), learner="Bo")
    store.save_correction(make_result(is_correct=True), learner="Ana")
    store.save_correction(make_result(out_of_scope=True), learner="Ana")
    counts = store.error_counts()
    assert counts["verb"] == {"go": 2, "eat": 1}
    assert list(counts["verb"]) == ["go", "eat"]  # most frequent first
    assert counts["tense"] == {"present simple": 2, "past simple": 1}
    assert counts["person"] == {"3rd singular": 2, "1st singular": 1}
    assert store.error_counts("Bo")["verb"] == {"eat": 1}
    assert store.error_counts("nobody") == {"verb": {}, "tense": {}, "person": {}}


def test_progress_by_week_groups_on_mondays(store: Store) -> None:
    monday = datetime(2025, 3, 3, 8, tzinfo=UTC)
    store.save_correction(make_result(), learner="Ana", created=monday)
    sunday_night = monday + timedelta(days=6, hours=15)
    store.save_correction(make_result(is_correct=True), learner="Ana", created=sunday_night)
    store.save_correction(make_result(is_correct=True), learner="Bo", created=monday + timedelta(days=7))
    store.save_correction(make_result(out_of_scope=True), learner="Ana", created=monday + timedelta(days=8))
    weeks = store.progress_by_week()
    assert weeks == [
        {"week": "2025-03-03", "total": 2, "correct": 1, "errors": 1, "out_of_scope": 0, "accuracy": 0.5},
        {"week": "2025-03-10", "total": 2, "correct": 1, "errors": 0, "out_of_scope": 1, "accuracy": 1.0},
    ]
    assert [w["total"] for w in store.progress_by_week("Ana")] == [2, 1]
    assert store.progress_by_week("Ana")[1]["accuracy"] is None


def test_latency_summary_per_model(store: Store) -> None:
    for value in (1.0, 2.0, 3.0, 4.0, 100.0):
        store.save_correction(make_result(mask_p50_us=value), learner="Ana")
    store.save_correction(make_result(mask_p50_us=7.0, model_name="other"), learner="Ana")
    store.save_correction(make_result(mask_p50_us=0.0, tokens_sampled=0), learner="Ana")  # mask never ran
    summary = {s["model_name"]: s for s in store.latency_summary()}
    small = summary["smollm2-135m"]
    assert small["corrections"] == 5
    assert small["mask_p50_us"] == 3.0
    assert small["mask_p99_us"] == 300.0  # the p99s are 3x the p50s in make_result
    assert small["mask_max_us"] == 1000.0
    histogram = {b["le_us"]: b["count"] for b in small["histogram"]}
    assert histogram[1] == 1 and histogram[2] == 1 and histogram[5] == 2 and histogram[100] == 1
    assert sum(histogram.values()) == 5 and histogram[None] == 0
    assert summary["other"]["corrections"] == 1 and summary["other"]["mask_p50_us"] == 7.0


def test_save_corrections_is_all_or_nothing(store: Store) -> None:
    good = make_result()
    bad = make_result(settings={"not json": object()})  # json.dumps fails half-way through the batch
    with pytest.raises(TypeError):
        store.save_corrections([good, good, bad], learner="Ana")
    assert store.count_history() == 0
    assert len(store.save_corrections([good, good], learner="Ana")) == 2
    assert store.count_history() == 2


def test_closed_store_says_so(db_path: Path) -> None:
    store = Store.open(db_path)
    store.close()
    with pytest.raises(StoreError, match="was closed"):
        store.history()


def test_wal_and_foreign_keys_are_on(sqlite_store: Store, db_path: Path) -> None:
    store = sqlite_store
    with sqlite3.connect(db_path) as other:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(StoreError, match="FOREIGN KEY"), store._conns.write("test") as db:
        db.execute("INSERT INTO corrections (id, learner_id, created, original, out_of_scope, is_correct,"
                   " output_json) VALUES ('x', 12345, '2025-01-01T00:00:00.000000Z', 'x', 0, 0, '{}')")
    assert store.integrity_check() == ["ok"]


def _check(text: str, *found: tuple[str, str, bool]):
    """Return a CheckResult of `text` with one finding per (written, correct form, sure)."""
    from tutor.text.check import CheckResult, Finding

    findings = []
    for written, form, sure in found:
        start = text.index(written)
        findings.append(Finding(text, "go", "past simple", "3rd singular", form, "fue", start, start + len(written),
                                written, 0.9 if sure else 0.4, "en", "es", sure=sure))
    return CheckResult(text, [(0, len(text))], findings=findings, total_ms=900.0, model_name="smollm2-135m")


def test_checking_the_same_text_again_replaces_its_findings(store: Store) -> None:
    text = "He goed home. Then he goed to bed."
    first = store.save_check(_check(text, ("goed", "went", True)), learner="Ana")
    store.save_correction(make_result("She go to school"), learner="Ana")  # a sentence, not a text: kept
    store.save_check(_check(text, ("goed", "went", True)), learner="Ben")  # another learner's: kept
    assert store.count_history("Ana") == 2 and store.error_counts("Ana")["verb"] == {"go": 2}

    again = store.save_check(_check(text, ("goed", "went", True)), learner="Ana")
    assert store.count_history("Ana") == 2 and store.error_counts("Ana")["verb"] == {"go": 2}
    assert store.get(first[0]) is None and store.get(again[0]) is not None
    assert len(store.mistakes("Ana")) == 2  # "review my mistakes" lists the text's finding once

    spaced = "He goed home.\n\nThen he goed   to bed. "  # the same text, other spacing: still replaced
    store.save_check(_check(spaced, ("goed", "went", True), ("Then", "went", False)), learner="Ana")
    assert store.count_history("Ana") == 3 and store.error_counts("Ana")["verb"] == {"go": 2}

    store.save_check(_check(spaced.replace("bed", "the bed")), learner="Ana")  # edited: another text
    store.save_check(_check(spaced), learner="Ana")  # checked clean now: its findings go
    assert store.count_history("Ana") == 1 and store.count_history("Ben") == 1


def test_the_learner_list_counts_what_the_charts_count(store: Store) -> None:
    from dataclasses import replace

    store.save_correction(make_result(), learner="Ana")
    store.save_correction(make_result(is_correct=True), learner="Ana")
    store.save_correction(replace(make_result(), kind="review"), learner="Ana")  # practice: not in the charts
    store.save_check(_check("He goed home.", ("goed", "went", False)), learner="Ana")  # not sure: not either
    store.ensure_learner("Bo")
    rows = {row["name"]: row for row in store.learners()}
    assert rows["Ana"]["corrections"] == 4 == store.count_history("Ana")
    assert rows["Ana"]["counted"] == 2 == sum(week["total"] for week in store.progress_by_week("Ana"))
    assert rows["Bo"]["corrections"] == 0 and rows["Bo"]["counted"] == 0


def test_latency_summary_has_the_time_per_correction_when_the_mask_never_ran(store: Store) -> None:
    from dataclasses import replace

    from tutor.result import Timings

    def timed(total_ms: float, **kw) -> object:
        return replace(make_result(), timings=Timings(tokens_forced=38, total_ms=total_ms, **kw))

    for total_ms in (40.0, 90.0, 300.0, 800.0, 12000.0):
        store.save_correction(timed(total_ms), learner="Ana")  # the default pipeline: forced, no mask
    store.save_correction(replace(make_result(), timings=Timings(total_ms=0.6)), learner="Ana")  # no model
    store.save_check(_check("He goed home.", ("goed", "went", True)), learner="Ana")  # a text's shared time
    (summary,) = store.latency_summary()
    assert summary["model_name"] == "smollm2-135m" and summary["timed"] == 5 and summary["corrections"] == 0
    assert summary["total_p50_ms"] == 300.0 and summary["total_p99_ms"] == 12000.0
    histogram = {b["le_ms"]: b["count"] for b in summary["time_histogram"]}
    assert histogram[50] == 1 and histogram[100] == 1 and histogram[500] == 1 and histogram[1000] == 1
    assert histogram[None] == 1 and sum(histogram.values()) == 5


def test_a_text_findings_stored_output_confidence_is_clamped_as_every_output_is():
    """A finding the judge is all but certain of is stored with the same at-most-0.9999 `confidence` that
    `check --jsonl` and `correct` report, never 1.0."""
    from tutor.store.records import check_results
    from tutor.text.check import CheckResult, Finding

    finding = Finding(original="She go home.", verb="go", tense="present simple", person="3rd singular",
                      correct_form="goes", spanish="va", start=4, end=6, written="go", confidence=0.999996,
                      explanation_en="", explanation_es="")
    check = CheckResult(text="She go home.", sentences=[(0, 12)], findings=[finding])
    [row] = check_results(check)
    assert row.output["confidence"] == 0.9999
