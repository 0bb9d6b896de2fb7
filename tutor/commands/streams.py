"""The CLI's standard streams: UTF-8 whatever the platform's default, bad bytes reported, quiet on a closed pipe."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator, Sequence

from tutor.errors import InputError


def use_utf8_streams() -> None:
    """Make stdin, stdout and stderr UTF-8 (a cp1252 console or PYTHONIOENCODING=…:strict included).

    Output that cannot be encoded (a lone surrogate) is written as a backslash escape, which inside
    a JSON string is still valid JSON; stdin is read as bytes by the commands that stream it.
    """
    for name, errors in (("stdin", "surrogateescape"), ("stdout", "backslashreplace"), ("stderr", "backslashreplace")):
        stream = getattr(sys, name)
        if isinstance(stream, io.TextIOWrapper):
            with contextlib.suppress(ValueError, io.UnsupportedOperation):  # e.g. a closed stream
                stream.reconfigure(encoding="utf-8", errors=errors)


def check_argv(argv: Sequence[str]) -> None:
    """Raise InputError for a command-line argument that was not valid UTF-8 (POSIX decodes it with
    surrogateescape: each bad byte became a lone surrogate)."""
    for position, arg in enumerate(argv, 1):
        bad = [ch for ch in arg if 0xDC80 <= ord(ch) <= 0xDCFF]
        if bad:
            raw = bytes(ord(ch) - 0xDC00 for ch in bad[:4])
            raise InputError(
                f"argument {position} is not valid UTF-8 text (bad bytes {raw!r}); "
                "save or type it as UTF-8"
            )


def lines(stream: io.BufferedIOBase) -> Iterator[tuple[int, str | None, bytes]]:
    """Yield (line number, text or None when it is not UTF-8, raw bytes) for each line of a byte stream.

    A UTF-8 byte-order mark at the very start is dropped.
    """
    for lineno, raw in enumerate(stream, 1):
        data = raw[3:] if lineno == 1 and raw.startswith(b"\xef\xbb\xbf") else raw
        try:
            yield lineno, data.decode("utf-8"), data
        except UnicodeDecodeError:
            yield lineno, None, data


def describe_bad_bytes(data: bytes) -> str:
    """Return where a line stops being UTF-8 and the offending bytes, for an error message."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"bad bytes {data[exc.start:exc.end]!r} at byte {exc.start}"
    return "no bad bytes"


def quiet_broken_pipe() -> int:
    """Handle a reader that went away (`| head -1`): silence stdout and return the SIGPIPE exit code."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's final flush must not fail again
    return 141
