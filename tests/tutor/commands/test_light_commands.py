"""The commands that need no model or parser never import them: `--help`, `history`, `import`, `teacher`, and
`doctor` until its model line is printed (issue 33). Each runs in a child process, as a user starts it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.result import CorrectionResult
from tutor.store import ENV_VAR, Store

HEAVY = ("spacy", "thinc", "llama_cpp", "torch", "PySide6")

# Runs the entry point; reports the heavy modules imported when stdout is first written to and at the end.
HARNESS = """
import json, sys
HEAVY = HEAVY_NAMES
first = []
class Watch:
    def __init__(self, out):
        self.out = out
    def write(self, text):
        if not first:
            first.append(sorted(m for m in HEAVY if m in sys.modules))
        return self.out.write(text)
    def __getattr__(self, name):
        return getattr(self.out, name)
sys.stdout = Watch(sys.stdout)
from app.launch import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
sys.stdout = sys.stdout.out
print("\\n@@" + json.dumps({"first": first[0] if first else None,
                            "end": sorted(m for m in HEAVY if m in sys.modules), "code": code}))
""".replace("HEAVY_NAMES", repr(HEAVY))


def run(args: list[str], tmp_path: Path) -> dict:
    """Run `grammar-tutor ARGS` in a child; return its output and the heavy modules it had imported."""
    env = {**os.environ, ENV_VAR: str(tmp_path / "light.db")}
    proc = subprocess.run([sys.executable, "-c", HARNESS, *args], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=300, cwd=tmp_path)
    out, _, report = proc.stdout.rpartition("\n@@")
    assert report, f"no report from {args}: {proc.stderr[-2000:]}"
    return {**json.loads(report), "out": out, "err": proc.stderr}


@pytest.fixture
def learner_db(tmp_path: Path) -> Path:
    """Return a real SQLite history with one correction in it."""
    path = tmp_path / "light.db"
    output = {"original": "She go home", "verb": "go", "tense": "present simple", "person": "3rd singular",
              "correct_form": "goes", "spanish": "va"}
    with Store.open(path) as store:
        store.save_corrections([CorrectionResult(original="She go home", output=output, out_of_scope=False,
                                                 is_correct=False, confidence=0.9, error_span="go")], learner="Ana")
    return path


@pytest.mark.parametrize("args", [["--help"], ["history", "--help"], ["correct", "--help"], ["bench", "--help"]])
def test_help_imports_nothing_heavy(args, tmp_path):
    report = run(args, tmp_path)
    assert report["code"] == 0 and "usage:" in report["out"]
    assert report["end"] == [], f"{args} imported {report['end']}"


def test_history_teacher_and_import_import_nothing_heavy(tmp_path, learner_db):
    history = run(["history"], tmp_path)
    assert history["code"] == 0 and "She go home" in history["out"], history["err"]
    bundle = tmp_path / "ana.json"
    exported = run(["history", "--export", "bundle", "--learner", "Ana", "--out", str(bundle)], tmp_path)
    assert exported["code"] == 0 and bundle.is_file(), exported["err"]
    imported = run(["import", str(bundle), "--db", str(tmp_path / "teacher.db")], tmp_path)
    assert imported["code"] == 0 and "1 new" in imported["out"], imported["out"] + imported["err"]
    status = run(["teacher", "status"], tmp_path)
    assert status["code"] == 0 and "not set" in status["out"], status["err"]
    for name, report in {"history": history, "export": exported, "import": imported, "teacher": status}.items():
        assert report["end"] == [], f"{name} imported {report['end']}"


def test_doctor_prints_its_model_line_before_llama_cpp_loads(tmp_path):
    report = run(["doctor", "--db", str(tmp_path / "doctor.db")], tmp_path)
    first = report["out"].splitlines()[0]
    assert first.split()[1] == "model", report["out"]
    assert report["first"] == [], f"doctor imported {report['first']} before its first line"
    assert "llama_cpp" in report["end"], "doctor's llama.cpp check did not run"
    assert "spacy" not in report["end"] and "torch" not in report["end"]
