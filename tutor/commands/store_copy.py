"""`grammar-tutor store copy --from A --to B`: move a class's history between a SQLite file and PostgreSQL."""

from __future__ import annotations

import argparse

from tutor.commands.unlock import add_passphrase_option, read_secret, require_teacher


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `store` subcommand (its one action: copy)."""
    parser = sub.add_parser("store", help="copy a store's history to another database (SQLite or PostgreSQL)")
    actions = parser.add_subparsers(dest="store_action", metavar="ACTION", required=True)
    copy = actions.add_parser(
        "copy",
        help="copy every learner, correction, card and secret from one store to another",
        description="Copy a store into another in one transaction: a SQLite file into a postgresql://USER@HOST:PORT/DB "
                    "database, or back into a file. Learners and rows are matched by UUID, so a second run adds "
                    "nothing; a learner whose name is another person's there is refused and nothing is copied. "
                    "The outbox (rows a laptop has still to upload) is not copied. A store with a teacher "
                    "passphrase is copied only with the passphrase (--passphrase-stdin).",
    )
    copy.add_argument("--from", dest="copy_from", required=True, metavar="FILE|URL", help="the store to read")
    copy.add_argument("--to", dest="copy_to", required=True, metavar="FILE|URL", help="the store to add to")
    add_passphrase_option(copy)
    copy.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Copy, then print per table what was copied and what was already there."""
    from tutor.store.copy import copy_store

    _require_teacher(args)
    for line in copy_store(args.copy_from, args.copy_to).lines():
        print(line)
    return 0


def _require_teacher(args: argparse.Namespace) -> None:
    """A source with a teacher passphrase is copied only with it: a copy is as readable as an export."""
    from tutor.store import Store, postgres
    from tutor.store.lock import TEACHER, LockError, verify_secret
    from tutor.store.paths import redact, resolve_db

    source = resolve_db(args.copy_from)
    resolve_db(args.copy_to)  # a target that cannot be one is refused before the passphrase is asked
    if not isinstance(source, str):
        if source.exists():  # a missing file is reported by the copy itself
            with Store.open(source) as store:  # the throttled check every reading command uses
                require_teacher(store, args, doing="nothing was copied")
        return
    stored = postgres.secret_hash(source, TEACHER)
    if stored is None:
        return
    secret = read_secret("Teacher passphrase: ", from_stdin=args.passphrase_stdin)
    if secret is None or not verify_secret(secret, stored):
        raise LockError(f"the history in {redact(source)} is protected by the teacher passphrase; give the right "
                        "one with --passphrase-stdin, or run the command in a terminal to be asked; nothing was copied")
