"""`grammar-tutor store copy --from A --to B`: move a class's history between a SQLite file and PostgreSQL."""

from __future__ import annotations

import argparse


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
                    "The outbox (rows a laptop has still to upload) is not copied.",
    )
    copy.add_argument("--from", dest="copy_from", required=True, metavar="FILE|URL", help="the store to read")
    copy.add_argument("--to", dest="copy_to", required=True, metavar="FILE|URL", help="the store to add to")
    copy.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Copy, then print per table what was copied and what was already there."""
    from tutor.store.copy import copy_store

    for line in copy_store(args.copy_from, args.copy_to).lines():
        print(line)
    return 0
