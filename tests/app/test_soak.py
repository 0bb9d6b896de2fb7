"""A long typing and painting session in the real window must not drain None's reference count.

PySide6-Essentials 6.12.0 on Python 3.11 loses a reference to None on every call that returns None, so a
few thousand key presses or repaints (each runs Python code that calls such methods) free None and the
interpreter aborts with "none_dealloc" (issue 23). The session runs in a child process (tests/app/soak_typing.py)
so that such an abort fails this test instead of killing pytest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("soak_typing.py")
REPO = Path(__file__).resolve().parents[2]
KEYS, REPAINTS = 20_000, 2_000


def test_typing_and_repainting_for_a_long_while_keeps_none_alive(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), str(KEYS), str(REPAINTS)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the window's process died (exit {done.returncode}):\n{done.stderr[-3000:]}"
    report = json.loads(done.stdout)
    assert report["keys"] >= KEYS  # the key presses reached the sentence box and the Text tab's editor
    paints = report["paints"]
    assert sum(paints.values()) >= REPAINTS and all(count >= 100 for count in paints.values()), paints
    # one lost reference per key press or repaint would take at least KEYS + REPAINTS away; caches may hold a few
    drained = report["none_baseline"] - min(report["none_rounds"] + [report["none_end"]])
    assert drained < 500, f"None lost {drained} references over {report['keys']} key presses: {report}"
