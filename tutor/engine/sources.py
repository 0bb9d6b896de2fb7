"""What a grammar source must be before any compiler reads it: text that is Unicode, JSON that is JSON,
choices that are strings. Each check raises GrammarError naming the value and where it is, instead of a
UnicodeEncodeError, TypeError or a schema that makes the model write `Infinity`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tutor.engine.matcher import GrammarError

_JSON_SCALARS = (str, int, float, bool, type(None))


def lone_surrogate(text: str) -> int | None:
    """Return the index of the first lone surrogate in `text` (not Unicode: cannot be UTF-8), or None."""
    for k, ch in enumerate(text):
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return k
    return None


def grammar_text(value: object, what: str) -> str:
    """Return `value` if it is text a compiler can read as UTF-8; GrammarError otherwise."""
    if not isinstance(value, str):
        raise GrammarError(f"the {what} must be text (str), not {type(value).__name__}")
    at = lone_surrogate(value)
    if at is not None:
        raise GrammarError(f"the {what} holds a lone surrogate (U+{ord(value[at]):04X}) at position {at + 1}, "
                           "which is not Unicode text; remove it or write the character it was meant to be")
    return value


def json_value(value: Any, what: str, max_depth: int = 256) -> None:
    """Raise GrammarError unless `value` is plain JSON: finite numbers, Unicode strings, string keys.

    Walks without recursion; names the first bad place as a JSON pointer.
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        here = where or "/"
        if depth > max_depth:
            raise GrammarError(f"the {what} nests more than {max_depth} levels deep at {here}; flatten it")
        if isinstance(node, float) and not math.isfinite(node):
            raise GrammarError(f"the {what} holds {node!r} at {here}, which is not a JSON number; use a finite number")
        if isinstance(node, str):
            grammar_text(node, f"{what} string at {here}")
        elif isinstance(node, dict):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise GrammarError(f"the {what} has a key {key!r} at {here} that is not a string")
                grammar_text(key, f"{what} key at {here}")
                stack.append((item, f"{where}/{key}", depth + 1))
        elif isinstance(node, list | tuple):
            stack.extend((item, f"{where}/{n}", depth + 1) for n, item in enumerate(node))
        elif not isinstance(node, _JSON_SCALARS):
            raise GrammarError(f"the {what} holds a {type(node).__name__} at {here}, which is not a JSON value")


def choice_bytes(choices: Sequence[object]) -> list[bytes]:
    """Return each choice as UTF-8 bytes (str) or as given (bytes); GrammarError for anything else."""
    if isinstance(choices, str | bytes) or not isinstance(choices, Sequence):
        raise GrammarError("compile_choices needs a list of strings, e.g. ['yes', 'no']")
    out: list[bytes] = []
    for n, choice in enumerate(choices, 1):
        if isinstance(choice, str):
            out.append(grammar_text(choice, f"choice {n}").encode("utf-8"))
        elif isinstance(choice, bytes | bytearray | memoryview):
            out.append(bytes(choice))
        else:
            raise GrammarError(f"choice {n} is {type(choice).__name__} {choice!r}; every choice must be text or bytes")
    return out


def finite_priors(priors: Sequence[object], count: int) -> list[float]:
    """Return the log-priors as floats, one per choice; GrammarError for a missing, extra or non-finite one."""
    if len(priors) != count:
        raise GrammarError(f"{len(priors)} priors for {count} choices; give one prior per choice")
    out: list[float] = []
    for n, prior in enumerate(priors, 1):
        if isinstance(prior, bool) or not isinstance(prior, int | float) or not math.isfinite(prior):
            raise GrammarError(f"prior {n} is {prior!r}; every prior must be a finite number (a log-weight)")
        out.append(float(prior))
    return out
