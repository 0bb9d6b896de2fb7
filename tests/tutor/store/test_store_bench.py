"""`grammar-tutor bench store` runs end to end on a small store and ends with one JSON line."""

from __future__ import annotations

import json

import pytest

from tutor.cli import main


def test_bench_store_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "store", "--rows", "400", "--inserts", "40", "--repeat", "1", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    figures = json.loads(lines[-1])
    assert figures["rows"] == 400 and figures["inserts_per_s"] > 0
    assert "history page, everyone" in figures["queries_ms"] and "latency summary" in figures["queries_ms"]
    assert any("error counts, everyone" in line for line in lines[:-1])  # the table came first
