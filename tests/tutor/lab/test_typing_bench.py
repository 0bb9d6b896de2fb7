"""`grammar-tutor bench typing --json` runs end to end on the real model and prints exactly the five figures."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tutor.cli import main
from tutor.lab.typing_bench import KEYS, long_texts
from tutor.text.sentences import split_sentences

FIGURES = {"type": "object", "required": list(KEYS), "additionalProperties": False,
           "properties": {k: {"type": "number", "exclusiveMinimum": 0} for k in KEYS}}


def test_the_long_texts_are_learner_essays_cut_at_a_sentence_end():
    lines = Path("tests/data/essays.jsonl").read_text(encoding="utf-8").splitlines()
    essays = [json.loads(x)["text"] for x in lines if x.strip()]
    texts = long_texts("tests/data/essays.jsonl", 2000, 4)
    assert len(texts) == 4 and all(1800 < len(t) <= 2000 for t in texts)
    assert all(any(e.startswith(t[:300]) for e in essays) for t in texts)  # each starts with a learner's essay
    assert all(max(b for _, b in split_sentences(t)) == len(t) for t in texts)  # and ends where a sentence does


@pytest.mark.model
def test_bench_typing_json_has_exactly_the_five_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "typing", "--json", "--chars", "400", "--n", "1", "--edits", "2"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    jsonschema.validate(figures, FIGURES)
    assert figures["full_check_p50_s"] <= figures["full_check_p95_s"]
    assert figures["edit_recheck_p50_s"] <= figures["edit_recheck_p95_s"]
