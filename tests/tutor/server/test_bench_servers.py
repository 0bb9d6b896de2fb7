"""`grammar-tutor bench serve --servers N --db postgresql://…`: N real servers on one real PostgreSQL, figures and
the exactly-once audit, end to end (a small class, to keep CI short)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tutor.cli import main
from tutor.store import Store


def test_bench_serve_on_two_servers_sharing_postgres_audits_every_row(
        postgres_server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    url = postgres_server.store_database()
    code = main(["bench", "serve", "--servers", "2", "--db", url, "--learners", "4", "--requests", "2",
                 "--endpoint", "correct", "--json"])
    out = capsys.readouterr().out
    figures = json.loads(out.strip().splitlines()[-1])
    assert code == 0, out
    assert figures["servers"] == 2 and figures["requests"] == 8 and figures["failures"] == 0
    assert figures["db_problems"] == 0 and figures["rows"] == 8
    assert figures["p99_s"] >= figures["p50_s"] > 0 and figures["requests_per_s"] > 0
    assert figures["refusals"]["no_token"] == 401 and figures["refusals"]["oversized"] == 413
    with Store.open(url) as store:  # the rows really are in PostgreSQL, one per request
        assert store.count_history() == 8 and len(store.learners()) == 4
