"""Packaging and layering: data ships inside the wheel; the core never imports Qt or the GUI."""

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_tutor_never_imports_qt_or_the_gui():
    offenders = []
    for path in (ROOT / "tutor").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in ("PySide6", "app", "PyQt6", "PyQt5"):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_wheel_carries_data_grammars_and_models(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(ROOT)], check=True, timeout=600)
    wheel = next(tmp_path.glob("grammar_tutor-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("tutor/_data/a13/verbs.json", "tutor/_grammars/a13.schema.json",
                     "tutor/_models/catalogue.json", "tutor/_data/prompts/a13.json", "app/__init__.py"):
        assert required in names
    assert not any(n.endswith(".gguf") for n in names)


def test_installed_package_finds_its_data_from_another_folder(tmp_path):
    """A non-editable install into a target folder, imported from elsewhere, loads the §A13 table."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "-q",
                    "--target", str(target), str(ROOT)], check=True, timeout=600)
    code = ("import tutor.resources as r, tutor.scope as s; "
            f"assert str(r.folder('data')).startswith({str(target)!r}), r.folder('data'); "
            "print(len(s.load_scope().cells))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={"PYTHONPATH": str(target)},
                         capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "300"
    # the installed copy carries no tests/: `bench typing` says what to give instead of a traceback (issue 32)
    bench = subprocess.run([sys.executable, "-m", "tutor.cli", "bench", "typing", "--n", "1"], cwd=tmp_path,
                           env={"PYTHONPATH": str(target)}, capture_output=True, text=True, timeout=300)
    assert bench.returncode == 2 and "Traceback" not in bench.stderr, bench.stderr
    assert "--texts FILE" in bench.stderr
