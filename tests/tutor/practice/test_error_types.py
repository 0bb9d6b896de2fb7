"""The error type of a stored correction, checked against the labels of sets written by other people."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.practice.error_types import ErrorType, error_type

DATA = Path(__file__).resolve().parents[3] / "tests" / "data"


@pytest.mark.parametrize("name", ["real_test.jsonl", "real_dev.jsonl", "heldout.jsonl"])
def test_the_derived_type_agrees_with_the_labels(name):
    agree = total = 0
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        gold = item.get("gold")
        if not gold or item.get("error_type") in ("correct", "out_of_scope"):
            continue
        total += 1
        agree += error_type(gold["verb"], gold["tense"], gold["person"], item["error_span"]) == item["error_type"]
    assert total > 150 and agree / total >= 0.99, (agree, total)


@pytest.mark.parametrize(("cell", "written", "expected"), [
    (("go", "past simple", "3rd singular"), "goed", ErrorType.OVERREGULARISED_PAST),
    (("go", "past simple", "3rd singular"), "go", ErrorType.BASE_FOR_PAST),
    (("see", "past simple", "1st singular"), "have seen", ErrorType.WRONG_TENSE),
    (("be", "present simple", "2nd singular"), "is", ErrorType.WRONG_BE),
    (("have", "present simple", "3rd singular"), "have", ErrorType.WRONG_HAVE),
    (("work", "present simple", "3rd singular"), "work", ErrorType.MISSING_3SG_S),
    (("study", "present simple", "3rd singular"), "studys", ErrorType.WRONG_3SG),
    (("go", "present simple", "1st singular"), "goes", ErrorType.WRONG_3SG),
    (("finish", "past simple", "3rd singular"), "finised", ErrorType.WRONG_INFLECTION),
    (("go", "simple future", "3rd singular"), "will goes", ErrorType.WRONG_FUTURE),
    (("eat", "past participle", "1st singular"), "ate", ErrorType.WRONG_PARTICIPLE),
    (("do", "infinitive", "3rd singular"), "to does", ErrorType.INFINITIVE_FORM),
])
def test_each_type_of_section_6(cell, written, expected):
    assert error_type(*cell, written) is expected
