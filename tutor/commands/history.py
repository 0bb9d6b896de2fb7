"""`grammar-tutor history`: list recent corrections, or export them as CSV or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tutor.commands.unlock import add_passphrase_option, limit_count, open_existing_store, require_teacher
from tutor.errors import StoreError

_VERDICT_WIDTH = 28


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `history` subcommand."""
    parser = sub.add_parser(
        "history",
        help="show or export the correction history",
        description="Show recent corrections (newest first), or export them oldest first as CSV or JSON.",
    )
    # dest differs from the global --db so the subcommand's default does not overwrite it.
    parser.add_argument("--db", dest="history_db", metavar="PATH", default=None,
                        help="SQLite file (default: global --db, $GRAMMAR_TUTOR_DB, else the data folder)")
    parser.add_argument("--learner", metavar="NAME", help="only this learner (default: everyone)")
    parser.add_argument("--export", choices=("csv", "json", "bundle"),
                        help="write the whole history in this format (bundle: one learner's, for `import`)")
    parser.add_argument("--out", metavar="FILE", help="write the export here (default: standard output)")
    parser.add_argument("--limit", type=limit_count, default=20, metavar="N", help="rows to list (default: 20)")
    parser.add_argument("--verb", help="only this verb (e.g. go)")
    parser.add_argument("--tense", help='only this tense (e.g. "past simple")')
    parser.add_argument("--person", help='only this person (e.g. "3rd singular")')
    parser.add_argument("--since", metavar="DATE", help="from this UTC date/time on (ISO, e.g. 2025-03-01)")
    parser.add_argument("--until", metavar="DATE", help="up to and including this UTC date (ISO)")
    parser.add_argument("--search", metavar="WORDS", help="sentences containing these words (prefixes)")
    add_passphrase_option(parser)
    parser.set_defaults(handler=run)


def db_argument(args: argparse.Namespace) -> str | None:
    """Return the --db given to the subcommand, else the global one, else None (env/default decide)."""
    return getattr(args, "history_db", None) or getattr(args, "db", None)


def run(args: argparse.Namespace) -> int:
    """List or export the history; return the exit code."""
    fmt = args.export
    if fmt is None and args.out:
        fmt = Path(args.out).suffix.lower().lstrip(".")
        if fmt not in ("csv", "json"):
            raise StoreError(
                f"cannot tell the export format from {args.out!r}; add --export csv or --export json"
            )
    with open_existing_store(db_argument(args)) as store:
        require_teacher(store, args)  # before anything is shown, learner names included
        if args.learner is not None and store.find_learner(args.learner) is None:
            names = ", ".join(x["name"] for x in store.learners()) or "none yet"
            raise StoreError(f"no learner {args.learner!r} in {store.path}; known learners: {names}")
        if fmt is not None:
            if _has_filters(args):
                raise StoreError("--export writes the whole history of --learner (or everyone); "
                                 "drop --verb/--tense/--person/--since/--until/--search")
            if fmt == "bundle":
                from tutor.store.bundle import write_bundle

                if args.learner is None:
                    raise StoreError("--export bundle writes one learner's history; add --learner NAME")
                n = write_bundle(store, args.learner, args.out if args.out else sys.stdout)
            else:
                n = store.export(fmt, args.out if args.out else sys.stdout, learner=args.learner)
            if args.out:
                print(f"wrote {n} corrections to {args.out}", file=sys.stderr)
            return 0
        try:
            rows = store.history(args.learner, verb=args.verb, tense=args.tense, person=args.person,
                                 since=args.since, until=args.until, search=args.search, limit=args.limit)
            total = store.count_history(args.learner, verb=args.verb, tense=args.tense, person=args.person,
                                        since=args.since, until=args.until, search=args.search)
        except ValueError as exc:
            raise StoreError(str(exc)) from exc
        _print_table(rows, total, store.path)
    return 0


def _has_filters(args: argparse.Namespace) -> bool:
    return any(getattr(args, name) for name in ("verb", "tense", "person", "since", "until", "search"))


def _verdict(row: dict) -> str:
    if row.get("noted"):  # a note was shown: the sentence has an error §A13 does not label
        return "noted (not corrected)"
    if row["out_of_scope"]:
        return "out of scope"
    if row["not_sure"]:  # the card asked it as a question: never a sure verdict
        return f"not sure: {row['correct_form']}?"
    if row["is_correct"]:
        return f"correct ({row['correct_form']})"
    return f"-> {row['correct_form']} ({row['spanish']})"


def _print_table(rows: list[dict], total: int, path: Path) -> None:
    if not rows:
        print(f"No corrections match in {path}.")
        return
    from tutor.store.names import visible_text  # no terminal escapes from old rows reach the screen

    rows = [{**r, "learner": visible_text(r["learner"]), "original": visible_text(r["original"])} for r in rows]
    learner_width = max(7, *(len(r["learner"]) for r in rows))
    print(f"{'when (UTC)':16}  {'learner':{learner_width}}  {'verdict':{_VERDICT_WIDTH}}  sentence")
    for row in rows:
        when = row["created"][:16].replace("T", " ")
        verdict = _verdict(row)[:_VERDICT_WIDTH]
        print(f"{when:16}  {row['learner']:{learner_width}}  {verdict:{_VERDICT_WIDTH}}  {row['original']}")
    print(f"{len(rows)} of {total} shown (newest first) from {path}")
