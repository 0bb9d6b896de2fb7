"""Reading JSON from outside (CLI streams, bundles, server bodies): strict JSON, nested at most MAX_DEPTH deep.

Python's json module recurses once per level, so `[` × 100,000 raises RecursionError, which nothing
expects. Here the nesting is measured first, in one linear pass that skips over strings, and text past
the limit is refused with a message saying where; NaN and Infinity, which are not JSON, are refused too.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Literal

MAX_DEPTH = 32  # a bundle nests 4 deep, a request body 2; nothing the tutor reads needs more

# A string (its closing quote optional, so an unterminated one ends the scan instead of being retried
# from every later quote) or one bracket. Everything else is skipped by the regex engine.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


class BadJSON(ValueError):
    """The text is not strict JSON, or nests deeper than allowed; the message says what and where."""


def _where(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line}, column {column}"


def nesting_problem(text: str, max_depth: int = MAX_DEPTH) -> str | None:
    """Return why `text` nests too deeply for `max_depth` (with where), or None when it does not."""
    if text.count("[") + text.count("{") <= max_depth:
        return None  # too few brackets to pass the limit: no scan needed
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > max_depth:
                return (f"it nests arrays and objects more than {max_depth} levels deep (at "
                        f"{_where(text, match.start())}); nothing the tutor reads is nested like that")
        elif token in ("]", "}"):
            depth -= 1
    return None


def _no_constant(name: str) -> Any:
    raise BadJSON(f"{name} is not allowed in JSON")


def _finite(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise BadJSON(f"the number {literal[:40]} is too large for JSON")
    return value


def _finite_or_text(literal: str) -> float | str:
    value = float(literal)
    return value if math.isfinite(value) else literal


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH, huge: Literal["refuse", "text"] = "refuse") -> Any:
    """Return the JSON value of `text` (UTF-8 bytes or str); BadJSON says why it is not usable JSON.

    NaN and Infinity are refused. A number beyond float range is refused (`huge="refuse"`) or kept as its
    text (`huge="text"`, so that echoing it stays valid JSON).
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadJSON(f"it is not UTF-8 text (bad byte {bytes(text)[exc.start:exc.start + 1]!r} at byte "
                          f"{exc.start})") from None
    problem = nesting_problem(text, max_depth)
    if problem:
        raise BadJSON(problem)
    try:
        value = json.loads(text, parse_constant=_no_constant,
                           parse_float=_finite if huge == "refuse" else _finite_or_text)
    except BadJSON:
        raise
    except json.JSONDecodeError as exc:
        raise BadJSON(f"it is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except ValueError as exc:  # an integer of more than 4,300 digits
        reason = "a number has too many digits" if "digits" in str(exc) else str(exc)
        raise BadJSON(f"it is not usable JSON: {reason}") from None
    except RecursionError:  # cannot happen below MAX_DEPTH; kept so that no caller ever sees it
        raise BadJSON(f"it nests arrays and objects more than {max_depth} levels deep") from None
    _refuse_lone_surrogates(value)
    return value


def _refuse_lone_surrogates(value: Any) -> None:
    """Raise BadJSON for a string or key holding a lone surrogate (a \\ud800 escape): it is not Unicode text."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and (bad := _SURROGATE.search(node)):
            raise BadJSON(f"a string holds a lone surrogate (\\u{ord(bad.group()):04x}), which is not Unicode text")


_SURROGATE = re.compile("[\ud800-\udfff]")
