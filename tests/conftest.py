"""Shared fixtures: the real bundled model, loaded once per test session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
    from tutor.models import resolve

    return resolve().path
