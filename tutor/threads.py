"""How llama.cpp's OpenMP threads wait between the steps of a forward pass (set before llama_cpp is imported).

By default libgomp's threads spin 300,000 times at every barrier before they sleep; on a busy laptop or a
shared 2-core machine a spinning thread holds the core the working thread needs, and a token took 5 s
instead of 28 ms. Sleeping at once (`OMP_WAIT_POLICY=PASSIVE`) is safe under load but costs a futex
wake-up at each of a forward pass's hundreds of barriers: a 2,000-character check took 1.4× as long on a
quiet machine. A short spin (`GOMP_SPINCOUNT=1000`) was as fast as spinning on a quiet machine and within
about 10 % of sleeping under a competing busy process (`grammar-tutor bench typing` measures it). An explicit
setting of either variable wins.

libgomp reads these variables once, when it is loaded. A program that loaded it before importing tutor (`import
torch` first: torch ships its own libgomp.so.1) keeps the default 300,000 spins: one text check took 36.7 s instead
of 7.5 s on a busy 2-core machine, and 5.6 s when GOMP_SPINCOUNT=1000 was set before torch (issue 33).
`started_before_waits()` says whether that happened; `Tutor.load` logs a warning with the fix.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path

SPIN_COUNT = "1000"
_early: bool | None = None  # libgomp was loaded before this process's waits were set (None: not known)


def openmp_loaded() -> bool | None:
    """Return True when an OpenMP runtime (libgomp) is loaded in this process; None where /proc cannot tell."""
    try:
        maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return "libgomp" in maps


def started_before_waits() -> bool | None:
    """Return True when libgomp was loaded before tutor set its wait policy and the user had set none (it then spins
    300,000 times at every barrier, whatever the environment says now)."""
    return _early


def set_openmp_waits(env: MutableMapping[str, str] | None = None) -> None:
    """Give `env` (default: this process's environment) the short spin, unless the user chose a policy."""
    global _early
    own = env is None
    env = os.environ if env is None else env
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["GOMP_SPINCOUNT"] = SPIN_COUNT
        if own:
            _early = openmp_loaded()
    elif own:
        _early = False
