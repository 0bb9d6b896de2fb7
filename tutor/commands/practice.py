"""`grammar-tutor exercises`: the learner's due exercise cards, built from their own mistakes, and answering one.

    grammar-tutor exercises --learner Ana --json              {"due": [{"id", "prompt", "cell", "answer", …}]}
    grammar-tutor exercises --learner Ana --answer 3f2a91c0 went --json

`practice` is the command's earlier name, still accepted.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tutor.commands.unlock import limit_count, read_secret
from tutor.errors import StoreError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `exercises` subcommand (also reached by its earlier name, `practice`)."""
    parser = sub.add_parser(
        "exercises", aliases=["practice"],
        help="exercises made from your own mistakes: list the due cards, or answer one",
        description="List the learner's due exercise cards (built from their saved mistakes and the §A13 table), "
                    "or answer one with --answer ID TEXT: it is graded against the table and rescheduled (FSRS). "
                    "A wrong answer keeps the card due.",
    )
    parser.add_argument("--learner", required=True, metavar="NAME", help="whose cards")
    parser.add_argument("--answer", nargs="+", metavar=("ID", "TEXT"),
                        help="answer card ID (its UUID or its first 8 characters) with TEXT: --answer 3f2a91c0 went")
    parser.add_argument("--gentler", action="store_true",
                        help="grade on the gentler, daily schedule: a card answered right comes back after a day or "
                             "more, not after minutes (the app's Settings offer the same choice)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--limit", type=limit_count, default=20, metavar="N", help="due cards to list (default: 20)")
    parser.add_argument("--pin-stdin", action="store_true",
                        help="read the learner's PIN from the first line of stdin (when their profile has one)")
    parser.add_argument("--db", dest="practice_db", metavar="PATH", default=None,
                        help="SQLite file (default: global --db, $GRAMMAR_TUTOR_DB, else the data folder)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """List the due cards or grade one answer; return the exit code."""
    from tutor.commands.unlock import open_existing_store
    from tutor.practice import Practice
    from tutor.practice.practice import public_card

    if args.answer is not None and len(args.answer) < 2:
        raise StoreError("--answer needs a card id and the answer, e.g. --answer 3f2a91c0 went")
    with open_existing_store(args.practice_db or getattr(args, "db", None)) as store:
        practice = Practice(store, daily=args.gentler)
        _, name, _ = practice.learner(args.learner)
        _require_pin(store, name, args)
        if args.answer is not None:
            done = practice.answer(name, args.answer[0], " ".join(args.answer[1:]))
            _print_answer(done, as_json=args.json)
            return 0
        due = practice.due(name, limit=args.limit)
        total = practice.count_due(name)
        if args.json:
            listing = {"learner": name, "count": total, "due": [public_card(c) for c in due]}
            print(json.dumps(listing, ensure_ascii=False))
        else:
            _print_due(name, due, total)
    return 0


def _require_pin(store: Any, name: str, args: argparse.Namespace) -> None:
    """Return quietly when the learner has no PIN or the right one is given; else LockError (the cards show
    the learner's own sentences)."""
    from tutor.store.lock import LockError, SecretLock

    lock = SecretLock(store)
    if not lock.has_pin(name):
        return
    secret = read_secret(f"{name}'s PIN: ", from_stdin=args.pin_stdin)
    if secret is None:
        raise LockError(f"{name}'s profile has a PIN; give it with --pin-stdin, or run the command in a terminal "
                        "to be asked")
    if not lock.check_pin(name, secret):
        raise LockError(f"that is not {name}'s PIN; nothing was shown or graded")


def _print_due(name: str, due: list[dict[str, Any]], total: int) -> None:
    from tutor.store.names import visible_text

    if not due:
        print(f"{visible_text(name)} has no cards due. Cards come from the mistakes `grammar-tutor correct` "
              "and `check` save.")
        return
    print(f"{visible_text(name)}: {total} card{'s' if total != 1 else ''} due")
    for n, card in enumerate(due, 1):
        cell = card["cell"]
        print(f"{n:3}. [{card['id'][:8]}] {visible_text(card['prompt'])}    "
              f"({cell['verb']} · {cell['tense']} · {cell['person']})")
    print(f"Answer one with: grammar-tutor exercises --learner {json.dumps(name)} --answer {due[0]['id'][:8]} FORM")


def _print_answer(done: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        print(json.dumps(done, ensure_ascii=False))
        return
    if done["correct"]:
        print(f"Right: {done['answer']}.")
    else:
        print(f"Not quite: the answer is {done['answer']} (you wrote {done['given']}).")
    print(f"  {done['explanation_en']}")
    print(f"  ES: {done['explanation_es']}")
    if done["still_due"]:
        print("The card stays in your due list.")
    else:
        print(f"Next time this card is due: {done['due'][:16].replace('T', ' ')} UTC.")
