"""Fixtures for the practice tests: a real SQLite store and corrections with real spans."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tutor.result import CorrectionResult
from tutor.scope import load_scope
from tutor.store import ENV_VAR, Store


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point $GRAMMAR_TUTOR_DB into tmp_path so no test touches the real user data folder."""
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env" / "from-env.db"))


def mistake(original: str, written: str, verb: str, tense: str, person: str, correct_form: str,
            **extra) -> CorrectionResult:
    """Return a correction of `written` (found in `original`) to a §A13 cell, as the tutor saves one."""
    start = original.index(written)
    spanish = load_scope().cell(verb, tense, person).spanish[0]  # a whole §A13 answer, as bundles require
    output = {"original": original, "verb": verb, "tense": tense, "person": person,
              "correct_form": correct_form, "spanish": spanish}
    return CorrectionResult(original=original, output=output, out_of_scope=False, is_correct=False, confidence=0.9,
                            error_span=written, error_start=start, error_end=start + len(written), **extra)


THREE = (
    ("Yesterday he go to school.", "go", "go", "past simple", "3rd singular", "went"),
    ("She have two dogs.", "have", "have", "present simple", "3rd singular", "has"),
    ("I have ate the cake.", "ate", "eat", "past participle", "1st singular", "eaten"),
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """Return an open store on a fresh file, closed afterwards."""
    with Store.open(tmp_path / "practice.db") as opened:
        yield opened


@pytest.fixture
def three_mistakes(store: Store) -> Store:
    """Return the store with Ana's three corrected mistakes saved (and one correct sentence)."""
    for row in THREE:
        store.save_correction(mistake(*row), learner="Ana")
    output = {"original": "I like tea.", "verb": "like", "tense": "present simple", "person": "1st singular",
              "correct_form": "like", "spanish": "me gusta"}
    correct = CorrectionResult(original="I like tea.", output=output, out_of_scope=False, is_correct=True,
                               confidence=0.99)
    store.save_correction(correct, learner="Ana")
    return store
