"""Where the store lives: explicit path, then $GRAMMAR_TUTOR_DB, then the user's data folder."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from tutor.errors import StoreError
from tutor.store import ENV_VAR, default_db_path, resolve_db_path
from tutor.store.paths import redact, resolve_db


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


@pytest.mark.parametrize("url", ["postgresql://tutor@127.0.0.1:5432/district", "postgres://u@h/db",
                                 "POSTGRESQL://u@h:1/db"])
def test_a_postgresql_url_is_a_url_not_a_path(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_db(url) == url
    monkeypatch.setenv(ENV_VAR, url)
    assert resolve_db(None) == url
    with pytest.raises(StoreError, match="PostgreSQL database; this needs a SQLite file"):
        resolve_db_path(url)


@pytest.mark.parametrize("url", ["mysql://u@h/db", "http://example.org/x.db", "sqlite:///x.db", "file:///tmp/x.db"])
def test_other_schemes_are_refused(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(StoreError, match="not a database grammar-tutor can use"):
        resolve_db(url)
    monkeypatch.setenv(ENV_VAR, url)
    with pytest.raises(StoreError, match="postgresql://USER@HOST:PORT/DB"):
        resolve_db(None)


def test_a_password_never_reaches_a_message() -> None:
    assert redact("postgresql://ana:s3cret@db.example:5433/district") == "postgresql://ana:***@db.example:5433/district"
    with pytest.raises(StoreError) as caught:
        resolve_db("mysql://ana:s3cret@h/db")
    assert "s3cret" not in str(caught.value)


def test_a_path_object_stays_a_path(tmp_path: Path) -> None:
    odd = tmp_path / "postgresql:" / "x.db"
    assert resolve_db(odd) == odd
