"""How llama.cpp's OpenMP threads wait between the steps of a forward pass (set before llama_cpp is imported).

By default libgomp's threads spin 300,000 times at every barrier before they sleep; on a busy laptop or a
shared 2-core machine a spinning thread holds the core the working thread needs, and a token took 5 s
instead of 28 ms. Sleeping at once (`OMP_WAIT_POLICY=PASSIVE`) is safe under load but costs a futex
wake-up at each of a forward pass's hundreds of barriers: a 2,000-character check took 1.4× as long on a
quiet machine. A short spin (`GOMP_SPINCOUNT=1000`) was as fast as spinning on a quiet machine and within
about 10 % of sleeping under a competing busy process (`grammar-tutor bench typing` measures it). An explicit
setting of either variable wins.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

SPIN_COUNT = "1000"


def set_openmp_waits(env: MutableMapping[str, str] | None = None) -> None:
    """Give `env` (default: this process's environment) the short spin, unless the user chose a policy."""
    env = os.environ if env is None else env
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["GOMP_SPINCOUNT"] = SPIN_COUNT
