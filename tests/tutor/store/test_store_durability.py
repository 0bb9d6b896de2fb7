"""Durability: a writer killed with SIGKILL mid-stream loses no committed row and leaves a healthy file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tutor.store import Store

REPO = Path(__file__).resolve().parents[3]

WRITER = textwrap.dedent(
    """
    import sys
    from tutor.result import CorrectionResult, Timings
    from tutor.store import Store

    store = Store.open(sys.argv[1])
    i = 0
    while True:
        text = f"She go to school {sys.argv[2]}-{i} " + "x" * (i % 300)
        result = CorrectionResult(
            original=text,
            output={"original": text, "verb": "go", "tense": "present simple", "person": "3rd singular",
                    "correct_form": "goes", "spanish": "va"},
            out_of_scope=False, is_correct=False, confidence=0.5,
            timings=Timings(mask_p50_us=2.0, tokens_sampled=3, mask_us=(1.0, 2.0, 3.0)),
        )
        uid = store.save_correction(result, learner="Ana")
        print(uid, flush=True)  # printed only after the commit returned
        i += 1
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_sigkill_mid_stream_loses_no_committed_row(db_path: Path, kill_after) -> None:
    reported: list[str] = []
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for round_no, lines_before_kill in enumerate((25, 70, 140)):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db_path), str(round_no)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
        kill_after(proc, 120)  # a writer that stops printing must not leave the loop below waiting forever
        assert proc.stdout is not None
        for seen, line in enumerate(proc.stdout, start=1):
            reported.append(line.strip())
            if seen >= lines_before_kill:
                break
        else:
            pytest.fail(f"writer stopped early: {proc.stderr.read() if proc.stderr else ''}")
        proc.send_signal(signal.SIGKILL)  # while it is inside its next transactions
        rest, _ = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        # A line cut short by the kill was never fully reported; complete lines were.
        reported.extend(line.strip() for line in rest.splitlines(keepends=True) if line.endswith("\n"))
    with Store.open(db_path) as store:
        assert store.integrity_check() == ["ok"]
        stored = {row["id"] for row in store.history(limit=10_000)}
        assert set(reported) <= stored
        assert len(stored) >= len(reported)
        for uid in reported[-5:]:
            assert store.get(uid)["mask_us"] == [1.0, 2.0, 3.0]
