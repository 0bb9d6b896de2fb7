"""The labelled essay sets are what every accuracy figure rests on: each span is where it says it is, and each
in-scope error names one of §A13's cells (checked against the tables, not against the tutor's code)."""

import itertools
import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
ESSAY_SETS = sorted(DATA.glob("messy_essays_*.jsonl"))
REAL_DENSITY_SETS = sorted(DATA.glob("real_density_*.jsonl"))
VERBS = {"work", "play", "walk", "talk", "listen", "watch", "study", "finish", "start", "look", "want", "like",
         "be", "have", "do", "go", "come", "see", "eat", "write"}  # shared/A13.md, section 2
TENSES = {"infinitive", "present simple", "past simple", "past participle", "simple future"}
PERSONS = {"1st singular", "2nd singular", "3rd singular"}


def test_the_essay_sets_are_all_found():
    assert [p.name[-7:-6] for p in ESSAY_SETS] == ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize("path", ESSAY_SETS + REAL_DENSITY_SETS, ids=lambda p: p.name)
def test_every_span_is_where_it_says_and_no_two_overlap(path):
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        assert record["id"] not in ids
        ids.add(record["id"])
        text = record["text"]
        spans = []
        for key in ("errors", "out_of_scope", "other"):
            for item in record[key]:
                assert text[item["start"]:item["end"]] == item["written"], (record["id"], item)
                spans.append((item["start"], item["end"]))
        spans.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), record["id"]
        for error in record["errors"]:
            assert error["verb"] in VERBS and error["tense"] in TENSES and error["person"] in PERSONS, error
            assert error["correct_form"] in error["correct_form_accepted"] and error["spanish_accepted"]


def test_the_real_density_sets_are_found():
    assert [p.name[-7:-6] for p in REAL_DENSITY_SETS] == ["f", "g", "h"]


@pytest.mark.parametrize("path", REAL_DENSITY_SETS, ids=lambda p: p.name)
def test_in_scope_errors_are_as_rare_as_in_exam_writing(path):
    """Issue 28: at most 0.5 in-scope errors per 1,000 words, most texts without one, and every trap on a verb
    the text keeps as written (a trap never sits on a labelled error)."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    words = sum(len(r["text"].split()) for r in records)
    errors = sum(len(r["errors"]) for r in records)
    assert errors / words * 1000 <= 0.5
    assert sum(not r["errors"] for r in records) >= 0.85 * len(records)
    for r in records:
        labelled = {(e["start"], e["end"]) for e in r["errors"]}
        assert all((t["start"], t["end"]) not in labelled for t in r["traps"]), r["id"]
        assert all(r["text"][t["start"]:t["end"]] == t["written"] for t in r["traps"]), r["id"]
