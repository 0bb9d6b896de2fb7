"""bench decoder: each path against llama.cpp's grammar on the same forward passes, validity by jsonschema."""

from __future__ import annotations

import json

import pytest

from tutor.lab.decoder_bench import SENTENCES, measure, schema_valid
from tutor.resources import grammar_path

pytestmark = pytest.mark.model

KEYS = {"p50_s", "max_s", "valid", "n", "no_output", "model_chooses", "p50_s_model_chooses", "p50_s_forced", "steps",
        "forward_ms_p50", "mask_us_p50", "mask_us_p99", "mask_pct_of_forward", "llama_mask_us_p50",
        "llama_mask_us_p99", "llama_mask_pct_of_forward", "llama_accepts"}


def test_validity_is_judged_by_jsonschema() -> None:
    schema = json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))
    good = {"original": "He goed.", "verb": "go", "tense": "past simple", "person": "3rd singular",
            "correct_form": "went", "spanish": "fue"}
    assert schema_valid(json.dumps(good), schema)
    assert not schema_valid(json.dumps({**good, "extra": 1}), schema)
    assert not schema_valid(json.dumps({k: v for k, v in good.items() if k != "verb"}), schema)
    assert not schema_valid(b'{"original": "x"', schema)


def test_paths_are_compared_with_llama_cpp_on_the_same_steps(tutor_engine) -> None:
    lines: list[str] = []
    got = measure(tutor_engine, SENTENCES[:1], ["schema_fsm", "a13_constrained"],
                  log=lambda *a, **k: lines.append(" ".join(map(str, a))))
    assert set(got) == {"schema_fsm", "a13_constrained"} and len(lines) == 2
    fsm, judged = got["schema_fsm"], got["a13_constrained"]
    assert set(fsm) == KEYS and json.loads(json.dumps(got)) == got
    # the model writes the JSON under the schema FSM: it chooses, every output is valid and llama.cpp's
    # grammar accepts the same tokens, its mask timed on the same logits at each of the same steps
    assert fsm["n"] == 1 and fsm["no_output"] == 0 and fsm["model_chooses"] == 1 and fsm["valid"] == 1.0
    assert fsm["steps"] > 10 and fsm["llama_accepts"] == 1
    assert fsm["mask_us_p50"] > 0 and fsm["llama_mask_us_p50"] > 0 and fsm["forward_ms_p50"] > 0
    assert 0 < fsm["mask_pct_of_forward"] < 100
    # the judged path forces its whole answer: no forward pass, no mask, nothing to compare
    assert judged["model_chooses"] == 0 and judged["steps"] == 0 and judged["p50_s_model_chooses"] is None
    assert judged["mask_us_p50"] is None and judged["llama_mask_us_p50"] is None
    assert judged["valid"] == 1.0 and judged["llama_accepts"] == 1


def test_an_unknown_path_is_refused(tutor_engine) -> None:
    with pytest.raises(ValueError, match="unknown path 'nope'"):
        measure(tutor_engine, SENTENCES[:1], ["nope"], log=lambda *a, **k: None)
