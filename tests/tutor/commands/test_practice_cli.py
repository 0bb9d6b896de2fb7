"""`grammar-tutor exercises` (earlier `practice`) end to end: mistakes corrected by the real model into a real
SQLite file, then the due cards and the answers through the command line (the issue's Check)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

CLI = [sys.executable, "-m", "tutor.cli"]
MISTAKES = ["Yesterday he go to school.", "She have two dogs.", "I have ate the cake."]


def run(args, db, *, stdin=None):
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(db)}
    return subprocess.run(CLI + args, input=stdin, capture_output=True, text=True, env=env, timeout=600)


def due(db):
    r = run(["exercises", "--learner", "Ana", "--json"], db)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["due"]


@pytest.mark.model
def test_three_corrected_mistakes_become_due_cards_and_answers_reschedule_them(tmp_path):
    db = tmp_path / "practice.db"
    lines = "".join(json.dumps(s) + "\n" for s in MISTAKES)
    r = run(["correct", "--jsonl", "--learner", "Ana"], db, stdin=lines)
    assert r.returncode == 0, r.stderr
    assert all(json.loads(line)["output"].get("correct_form") for line in r.stdout.splitlines())

    cards = due(db)
    assert len(cards) >= 3
    for card in cards:
        assert set(card["cell"]) == {"verb", "tense", "person"} and all(card["cell"].values())
        words = " " + " ".join(re.findall(r"[\w']+", card["prompt"].lower())) + " "
        assert f" {card['answer'].lower()} " not in words, card
        assert card["prompt"].count("___") == 1
    own = [c["prompt"] for c in cards if c["origin"] == "mistake"]
    assert own == ["Yesterday he ___ (go) to school.", "She ___ (have) two dogs.", "I have ___ (eat) the cake."]

    right, wrong = cards[0], cards[1]
    r = run(["exercises", "--learner", "Ana", "--answer", right["id"], right["answer"].upper(), "--json"], db)
    assert r.returncode == 0, r.stderr
    graded = json.loads(r.stdout)
    assert graded["correct"] is True and graded["still_due"] is False
    r = run(["exercises", "--learner", "Ana", "--answer", wrong["id"][:8], "haves", "--json"], db)
    graded = json.loads(r.stdout)
    assert graded["correct"] is False and graded["still_due"] is True and graded["answer"] == "has"
    assert graded["explanation_en"] and graded["explanation_es"]

    ids = [c["id"] for c in due(db)]
    assert right["id"] not in ids and wrong["id"] in ids


def test_practice_refuses_unknown_learners_and_bad_answers_without_a_traceback(tmp_path):
    db = tmp_path / "none.db"
    r = run(["exercises", "--learner", "Ana", "--json"], db)
    assert r.returncode == 2 and "no history database" in r.stderr and "Traceback" not in r.stderr
    from tutor.store import Store

    with Store.open(db) as store:
        store.ensure_learner("Bo")
    r = run(["exercises", "--learner", "Ana"], db)
    assert r.returncode == 2 and "known learners: Bo" in r.stderr
    for name in ("exercises", "practice"):  # the command's earlier name still works
        r = run([name, "--learner", "Bo"], db)
        assert r.returncode == 0 and "no cards due" in r.stdout
    r = run(["exercises", "--learner", "Bo", "--answer", "12345678"], db)
    assert r.returncode == 2 and "--answer needs a card id and the answer" in r.stderr
    r = run(["exercises", "--learner", "Bo", "--answer", "12345678", "went"], db)
    assert r.returncode == 2 and "Bo has no practice card" in r.stderr and "Traceback" not in r.stderr


def test_a_learner_pin_guards_their_cards(tmp_path):
    db = tmp_path / "pin.db"
    from tutor.store import Store
    from tutor.store.lock import SecretLock

    with Store.open(db) as store:
        store.ensure_learner("Bo")
        SecretLock(store).set_pin("Bo", "246810")
    r = run(["exercises", "--learner", "Bo", "--json"], db, stdin="")
    assert r.returncode == 2 and "has a PIN" in r.stderr
    r = run(["exercises", "--learner", "Bo", "--json", "--pin-stdin"], db, stdin="111111\n")
    assert r.returncode == 2 and "not Bo's PIN" in r.stderr
    r = run(["exercises", "--learner", "Bo", "--json", "--pin-stdin"], db, stdin="246810\n")
    assert r.returncode == 0 and json.loads(r.stdout)["due"] == []


def test_the_gentler_schedule_brings_a_right_answer_back_after_a_day_not_minutes(tmp_path):
    """`--gentler` is the app's "gentler schedule" setting on the command line: the same right answer, graded on
    two copies of one store, is due again within the hour on the standard schedule and a day or more later on the
    gentler one."""
    from datetime import UTC, datetime, timedelta

    from tests.tutor.practice.conftest import THREE, mistake
    from tutor.store import Store

    due_again = {}
    for flag in ([], ["--gentler"]):
        db = tmp_path / f"schedule{len(flag)}.db"
        with Store.open(db) as store:
            store.save_correction(mistake(*THREE[0]), learner="Ana")
        card = due(db)[0]
        before = datetime.now(UTC)
        r = run(["exercises", "--learner", "Ana", "--answer", card["id"], card["answer"], "--json", *flag], db)
        assert r.returncode == 0, r.stderr
        graded = json.loads(r.stdout)
        assert graded["correct"] is True
        due_again[bool(flag)] = datetime.fromisoformat(graded["due"]) - before
    assert due_again[False] < timedelta(hours=1)
    assert due_again[True] >= timedelta(hours=20)
