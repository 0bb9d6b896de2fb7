"""`grammar-tutor check`: every verb of a whole text, with spans (a text argument, --file, or --jsonl)."""

from __future__ import annotations

import argparse
import stat
from pathlib import Path
from typing import Any

from tutor.commands.common import add_model_options, load_tutor
from tutor.commands.correct import (
    _dump,
    add_pin_option,
    learner_of,
    open_store,
    run_jsonl,
    say_unsaved,
    unsaved,
)
from tutor.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `check` subcommand."""
    p = sub.add_parser("check", help="check a whole text: every verb form of the 20, underlined by offsets")
    p.add_argument("text", nargs="?", help="the text to check (or --file / --jsonl)")
    p.add_argument("--file", metavar="PATH", help="read the text from this UTF-8 file")
    p.add_argument("--jsonl", action="store_true",
                   help='read {"id":…, "text":…} per line from stdin; write {"id", "findings", "sentences", "notes"}')
    p.add_argument("--no-save", action="store_true", help="do not record the findings in the store")
    p.add_argument("--learner", default=None, help="learner name to record the findings under")
    add_pin_option(p)
    p.add_argument("--db", dest="sub_db", default=None, help="SQLite file (overrides GRAMMAR_TUTOR_DB)")
    add_model_options(p)
    p.set_defaults(handler=run)


def read_text_file(name: str) -> str:
    """Return a UTF-8 text file's text exactly as written (CRLF kept, so offsets point into the file; a BOM
    dropped); InputError for a folder, a missing or unreadable file, or bytes that are not UTF-8."""
    from tutor.limits import MAX_TEXT_CHARS

    path = Path(name)
    if path.is_dir():
        raise InputError(f"{name} is a folder; give the path of a text file with --file")
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # /dev/zero never ends, a FIFO may never open: neither is read
            raise InputError(f"{name} is not a regular file (a device, a pipe or a socket); give a text file")
        if info.st_size > 4 * MAX_TEXT_CHARS + 3:  # UTF-8 takes at most 4 bytes a character, a BOM 3
            raise InputError(f"{name} is {info.st_size:,} bytes; the checker takes texts of up to "
                             f"{MAX_TEXT_CHARS:,} characters, so give a shorter file")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: {name}; check the path") from None
    except OSError as exc:
        raise InputError(f"cannot read {name} ({exc.strerror or exc}); check its permissions") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None


def run(args: argparse.Namespace) -> int:
    """Run the command; return the exit code."""
    from tutor.api import check_text
    from tutor.tutoring import Tutoring

    if not args.jsonl:
        if args.file:
            text = read_text_file(args.file)
        elif args.text is not None:
            text = args.text
        else:
            raise InputError("give a text to check, --file PATH, or --jsonl to read JSON Lines from stdin")
        check_text(text)  # a bad text fails before the model loads
    learner = learner_of(args)
    store, store_error = open_store(args, learner)
    tutoring = Tutoring(load_tutor(args), store)
    if not args.jsonl:
        result = tutoring.tutor.check(text)
        print(_dump(result.to_dict()), flush=True)  # printed first, then recorded
        failed = unsaved(tutoring.record_check(result, learner=learner), "the findings were not saved", store_error)
        say_unsaved(store_error, "the findings were not saved")
        return 1 if failed else 0

    say_unsaved(store_error, "no findings will be saved")

    def answer(value: Any) -> dict[str, Any]:
        done = tutoring.check(value, learner=learner)
        out: dict[str, Any] = done.result.to_dict()
        failed = unsaved(done, "the findings were not saved", store_error)
        if failed is not None:
            out["save_error"] = failed
        return out

    return run_jsonl("text", answer)
