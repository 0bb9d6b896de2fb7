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


MAX_LINE_BYTES = 256 * 1024  # far over the longest text a line may carry (2,000 characters, JSON-escaped)


def lines(stream: io.BufferedIOBase) -> Iterator[tuple[int, str | None, bytes]]:
    """Yield (line number, text or None when it is not UTF-8 or too long, raw bytes) for each line of a byte
    stream, reading at most MAX_LINE_BYTES of a line into memory: of a longer one, the first MAX_LINE_BYTES + 1
    bytes come as raw (see is_too_long) and the rest is skipped up to its newline.

    A UTF-8 byte-order mark at the very start is dropped.
    """
    lineno = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        lineno += 1
        if is_too_long(raw):
            rest = raw
            while rest and not rest.endswith(b"\n"):  # skip the rest of the line, a bounded piece at a time
                rest = stream.readline(MAX_LINE_BYTES)
            yield lineno, None, raw
            continue
        data = raw[3:] if lineno == 1 and raw.startswith(b"\xef\xbb\xbf") else raw
        try:
            yield lineno, data.decode("utf-8"), data
        except UnicodeDecodeError:
            yield lineno, None, data


def is_too_long(raw: bytes) -> bool:
    """Return True for a line lines() cut short (over MAX_LINE_BYTES, not counting its newline)."""
    return len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES


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
