"""The scripting CLI of `grammar-tutor` (correct, eval, history, bench, lab); app.launch opens the GUI."""

from __future__ import annotations

import argparse
import importlib
import sys

from tutor import __version__
from tutor.errors import TutorError

# Each module registers one subcommand (see tutor/commands/).
_SUBCOMMANDS = (
    "tutor.commands.correct",
    "tutor.commands.evaluate",
    "tutor.commands.history",
    "tutor.commands.bench",
    "tutor.commands.lab",
    "tutor.commands.importing",
    "tutor.commands.serve",
    "tutor.commands.doctor",
    "tutor.commands.check",
    "tutor.commands.compile",
    "tutor.commands.teacher",
    "tutor.commands.judge_fit",
    "tutor.commands.practice",
    "tutor.commands.store_copy",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="grammar-tutor",
        description="Offline English verb tutor. With no subcommand, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"grammar-tutor {__version__}")
    parser.add_argument("--db", help="SQLite file to use, or a postgresql://USER@HOST:PORT/DB URL where a command "
                        "supports it (default: $GRAMMAR_TUTOR_DB or the user data folder)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _SUBCOMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    from tutor.commands.streams import check_argv, quiet_broken_pipe, use_utf8_streams

    use_utf8_streams()  # UTF-8 in and out whatever the platform's default encoding
    try:
        check_argv(sys.argv[1:] if argv is None else argv)
    except TutorError as exc:
        print(f"grammar-tutor: {exc}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # the app is opened by app.launch, the installed entry point
        parser.print_help()
        return 0
    try:
        return int(args.handler(args) or 0)
    except TutorError as exc:
        print(f"grammar-tutor: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`… | head -1`): stop quietly
        return quiet_broken_pipe()


if __name__ == "__main__":
    sys.exit(main())
