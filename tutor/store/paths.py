"""Where the store lives: --db PATH or URL, then $GRAMMAR_TUTOR_DB, then the user's data folder.

A path names a SQLite file; a `postgresql://` (or `postgres://`) URL names a PostgreSQL database; any other
`scheme://` is refused with StoreError instead of being taken for a file path.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

from tutor.errors import StoreError

ENV_VAR = "GRAMMAR_TUTOR_DB"
APP_NAME = "grammar-tutor"
FILE_NAME = "grammar-tutor.db"


def default_db_path() -> Path:
    """Return the default store file: `grammar-tutor.db` in the user's data folder (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / FILE_NAME


POSTGRES_SCHEMES = ("postgresql", "postgres")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def postgres_url(value: str | os.PathLike[str]) -> str | None:
    """Return `value` when it is a PostgreSQL URL, None when it is a path; StoreError for any other scheme://."""
    if isinstance(value, os.PathLike):
        return None  # a Path object is a path, whatever its text
    match = _SCHEME.match(value.strip())
    if match is None:
        return None
    if match.group(1).lower() in POSTGRES_SCHEMES:
        return value.strip()
    raise StoreError(
        f"{redact(value)} is not a database grammar-tutor can use: give a SQLite file path or a "
        "postgresql://USER@HOST:PORT/DB URL"
    )


def redact(url: str) -> str:
    """Return `url` without its password (for messages and logs)."""
    parts = urlsplit(url.strip())
    if parts.password is None:
        return url.strip()
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def resolve_db(path: str | os.PathLike[str] | None = None) -> Path | str:
    """Return the store to use: `path` if given, else $GRAMMAR_TUTOR_DB if set, else the default file.

    A PostgreSQL URL comes back as its text, a path as a Path; any other `scheme://` raises StoreError.
    """
    if path is not None and str(path) != "":
        chosen: str | os.PathLike[str] = path
    else:
        chosen = os.environ.get(ENV_VAR, "").strip()
        if not chosen:
            return default_db_path()
    url = postgres_url(chosen)
    return url if url is not None else Path(chosen).expanduser()


def resolve_db_path(path: str | os.PathLike[str] | None = None) -> Path:
    """Return the SQLite file to use (as resolve_db); a PostgreSQL URL raises StoreError (no file to name)."""
    target = resolve_db(path)
    if isinstance(target, str):
        raise StoreError(f"{redact(target)} is a PostgreSQL database; this needs a SQLite file path")
    return target


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
