"""JSON Schema → byte DFA, for the subset the engine supports.

The subset: objects (properties in declared order, `required`, `additionalProperties` false),
`enum` and `const`, strings (`minLength`, `maxLength`, `pattern`; JSON escapes; valid UTF-8 only;
no raw control characters), integer, number, boolean, null, arrays (`items`, `minItems`,
`maxItems`), nested objects and local `$ref` without recursion. Whitespace between JSON tokens is
none by default, or at most `whitespace` bytes of space, tab, CR or LF per gap.

A plain string (no `pattern`) compiles to a *counted family*: states (q, u) where q is a state of
the one-character automaton (UTF-8 sequences and escapes) and u the number of characters started
so far, bounded by maxLength. Everything else compiles through an NFA whose string bodies are
single placeholder symbols; after minimisation each placeholder expands into its family. The
token index uses the family structure so that a long maxLength costs about as much as a short one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from tutor.engine.dfa import DFA, N_BYTES, ClassDFA, column_classes, determinise, intersect, minimise
from tutor.engine.limits import Budget, LimitExceeded, Limits
from tutor.engine.matcher import GrammarError
from tutor.engine.regex import (
    NFA,
    CharSet,
    Fragment,
    Repeat,
    ast_to_dfa,
    frag_alt,
    frag_ast,
    frag_bytes,
    frag_repeat,
    frag_seq,
    parse,
    parse_search,
)

# One character of a JSON string body. A \u escape of a surrogate must be half of a pair (a high
# surrogate then a low one, together one character): a lone surrogate cannot be stored as UTF-8.
JSON_CHAR = (
    r'[^"\\\x00-\x1f]|\\["\\/bfnrt]'
    r"|\\u(?:[0-9a-ce-fA-CE-F][0-9a-fA-F]{3}|[dD][0-7][0-9a-fA-F]{2}"
    r"|[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})"
)
INTEGER = r"-?(?:0|[1-9][0-9]*)"
NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
QUOTE = 0x22
WHITESPACE_BYTES = b" \t\n\r"

ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "$defs",
        "definitions",
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
SUPPORTED = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "$ref",
    }
)
_PY_TYPES: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


@dataclass(frozen=True)
class BodyAutomaton:
    """The one-character automaton of a JSON string body, looped: state 0 is between characters.

    `table[q, b]` is the next state or -1; `starts[q, b]` is 1 where byte b starts a new character.
    """

    table: np.ndarray
    starts: np.ndarray

    @property
    def n_states(self) -> int:
        """Return the number of states."""
        return int(self.table.shape[0])


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

    @property
    def dfa(self) -> DFA:
        """Return the DFA with its full byte table."""
        return self.automaton.dfa


@cache
def body_automaton() -> BodyAutomaton:
    """Return the looped one-character automaton of JSON string bodies (derived from JSON_CHAR)."""
    one = ast_to_dfa(parse(JSON_CHAR))
    table = one.transitions
    final = np.flatnonzero(one.accepting)
    if final.size != 1 or np.any(table[final[0]] >= 0):
        raise AssertionError("JSON_CHAR must match exactly one character")
    done = int(final[0])
    keep = np.array([s for s in range(one.n_states) if s != done])
    remap = np.full(one.n_states + 1, -1, dtype=np.int32)
    remap[keep] = np.arange(keep.size)
    remap[done] = 0  # a finished character loops back to "between characters"
    looped = remap[table[keep]]
    starts = np.zeros_like(looped, dtype=np.uint8)
    starts[0] = looped[0] >= 0
    return BodyAutomaton(looped.astype(np.int32), starts)


def pointer(parts: tuple[str, ...]) -> str:
    """Return the JSON pointer for a path of keys, or 'the root'."""
    if not parts:
        return "the root"
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def brief_pointer(parts: tuple[str, ...], keep: int = 3) -> str:
    """Return the JSON pointer of a path, with the middle of a very deep one left out."""
    if len(parts) <= 2 * keep + 2:
        return pointer(parts)
    return f"{pointer(parts[:keep])}/…{pointer(parts[-keep:])} ({len(parts)} keys deep)"


class _Compiler:
    """Builds one NFA for a schema, with placeholder symbols (≥ 256) for plain string bodies."""

    def __init__(self, root: Any, whitespace: int, budget: Budget) -> None:
        self.root = root
        self.budget = budget
        self.nfa = NFA(budget)
        self.level = 0  # nesting of value() calls: sub-schemas and $ref chains
        self.whitespace = whitespace
        self.symbols: dict[tuple[int, int | None], int] = {}
        self.refs: list[str] = []

    def fail(self, message: str, where: tuple[str, ...]) -> GrammarError:
        return GrammarError(f"{message} at {pointer(where)}")

    # -- small fragments --

    def ws(self) -> Fragment:
        if self.whitespace <= 0:
            s = self.nfa.state()
            return s, s

        def one() -> Fragment:
            a, b = self.nfa.state(), self.nfa.state()
            for byte in WHITESPACE_BYTES:
                self.nfa.edge(a, byte, byte, b)
            return a, b

        return frag_repeat(self.nfa, one, 0, self.whitespace)

    def lit(self, data: bytes) -> Fragment:
        return frag_bytes(self.nfa, data)

    def seq(self, *parts: Fragment) -> Fragment:
        return frag_seq(self.nfa, parts)

    # -- schemas --

    def value(self, schema: Any, where: tuple[str, ...]) -> Fragment:
        self.level += 1
        try:
            with self.budget.at(f"the schema at {brief_pointer(where)}"):
                self.budget.depth(self.level, "schemas")
                return self._value(schema, where)
        finally:
            self.level -= 1

    def _value(self, schema: Any, where: tuple[str, ...]) -> Fragment:
        if isinstance(schema, bool):
            raise self.fail("boolean schema is not supported; write an object schema", where)
        if not isinstance(schema, dict):
            raise self.fail(f"a schema must be an object, not {type(schema).__name__}", where)
        for key in schema:
            if key not in SUPPORTED and key not in ANNOTATIONS:
                raise self.fail(f"unsupported keyword {key!r}", where)
        if "$ref" in schema:
            return self.ref(schema, where)
        if "const" in schema or "enum" in schema:
            return self.literals(schema, where)
        types = schema.get("type")
        if types is None:
            raise self.fail("schema has no 'type', 'enum', 'const' or '$ref', so any JSON would do;"
                            " say which type the value has", where)
        if isinstance(types, str):
            types = [types]
        if not isinstance(types, list) or not types or not all(isinstance(t, str) for t in types):
            raise self.fail("'type' must be a type name or a non-empty list of names", where)
        parts = [self.typed(schema, t, where) for t in dict.fromkeys(types)]
        return parts[0] if len(parts) == 1 else frag_alt(self.nfa, parts)

    def ref(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        target = schema["$ref"]
        extra = [k for k in schema if k not in ANNOTATIONS and k != "$ref"]
        if extra:
            raise self.fail(f"keyword {extra[0]!r} beside '$ref' is not supported; move it into the"
                            " referenced schema", where)
        if not isinstance(target, str) or not target.startswith("#"):
            raise self.fail(f"only local $ref ('#/...') is supported, not {target!r}", where)
        if target in self.refs:
            raise self.fail(f"recursive $ref {target!r} is not supported", where)
        node: Any = self.root
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in target[1:].split("/")[1:]]
        for token in tokens:
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise self.fail(f"$ref {target!r} does not resolve", where)
        self.refs.append(target)
        try:
            return self.value(node, tuple(tokens))
        finally:
            self.refs.pop()

    def literals(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        if "const" in schema and "enum" in schema:
            raise self.fail("use either 'const' or 'enum', not both", where)
        values = [schema["const"]] if "const" in schema else schema["enum"]
        if not isinstance(values, list) or not values:
            raise self.fail("'enum' must be a non-empty list", where)
        types = schema.get("type")
        if types is not None:
            names = [types] if isinstance(types, str) else types
            if not isinstance(names, list) or not all(isinstance(t, str) for t in names):
                raise self.fail("'type' must be a type name or a non-empty list of names", where)
            values = [v for v in values if any(_PY_TYPES.get(t, lambda _: False)(v) for t in names)]
            if not values:
                raise self.fail("no 'enum' value has the schema's 'type'", where)
        texts = dict.fromkeys(
            json.dumps(v, ensure_ascii=False, separators=(",", ":")).encode("utf-8") for v in values
        )
        return frag_alt(self.nfa, [self.lit(t) for t in texts])

    def typed(self, schema: dict[str, Any], kind: str, where: tuple[str, ...]) -> Fragment:
        if kind == "string":
            return self.string(schema, where)
        if kind == "integer":
            return frag_ast(self.nfa, parse(INTEGER))
        if kind == "number":
            return frag_ast(self.nfa, parse(NUMBER))
        if kind == "boolean":
            return frag_alt(self.nfa, [self.lit(b"true"), self.lit(b"false")])
        if kind == "null":
            return self.lit(b"null")
        if kind == "object":
            return self.object(schema, where)
        if kind == "array":
            return self.array(schema, where)
        raise self.fail(f"unknown type {kind!r}", where)

    def count(self, schema: dict[str, Any], key: str, where: tuple[str, ...]) -> int | None:
        value = schema.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(f"{key!r} must be a non-negative integer, not {value!r}", where)
        return value

    def string(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        lo = self.count(schema, "minLength", where) or 0
        hi = self.count(schema, "maxLength", where)
        if hi is not None and hi < lo:
            raise self.fail(f"maxLength {hi} is below minLength {lo}", where)
        pattern = schema.get("pattern")
        if pattern is None:
            # A plain string becomes a counted family of about (maxLength + 1) x body states.
            with self.budget.at(f"maxLength {hi} at {pointer(where)}"):
                self.budget.states(((hi if hi is not None else max(lo, 1)) + 1) * body_automaton().n_states)
            symbol = self.symbols.setdefault((lo, hi), N_BYTES + len(self.symbols))
            start, mid, end = self.nfa.state(), self.nfa.state(), self.nfa.state()
            self.nfa.edge(start, QUOTE, QUOTE, mid)
            self.nfa.edge(mid, symbol, symbol, end)
            return start, end
        if not isinstance(pattern, str):
            raise self.fail("'pattern' must be a string", where)
        try:
            with self.budget.at(f"the 'pattern' at {pointer(where)}"):
                text = ast_to_dfa(parse_search(pattern, self.budget), self.budget)
        except LimitExceeded:
            raise
        except GrammarError as exc:
            raise self.fail(f"in 'pattern': {exc}", where) from None
        if lo or hi is not None:
            any_char = CharSet(((0, 0xD7FF), (0xE000, 0x10FFFF)))
            lengths = f"minLength {lo} / maxLength {hi} with a 'pattern' at {pointer(where)}"
            with self.budget.at(lengths):
                count = Repeat(any_char, lo, hi, lengths)
                text = intersect(text, ast_to_dfa(count, self.budget), self.budget)
        return self.seq(self.lit(b'"'), self.escaped(text), self.lit(b'"'))

    def escaped(self, text: DFA) -> Fragment:
        """Return a fragment for the JSON-escaped form of the strings a decoded-text DFA accepts."""
        nfa = self.nfa
        states = [nfa.state() for _ in range(text.n_states)]
        end = nfa.state()
        short = {0x08: b"b", 0x09: b"t", 0x0A: b"n", 0x0C: b"f", 0x0D: b"r", 0x22: b'"', 0x5C: b"\\"}
        for s, row in enumerate(text.transitions.tolist()):
            if text.accepting[s]:
                nfa.epsilon(states[s], end)
            b = 0
            while b < N_BYTES:
                t = row[b]
                if t < 0:
                    b += 1
                    continue
                if b < 0x20 or b in (0x22, 0x5C):
                    code = short.get(b, b"u%04x" % b)
                    a, z = self.lit(b"\\" + code)
                    nfa.epsilon(states[s], a)
                    nfa.epsilon(z, states[t])
                    b += 1
                    continue
                if b == 0x2F:
                    a, z = self.lit(b"\\/")
                    nfa.epsilon(states[s], a)
                    nfa.epsilon(z, states[t])
                run = b
                while run + 1 < N_BYTES and row[run + 1] == t and run + 1 not in (0x22, 0x2F, 0x5C):
                    run += 1
                nfa.edge(states[s], b, run, states[t])
                b = run + 1
        return states[text.start], end

    def object(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        props = schema.get("properties", {})
        if not isinstance(props, dict):
            raise self.fail("'properties' must be an object", where)
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise self.fail("'required' must be a list of property names", where)
        for name in required:
            if name not in props:
                raise self.fail(f"required property {name!r} is not in 'properties'; describe it there",
                                where)
        extra = schema.get("additionalProperties", False)
        if not isinstance(extra, bool):
            raise self.fail("'additionalProperties' with a schema is not supported (use false)", where)
        nfa = self.nfa
        opened = self.seq(self.lit(b"{"), self.ws())
        start = opened[0]
        junction = {(i, c): nfa.state() for i in range(len(props) + 1) for c in (False, True)}
        nfa.epsilon(opened[1], junction[0, False])
        for i, (name, sub) in enumerate(props.items()):
            key = json.dumps(name, ensure_ascii=False).encode("utf-8")
            body = self.seq(
                self.lit(key), self.ws(), self.lit(b":"), self.ws(),
                self.value(sub, (*where, "properties", name)), self.ws(),
            )
            comma = self.seq(self.lit(b","), self.ws())
            nfa.epsilon(junction[i, False], body[0])
            nfa.epsilon(junction[i, True], comma[0])
            nfa.epsilon(comma[1], body[0])
            nfa.epsilon(body[1], junction[i + 1, True])
            if name not in required:
                for c in (False, True):
                    nfa.epsilon(junction[i, c], junction[i + 1, c])
        close = self.lit(b"}")
        for c in (False, True):
            nfa.epsilon(junction[len(props), c], close[0])
        return start, close[1]

    def array(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        items = schema.get("items")
        if items is None:
            raise self.fail("an array needs 'items' (a schema for every element)", where)
        lo = self.count(schema, "minItems", where) or 0
        hi = self.count(schema, "maxItems", where)
        if hi is not None and hi < lo:
            raise self.fail(f"maxItems {hi} is below minItems {lo}", where)
        at = (*where, "items")

        def item() -> Fragment:
            return self.seq(self.value(items, at), self.ws())

        def more() -> Fragment:
            return self.seq(self.lit(b","), self.ws(), item())

        head = self.seq(self.lit(b"["), self.ws())
        if hi == 0:
            return self.seq(head, self.lit(b"]"))
        rest_hi = None if hi is None else hi - 1
        before = len(self.nfa)
        first = item()
        # Every further element is a fresh copy of the items' automaton: refuse before building them.
        copies = max(lo - 1, 0) + (1 if rest_hi is None else rest_hi - max(lo - 1, 0))
        needed = len(self.nfa) + copies * (len(self.nfa) - before + 4)
        if needed > self.budget.limits.max_nfa_states:
            counts = f"minItems {lo} / maxItems {hi}" if copies > 1 else "the nested arrays"
            with self.budget.at(f"{counts} at {pointer(where)}"):
                self.budget.nfa_states(needed)
        listed = self.seq(first, frag_repeat(self.nfa, more, max(lo - 1, 0), rest_hi))
        if lo == 0:
            listed = frag_repeat(self.nfa, lambda: listed, 0, 1)
        return self.seq(head, listed, self.lit(b"]"))


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
        ids = np.full((top + 1, n_q), -1, dtype=np.int32)
        ids[0, 0] = s
        valid = np.ones_like(ids, dtype=bool)
        valid[0, :] = False  # u = 0 has only the entry state (q = 0), which keeps the id s
        count = int(valid.sum())
        if budget is not None:
            budget.states(next_id + count)
            budget.index_bytes((next_id + count) * len(representatives) * 4)
        ids[valid] = np.arange(next_id, next_id + count, dtype=np.int32)
        next_id += count
        us = np.arange(top + 1)[:, None, None]
        nu = us + body_starts[None, :, :]
        ok = np.broadcast_to(body_next[None, :, :] >= 0, nu.shape)
        if hi is not None:
            ok = ok & (nu <= top)
        rows = np.where(ok, ids[np.minimum(nu, top), np.maximum(body_next, 0)[None, :, :]], -1)
        rows[lo:, 0, quote] = exit_state
        skeleton[s] = rows[0, 0]
        out_rows.append(rows[valid])
        out_acc.append(np.zeros(count, dtype=bool))
        families.append(StringFamily(ids, lo, hi, exit_state))
    class_table = np.ascontiguousarray(np.vstack(out_rows), dtype=np.int32)
    automaton = ClassDFA(class_table, byte_class, np.concatenate(out_acc))
    return JsonAutomaton(automaton, tuple(families))


def schema_to_automaton(schema: Any, whitespace: int = 0, limits: Limits | None = None, *,
                        budget: Budget | None = None) -> JsonAutomaton:
    """Return the byte DFA (with its string families) accepting exactly the JSON texts of `schema`.

    Raises GrammarError for what the subset does not support, and LimitExceeded (a GrammarError)
    naming the keyword and JSON pointer of a schema that would pass `limits`.
    """
    if isinstance(whitespace, bool) or not isinstance(whitespace, int) or not 0 <= whitespace <= 16:
        raise GrammarError(f"whitespace must be an integer from 0 to 16 (bytes per gap), not {whitespace!r}")
    budget = budget if budget is not None else Budget(limits, subject="the schema")
    compiler = _Compiler(schema, whitespace, budget)
    start, end = compiler.value(schema, ())
    specs = sorted(compiler.symbols, key=compiler.symbols.__getitem__)
    table, accepting = determinise(compiler.nfa, start, {end}, N_BYTES + len(specs))
    table, accepting = minimise(table, accepting, budget=budget)
    return _expand(table, accepting, specs, budget)


def schema_to_dfa(schema: Any, whitespace: int = 0, limits: Limits | None = None) -> DFA:
    """Return the byte DFA accepting exactly the JSON texts of `schema` (see schema_to_automaton)."""
    return schema_to_automaton(schema, whitespace, limits).dfa

