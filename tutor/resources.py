"""Locate the project's data folders (`data/`, `grammars/`, `models/`) in a checkout or an installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_FOLDERS = ("data", "grammars", "models")


@cache
def folder(name: str) -> Path:
    """Return the path of one of the shipped data folders: 'data', 'grammars' or 'models'.

    A wheel carries them inside the package as `tutor/_<name>`; a checkout (editable install)
    has them at the repository root, next to `tutor/`.
    """
    if name not in _FOLDERS:
        raise ValueError(f"unknown resource folder {name!r}; expected one of {_FOLDERS}")
    for candidate in (_PACKAGE_DIR / f"_{name}", _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"the {name}/ folder was not found next to {_PACKAGE_DIR}; reinstall grammar-tutor"
    )


def data_path(*parts: str) -> Path:
    """Return a path under `data/`."""
    return folder("data").joinpath(*parts)


def grammar_path(*parts: str) -> Path:
    """Return a path under `grammars/`."""
    return folder("grammars").joinpath(*parts)


def models_path(*parts: str) -> Path:
    """Return a path under `models/`."""
    return folder("models").joinpath(*parts)
