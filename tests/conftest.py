"""Shared fixtures: the real bundled model, loaded once per test session."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import tutor  # noqa: F401  # importing tutor sets llama.cpp's OpenMP waits (tutor/threads.py) before llama_cpp loads

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEV_SET = SHARED / "dev-set.jsonl"


@pytest.fixture(scope="session")
def dev_set_path() -> Path:
    """Return shared/dev-set.jsonl, or skip when the checkout has no shared/ folder beside it."""
    if not DEV_SET.exists():
        pytest.skip("shared/dev-set.jsonl is not next to the checkout")
    return DEV_SET


@pytest.fixture(scope="session")
def tutor_engine():
    """Return a Tutor on the bundled default model (real llama-cpp-python, real GGUF)."""
    from tutor.api import Tutor

    engine = Tutor.load()
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def default_model_path() -> Path:
    """Return the path of the bundled default GGUF."""
    from tutor.catalogue import resolve

    return resolve().path


@pytest.fixture(scope="session")
def broken_template_model(tmp_path_factory, default_model_path) -> Path:
    """Return a copy of the bundled GGUF whose chat template does not parse ('{% endfor %}' misspelled)."""
    data = default_model_path.read_bytes()
    at = data.find(b"tokenizer.chat_template")
    end = data.find(b"endfor", at)
    assert at > 0 and end > at
    path = tmp_path_factory.mktemp("broken") / "broken-template.gguf"
    path.write_bytes(data[:end] + b"endfxr" + data[end + 6:])
    return path


@pytest.fixture
def kill_after() -> Iterator[Callable[[subprocess.Popen, float], None]]:
    """Return arm(proc, seconds): kill the child if it still runs after `seconds`.

    A test that reads a child's pipe line by line has no timeout of its own; this turns a child that hangs
    into a failed test instead of a hung suite.
    """
    timers: list[threading.Timer] = []

    def arm(proc: subprocess.Popen, seconds: float) -> None:
        timer = threading.Timer(seconds, proc.kill)
        timer.daemon = True
        timer.start()
        timers.append(timer)

    yield arm
    for timer in timers:
        timer.cancel()
