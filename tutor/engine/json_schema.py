"""JSON Schema → byte DFA: the compiler's entry point, and the counted string families inside the DFA.

`schema_to_automaton(schema, …)` compiles a schema (tutor.engine.schema_compiler builds the NFA;
docs/engine.md, "JSON Schema support", lists what is supported) to a byte DFA. The schema is
honoured by default: objects are open unless `additionalProperties` says otherwise and their
properties come in any order. The narrowings are explicit options: `property_order="declared"`,
`strict=True` (objects closed), and `free_depth` (how deeply a free-form value may nest). Whitespace
between JSON tokens is none by default, or at most `whitespace` bytes of space, tab, CR or LF per gap.

A plain string (no `pattern`) compiles to a *counted family*: states (q, u) where q is a state of
the one-character automaton (UTF-8 sequences and escapes) and u the number of characters started
so far, bounded by maxLength. Everything else compiles through an NFA whose string bodies are
single placeholder symbols; after minimisation each placeholder expands into its family. The
token index uses the family structure so that a long maxLength costs about as much as a short one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tutor.engine.dfa import DFA, N_BYTES, ClassDFA, column_classes, determinise, minimise
from tutor.engine.limits import Budget, LimitExceeded, Limits
from tutor.engine.matcher import GrammarError
from tutor.engine.schema_compiler import (
    INTEGER,
    JSON_CHAR,
    NUMBER,
    QUOTE,
    WHITESPACE_BYTES,
    BodyAutomaton,
    SchemaCompiler,
    SchemaOptions,
    body_automaton,
    brief_pointer,
    pointer,
)

__all__ = [
    "INTEGER", "JSON_CHAR", "NUMBER", "QUOTE", "WHITESPACE_BYTES", "BodyAutomaton", "JsonAutomaton",
    "StringFamily", "body_automaton", "brief_pointer", "pointer", "schema_to_automaton", "schema_to_dfa",
]
_AMBIGUOUS = "shares its position with another value"


@dataclass(frozen=True, eq=False)
class StringFamily:
    """The states of one plain string value: `ids[u, q]` is the DFA state (q, u characters started)."""

    ids: np.ndarray
    min: int
    max: int | None
    exit: int  # the state after the closing quote

    @property
    def entry(self) -> int:
        """Return the state right after the opening quote."""
        return int(self.ids[0, 0])


@dataclass(frozen=True, eq=False)
class JsonAutomaton:
    """A JSON Schema compiled to a byte DFA, with the counted string families inside it."""

    automaton: ClassDFA
    families: tuple[StringFamily, ...]
    narrowings: tuple[str, ...] = ()  # what the compiled language leaves out, by the options or the DFA's bounds

    @property
    def dfa(self) -> DFA:
        """Return the DFA with its full byte table."""
        return self.automaton.dfa


def _expand(table: np.ndarray, accepting: np.ndarray, specs: list[tuple[int, int | None]],
            budget: Budget | None = None) -> JsonAutomaton:
    """Replace each placeholder transition with a counted string family; return the byte DFA.

    Works on byte classes throughout: a class groups the bytes that behave alike both in the
    skeleton and in the string body, so family rows are a few dozen entries wide, not 256.
    """
    body = body_automaton()
    n_q = body.n_states
    quote_row = (np.arange(N_BYTES) == QUOTE)[None, :].astype(np.int32)
    representatives, byte_class = column_classes(
        np.vstack([table[:, :N_BYTES], body.table, body.starts.astype(np.int32), quote_row])
    )
    quote = int(byte_class[QUOTE])
    body_next = body.table[:, representatives].astype(np.int64)
    body_starts = body.starts[:, representatives].astype(np.int64)
    skeleton = np.ascontiguousarray(table[:, :N_BYTES][:, representatives])
    out_rows = [skeleton]
    out_acc = [accepting]
    next_id = table.shape[0]
    families: list[StringFamily] = []
    placeholder = table[:, N_BYTES:]
    for s in np.flatnonzero((placeholder >= 0).any(axis=1)).tolist():
        symbols = np.flatnonzero(placeholder[s] >= 0)
        if symbols.size != 1 or np.any(table[s, :N_BYTES] >= 0) or accepting[s]:
            raise GrammarError("a plain string value shares its position with another value; the schema"
                               " is ambiguous for this compiler (give the string a 'pattern')")
        lo, hi = specs[int(symbols[0])]
        exit_state = int(placeholder[s, symbols[0]])
        # Layers u = 0..top; unbounded strings stop counting at max(min, 1) (mid-character states
        # need u >= 1, since a character is counted when it starts).
        top = hi if hi is not None else max(lo, 1)
        # u = 0 has only the entry state (q = 0), which keeps the id s; (u >= 1, q) is first + (u - 1) * n_q + q
        count = top * n_q
        if budget is not None:
            budget.states(next_id + count)
            budget.index_bytes((next_id + count) * len(representatives) * 4)
        first = next_id
        ids = np.full((top + 1, n_q), -1, dtype=np.int32)
        ids[0, 0] = s
        ids[1:] = np.arange(first, first + count, dtype=np.int32).reshape(top, n_q)
        next_id += count
        # The row of (u, q) for class c goes to (u + starts[q, c], next[q, c]): one template per q, shifted by
        # n_q per u (int32 arithmetic, no gather); dead where the body dies or the count passes max.
        dead = body_next < 0
        width = dead.shape[1]
        starts = body_starts.astype(np.int32)
        target = np.maximum(body_next, 0).astype(np.int32)
        shift = np.int32(first - n_q) + target + starts * np.int32(n_q)  # (q, c): the id reached from u = 0
        us = np.arange(1, top + 1, dtype=np.int32)[:, None, None]
        rows = (us * np.int32(n_q) + shift[None]).reshape(count, width)
        cut = np.broadcast_to(dead[None], (top, *dead.shape)).reshape(count, width).copy()
        over = (us + starts[None] > top).reshape(count, width) & ~cut
        cut |= over if hi is not None else False
        rows[cut] = -1
        if hi is None and over.any():  # an unbounded string stops counting at top
            capped = np.broadcast_to(np.int32(first + (top - 1) * n_q) + target, (top, *target.shape))
            rows[over] = capped.reshape(count, width)[over]
        rows[max(lo - 1, 0) * n_q :: n_q, quote] = exit_state  # q = 0 at u >= max(lo, 1): the closing quote
        # The entry state (u = 0, q = 0): a class that starts no character stays at u = 0 (only q = 0 exists there).
        entry = np.where(starts[0] == 0, np.where(body_next[0] == 0, s, -1), shift[0])
        entry[dead[0] | ((starts[0] > top) if hi is not None else False)] = -1
        if lo == 0:
            entry[quote] = exit_state
        skeleton[s] = entry
        out_rows.append(rows)
        out_acc.append(np.zeros(count, dtype=bool))
        families.append(StringFamily(ids, lo, hi, exit_state))
    class_table = np.ascontiguousarray(np.vstack(out_rows), dtype=np.int32)
    automaton = ClassDFA(class_table, byte_class, np.concatenate(out_acc))
    return JsonAutomaton(automaton, tuple(families))


def schema_to_automaton(schema: Any, whitespace: int = 0, limits: Limits | None = None, *,
                        budget: Budget | None = None, property_order: str = "any", strict: bool = False,
                        free_depth: int = 2) -> JsonAutomaton:
    """Return the byte DFA (with its string families) accepting the JSON texts of `schema`.

    property_order: "any" (JSON's rule, the default) or "declared" (a narrowing: properties in the
    order the schema lists them; far fewer states for objects with many properties).
    strict: close objects that the schema leaves open (a narrowing: no undeclared properties).
    free_depth: how many containers deep a free-form value (`{}`, `true`, an open object's extra
    property) may nest; a DFA needs a bound, and deeper values are rejected.
    Raises GrammarError for what the compiler does not support, and LimitExceeded (a GrammarError)
    naming the keyword and JSON pointer of a schema that would pass `limits`.
    """
    options = SchemaOptions(whitespace, property_order, strict, free_depth)
    options.check()
    budget = budget if budget is not None else Budget(limits, subject="the schema")
    try:
        return _build(schema, options, budget)
    except GrammarError as exc:
        if _AMBIGUOUS not in str(exc):
            raise
    # Two string values meet at one position (anyOf of strings): spell the strings out instead.
    fallback = SchemaOptions(whitespace, property_order, strict, free_depth, placeholders=False)
    return _build(schema, fallback, budget)


def _build(schema: Any, options: SchemaOptions, budget: Budget) -> JsonAutomaton:
    compiler = SchemaCompiler(schema, options, budget)
    try:
        start, end = compiler.value(schema, ())
        specs = sorted(compiler.symbols, key=compiler.symbols.__getitem__)
        table, accepting = determinise(compiler.nfa, start, {end}, N_BYTES + len(specs))
        table, accepting = minimise(table, accepting, budget=budget)
        automaton = _expand(table, accepting, specs, budget)
    except LimitExceeded as exc:
        if compiler.any_order and options.property_order == "any" and "property_order" not in str(exc):
            raise LimitExceeded(f"{exc}; objects in any property order multiply their values' states:"
                                " property_order='declared' compiles far fewer") from None
        raise
    if not automaton.automaton.accepting.any():
        raise GrammarError("the schema accepts no JSON value (its constraints contradict each other)")
    narrowings = tuple(sorted(compiler.narrowings))
    return JsonAutomaton(automaton.automaton, automaton.families, narrowings)


def schema_to_dfa(schema: Any, whitespace: int = 0, limits: Limits | None = None, **options: Any) -> DFA:
    """Return the byte DFA accepting the JSON texts of `schema` (see schema_to_automaton)."""
    return schema_to_automaton(schema, whitespace, limits, **options).dfa
