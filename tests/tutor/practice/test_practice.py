"""Practice over a real SQLite store: cards built once from the mistakes, FSRS scheduling, answers kept."""

from __future__ import annotations

import itertools
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from tutor.errors import InputError, StoreError
from tutor.practice import Practice, progress
from tutor.result import CorrectionResult
from tutor.store import Store, schema

from .conftest import THREE, mistake

NOW = datetime(2025, 3, 3, 10, 0, tzinfo=UTC)


def test_three_mistakes_give_at_least_three_due_cards_each_naming_its_cell(three_mistakes):
    due = Practice(three_mistakes).due("Ana", now=NOW)
    assert len(due) >= 3
    assert [c["prompt"] for c in due[:3]] == [
        "Yesterday he ___ (go) to school.", "She ___ (have) two dogs.", "I have ___ (eat) the cake."]
    for card in due:
        assert set(card["cell"]) == {"verb", "tense", "person"}
        assert card["answer"] not in card["prompt"]


def test_building_twice_adds_nothing(three_mistakes):
    practice = Practice(three_mistakes)
    first = practice.build("Ana", now=NOW)
    assert first >= 3 and practice.build("Ana", now=NOW) == 0
    three_mistakes.save_correction(mistake("He goed home.", "goed", "go", "past simple", "3rd singular", "went"),
                                   learner="Ana")
    assert practice.build("Ana", now=NOW) >= 1  # only the new mistake, and its variants not yet there


def test_a_right_answer_leaves_the_due_list_and_a_wrong_one_stays(three_mistakes):
    practice = Practice(three_mistakes)
    due = practice.due("Ana", now=NOW)
    right, wrong = due[0], due[1]
    later = NOW + timedelta(seconds=5)
    done = practice.answer("Ana", right["id"], "  WENT. ", now=later)
    assert done["correct"] and not done["still_due"] and done["due"] > "2025-03-03T10:00:05"
    missed = practice.answer("Ana", wrong["id"], "have", now=later)
    assert not missed["correct"] and missed["still_due"] and missed["answer"] == "has"
    assert missed["explanation_en"] and missed["explanation_es"]
    ids = [c["id"] for c in practice.due("Ana", now=later + timedelta(seconds=1))]
    assert right["id"] not in ids and wrong["id"] in ids
    assert ids.index(wrong["id"]) > ids.index(due[2]["id"])  # it goes behind the cards already waiting


def test_the_daily_schedule_brings_a_right_answer_back_after_a_day_and_a_wrong_one_stays_due(three_mistakes):
    from tutor.practice.schedule import parse_stamp

    standard, daily = Practice(three_mistakes), Practice(three_mistakes, daily=True)
    first, second, third = daily.due("Ana", now=NOW)[:3]
    step = parse_stamp(standard.answer("Ana", first["id"], "went", now=NOW)["due"]) - NOW
    done = daily.answer("Ana", second["id"], second["answer"], now=NOW)
    assert step < timedelta(hours=1) and parse_stamp(done["due"]) - NOW >= timedelta(days=1)
    later = parse_stamp(daily.answer("Ana", first["id"], "went", now=NOW + step)["due"])  # leaves its steps
    assert later - (NOW + step) >= timedelta(days=1)
    missed = daily.answer("Ana", third["id"], "xx", now=NOW)
    assert missed["still_due"]


def test_curly_apostrophes_and_case_are_normalised(store):
    store.save_correction(mistake("She will goes home.", "will goes", "go", "simple future", "3rd singular",
                                  "will go"), learner="Bo")
    practice = Practice(store)
    [card] = [c for c in practice.due("Bo", now=NOW) if c["origin"] == "mistake"]
    assert practice.answer("Bo", card["id"], "Will   Go", now=NOW)["correct"]


