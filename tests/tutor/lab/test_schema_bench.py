"""bench schemas on a tiny self-written suite in MaskBench's file format: the figures count what happened."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tutor.lab import schema_bench

SUITE = {
    "open.json": {"schema": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                  "tests": [{"data": {"a": 1, "b": 2}, "valid": True}, {"data": {"b": 2}, "valid": False},
                            {"data": {"b": 0, "a": 1}, "valid": True}]},
    "refused.json": {"schema": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
                     "tests": [{"data": [1, 2], "valid": True}]},
    "pair.json": {"schema": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
                             "additionalProperties": False},
                  "tests": [{"data": {"y": "b", "x": "a"}, "valid": True}, {"data": {"x": 1}, "valid": False}]},
}


def _run(tmp_path: Path, *extra: str, capsys) -> dict:
    for name, doc in SUITE.items():
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    parser = argparse.ArgumentParser()
    schema_bench.add_arguments(parser)
    assert schema_bench.run(parser.parse_args(["--suite", str(tmp_path), "--json", *extra])) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_default_options_count_coverage_and_verdicts(tmp_path: Path, capsys) -> None:
    figures = _run(tmp_path, capsys=capsys)
    assert (figures["schemas"], figures["compiled"], figures["refused"]) == (3, 2, 1)
    assert (figures["instances"], figures["valid_instances"]) == (5, 3)
    assert figures["wrong_accepts"] == 0 and figures["wrong_rejects_unasked"] == 0
    assert figures["top_refusals"] == [["unsupported keyword 'uniqueItems' at …", 1]]


def test_an_asked_narrowing_moves_its_rejects_to_the_asked_column(tmp_path: Path, capsys) -> None:
    figures = _run(tmp_path, "--property-order", "declared", "--strict", capsys=capsys)
    # {"a":1,"b":2} and {"b":0,"a":1}: strict closes the open object; {"y":…,"x":…}: declared order
    assert figures["wrong_rejects_asked"] == 3 and figures["wrong_rejects_unasked"] == 0
    assert figures["wrong_accepts"] == 0


def test_reasons_lose_their_pointers_and_numbers() -> None:
    assert schema_bench.reason_of("maxLength 300 at /properties/a needs more than 5,000 DFA states") == \
        "maxLength N at … needs more than N DFA states"
