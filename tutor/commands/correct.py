"""`grammar-tutor correct`: correct one sentence, or JSON Lines from stdin (--jsonl)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tutor.commands.common import add_model_options, tutor_kwargs
from tutor.errors import InputError, TutorError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `correct` subcommand."""
    p = sub.add_parser("correct", help="correct a sentence and print the JSON")
    p.add_argument("sentence", nargs="?", help="the sentence (omit with --jsonl)")
    p.add_argument("--jsonl", action="store_true",
                   help='read one JSON value per line from stdin (a string, or {"id":…, "original":…})')
    p.add_argument("--stats", action="store_true", help="also print the timings (to stderr)")
    p.add_argument("--no-save", action="store_true", help="do not record the correction in the store")
    p.add_argument("--learner", default=None, help="learner name to record the correction under")
    p.add_argument("--db", dest="sub_db", default=None, help="SQLite file (overrides GRAMMAR_TUTOR_DB)")
    add_model_options(p)
    p.set_defaults(handler=run)


def _open_store(args: argparse.Namespace):
    if args.no_save:
        return None
    from tutor.store import Store

    return Store.open(args.sub_db or getattr(args, "db", None))


def _save(store, result, learner: str | None) -> None:
    from tutor.store import DEFAULT_LEARNER

    if store is not None:
        store.save_correction(result, learner=learner or DEFAULT_LEARNER)


def run(args: argparse.Namespace) -> int:
    """Run the command; return the exit code."""
    from tutor.api import Tutor, check_sentence

    if not args.jsonl:
        if args.sentence is None:
            raise InputError("give a sentence to correct, or --jsonl to read JSON Lines from stdin")
        check_sentence(args.sentence)  # a bad sentence fails before the model loads
    store = _open_store(args)
    tutor = Tutor.load(args.model, **tutor_kwargs(args))
    if not args.jsonl:
        result = tutor.correct(args.sentence)
        _save(store, result, args.learner)
        print(json.dumps(result.output, ensure_ascii=False), flush=True)
        if args.stats:
            print(json.dumps(result.timings.to_dict()), file=sys.stderr)
        return 0
    failures = 0
    for lineno, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        out: dict[str, Any] = {"id": lineno}
        try:
            value = json.loads(line)
            if isinstance(value, dict):
                out["id"] = value.get("id", lineno)
                value = value.get("original")
            result = tutor.correct(value)
        except json.JSONDecodeError as exc:
            out["error"] = f"line {lineno} is not JSON: {exc.msg}"
        except TutorError as exc:
            out["error"] = str(exc)
        else:
            _save(store, result, args.learner)
            out["output"] = result.output
            if args.stats:
                out["timings"] = result.timings.to_dict()
        failures += "error" in out
        print(json.dumps(out, ensure_ascii=False), flush=True)
    return 1 if failures else 0
