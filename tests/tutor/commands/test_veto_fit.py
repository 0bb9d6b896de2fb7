"""`python -m tutor.commands.veto_fit` on small saved predictions: the margin it writes, and its errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tutor.commands.veto_fit import main

TEXTS = [
    {"id": "T-1", "text": "He go home.", "errors": [{"start": 3, "end": 5, "written": "go", "verb": "go",
     "tense": "present simple", "person": "3rd singular", "correct_form": "goes", "correct_form_accepted": ["goes"]}]},
    {"id": "T-3", "text": "They were happy.", "errors": []},
]


def _finding(start: int, end: int, written: str, form: str, delta: float) -> dict:
    return {"original": "", "verb": "go" if form == "goes" else "be", "tense": "present simple" if form == "goes"
            else "past simple", "person": "3rd singular", "correct_form": form, "start": start, "end": end,
            "written": written, "veto": {"delta": delta, "per_token": delta / 4}}


def _write(path: Path, rows: list[dict]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_the_fit_writes_the_margin_that_drops_the_false_alarm_and_keeps_the_real_finding(tmp_path, capsys):
    texts = _write(tmp_path / "texts.jsonl", TEXTS)
    preds = _write(tmp_path / "preds.jsonl", [
        {"id": "T-1", "findings": [_finding(3, 5, "go", "goes", 4.0)]},
        {"id": "T-3", "findings": [_finding(5, 9, "were", "was", -2.0)]}])
    out = tmp_path / "veto.json"
    assert main([f"{texts}:odd={preds}", "--model", "some-model", "--out", str(out)]) == 0
    rule = json.loads(out.read_text(encoding="utf-8"))["models"]["some-model"]
    assert rule["measure"] == "delta" and rule["min_margin"] == 0.0  # any margin in (-2, 4] ties: nearest 0
    assert rule["dev_f05"]["with"] > rule["dev_f05"]["without"]
    assert "| " in capsys.readouterr().out


def test_a_finding_without_a_score_is_refused_with_how_to_save_one(tmp_path):
    texts = _write(tmp_path / "texts.jsonl", TEXTS)
    bare = _finding(3, 5, "go", "goes", 1.0)
    del bare["veto"]
    preds = _write(tmp_path / "preds.jsonl", [{"id": "T-1", "findings": [bare]}, {"id": "T-3", "findings": []}])
    proc = subprocess.run([sys.executable, "-m", "tutor.commands.veto_fit", f"{texts}={preds}", "--model", "m",
                           "--dry-run"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--veto-margin=-inf" in proc.stderr
