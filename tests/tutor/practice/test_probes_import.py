"""Issue 32's probes of the practice state through the real CLI: `grammar-tutor import` and `practice` in
subprocesses on real SQLite files. A tampered practice section is refused whole with a message naming the field,
the next file still goes in, and nothing ends in a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tutor.practice import Practice
from tutor.store import Store
from tutor.store.bundle import write_bundle
from tutor.store.practice_rows import digest

from .conftest import mistake

REPO = Path(__file__).resolve().parents[3]
NOW = datetime(2025, 3, 3, 10, 0, tzinfo=UTC)


def cli(*args: str, stdin: bytes | None = None, env_db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRAMMAR_TUTOR_DB": str(env_db)}
    done = subprocess.run([sys.executable, "-m", "tutor.cli", *args], input=stdin, capture_output=True, env=env,
                          cwd=REPO, timeout=300)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8"),
                                       done.stderr.decode("utf-8"))


@pytest.fixture
def bundles(three_mistakes, tmp_path) -> tuple[dict, Path]:
    """Ana's bundle as JSON (with her practice), and a good bundle of another learner, Teo."""
    Practice(three_mistakes).due("Ana", now=NOW)
    write_bundle(three_mistakes, "Ana", tmp_path / "ana.json")
    with Store.open(tmp_path / "teo-laptop.db") as teo:
        teo.save_correction(mistake("She have two dogs.", "have", "have", "present simple", "3rd singular", "has"),
                            learner="Teo")
        write_bundle(teo, "Teo", tmp_path / "teo.json")
    return json.loads((tmp_path / "ana.json").read_text(encoding="utf-8")), tmp_path / "teo.json"


def _tampered(bundle: dict, path: Path, change) -> Path:
    section = json.loads(json.dumps(bundle["practice"]))
    change(section)
    section["sha256"] = digest(section)  # anyone can recompute it: the checks must catch the change itself
    path.write_text(json.dumps({**bundle, "practice": section}), encoding="utf-8")
    return path


def _set(key, value):
    return lambda section: section["cards"][0].__setitem__(key, value)


@pytest.mark.parametrize(("change", "named"), [
    (_set("reps", 2**64), "reps"),  # beyond SQLite's integers: an OverflowError before
    (_set("lapses", 2**63), "lapses"),
    (_set("due", "2025-13-45T99:99:99.000000Z"), "due"),  # an impossible date
    (_set("last_review", "2025-02-30T10:00:00.000000Z"), "last_review"),
    (_set("answer", "HACKED"), "HACKED"),  # not a form of the card's verb
    (_set("accepted", ["HACKED"]), "HACKED"),
    (lambda s: s["cards"].append(dict(s["cards"][0], answer=s["cards"][0]["answer"])), "already carries"),
])
def test_a_tampered_practice_section_is_refused_and_the_next_file_imported(bundles, tmp_path, change, named):
    ana, teo = bundles
    bad = _tampered(ana, tmp_path / "bad.json", change)
    teacher = tmp_path / "teacher.db"
    done = cli("import", "--db", str(teacher), str(bad), str(teo), env_db=tmp_path / "env.db")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "is damaged" in done.stderr and named in done.stderr
    assert "1 files refused" in done.stdout
    with Store.open(teacher) as store:
        assert store.find_learner("Teo") is not None and store.find_learner("Ana") is None


def test_a_card_whose_accepted_column_is_not_json_gives_a_clear_error(three_mistakes, tmp_path):
    Practice(three_mistakes).due("Ana", now=NOW)
    path = three_mistakes.path
    three_mistakes.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE cards SET accepted = 'went, gone'")
    done = cli("practice", "--learner", "Ana", "--db", str(path), env_db=tmp_path / "env.db")
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "accepted" in done.stderr and "edited by another tool" in done.stderr


def test_practice_answers_keep_no_control_or_bidi_characters(three_mistakes, tmp_path):
    card = Practice(three_mistakes).due("Ana", now=NOW)[0]
    path = three_mistakes.path
    three_mistakes.close()
    typed = "\u202e" + card["answer"] + "\x1b\u200b"
    done = cli("practice", "--learner", "Ana", "--db", str(path), "--json", "--answer", card["id"], typed,
               env_db=tmp_path / "env.db")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["correct"] is True and answer["given"] == card["answer"]
    with sqlite3.connect(path) as db:
        [given] = db.execute("SELECT given FROM card_reviews").fetchone()
    assert given == card["answer"]


def test_another_learners_sources_do_not_stop_her_cards(tmp_path):
    with Store.open(tmp_path / "ana-laptop.db") as ana:
        for original, written, verb, tense, person, form in (
                ("Yesterday he go to school.", "go", "go", "past simple", "3rd singular", "went"),
                ("She have two dogs.", "have", "have", "present simple", "3rd singular", "has")):
            ana.save_correction(mistake(original, written, verb, tense, person, form), learner="Ana")
        write_bundle(ana, "Ana", tmp_path / "ana.json")
        ana_ids = [r["id"] for r in ana.history(ana.find_learner("Ana")["id"])]
    with Store.open(tmp_path / "mallory-laptop.db") as mallory:
        mallory.save_correction(mistake("She have a cat.", "have", "have", "present simple", "3rd singular", "has"),
                                learner="Mallory")
        write_bundle(mallory, "Mallory", tmp_path / "mallory.json")
    bundle = json.loads((tmp_path / "mallory.json").read_text(encoding="utf-8"))
    section = bundle.get("practice") or {"cards": [], "reviews": [], "sources": []}
    section["sources"] = [{"correction_id": i, "built": "2025-03-01T09:00:00.000000Z", "cards": 0} for i in ana_ids]
    section["sha256"] = digest(section)
    (tmp_path / "mallory.json").write_text(json.dumps({**bundle, "practice": section}), encoding="utf-8")
    teacher = tmp_path / "teacher.db"
    done = cli("import", "--db", str(teacher), str(tmp_path / "ana.json"), str(tmp_path / "mallory.json"),
               env_db=tmp_path / "env.db")
    assert done.returncode == 0, done.stderr
    with Store.open(teacher) as store:
        assert {c["source_id"] for c in Practice(store).due("Ana", now=NOW, limit=100)} == set(ana_ids)


def test_two_answers_to_one_card_at_the_same_moment_both_count(three_mistakes, tmp_path):
    card = Practice(three_mistakes).due("Ana", now=NOW)[0]
    path = three_mistakes.path
    three_mistakes.close()
    for round_ in range(10):
        barrier = threading.Barrier(2, timeout=60)
        errors: list[BaseException] = []

        def answer(barrier: threading.Barrier = barrier, errors: list = errors) -> None:
            try:
                with Store.open(path) as store:
                    practice = Practice(store)
                    practice.card("Ana", card["id"])  # everything loaded before the barrier
                    barrier.wait(60)
                    practice.answer("Ana", card["id"], card["answer"], now=NOW)
            except BaseException as exc:  # handed to the test thread
                errors.append(exc)

        threads = [threading.Thread(target=answer) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert errors == []
        with Store.open(path) as store:
            assert Practice(store).card("Ana", card["id"])["reps"] == 2 * (round_ + 1)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM card_reviews WHERE card_id = ?", [card["id"]]).fetchone()[0] == 20
