"""A full disk is reported as a full disk (issue 32 item 14): a real SQLite file on a 2 MB tmpfs, filled up."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tutor.errors import StoreError
from tutor.result import CorrectionResult
from tutor.store import Store


@pytest.fixture
def small_disk(tmp_path: Path):
    where = tmp_path / "small"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)], capture_output=True,
                             timeout=30)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def _row(original: str) -> CorrectionResult:
    return CorrectionResult(original=original, output={"original": original}, out_of_scope=True, is_correct=False,
                            confidence=0.5)


@pytest.mark.skipif(os.name != "posix", reason="tmpfs is Linux")
@pytest.mark.parametrize("left", [0, 4096])
def test_a_nearly_full_disk_is_reported_as_full_not_as_an_io_error(small_disk: Path, left: int) -> None:
    with Store.open(small_disk / "s.db") as store:
        store.save_correction(_row("He go to school."), learner="Ana")
    usage = os.statvfs(small_disk)
    (small_disk / "filler").write_bytes(b"\0" * max(0, usage.f_bavail * usage.f_frsize - left))
    # SQLite cannot grow its -shm there: it says "disk I/O error" on opening
    with pytest.raises(StoreError) as refused, Store.open(small_disk / "s.db") as store:
        for _ in range(50):
            store.save_correction(_row("y" * 900), learner="Ana")
    message = str(refused.value)
    assert "is full" in message and "I/O error" not in message and "network share" not in message, message
