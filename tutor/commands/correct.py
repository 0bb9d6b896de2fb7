"""`grammar-tutor correct`: correct one sentence, or JSON Lines from stdin (--jsonl)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tutor.commands.common import add_model_options, load_tutor
from tutor.commands.streams import MAX_LINE_BYTES, describe_bad_bytes, is_too_long, lines
from tutor.errors import InputError, StoreError, TutorError
from tutor.jsontext import BadJSON, loads

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
    add_pin_option(p)
    p.add_argument("--db", dest="sub_db", default=None, help="SQLite file (overrides GRAMMAR_TUTOR_DB)")
    add_model_options(p)
    p.set_defaults(handler=run)


def open_store(args: argparse.Namespace, learner: str) -> tuple[Store | None, StoreError | None]:
    """Return (the store to record `learner`'s corrections in, None), (None, None) with --no-save, or (None, why
    nothing will be saved: the store would not open, or the learner's PIN was not given; see guard_learner).

    A store that is damaged, read-only or missing its folder never stops the correction: the caller
    prints it and reports the save error (the README's promise).
    """
    if args.no_save:
        return None, None
    from tutor.store import Store

    try:
        store = Store.open(args.sub_db or getattr(args, "db", None))
    except StoreError as exc:
        return None, exc
    refused = guard_learner(store, learner, args)
    if refused is None:
        return store, None
    store.close()
    return None, refused


def add_pin_option(parser: argparse.ArgumentParser) -> None:
    """Add --pin-stdin: the learner's PIN, when their profile has one, from the first line of stdin."""
    parser.add_argument("--pin-stdin", action="store_true",
                        help="read the learner's PIN from the first line of stdin (when their profile has one; "
                             "with --jsonl the lines follow it)")


def guard_learner(store: Store, learner: str, args: argparse.Namespace) -> StoreError | None:
    """Return None when the corrections may be saved under `learner`, else why not (nothing is then saved).

    A learner whose profile has a PIN is written to only with that PIN: `--pin-stdin` (the first line of
    standard input; with --jsonl the lines follow it), or a hidden prompt on a terminal (not with --jsonl).
    The correction is still printed either way.
    """
    from tutor.commands.unlock import read_secret
    from tutor.store.lock import LockError, SecretLock

    lock = SecretLock(store)
    if store.find_learner(learner) is None or not lock.has_pin(learner):
        return None
    from_stdin = getattr(args, "pin_stdin", False)
    pin = read_secret(f"{learner}'s PIN: ", from_stdin=from_stdin) if from_stdin or not args.jsonl else None
    if pin is None:
        return StoreError(f"{learner}'s profile has a PIN; give it with --pin-stdin, or run the command in a "
                          "terminal to be asked")
    try:
        ok = lock.check_pin(learner, pin)
    except LockError as exc:  # too many wrong PINs: wait
        return StoreError(str(exc))
    return None if ok else StoreError(f"that is not {learner}'s PIN")


def learner_of(args: argparse.Namespace) -> str:
    """Return the learner to record under: --learner, else the store's default learner."""
    from tutor.store import DEFAULT_LEARNER

    return args.learner or DEFAULT_LEARNER


def unsaved(done: Recorded[Any], what: str, store_error: StoreError | None = None) -> str | None:
    """Return None, or the store's message when recording failed (said on stderr after `what`; the caller goes on).

    `store_error` is why the store did not open at all: it was said once already, so it is only returned.
    """
    if store_error is not None:
        return str(store_error)
    if done.save_error is None:
        return None
    print(f"grammar-tutor: {what}: {done.save_error}", file=sys.stderr, flush=True)
    return str(done.save_error)


def say_unsaved(store_error: StoreError | None, what: str) -> None:
    """Say once on stderr that nothing will be saved because the store did not open (when it did not)."""
    if store_error is not None:
        print(f"grammar-tutor: {what}: {store_error}", file=sys.stderr, flush=True)


def parse_line(text: str) -> Any:
    """Return the JSON value of one --jsonl line: strict JSON (no NaN or Infinity), nested at most
    tutor.jsontext.MAX_DEPTH deep; a number beyond float range (1e400) keeps its text, so output stays JSON."""
    return loads(text, huge="text")


def _read_value(lineno: int, line: str | None, raw: bytes) -> Any:
    """Return the JSON value of a line; InputError naming bad bytes or bad JSON."""
    if line is None and is_too_long(raw):
        raise InputError(f"line {lineno} is over {MAX_LINE_BYTES // 1024} kB, more than any sentence or text "
                         "needs; it was skipped")
    if line is None:
        raise InputError(f"line {lineno} is not UTF-8 text ({describe_bad_bytes(raw)}); save the file as UTF-8")
    try:
        return parse_line(line)
    except BadJSON as exc:
        raise InputError(f"line {lineno} is not usable: {exc}") from None


# Line separators JSON keeps raw inside strings, but that split a line for str.splitlines() and other readers.
_LINE_BREAKS = str.maketrans({"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _dump(value: Any) -> str:
    """Return one output line: JSON with every line separator escaped, so a JSON Lines reader sees one line."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False).translate(_LINE_BREAKS)


def _tutor(args: argparse.Namespace) -> Any:
    """Return the plain Tutor, or with --no-facts / --no-table the lab's plain path kept for comparison around it.

    The lab is imported only when one of those two flags is given; every other switch is a plain Tutor setting.
    """
    tutor = load_tutor(args)
    if tutor.settings.facts and tutor.settings.table:
        return tutor
    from tutor.lab.ablations import Ablation

    return Ablation(tutor)


def run(args: argparse.Namespace) -> int:
    """Run the command; return the exit code."""
    from tutor.api import check_sentence
    from tutor.tutoring import Tutoring

    if not args.jsonl:
        if args.sentence is None:
            raise InputError("give a sentence to correct, or --jsonl to read JSON Lines from stdin")
        check_sentence(args.sentence)  # a bad sentence fails before the model loads
    learner = learner_of(args)
    store, store_error = open_store(args, learner)
    tutoring = Tutoring(_tutor(args), store)
    if not args.jsonl:
        done = tutoring.correct(args.sentence, learner=learner)  # saved before printing: printed means on disk
        failed = unsaved(done, "the correction was not saved", store_error)
        say_unsaved(store_error, "the correction was not saved")
        print(_dump(done.result.output), flush=True)  # printed even when saving failed
        if args.stats:
            print(json.dumps(done.result.timings.to_dict()), file=sys.stderr)
        return 1 if failed else 0

    say_unsaved(store_error, "no correction will be saved")

    def answer(value: Any) -> dict[str, Any]:
        done = tutoring.correct(value, learner=learner)
        out: dict[str, Any] = {"output": done.result.output}
        if args.stats:
            out["timings"] = done.result.timings.to_dict()
        failed = unsaved(done, "the correction was not saved", store_error)
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
                if key not in value:
                    found = ", ".join(f'"{k}"' for k in list(value)[:5]) or "none"
                    raise InputError(f'line {lineno} has no "{key}" field (its fields: {found}); give '
                                     f'{{"id": …, "{key}": …}} or a JSON string')
                value = value[key]
            out.update(answer(value))
        except TutorError as exc:
            out["error"] = str(exc)
        failures += "error" in out or "save_error" in out
        print(_dump(out), flush=True)
    return 1 if failures else 0
