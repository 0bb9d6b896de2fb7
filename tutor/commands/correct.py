"""`grammar-tutor correct`: correct one sentence, or JSON Lines from stdin (--jsonl)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tutor.commands.common import add_model_options, tutor_kwargs
from tutor.commands.streams import describe_bad_bytes, lines
from tutor.errors import InputError, TutorError

if TYPE_CHECKING:
    from tutor.store import Store
    from tutor.tutoring import Recorded


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


def _open_store(args: argparse.Namespace) -> Store | None:
    """Return the store to record in (--db, $GRAMMAR_TUTOR_DB, the data folder), or None with --no-save."""
    if args.no_save:
        return None
    from tutor.store import Store

    return Store.open(args.sub_db or getattr(args, "db", None))


def learner_of(args: argparse.Namespace) -> str:
    """Return the learner to record under: --learner, else the store's default learner."""
    from tutor.store import DEFAULT_LEARNER

    return args.learner or DEFAULT_LEARNER


def unsaved(done: Recorded[Any], what: str) -> str | None:
    """Return None, or the store's message when recording failed (said on stderr after `what`; the caller goes on)."""
    if done.save_error is None:
        return None
    print(f"grammar-tutor: {what}: {done.save_error}", file=sys.stderr, flush=True)
    return str(done.save_error)


def _finite_or_text(literal: str) -> float | str:
    """Parse a JSON number; one beyond float range (1e400) stays its text, so the output is valid JSON."""
    value = float(literal)
    return value if math.isfinite(value) else literal


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")


def parse_line(text: str) -> Any:
    """Return the JSON value of one --jsonl line (strict JSON: no NaN or Infinity)."""
    return json.loads(text, parse_float=_finite_or_text, parse_constant=_no_constants)


def _read_value(lineno: int, line: str | None, raw: bytes) -> Any:
    """Return the JSON value of a line; InputError naming bad bytes or bad JSON."""
    if line is None:
        raise InputError(f"line {lineno} is not UTF-8 text ({describe_bad_bytes(raw)}); save the file as UTF-8")
    try:
        return parse_line(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"line {lineno} is not JSON: {exc.msg}") from None
    except ValueError as exc:  # NaN / Infinity
        raise InputError(f"line {lineno} is not JSON: {exc}") from None


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def run(args: argparse.Namespace) -> int:
    """Run the command; return the exit code."""
    from tutor.api import Tutor, check_sentence
    from tutor.tutoring import Tutoring

    if not args.jsonl:
        if args.sentence is None:
            raise InputError("give a sentence to correct, or --jsonl to read JSON Lines from stdin")
        check_sentence(args.sentence)  # a bad sentence fails before the model loads
    store = _open_store(args)
    tutoring = Tutoring(Tutor.load(args.model, **tutor_kwargs(args)), store)
    learner = learner_of(args)
    if not args.jsonl:
        done = tutoring.correct(args.sentence, learner=learner)  # saved before printing: printed means on disk
        failed = unsaved(done, "the correction was not saved")
        print(_dump(done.result.output), flush=True)  # printed even when saving failed
        if args.stats:
            print(json.dumps(done.result.timings.to_dict()), file=sys.stderr)
        return 1 if failed else 0

    def answer(value: Any) -> dict[str, Any]:
        done = tutoring.correct(value, learner=learner)
        out: dict[str, Any] = {"output": done.result.output}
        if args.stats:
            out["timings"] = done.result.timings.to_dict()
        failed = unsaved(done, "the correction was not saved")
        if failed is not None:
            out["save_error"] = failed
        return out

    return run_jsonl("original", answer)


def run_jsonl(key: str, answer: Callable[[Any], dict[str, Any]]) -> int:
    """Stream stdin's JSON Lines: each line a value or {"id":…, key:…}; print {"id", **answer(value)} or
    {"id", "error"} per line, so a bad line never stops the rest; return 1 when any line failed."""
    failures = 0
    for lineno, line, raw in lines(sys.stdin.buffer):
        if line is not None and not line.strip():
            continue
        out: dict[str, Any] = {"id": lineno}
        try:
            value = _read_value(lineno, line, raw)
            if isinstance(value, dict):
                out["id"] = value.get("id", lineno)
                value = value.get(key)
            out.update(answer(value))
        except TutorError as exc:
            out["error"] = str(exc)
        failures += "error" in out or "save_error" in out
        print(_dump(out), flush=True)
    return 1 if failures else 0
