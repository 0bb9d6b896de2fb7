"""The product's commands build a plain Tutor: tutor.lab is reached from eval, bench and lab only."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
LAB_SIDE = {"evaluate", "bench", "lab"}  # the commands that run the lab's experiments

# Correct one sentence through `tutor.commands.correct` alone (not tutor.cli, whose parser registers the
# bench and lab subcommands), then print the output and whether any tutor.lab module was imported.
_CORRECT = """
import argparse, json, sys
from tutor.commands import correct
parser = argparse.ArgumentParser()
parser.add_argument("--db")
correct.register(parser.add_subparsers())
args = parser.parse_args(["correct", "--no-save", *sys.argv[1:], "My sister have two dogs."])
code = correct.run(args)
print(json.dumps({"code": code, "lab": sorted(m for m in sys.modules if m.startswith("tutor.lab"))}))
"""


def _lab_contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["type"] == "forbidden" and c["forbidden_modules"] == ["tutor.lab"])


def test_every_product_command_is_under_the_lab_contract():
    commands = {p.stem for p in (ROOT / "tutor" / "commands").glob("*.py") if p.stem != "__init__"}
    assert commands >= LAB_SIDE  # the names above still name commands
    sources = set(_lab_contract()["source_modules"])
    missing = {f"tutor.commands.{name}" for name in commands - LAB_SIDE} - sources
    assert not missing, f"add {sorted(missing)} to the contract, or to LAB_SIDE if it runs experiments"
    assert {"app", "tutor.server", "tutor.tutoring"} <= sources


def _correct(tmp_path: Path, *flags: str) -> tuple[dict, dict]:
    env = dict(os.environ, GRAMMAR_TUTOR_DB=str(tmp_path / "cli.db"))
    r = subprocess.run([sys.executable, "-c", _CORRECT, *flags], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    output, report = (json.loads(line) for line in r.stdout.splitlines())
    assert report["code"] == 0
    return output, report


@pytest.mark.model
def test_correct_imports_the_lab_only_for_its_plain_paths(tmp_path):
    output, report = _correct(tmp_path, "--no-priors")  # a plain Tutor setting
    assert output["correct_form"] == "has"
    assert report["lab"] == []
    output, report = _correct(tmp_path, "--no-facts")  # the plain path kept for comparison, in tutor.lab
    assert output["original"] == "My sister have two dogs."
    assert report["lab"] == ["tutor.lab", "tutor.lab.ablations"]