def test_fsrs_moves_a_card_on_with_each_right_answer(three_mistakes):
    practice = Practice(three_mistakes)
    card = practice.due("Ana", now=NOW)[0]
    when = NOW
    dues = []
    for _ in range(4):
        done = practice.answer("Ana", card["id"], card["answer"], now=when)
        dues.append(done["due"])
        when = datetime.strptime(done["due"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    gaps = [b > a for a, b in itertools.pairwise(dues)]
    assert all(gaps)
    stored = practice.card("Ana", card["id"])
    assert stored["reps"] == 4 and stored["lapses"] == 0 and stored["state"] == 2  # Review


def test_every_answer_is_kept(three_mistakes, tmp_path):
    practice = Practice(three_mistakes)
    card = practice.due("Ana", now=NOW)[0]
    practice.answer("Ana", card["id"][:8], "goed", now=NOW)
    practice.answer("Ana", card["id"], "went", now=NOW)
    with sqlite3.connect(three_mistakes.path) as conn:
        rows = conn.execute("SELECT given, correct, rating FROM card_reviews ORDER BY seq").fetchall()
    assert rows == [("goed", 0, 1), ("went", 1, 3)]


def test_bad_answers_and_ids_get_clear_errors(three_mistakes):
    practice = Practice(three_mistakes)
    card = practice.due("Ana", now=NOW)[0]
    with pytest.raises(InputError, match="empty"):
        practice.answer("Ana", card["id"], "   ")
    with pytest.raises(InputError, match="at most"):
        practice.answer("Ana", card["id"], "went " * 30)
    with pytest.raises(InputError, match="too short"):
        practice.answer("Ana", "ab", "went")
    with pytest.raises(InputError, match="no practice card"):
        practice.answer("Ana", "ffffffff", "went")
    with pytest.raises(StoreError, match="known learners: Ana"):
        practice.due("Nobody")
    assert practice.card("Ana", card["id"])["reps"] == 0  # nothing was graded


def test_retries_unsure_findings_and_correct_sentences_make_no_cards(store):
    store.save_correction(CorrectionResult(original="I like tea.", output={}, out_of_scope=False, is_correct=True,
                                           confidence=0.9), learner="Cy")
    store.save_correction(mistake(*THREE[0], kind="review"), learner="Cy")
    store.save_correction(mistake(*THREE[1], not_sure=True), learner="Cy")
    assert Practice(store).due("Cy", now=NOW) == []


def test_another_learners_cards_are_not_reachable(three_mistakes):
    three_mistakes.save_correction(mistake(*THREE[0]), learner="Bo")
    practice = Practice(three_mistakes)
    ana = practice.due("Ana", now=NOW)[0]
    with pytest.raises(InputError, match="Bo has no practice card"):
        practice.answer("Bo", ana["id"], "went")


def test_progress_counts_errors_per_100_words_cells_types_and_mastery(three_mistakes):
    practice = Practice(three_mistakes)
    report = progress(three_mistakes, "Ana")
    [week] = report["weeks"]
    assert week["words"] == 5 + 4 + 5 + 3 and week["errors"] == 3
    assert week["per_100_words"] == round(300 / 17, 2)
    assert report["error_types"] == {"base_for_past": 1, "wrong_have": 1, "wrong_participle": 1}
    assert report["mastered"] == []
    card = practice.due("Ana", now=NOW)[0]
    when = NOW
    for _ in range(6):  # right every time, each when due: FSRS stability grows past the threshold
        done = practice.answer("Ana", card["id"], card["answer"], now=when)
        when = datetime.strptime(done["due"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    cells = {(c["verb"], c["tense"], c["person"]): c for c in progress(three_mistakes, "Ana")["cells"]}
    went = cells[("go", "past simple", "3rd singular")]
    assert went["right"] == 6 and went["errors"] == 1 and went["cards"] == 1 and went["mastered"]
    assert progress(three_mistakes, "Ana")["mastered"] == [{"verb": "go", "tense": "past simple",
                                                            "person": "3rd singular"}]


def test_the_class_view_adds_learners_up_and_finds_the_cells_that_keep_going_wrong(three_mistakes):
    for learner in ("Bo", "Cy"):
        three_mistakes.save_correction(mistake(*THREE[1]), learner=learner)
    practice = Practice(three_mistakes)
    for learner in ("Ana", "Bo", "Cy"):
        practice.due(learner, now=NOW)
    has = next(c for c in practice.due("Bo", now=NOW) if c["answer"] == "has")
    practice.answer("Bo", has["id"], "have", now=NOW)
    report = progress(three_mistakes)
    top = report["trouble"][0]
    assert (top["verb"], top["tense"], top["person"]) == ("have", "present simple", "3rd singular")
    assert top["errors"] == 3 and top["wrong"] == 1 and top["learners"] == 3
    assert report["practice"]["answers"] == 1 and report["practice"]["right"] == 0


def test_an_older_store_is_upgraded_with_the_practice_tables(tmp_path):
    path = tmp_path / "old.db"
    with Store.open(path) as store:
        store.save_correction(mistake(*THREE[0]), learner="Ana")
    with sqlite3.connect(path) as conn:  # make it a version-6 file (migration 8, an index, came after 7)
        conn.execute("DROP INDEX idx_corrections_model_total_ms")
        conn.execute("DROP TABLE card_reviews")
        conn.execute("DROP TABLE card_sources")
        conn.execute("DROP TABLE cards")
        conn.execute("DROP INDEX IF EXISTS idx_corrections_model_total_ms")  # migration 8's
        conn.execute("ALTER TABLE corrections DROP COLUMN noted")  # migration 9's
        conn.execute("DELETE FROM schema_version WHERE version >= 7")
    with Store.open(path) as store:
        assert store.schema_version == schema.LATEST
        assert len(Practice(store).due("Ana", now=NOW)) >= 1
