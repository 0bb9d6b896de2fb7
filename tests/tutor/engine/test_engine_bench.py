"""`grammar-tutor bench engine --json` runs and ends with one JSON line carrying the stable keys."""

from __future__ import annotations

import json

import pytest

from tutor.cli import main
from tutor.lab.engine_bench import FIXED_OUTPUT, KEYS, token_path

pytestmark = pytest.mark.model


def test_bench_engine_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--json", "--runs", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert tuple(figures) == KEYS
    assert figures["vocab_size"] == 49152
    assert all(isinstance(figures[k], int | float) and figures[k] > 0 for k in KEYS)
    assert any(line.startswith("mask ") for line in lines[:-1])


def test_fixed_output_path_is_valid(smol_grammar) -> None:
    path = token_path(smol_grammar, FIXED_OUTPUT.encode())
    assert b"".join(smol_grammar.vocab.pieces[t] for t in path) == FIXED_OUTPUT.encode()
    m = smol_grammar.matcher()
    for t in path:
        m.advance(t)
    assert m.is_finished()
