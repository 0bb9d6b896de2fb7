"""Where the store lives: explicit path, then $GRAMMAR_TUTOR_DB, then the user's data folder."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from tutor.store import ENV_VAR, default_db_path, resolve_db_path


def test_default_is_in_the_user_data_folder() -> None:
    expected = Path(platformdirs.user_data_dir("grammar-tutor", appauthor=False))
    assert default_db_path().parent == expected
    assert default_db_path().suffix == ".db"


def test_explicit_path_wins_over_the_environment(tmp_path: Path) -> None:
    assert resolve_db_path(tmp_path / "given.db") == tmp_path / "given.db"
    assert resolve_db_path(str(tmp_path / "given.db")) == tmp_path / "given.db"


def test_environment_wins_over_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env.db"))
    assert resolve_db_path(None) == tmp_path / "env.db"


def test_empty_environment_falls_back_to_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "  ")
    assert resolve_db_path(None) == default_db_path()
    monkeypatch.delenv(ENV_VAR)
    assert resolve_db_path("") == default_db_path()


def test_home_is_expanded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert resolve_db_path("~/x.db") == tmp_path / "x.db"
