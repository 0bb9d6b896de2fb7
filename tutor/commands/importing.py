"""`grammar-tutor import FILE…`: merge learners' bundles into this database, each row exactly once."""

from __future__ import annotations

import argparse
import sys

from tutor.commands.unlock import add_passphrase_option, require_teacher
from tutor.errors import StoreError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `import` subcommand."""
    parser = sub.add_parser(
        "import",
        help="merge learners' history bundles into this database",
        description="Merge bundles written by `grammar-tutor history --learner NAME --export bundle`. "
                    "Learners are matched by UUID and rows by UUID: importing a bundle twice adds nothing, "
                    "and a known row with different content is reported as a conflict, never overwritten. "
                    "Every row is checked against the store and the §A13 table; a bad file is refused whole "
                    "and the others still go in. With a teacher passphrase set, importing needs it.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="bundle files (several at once)")
    parser.add_argument("--db", dest="import_db", metavar="PATH", default=None,
                        help="SQLite file (default: global --db, $GRAMMAR_TUTOR_DB, else the data folder)")
    add_passphrase_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Import every file, print one summary line per file and a total; return 2 if any file was refused."""
    from tutor.store import Store
    from tutor.store.bundle import import_files

    refused = new = present = conflicts = 0
    with Store.open(args.import_db or getattr(args, "db", None)) as store:
        require_teacher(store, args, doing="nothing was imported")  # a locked store takes files from the teacher only
        for outcome in import_files(store, args.files):
            if isinstance(outcome, StoreError):
                refused += 1
                print(f"grammar-tutor: {outcome}", file=sys.stderr)
                continue
            print(outcome.line())
            for row_id in outcome.conflicts:
                print(f"  conflict: correction {row_id} is already here with different content; kept ours")
            new, present, conflicts = new + outcome.new, present + outcome.present, conflicts + len(outcome.conflicts)
        print(f"total: {new} new, {present} already present, {conflicts} conflicts, "
              f"{refused} files refused, into {store.path}")
    return 2 if refused else 0
