"""Where the SQLite file lives: --db PATH, then $GRAMMAR_TUTOR_DB, then the user's data folder."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "GRAMMAR_TUTOR_DB"
APP_NAME = "grammar-tutor"
FILE_NAME = "grammar-tutor.db"


def default_db_path() -> Path:
    """Return the default store file: `grammar-tutor.db` in the user's data folder (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / FILE_NAME


def resolve_db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """Return the store file to use: `path` if given, else $GRAMMAR_TUTOR_DB if set, else the default."""
    if path is not None and str(path) != "":
        return Path(path).expanduser()
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    return default_db_path()
