"""`grammar-tutor teacher`: set the teacher passphrase that guards `history`, every export and the app's
Teacher page (kept in the database as an scrypt hash), or say whether one is set.

`teacher set-passphrase` reads from standard input when it is not a terminal: the new passphrase on
the first line, or, when one is already set, the current passphrase then the new one. On a terminal
it asks (hidden), the new one twice.
"""

from __future__ import annotations

import argparse
import sys

from tutor.commands.unlock import read_secret


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `teacher` subcommand."""
    p = sub.add_parser("teacher", help="set the teacher passphrase (guards history and exports)",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", dest="teacher_db", metavar="PATH", default=None,
                   help="SQLite file or postgresql:// URL (default: global --db, $GRAMMAR_TUTOR_DB, else the data "
                        "folder)")
    actions = p.add_subparsers(dest="teacher_action", required=True)
    actions.add_parser("set-passphrase", help="set or change the passphrase (stdin, or asked on a terminal)")
    actions.add_parser("status", help="say whether a passphrase is set")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Set the passphrase or report the status; return the exit code."""
    from tutor.store import Store
    from tutor.store.lock import PASSPHRASE_MIN_LENGTH, LockError, SecretLock

    with Store.open(getattr(args, "teacher_db", None) or getattr(args, "db", None)) as store:
        lock = SecretLock(store)
        if args.teacher_action == "status":
            state = "set" if lock.teacher_set() else "not set (history and exports are open to anyone)"
            print(f"teacher passphrase in {store.path}: {state}")
            return 0
        piped = not (sys.stdin is not None and sys.stdin.isatty())
        current = None
        if lock.teacher_set():
            current = read_secret("Current teacher passphrase: ", from_stdin=piped)
        new = read_secret(f"New teacher passphrase (at least {PASSPHRASE_MIN_LENGTH} characters): ", from_stdin=piped)
        if not piped and new is not None:
            again = read_secret("Type it again: ", from_stdin=False)
            if again != new:
                raise LockError("the two passphrases differ; nothing was changed")
        if not new:
            raise LockError("no new passphrase was given (empty line or end of input); nothing was changed")
        lock.set_teacher(new, current=current)
        print(f"teacher passphrase set in {store.path}", file=sys.stderr)
    return 0
