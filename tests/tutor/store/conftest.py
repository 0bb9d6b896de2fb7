"""Fixtures for the store tests: real SQLite files under tmp_path, and CorrectionResult builders."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tutor.result import CorrectionResult, Timings
from tutor.store import ENV_VAR, Store


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point $GRAMMAR_TUTOR_DB into tmp_path so no test touches the real user data folder."""
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env" / "from-env.db"))


def make_result(
    original: str = "She go to school every day",
    *,
    verb: str = "go",
    tense: str = "present simple",
    person: str = "3rd singular",
    correct_form: str = "goes",
    spanish: str = "va",
    is_correct: bool = False,
    out_of_scope: bool = False,
    mask_p50_us: float = 3.0,
    tokens_sampled: int = 4,
    mask_us: tuple[float, ...] = (),
    model_name: str = "smollm2-135m",
    settings: dict[str, Any] | None = None,
) -> CorrectionResult:
    """Return a CorrectionResult as the engine would build it."""
    if out_of_scope:
        output: dict[str, Any] = {"original": original, "out_of_scope": True}
    else:
        output = {"original": original, "verb": verb, "tense": tense, "person": person,
                  "correct_form": correct_form, "spanish": spanish}
    return CorrectionResult(
        original=original,
        output=output,
        out_of_scope=out_of_scope,
        is_correct=is_correct,
        confidence=0.87,
        error_span=None if is_correct or out_of_scope else original.split()[1],
        explanation_en="With he/she/it, add -s.",
        explanation_es="Con he/she/it se añade -s.",
        timings=Timings(prompt_ms=30.0, forward_ms=200.0, mask_p50_us=mask_p50_us,
                        mask_p99_us=mask_p50_us * 3, mask_max_us=mask_p50_us * 10,
                        tokens_sampled=tokens_sampled, tokens_forced=12, total_ms=260.0, mask_us=mask_us),
        model_name=model_name,
        model_sha256="ab" * 32,
        settings=settings if settings is not None else {"temperature": 0.0},
    )


@pytest.fixture
def result_factory() -> Callable[..., CorrectionResult]:
    """Return make_result, for tests that build several results."""
    return make_result


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Return a path for a new store file."""
    return tmp_path / "store.db"


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, db_path: Path) -> Path | str:
    """Return where a new store lives: a SQLite file path, or a postgresql:// URL (a real PostgreSQL 15, started
    by tests/conftest.py), so that each Store API test runs on both backends."""
    if request.param == "sqlite":
        return db_path
    return request.getfixturevalue("postgres_store_url")


@pytest.fixture
def store(store_target: Path | str) -> Iterator[Store]:
    """Return an open store on a fresh file or PostgreSQL database, closed afterwards."""
    with Store.open(store_target) as opened:
        yield opened


@pytest.fixture
def sqlite_store(db_path: Path) -> Iterator[Store]:
    """Return an open store on a fresh SQLite file (for what only SQLite has: its file, WAL, its connections)."""
    with Store.open(db_path) as opened:
        yield opened
