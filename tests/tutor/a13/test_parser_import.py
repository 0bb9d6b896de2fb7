"""spaCy is imported without torch (thinc would import it whenever it is installed), and the process's one OpenMP
runtime is loaded after the tutor set its wait policy: what made a check 2.2-25× slower with torch imported first
(tutor/threads.py), so a check's speed does not depend on torch being installed beside the tutor (issue 33)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# A child that parses a sentence, then reports what it imported and which OpenMP runtimes it mapped.
PARSE = """
import json, sys
from tutor.analyser import Analyser
Analyser().propose("Yesterday my friends goes to the cinema.")
gomp = sorted({line.split()[-1] for line in open("/proc/self/maps") if "libgomp" in line or "libiomp" in line})
print(json.dumps({"torch": "torch" in sys.modules, "has_torch": sys.modules["thinc.compat"].has_torch, "omp": gomp}))
"""

# The same after a real Tutor has loaded and checked a text (the model's llama.cpp threads run on OpenMP).
CHECK = """
import json, sys
from tutor.api import Tutor
tutor = Tutor.load()
tutor.check("Yesterday my friends goes to the cinema. She like it.")
from tutor.threads import started_before_waits
gomp = sorted({line.split()[-1] for line in open("/proc/self/maps") if "libgomp" in line or "libiomp" in line})
print(json.dumps({"torch": "torch" in sys.modules, "has_torch": sys.modules["thinc.compat"].has_torch, "omp": gomp,
                  "early": started_before_waits()}))
tutor.close()
"""


def child(code: str, extra_path: Path | None = None, **env: str) -> dict:
    """Run `code` in a fresh interpreter; return the JSON it printed last."""
    full = {k: v for k, v in os.environ.items() if k != "GRAMMAR_TUTOR_ALLOW_TORCH"} | env
    if extra_path is not None:
        full["PYTHONPATH"] = os.pathsep.join(filter(None, [str(extra_path), full.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def fake_torch(tmp_path: Path) -> tuple[Path, Path]:
    """Return (a folder with an importable `torch` that leaves a mark when imported, the mark's path)."""
    mark = tmp_path / "torch-was-imported"
    package = tmp_path / "site" / "torch"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f"open({str(mark)!r}, 'w').close()\n", encoding="utf-8")
    return package.parent, mark


def test_thinc_never_imports_an_installed_torch(fake_torch):
    site, mark = fake_torch
    report = child(PARSE, site)
    assert not mark.exists(), "torch was imported while spaCy loaded"
    assert report["torch"] is False and report["has_torch"] is False


def test_a_user_may_ask_for_torch(fake_torch):
    site, mark = fake_torch
    child(PARSE, site, GRAMMAR_TUTOR_ALLOW_TORCH="1")
    assert mark.exists(), "GRAMMAR_TUTOR_ALLOW_TORCH=1 did not let thinc import torch"


def test_torch_can_still_be_imported_after_the_parser():
    from tutor.a13.parser_import import import_spacy

    import_spacy()
    assert sys.modules.get("torch", 0) is not None, "the block on torch outlived spaCy's import"


def test_a_check_runs_with_one_openmp_runtime_set_up_before_it_loaded_and_without_torch():
    report = child(CHECK)
    assert report["torch"] is False and report["has_torch"] is False
    assert len(report["omp"]) == 1, f"OpenMP runtimes mapped: {report['omp']}"
    assert report["early"] is False, "libgomp was loaded before the tutor set its wait policy"


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed here (as in CI)")
def test_with_the_real_torch_installed_a_check_does_not_load_it():
    report = child(CHECK)
    assert report["torch"] is False and report["has_torch"] is False
    assert len(report["omp"]) == 1 and "torch" not in report["omp"][0], report["omp"]
