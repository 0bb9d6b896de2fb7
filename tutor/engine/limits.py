"""What one compilation may cost: automaton states, token-index bytes, seconds and nesting depth.

Every compiler (regex, JSON Schema, GBNF, and the decoder's choice sets) takes a `Limits`; the
defaults are far above any grammar the tutor or a sane user writes (the §A13 schema needs 5,375
states, 2.7 MB of index and well under a second). A compilation that would pass one raises
`LimitExceeded`, a GrammarError that names the construct being compiled and the limit, instead
of running for minutes, exhausting memory or recursing past Python's stack.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass

from tutor.engine.matcher import GrammarError


@dataclass(frozen=True)
class Limits:
    """Upper bounds for one compilation (see the module docstring)."""

    max_states: int = 200_000  # DFA states (string families and CFG nodes included)
    max_nfa_states: int = 1_000_000  # intermediate automaton states, before determinisation
    max_index_bytes: int = 256 * 2**20  # the token index and the tables it is built from
    max_seconds: float = 10.0  # wall time of the whole compilation
    max_depth: int = 64  # nesting: regex groups, schema levels, GBNF parentheses and rule chains

    def __post_init__(self) -> None:
        for name in ("max_states", "max_nfa_states", "max_index_bytes", "max_depth"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        if not self.max_seconds > 0:
            raise ValueError(f"max_seconds must be positive, not {self.max_seconds!r}")


DEFAULT_LIMITS = Limits()


class LimitExceeded(GrammarError):
    """A grammar would need more states, index memory, time or nesting than its Limits allow."""


class Budget:
    """One compilation's running account against its Limits, with the construct being compiled.

    Compilers call `nfa_states(n)`, `states(n)`, `index_bytes(n)` and `tick()` as they grow, and
    wrap each construct in `with budget.at("…")` so that an error names it.
    """

    def __init__(self, limits: Limits | None = None, subject: str = "the grammar") -> None:
        self.limits = limits if limits is not None else DEFAULT_LIMITS
        self.subject = subject
        self.deadline = time.perf_counter() + self.limits.max_seconds
        self.where: list[str] = []
        self._ticks = 0

    @contextlib.contextmanager
    def at(self, construct: str) -> Iterator[None]:
        """Name `construct` in any limit error raised inside the block."""
        self.where.append(construct)
        try:
            yield
        finally:
            self.where.pop()

    def construct(self) -> str:
        """Return the innermost construct being compiled, or the subject."""
        return self.where[-1] if self.where else self.subject

    def fail(self, needs: str, limit: str, value: float, hint: str = "") -> LimitExceeded:
        """Return the error for a construct that needs more than `limit` (= value) allows."""
        shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
        message = f"{self.construct()} needs {needs} (limit {limit}={shown})"
        return LimitExceeded(message + (f"; {hint}" if hint else ""))

    def nfa_states(self, n: int) -> None:
        """Check a count of intermediate automaton states."""
        if n > self.limits.max_nfa_states:
            raise self.fail(f"more than {self.limits.max_nfa_states:,} automaton states", "max_nfa_states",
                            self.limits.max_nfa_states, _SMALLER)
        self.tick()

    def states(self, n: int) -> None:
        """Check a count of DFA states."""
        if n > self.limits.max_states:
            raise self.fail(f"more than {self.limits.max_states:,} DFA states", "max_states",
                            self.limits.max_states, _SMALLER)
        self.tick()

    def index_bytes(self, n: int) -> None:
        """Check the bytes held by a token index (or the tables it is built from)."""
        if n > self.limits.max_index_bytes:
            raise self.fail(f"more than {self.limits.max_index_bytes:,} bytes of token index",
                            "max_index_bytes", self.limits.max_index_bytes, _SMALLER)

    def depth(self, d: int, what: str) -> None:
        """Check a nesting depth of `what` (e.g. 'groups')."""
        if d > self.limits.max_depth:
            raise self.fail(f"{what} nested more than {self.limits.max_depth} deep", "max_depth",
                            self.limits.max_depth, "flatten the nesting")

    def tick(self) -> None:
        """Count one unit of work; every 256 units, check the clock."""
        self._ticks += 1
        if not self._ticks & 255:
            self.check_time()

    def check_time(self) -> None:
        """Raise LimitExceeded if the compilation has run past its time limit."""
        if time.perf_counter() > self.deadline:
            raise self.fail(f"more than {self.limits.max_seconds:g} s to compile", "max_seconds",
                            self.limits.max_seconds, _SMALLER)


_SMALLER = "make it smaller (lower the counts or the nesting), or raise the limit"


def short(text: str, width: int = 40) -> str:
    """Return `text` quoted, cut to about `width` characters for an error message."""
    return repr(text if len(text) <= width else text[: width - 1] + "…")
