"""Numbers under JSON Schema bounds, as regular expressions over their JSON spellings.

`integer_regex(lo, hi)` spells the integers in [lo, hi] (either end None: unbounded), `-0` included
when 0 is in range. `number_regex(lo, hi, lo_strict, hi_strict)` spells the decimal numbers
(no exponent) between two integral bounds. `multiple_of_table(k)` is a digit automaton for
integers divisible by k. The regexes use the engine's regex dialect (tutor.engine.regex).
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np

FRACTION = r"(?:\.[0-9]+)?"
ZERO_FRACTION = r"(?:\.0+)?"
NONZERO_FRACTION = r"\.[0-9]*[1-9][0-9]*"


def _alt(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


def _same_length(x: str, y: str) -> str:
    """Return a regex for the digit strings of len(x) == len(y) between x and y (leading zeros allowed)."""
    if x == y:
        return x
    if x[0] == y[0]:
        return x[0] + _same_length(x[1:], y[1:])
    rest = len(x) - 1
    if rest == 0:
        return f"[{x}-{y}]"
    if x[1:] == "0" * rest and y[1:] == "9" * rest:
        return f"[{x[0]}-{y[0]}][0-9]{{{rest}}}"
    parts = [x[0] + _alt([_same_length(x[1:], "9" * rest)])]
    if int(y[0]) - int(x[0]) > 1:
        parts.append(f"[{int(x[0]) + 1}-{int(y[0]) - 1}][0-9]{{{rest}}}")
    parts.append(y[0] + _alt([_same_length("0" * rest, y[1:])]))
    return _alt(parts)


def natural_regex(a: int, b: int | None) -> str | None:
    """Return a regex for the naturals in [a, b] without leading zeros (b None: unbounded), or None if empty."""
    a = max(a, 0)
    if b is not None and b < a:
        return None
    parts: list[str] = []
    la = len(str(a))
    last = len(str(b)) if b is not None else la
    for length in range(la, last + 1):
        low = max(a, 10 ** (length - 1) if length > 1 else 0)
        high = 10**length - 1 if b is None else min(b, 10**length - 1)
        if low <= high:
            parts.append(_same_length(str(low), str(high)))
    if b is None:
        parts.append(f"[1-9][0-9]{{{la},}}")
    return _alt(parts)


def integer_regex(lo: int | None, hi: int | None) -> str | None:
    """Return a regex for the JSON integers in [lo, hi] (None: unbounded), or None if there are none."""
    if lo is not None and hi is not None and hi < lo:
        return None
    parts: list[str] = []
    if hi is None or hi >= 0:
        nat = natural_regex(max(lo, 0) if lo is not None else 0, hi)
        if nat is not None:
            parts.append(nat)
    if lo is None or lo < 0:
        low_mag = 1 if hi is None or hi >= 0 else -hi
        nat = natural_regex(low_mag, None if lo is None else -lo)
        if nat is not None:
            parts.append("-" + nat)
    if (lo is None or lo <= 0) and (hi is None or hi >= 0):
        parts.append("-0")
    return _alt(parts) if parts else None


def integer_bounds(minimum: Decimal | None, maximum: Decimal | None, exclusive_min: Decimal | None,
                   exclusive_max: Decimal | None) -> tuple[int | None, int | None]:
    """Return the inclusive integer range [lo, hi] that the four bounds leave (None: unbounded)."""
    lows = [math.ceil(minimum)] if minimum is not None else []
    if exclusive_min is not None:
        lows.append(math.floor(exclusive_min) + 1)
    highs = [math.floor(maximum)] if maximum is not None else []
    if exclusive_max is not None:
        highs.append(math.ceil(exclusive_max) - 1)
    return (max(lows) if lows else None), (min(highs) if highs else None)


def _magnitude_at_least(n: int, strict: bool) -> str:
    """Return a regex for non-negative decimals (no sign, no exponent) >= n (> n when strict)."""
    if strict:
        above = natural_regex(n + 1, None)
        return _alt([f"{above}{FRACTION}", f"{n}{NONZERO_FRACTION}"])
    return f"{natural_regex(n, None)}{FRACTION}"


def _magnitude_at_most(n: int, strict: bool) -> str | None:
    """Return a regex for non-negative decimals <= n (< n when strict), or None if there are none."""
    parts = []
    below = natural_regex(0, n - 1) if n >= 1 else None
    if below is not None:
        parts.append(f"{below}{FRACTION}")
    if not strict:
        parts.append(f"{n}{ZERO_FRACTION}")
    return _alt(parts) if parts else None


ANY_MAGNITUDE = rf"(?:0|[1-9][0-9]*){FRACTION}"


def lower_bound_regex(m: int, strict: bool) -> str:
    """Return a regex for decimal numbers (no exponent) >= m (> m when strict); m an integer."""
    if m > 0 or (m == 0 and strict):
        return _magnitude_at_least(m, strict)
    negative = _magnitude_at_most(-m, strict)
    parts = [ANY_MAGNITUDE]
    if negative is not None:
        parts.append("-" + negative)
    return _alt(parts)


def upper_bound_regex(m: int, strict: bool) -> str:
    """Return a regex for decimal numbers (no exponent) <= m (< m when strict); m an integer."""
    if m < 0 or (m == 0 and strict):
        return "-" + _magnitude_at_least(-m, strict)
    positive = _magnitude_at_most(m, strict)
    parts = ["-" + ANY_MAGNITUDE]
    if positive is not None:
        parts.append(positive)
    return _alt(parts)


def multiple_of_table(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (table, accepting) of a DFA over ASCII bytes for JSON integers divisible by k (k >= 1).

    States: 0 start, 1 after '-', 2 after a leading 0 (done), 3 + r: digits read with remainder r.
    """
    n = 3 + k
    table = np.full((n, 256), -1, dtype=np.int32)
    table[0, ord("-")] = 1
    for s in (0, 1):
        table[s, ord("0")] = 2
        for d in range(1, 10):
            table[s, ord("0") + d] = 3 + d % k
    for r in range(k):
        for d in range(10):
            table[3 + r, ord("0") + d] = 3 + (r * 10 + d) % k
    accepting = np.zeros(n, dtype=bool)
    accepting[2] = True
    accepting[3] = True
    return table, accepting
