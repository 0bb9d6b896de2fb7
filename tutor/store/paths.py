"""Where the SQLite file lives: --db PATH, then $GRAMMAR_TUTOR_DB, then the user's data folder."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO

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


PRIVATE_MODE = 0o600  # history is personal: only the owner may read the files the tutor writes


def create_private(path: Path) -> bool:
    """Create `path` as an empty file only its owner can read and write; return False if it already exists."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def open_private(path: Path, *, newline: str | None = None) -> IO[str]:
    """Return a new UTF-8 text file at `path` (FileExistsError if it is there) that only its owner can read."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    try:
        return os.fdopen(fd, "w", encoding="utf-8", newline=newline)
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(fd)
        raise
