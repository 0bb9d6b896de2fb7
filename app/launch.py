"""The `grammar-tutor` entry point: no subcommand opens the app; subcommands run the core's CLI."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Open the desktop app, or hand a subcommand to tutor.cli; return the exit code."""
    from tutor.cli import build_parser
    from tutor.cli import main as cli_main

    args = sys.argv[1:] if argv is None else argv
    namespace = build_parser().parse_args(args)
    if namespace.command is None:
        from app.platform_check import ensure_platform

        failed = ensure_platform()  # a missing system library would make Qt abort the process
        if failed is not None:
            return failed
        from app.main import run_app  # Qt is imported only when the window is wanted

        return run_app(db=namespace.db)
    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
