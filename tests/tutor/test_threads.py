"""The OpenMP wait setting: a short spin by default, and the user's own choice always wins."""

import os
import subprocess
import sys

import pytest

from tutor.threads import SPIN_COUNT, set_openmp_waits


def test_an_unset_environment_gets_the_short_spin() -> None:
    env: dict[str, str] = {}
    set_openmp_waits(env)
    assert env == {"GOMP_SPINCOUNT": SPIN_COUNT}


@pytest.mark.parametrize("given", [{"OMP_WAIT_POLICY": "PASSIVE"}, {"GOMP_SPINCOUNT": "0"},
                                   {"OMP_WAIT_POLICY": "ACTIVE", "GOMP_SPINCOUNT": "50"}])
def test_a_users_setting_wins(given: dict[str, str]) -> None:
    env = dict(given)
    set_openmp_waits(env)
    assert env == given


def test_importing_tutor_sets_it_before_llama_cpp_is_loaded() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    code = "import os, sys, tutor; print(os.environ.get('GOMP_SPINCOUNT'), 'llama_cpp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [SPIN_COUNT, "False"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
@pytest.mark.parametrize(("first", "given", "early"), [
    ("import ctypes; ctypes.CDLL('libgomp.so.1')", {}, "True"),  # as `import torch` before tutor does
    ("", {}, "False"),
    ("import ctypes; ctypes.CDLL('libgomp.so.1')", {"GOMP_SPINCOUNT": "1000"}, "False"),  # the user's setting holds
])
def test_openmp_loaded_before_tutor_is_noticed(first: str, given: dict[str, str], early: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")} | given
    code = f"{first}\nimport tutor\nfrom tutor.threads import started_before_waits\nprint(started_before_waits())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [early]
