"""The practice state in learners' bundles: written with the history, merged exactly once, refused when damaged."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from tutor.errors import StoreError
from tutor.practice import Practice, progress
from tutor.practice.bundle import chunks
from tutor.store import Store
from tutor.store.bundle import import_files, read_bundle, write_bundle
from tutor.store.practice_rows import section
from tutor.store.practice_rows import section_problem as problem

from .conftest import THREE, mistake

NOW = datetime(2025, 3, 3, 10, 0, tzinfo=UTC)


@pytest.fixture
def learner_bundle(three_mistakes, tmp_path):
    """Ana practises on her machine (one right answer, one wrong) and writes her bundle."""
    practice = Practice(three_mistakes)
    due = practice.due("Ana", now=NOW)
    practice.answer("Ana", due[0]["id"], due[0]["answer"], now=NOW)
    practice.answer("Ana", due[1]["id"], "haves", now=NOW)
    path = tmp_path / "ana.json"
    write_bundle(three_mistakes, "Ana", path)
    return path


def test_the_bundle_carries_cards_answers_and_their_schedule(learner_bundle, three_mistakes):
    bundle = json.loads(learner_bundle.read_text(encoding="utf-8"))
    carried = bundle["practice"]
    assert len(carried["cards"]) == len(Practice(three_mistakes).cards("Ana"))
    assert [(r["given"], r["correct"]) for r in carried["reviews"]] == [("went", True), ("haves", False)]
    assert len(carried["sources"]) == 3 and problem(carried) is None


def test_importing_twice_adds_nothing_and_the_teacher_sees_the_same_state(learner_bundle, three_mistakes, tmp_path):
    with Store.open(tmp_path / "teacher.db") as teacher:
        [first] = list(import_files(teacher, [learner_bundle]))
        assert first.practice["reviews_new"] == 2 and first.practice["cards_new"] >= 3
        assert "practice:" in first.line()
        [again] = list(import_files(teacher, [learner_bundle]))
        assert again.new == 0 and again.practice == {"cards_new": 0, "cards_updated": 0, "reviews_new": 0}
        theirs = {c["id"]: (c["due"], c["reps"]) for c in Practice(teacher).cards("Ana")}
        ours = {c["id"]: (c["due"], c["reps"]) for c in Practice(three_mistakes).cards("Ana")}
        assert theirs == ours
        assert Practice(teacher).build("Ana", now=NOW) == 0  # the mistakes' cards came with the bundle
        assert progress(teacher, "Ana")["practice"]["answers"] == 2


def test_a_newer_state_wins_and_an_older_bundle_changes_nothing(learner_bundle, three_mistakes, tmp_path):
    old = read_bundle(learner_bundle)
    practice = Practice(three_mistakes)
    card = practice.due("Ana", now=NOW + timedelta(hours=1))[0]
    practice.answer("Ana", card["id"], card["answer"], now=NOW + timedelta(hours=1))
    newer = tmp_path / "ana-newer.json"
    write_bundle(three_mistakes, "Ana", newer)
    with Store.open(tmp_path / "teacher.db") as teacher:
        list(import_files(teacher, [newer]))
        [older] = list(import_files(teacher, [learner_bundle]))
        assert older.practice["cards_updated"] == 0 and older.practice["reviews_new"] == 0
        assert Practice(teacher).card("Ana", card["id"])["reps"] == practice.card("Ana", card["id"])["reps"]
    assert old["practice"]["sha256"] != read_bundle(newer)["practice"]["sha256"]


def test_a_damaged_practice_section_refuses_the_whole_bundle(learner_bundle, tmp_path):
    bundle = json.loads(learner_bundle.read_text(encoding="utf-8"))
    bundle["practice"]["cards"][0]["answer"] = "goed"
    learner_bundle.write_text(json.dumps(bundle), encoding="utf-8")
    with pytest.raises(StoreError, match="practice section does not match its sha256"):
        read_bundle(learner_bundle)


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s["cards"][0].update(verb="fly"), "names no §A13 cell"),
    (lambda s: s["cards"][0].update(due="yesterday"), "UTC format"),
    (lambda s: s["reviews"][0].update(card_id="0b7f1c1e-1d2a-4c3b-9a8d-7e6f5a4b3c2d"), "names a card"),
    (lambda s: s["reviews"][0].update(rating=9), "rating"),
    (lambda s: s.update(cards="none"), "lacks the lists"),
])
def test_each_kind_of_damage_is_named(learner_bundle, change, message):
    carried = json.loads(learner_bundle.read_text(encoding="utf-8"))["practice"]
    change(carried)
    from tutor.store.practice_rows import with_digest

    if isinstance(carried["cards"], list):
        carried = with_digest(carried)  # a well-formed digest over bad content: the content check must catch it
    assert message in problem(carried)


def test_a_bundle_without_practice_still_imports(three_mistakes, tmp_path):
    path = tmp_path / "old.json"
    write_bundle(three_mistakes, "Ana", path)
    bundle = json.loads(path.read_text(encoding="utf-8"))
    del bundle["practice"]
    path.write_text(json.dumps(bundle), encoding="utf-8")
    with Store.open(tmp_path / "teacher.db") as teacher:
        [summary] = list(import_files(teacher, [path]))
        assert summary.new == 4 and summary.practice is None
        assert len(Practice(teacher).due("Ana", now=NOW)) >= 3  # the teacher's copy builds its own cards


def test_pieces_stay_under_the_limit_and_together_carry_everything(store):
    for n in range(40):
        store.save_correction(mistake(f"Yesterday he go to school number {n}.", "go", "go", "past simple",
                                      "3rd singular", "went"), learner="Ana")
    practice = Practice(store)
    for card in practice.due("Ana", now=NOW, limit=200):
        practice.answer("Ana", card["id"], "goed", now=NOW)
    whole = section(store, practice.learner("Ana")[0])
    pieces = chunks(whole, 4000)
    assert len(pieces) > 3
    assert all(len(json.dumps(p, ensure_ascii=False).encode()) < 4000 + 1500 for p in pieces)
    assert {c["id"] for p in pieces for c in p["cards"]} == {c["id"] for c in whole["cards"]}
    assert sum(len(p["reviews"]) for p in pieces) == len(whole["reviews"]) and all(problem(p) is None for p in pieces)


def test_a_card_with_more_answers_than_fit_goes_again_with_the_rest(three_mistakes):
    practice = Practice(three_mistakes)
    card = practice.due("Ana", now=NOW)[0]
    for n in range(60):
        practice.answer("Ana", card["id"], f"goed{n}", now=NOW)
    whole = section(three_mistakes, practice.learner("Ana")[0])
    pieces = chunks(whole, 3000)
    assert all(len(json.dumps({k: p[k] for k in ("cards", "reviews")}).encode()) <= 3000 + 200 for p in pieces)
    assert sorted(r["id"] for p in pieces for r in p["reviews"]) == sorted(r["id"] for r in whole["reviews"])
    assert all(problem(p) is None for p in pieces)


def test_another_learners_bundle_never_touches_this_learners_cards(three_mistakes, tmp_path):
    three_mistakes.save_correction(mistake(*THREE[0]), learner="Bo")
    Practice(three_mistakes).due("Bo", now=NOW)
    path = tmp_path / "bo.json"
    write_bundle(three_mistakes, "Bo", path)
    bo_cards = {c["id"] for c in json.loads(path.read_text(encoding="utf-8"))["practice"]["cards"]}
    ana_cards = {c["id"] for c in Practice(three_mistakes).cards("Ana")}
    assert bo_cards and not bo_cards & ana_cards  # card UUIDs depend on the learner
