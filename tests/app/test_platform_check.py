"""Qt's missing system libraries: the message names the packages of the libraries that are missing, only those."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.platform_check import advice, missing_libraries, packages
from tutor.resources import data_path

REPO = Path(__file__).resolve().parents[2]
TABLE = json.loads(data_path("platform", "qt_libraries.json").read_text(encoding="utf-8"))["libraries"]
README_LIBRARIES = [name for name, entry in TABLE.items() if entry.get("readme")]

LDD = """\
\tlinux-vdso.so.1 (0x00007ffc)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f35)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f35)
\tlibxcb-icccm.so.4 => not found
\tlibfoo-x11.so.2 => not found
"""


def test_ldd_output_gives_each_missing_library_once() -> None:
    assert missing_libraries(LDD) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libfoo-x11.so.2"]
    assert missing_libraries("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []


def test_the_message_names_the_missing_packages_only() -> None:
    text = advice("qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed", missing_libraries(LDD))
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1 libfoo-x11.so.2." in text
    assert "sudo dnf install xcb-util-wm xcb-util-keysyms libfoo-x11.so.2." in text  # unknown: named as itself
    assert "libxcb-cursor0" not in text and "libdbus-1-3" not in text and "3 system libraries" in text


def test_without_ldd_the_whole_readme_list_is_named() -> None:
    text = advice("qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\"", None)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"sudo apt install {' '.join(packages('debian'))}." in text
    assert " ".join(packages("debian")) in readme  # the same list the README's table gives


def _unloadable(libraries: list[str]) -> list[str]:
    """Return the libraries the dynamic loader cannot open, asked in a child process (ctypes, not ldd)."""
    code = ("import ctypes, json, sys\nbad = []\nfor name in json.loads(sys.argv[1]):\n    try:\n"
            "        ctypes.CDLL(name)\n    except OSError:\n        bad.append(name)\nprint(json.dumps(bad))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(libraries)], capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb plugin is Linux's")
def test_starting_the_app_without_its_libraries_names_exactly_the_missing_packages(tmp_path: Path) -> None:
    missing = _unloadable(README_LIBRARIES)
    if not missing:
        pytest.skip("every library Qt's xcb plugin needs is installed here")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(QT_QPA_PLATFORM="xcb", GRAMMAR_TUTOR_DB=str(tmp_path / "t.db"))
    done = subprocess.run([sys.executable, "-c", "import sys; from app.launch import main; sys.exit(main([]))"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert done.returncode == 3, done.stderr
    apt = done.stderr.split("sudo apt install ", 1)[1].split(".")[0].split()
    assert sorted(apt) == sorted(TABLE[name]["debian"] for name in missing), done.stderr
