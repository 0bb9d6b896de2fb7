"""What the reading commands share: the teacher passphrase gate, an existing store only, a bounded --limit."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from tutor.errors import StoreError

MAX_LIMIT = 10_000


def limit_count(text: str) -> int:
    """Parse --limit: a whole number from 1 to MAX_LIMIT (argparse shows the message)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rows from 1 to {MAX_LIMIT:,}")
    return value


def add_passphrase_option(parser: argparse.ArgumentParser) -> None:
    """Add --passphrase-stdin (the teacher passphrase, read from the first line of standard input)."""
    parser.add_argument("--passphrase-stdin", action="store_true",
                        help="read the teacher passphrase from the first line of stdin (when one is set)")


def read_secret(prompt: str, *, from_stdin: bool) -> str | None:
    """Return one secret: a line of stdin, or a hidden prompt on a terminal; None when neither is possible."""
    if from_stdin:
        line = sys.stdin.buffer.readline() if hasattr(sys.stdin, "buffer") else sys.stdin.readline().encode()
        return line.decode("utf-8", "replace").rstrip("\r\n")
    if sys.stdin is not None and sys.stdin.isatty():
        return getpass.getpass(prompt)
    return None


def require_teacher(store: Any, args: argparse.Namespace, *, doing: str = "nothing was shown or exported") -> None:
    """Return quietly when no teacher passphrase is set, or the right one is given; else LockError
    (`doing` says what was not done)."""
    from tutor.store.lock import LockError, SecretLock

    lock = SecretLock(store)
    if not lock.teacher_set():
        return
    secret = read_secret("Teacher passphrase: ", from_stdin=getattr(args, "passphrase_stdin", False))
    if secret is None:
        raise LockError(
            f"the history in {store.path} is protected by the teacher passphrase; give it with "
            f"--passphrase-stdin (e.g. from a password manager), or run the command in a terminal to be asked; "
            f"{doing}"
        )
    if not lock.check_teacher(secret):
        raise LockError(f"that teacher passphrase is not right; {doing}")


def open_existing_store(path: str | None) -> Any:
    """Open the store at `path` (or the default) for reading; StoreError, creating nothing, if it is missing."""
    from tutor.store import Store, resolve_db

    target = resolve_db(path)
    if isinstance(target, str):  # a postgresql:// URL: opening it says clearly when it cannot be reached
        return Store.open(target)
    if not target.exists():
        raise StoreError(
            f"there is no history database at {target}; check the path, or run `grammar-tutor correct` "
            "(or open the app) to start one"
        )
    return Store.open(target)
