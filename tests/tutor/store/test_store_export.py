"""CSV and JSON export of one learner's history or everyone's, oldest first."""

from __future__ import annotations

import csv
import io
import json
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tutor.errors import StoreError
from tutor.store import Store
from tutor.store.export import CSV_COLUMNS

from .conftest import make_result


@pytest.fixture
def filled(store: Store) -> Store:
    start, day = datetime(2025, 4, 7, tzinfo=UTC), timedelta(days=1)
    store.save_correction(make_result("She go, \"quickly\"\nhome"), learner="Ana", created=start)
    store.save_correction(make_result("Yo comí pizza", out_of_scope=True), learner="Bo", created=start + day)
    store.save_correction(make_result("She goes", is_correct=True), learner="Ana", created=start + 2 * day)
    return store


def test_csv_of_one_learner_round_trips(filled: Store, tmp_path: Path) -> None:
    out = tmp_path / "ana.csv"
    assert filled.export("csv", out, learner="ana") == 2
    rows = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["original"] for r in rows] == ["She go, \"quickly\"\nhome", "She goes"]  # oldest first, quoted
    assert [r["is_correct"] for r in rows] == ["0", "1"]
    assert json.loads(rows[0]["output"])["correct_form"] == "goes"
    assert json.loads(rows[0]["settings"]) == {"temperature": 0.0}
    assert {r["learner"] for r in rows} == {"Ana"}


def test_json_of_everyone(filled: Store) -> None:
    buffer = io.StringIO()
    assert filled.export("json", buffer) == 3
    data = json.loads(buffer.getvalue())
    assert data["format"] == "grammar-tutor-history" and data["version"] == 1 and data["learner"] is None
    corrections = data["corrections"]
    assert [c["learner"] for c in corrections] == ["Ana", "Bo", "Ana"]
    assert corrections[1]["original"] == "Yo comí pizza" and corrections[1]["out_of_scope"] is True
    assert corrections[0]["output"] == filled.history(limit=1, offset=2)[0]["output"]
    assert corrections[0]["mask_p50_us"] == 3.0


def test_json_of_nobody_yet_is_valid(store: Store) -> None:
    buffer = io.StringIO()
    assert store.export("json", buffer) == 0
    assert json.loads(buffer.getvalue())["corrections"] == []


def test_export_pages_through_many_rows(store: Store, tmp_path: Path) -> None:
    store.save_corrections([make_result(f"She go {i}") for i in range(2500)], learner="Ana")
    out = tmp_path / "all.json"
    assert store.export("json", out) == 2500
    assert len({c["id"] for c in json.loads(out.read_text(encoding="utf-8"))["corrections"]}) == 2500


def test_export_errors_are_clear_and_leave_no_partial_file(filled: Store, tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="choose one of: csv, json"):
        filled.export("xml", tmp_path / "x.xml")
    with pytest.raises(StoreError, match="no learner 'Zoe'"):
        filled.export("csv", tmp_path / "zoe.csv", learner="Zoe")
    with pytest.raises(StoreError, match="choose another --out"):
        filled.export("csv", tmp_path / "missing-folder" / "x.csv")
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith("store.db")] == []  # no partial export


def test_export_replaces_an_existing_file(filled: Store, tmp_path: Path) -> None:
    out = tmp_path / "h.csv"
    out.write_text("old contents that are much longer than nothing\n" * 100)
    filled.export("csv", out, learner="Bo")
    assert out.read_text(encoding="utf-8").count("\n") == 2  # header + Bo's one row


def test_export_is_a_snapshot_while_other_threads_write(store: Store) -> None:
    store.save_corrections([make_result(f"She go {i}") for i in range(1500)], learner="Ana")

    class WritesMeanwhile(io.StringIO):
        """A sink that, on its first write, lets another thread save more corrections."""

        fired = False

        def write(self, text: str) -> int:
            if not self.fired:
                self.fired = True
                worker = threading.Thread(
                    target=lambda: store.save_corrections([make_result("She came late")] * 5, learner="Ana"))
                worker.start()
                worker.join(timeout=60)
                assert not worker.is_alive(), "the other writer did not finish in 60 s"
            return super().write(text)

    sink = WritesMeanwhile()
    assert store.export("json", sink) == 1500
    assert store.count_history() == 1505
    assert "She came late" not in {c["original"] for c in json.loads(sink.getvalue())["corrections"]}


def test_csv_explanations_are_plain_text_and_json_keeps_them_as_stored(store: Store, tmp_path: Path) -> None:
    """A spreadsheet shows text as it is: the CSV drops an explanation's *emphasis* marks; the JSON export, read
    by programs, keeps the stored text."""
    from dataclasses import replace

    result = replace(make_result(), explanation_en="With he / she / it, the present adds -s: *goes*.",
                     explanation_es="Con he / she / it, el presente lleva -s: *goes*.")
    store.save_correction(result, learner="Ana")
    out = tmp_path / "ana.csv"
    store.export("csv", out, learner="Ana")
    [row] = list(csv.DictReader(out.open(encoding="utf-8", newline="")))
    assert row["explanation_en"] == "With he / she / it, the present adds -s: goes."
    assert row["explanation_es"].endswith("lleva -s: goes.")
    buffer = io.StringIO()
    store.export("json", buffer)
    assert json.loads(buffer.getvalue())["corrections"][0]["explanation_en"].endswith("*goes*.")
