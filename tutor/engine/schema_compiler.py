"""The JSON Schema → NFA builder behind tutor.engine.json_schema (which expands string families).

One `SchemaCompiler` walks a schema and builds one NFA over bytes, with placeholder symbols (≥ 256)
for plain string bodies that json_schema later expands into counted families. What it compiles,
and how it treats each keyword, is described in docs/engine.md ("JSON Schema support"). In short:
every keyword the schema's dialect enforces is compiled exactly or the schema is refused with a
GrammarError naming the keyword and its JSON pointer; annotations are ignored; the narrowings
(declared property order, closed objects, the nesting bound of free-form values, bounded numbers
without an exponent) are listed in `narrowings` as they are used.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any
from urllib.parse import unquote

import numpy as np

from tutor.engine.dfa import DFA, N_BYTES, NFA, determinise, intersect, minimise, nfa_to_dfa, product
from tutor.engine.errors import GrammarError
from tutor.engine.limits import Budget, LimitExceeded
from tutor.engine.regex import (
    ANY_SCALAR,
    Alt,
    CharSet,
    Fragment,
    Node,
    Repeat,
    ast_to_dfa,
    frag_alt,
    frag_ast,
    frag_bytes,
    frag_repeat,
    frag_seq,
    literal,
    parse,
    parse_search,
)
from tutor.engine.schema_keywords import (
    KINDS,
    NUMBER_KEYWORDS,
    REFUSED,
    dialect_of,
    enforced,
    is_trivial,
)
from tutor.engine.schema_merge import canonical, conjoin, kinds, literal_kind, literal_texts, merge, type_set
from tutor.engine.schema_numbers import (
    integer_bounds,
    integer_regex,
    lower_bound_regex,
    multiple_of_table,
    upper_bound_regex,
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
TINY = r"[1-9](?:\.[0-9]+)?[eE]-0*[1-9][0-9]*"  # magnitudes below 1 in exponent form
QUOTE = 0x22
WHITESPACE_BYTES = b" \t\n\r"
PROPERTY_ORDERS = ("any", "declared")
MAX_ANY_ORDER = 16  # properties an any-order object may declare before the subsets are not even tried
MAX_BRANCHES = 256
SECONDS_PER_NFA_STATE = 150e-6  # determinising and minimising (measured on the suite): an estimate, to refuse early


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


@dataclass(frozen=True)
class SchemaOptions:
    """How to compile: whitespace per gap, property order, closed objects, nesting of free-form values."""

    whitespace: int = 0
    property_order: str = "any"
    strict: bool = False
    free_depth: int = 2
    placeholders: bool = True  # plain strings as counted families (off: explicit string automata)

    def check(self) -> None:
        """Raise GrammarError for an option outside its range."""
        ws = self.whitespace
        if isinstance(ws, bool) or not isinstance(ws, int) or not 0 <= ws <= 16:
            raise GrammarError(f"whitespace must be an integer from 0 to 16 (bytes per gap), not {ws!r}")
        if self.property_order not in PROPERTY_ORDERS:
            raise GrammarError(f"property_order must be 'any' or 'declared', not {self.property_order!r}")
        if not isinstance(self.strict, bool):
            raise GrammarError(f"strict must be True or False, not {self.strict!r}")
        depth = self.free_depth
        if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 8:
            raise GrammarError(f"free_depth must be an integer from 0 to 8, not {depth!r}")


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


ANY_CHAR = CharSet(ANY_SCALAR)


_SHARED: dict[tuple[Any, ...], DFA] = {}  # DFAs of texts and name sets, shared between compilations
_SHARED_MAX = 512


def _shared(key: tuple[Any, ...], node: Node, budget: Budget | None) -> DFA:
    """Return the DFA of `node`, built under the caller's budget (its clock and limits) the first time."""
    hit = _SHARED.get(key)
    if hit is None:
        hit = ast_to_dfa(node, budget)
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.pop(next(iter(_SHARED)))
        _SHARED[key] = hit
    return hit


def text_dfa(lo: int, hi: int | None, budget: Budget | None = None) -> DFA:
    """Return the DFA of UTF-8 texts of lo..hi characters."""
    return _shared(("text", lo, hi), Repeat(ANY_CHAR, lo, hi), budget)


def literal_dfa(text: str, budget: Budget | None = None) -> DFA:
    """Return the DFA of exactly one UTF-8 text."""
    return _shared(("literal", text), literal(text), budget)


def names_dfa(names: tuple[str, ...], budget: Budget | None = None) -> DFA:
    """Return the DFA of a set of texts."""
    return _shared(("names", names), Alt(tuple(literal(n) for n in names)), budget)


def difference(a: DFA, b: DFA, budget: Budget) -> DFA:
    """Return the DFA of what a accepts and b does not."""
    return product(a, b, lambda x, y: x and not y, budget)


def is_empty(dfa: DFA) -> bool:
    """Return True when the DFA accepts nothing."""
    return not bool(dfa.accepting.any())


class SchemaCompiler:
    """Builds one NFA for a schema, with placeholder symbols (≥ 256) for plain string bodies."""

    def __init__(self, root: Any, options: SchemaOptions, budget: Budget) -> None:
        self.root = root
        self.opt = options
        self.budget = budget
        self.nfa = NFA(budget)
        self.level = 0  # nesting of value() calls: sub-schemas and $ref chains
        self.symbols: dict[tuple[int, int | None], int] = {}
        self.family_states = 0  # states the placeholder families will expand into
        self.refs: list[str] = []
        self.dialect = dialect_of(root)
        self.narrowings: dict[str, int] = {}
        self.any_order = 0  # objects compiled in any property order with more than one property
        self.peak = 0  # the deepest value() level reached, literals' own nesting included (negation's bound)
        self._quoted: dict[int, tuple[DFA, DFA]] = {}

    def fail(self, message: str, where: tuple[str, ...]) -> GrammarError:
        return GrammarError(f"{message} at {pointer(where)}")

    def narrow(self, what: str) -> None:
        self.narrowings[what] = self.narrowings.get(what, 0) + 1

    # -- small fragments --

    def ws(self) -> Fragment:
        if self.opt.whitespace <= 0:
            s = self.nfa.state()
            return s, s

        def one() -> Fragment:
            a, b = self.nfa.state(), self.nfa.state()
            for byte in WHITESPACE_BYTES:
                self.nfa.edge(a, byte, byte, b)
            return a, b

        return frag_repeat(self.nfa, one, 0, self.opt.whitespace)

    def lit(self, data: bytes) -> Fragment:
        return frag_bytes(self.nfa, data)

    def seq(self, *parts: Fragment) -> Fragment:
        return frag_seq(self.nfa, parts)

    def never(self) -> Fragment:
        return self.nfa.state(), self.nfa.state()

    def embed(self, dfa: DFA) -> Fragment:
        """Return a fragment copying a byte DFA into the NFA."""
        nfa = self.nfa
        accepting, edges = _edge_list(dfa)
        base = len(nfa)
        self.budget.nfa_states(base + dfa.n_states + 1)
        for _ in range(dfa.n_states + 1):  # the DFA's states, then one exit
            nfa.edges.append([])
            nfa.eps.append([])
        end = base + dfa.n_states
        for s in accepting:
            nfa.eps[base + s].append(end)
        for s, lo, hi, t in edges:
            nfa.edges[base + s].append((lo, hi, base + t))
        self.budget.tick()
        return base + dfa.start, end

    def quoted(self, text: DFA) -> Fragment:
        """Return a fragment for the JSON string (all escapings) of the texts a decoded-text DFA accepts."""
        hit = self._quoted.get(id(text))
        if hit is None:
            builder = SchemaCompiler(None, SchemaOptions(placeholders=False), self.budget)
            start, end = builder.seq(builder.lit(b'"'), builder.escaped(text), builder.lit(b'"'))
            hit = self._quoted[id(text)] = (text, nfa_to_dfa(builder.nfa, start, {end}))
        return self.embed(hit[1])

    def quoted_text(self, text: str) -> Fragment:
        """Return a fragment for the JSON string of one text: quoted(literal_dfa(text))'s language, built directly.

        Byte by byte, as `escaped` spells a byte with one way forward: `"` and `\\` escaped, `/` raw or
        `\\/`, a control byte by its short escape or else lowercase `\\u00xx`, every other byte raw.
        """
        short = {0x08: b"b", 0x09: b"t", 0x0A: b"n", 0x0C: b"f", 0x0D: b"r", 0x22: b'"', 0x5C: b"\\"}
        nfa = self.nfa
        start = nfa.state()
        here = start
        run = bytearray(b'"')
        for b in text.encode("utf-8"):
            if b == 0x2F:
                a, z = self.lit(bytes(run))
                nfa.epsilon(here, a)
                nxt = nfa.state()
                nfa.edge(z, b, b, nxt)
                e, f = self.lit(b"\\/")
                nfa.epsilon(z, e)
                nfa.epsilon(f, nxt)
                here, run = nxt, bytearray()
            elif b < 0x20 or b in (0x22, 0x5C):
                run += b"\\" + short.get(b, b"u%04x" % b)
            else:
                run.append(b)
        run += b'"'
        a, z = self.lit(bytes(run))
        nfa.epsilon(here, a)
        self.budget.tick()
        return start, z

    def escaped(self, text: DFA) -> Fragment:
        """Return a fragment for the JSON-escaped form of the strings a decoded-text DFA accepts."""
        nfa = self.nfa
        self.budget.nfa_states(len(nfa) + 4 * text.n_states)
        states = [nfa.state() for _ in range(text.n_states)]
        end = nfa.state()
        short = {0x08: b"b", 0x09: b"t", 0x0A: b"n", 0x0C: b"f", 0x0D: b"r", 0x22: b'"', 0x5C: b"\\"}
        for s, row in enumerate(text.transitions.tolist()):
            if text.accepting[s]:
                nfa.epsilon(states[s], end)
            controls = [row[b] for b in range(0x20)]
            if controls[0] >= 0 and all(t == controls[0] for t in controls):
                # every control character leads to the same state: one \u00XX fragment, either case
                t = controls[0]
                a, z = self.lit(b"\\u00")
                mid = nfa.state()
                nfa.edge(z, 0x30, 0x31, mid)
                for lo, hi in ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)):
                    nfa.edge(mid, lo, hi, states[t])
                nfa.epsilon(states[s], a)
                for b, code in short.items():
                    if b < 0x20:
                        a, z = self.lit(b"\\" + code)
                        nfa.epsilon(states[s], a)
                        nfa.epsilon(z, states[t])
                first = 0x20
            else:
                first = 0
            b = first
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

    # -- schemas --

    def value(self, schema: Any, where: tuple[str, ...]) -> Fragment:
        self.level += 1
        self.peak = max(self.peak, self.level)
        try:
            with self.budget.at(f"the schema at {brief_pointer(where)}"):
                self.budget.depth(self.level, "schemas")
                return self._value(schema, where)
        finally:
            self.level -= 1

    def _value(self, schema: Any, where: tuple[str, ...]) -> Fragment:
        if schema is True:
            return self.free(where)
        if schema is False:
            return self.never()
        if not isinstance(schema, dict):
            raise self.fail(f"a schema must be an object or a boolean, not {type(schema).__name__}", where)
        if self.dialect == 3:
            raise self.fail("draft-03 schemas are not supported; declare a later $schema", where)
        keys = enforced(schema, self.dialect)
        for key in keys:
            if key in REFUSED:
                raise self.fail(f"unsupported keyword {key!r}", where)
        if "type" in keys:
            try:
                type_set(schema)
            except GrammarError as exc:
                raise self.fail(str(exc), where) from None
        if "uniqueItems" in keys and schema["uniqueItems"] is True and not self._at_most_one_item(schema):
            raise self.fail("unsupported keyword 'uniqueItems'", where)
        schema = self.normal(schema, keys, where)
        keys = enforced(schema, self.dialect)
        if "not" in keys:
            return self.negation(schema, where)
        if "$ref" in keys:
            return self.ref(schema, keys, where)
        if "allOf" in keys:
            return self.all_of(schema, where)
        if "anyOf" in keys or "oneOf" in keys:
            return self.any_of(schema, keys, where)
        if "const" in keys or "enum" in keys:
            return self.literals(schema, keys, where)
        types = type_set(schema) if "type" in keys else None
        if types is not None:
            unknown = sorted(types - {*KINDS, "integer"})
            if unknown:
                raise self.fail(f"unknown type {unknown[0]!r}", where)
        chosen = [t for t in (*KINDS[:2], "integer", *KINDS[2:]) if types is None or t in types]
        if "number" in chosen and "integer" in chosen:
            chosen.remove("integer")
        parts = [self.typed(schema, t, where) for t in chosen]
        return parts[0] if len(parts) == 1 else frag_alt(self.nfa, parts)

    def exact_dfa(self, schema: Any, where: tuple[str, ...], free_depth: int) -> tuple[DFA, SchemaCompiler]:
        """Return the byte DFA of a sub-schema (strings spelled out, this compiler's options) and its compiler."""
        opt = SchemaOptions(self.opt.whitespace, self.opt.property_order, self.opt.strict, free_depth, False)
        sub = SchemaCompiler(self.root, opt, self.budget)
        sub.refs, sub.level, sub.peak = list(self.refs), self.level - 1, self.level - 1
        start, end = sub.value(schema, where)
        return nfa_to_dfa(sub.nfa, start, {end}), sub

    def negation(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        """Return `not`: the values of the rest of the schema that the `not` schema rejects (a DFA difference).

        Exact, never wider: the rest may be narrowed (that narrows the result), but the `not` schema's DFA must
        hold every value of it that the rest can hold. So its free-form values get a depth bound no value of the
        rest can pass, any other narrowing of it is refused, and so are number constraints inside it (the
        compiler spells a constrained number in fewer ways than the generic one: 1.0 is an integer) and $ref.
        """
        negated = schema["not"]
        inner = (*where, "not")
        blocker = _negation_blocker(negated)
        if blocker:
            raise self.fail(f"'not' over {blocker} is not supported", inner)
        rest = {k: v for k, v in schema.items() if k != "not"}
        pos, pos_compiler = self.exact_dfa(rest, where, self.opt.free_depth)
        for what, n in pos_compiler.narrowings.items():
            self.narrowings[what] = self.narrowings.get(what, 0) + n
        self.any_order += pos_compiler.any_order
        # a value of the rest nests at most (its schema levels + free_depth) containers: so may the negated one's
        deepest = pos_compiler.peak - (self.level - 1) + self.opt.free_depth
        _, shallow = self.exact_dfa(negated, inner, 0)  # its narrowings, found cheaply (free values kept shallow)
        narrowed = [w for w in shallow.narrowings if not w.startswith("a free-form value is nested")]
        if narrowed:
            raise self.fail(f"'not' over a schema this compiler narrows ({narrowed[0]}) is not supported", inner)
        neg, _ = self.exact_dfa(negated, inner, deepest)
        return self.embed(difference(pos, neg, self.budget))

    def _at_most_one_item(self, schema: dict[str, Any]) -> bool:
        hi = schema.get("maxItems")
        return isinstance(hi, int) and not isinstance(hi, bool) and hi <= 1

    def normal(self, schema: dict[str, Any], keys: list[str], where: tuple[str, ...]) -> dict[str, Any]:
        """Return the schema with draft-04 boolean exclusive bounds rewritten as numbers."""
        out = schema
        for ex, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            flag = schema.get(ex) if ex in keys else None
            if isinstance(flag, bool):
                if self.dialect != 4:
                    raise self.fail(f"a boolean {ex!r} is draft-04 syntax; declare draft-04 or give a number",
                                    where)
                out = dict(out)
                del out[ex]
                if flag and bound in out:
                    out[ex] = out.pop(bound)
        return out

    # -- references and combinators --

    def resolve(self, target: Any, where: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
        """Return the schema a local $ref points at, and its path."""
        if not isinstance(target, str) or not target.startswith("#"):
            raise self.fail(f"only local $ref ('#/...') is supported, not {target!r}", where)
        if target not in ("#", "") and not target.startswith("#/"):
            raise self.fail(f"$ref to an anchor ({target!r}) is not supported; use a JSON pointer", where)
        node: Any = self.root
        for part in where:  # a subschema with its own $id changes the base a '#/…' pointer resolves against
            if isinstance(node, dict):
                node = node.get(part)
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                break
            base = node.get("$id" if self.dialect != 4 else "id") if isinstance(node, dict) else None
            if isinstance(base, str) and not base.startswith("#") and part not in ("properties",
                                                                                  "patternProperties"):
                raise self.fail("a $ref inside a subschema with its own $id is not supported", where)
        node = self.root
        tokens = [unquote(t).replace("~1", "/").replace("~0", "~") for t in target[1:].split("/")[1:]]
        for token in tokens:
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise self.fail(f"$ref {target!r} does not resolve", where)
        return node, tuple(tokens)

    def ref(self, schema: dict[str, Any], keys: list[str], where: tuple[str, ...]) -> Fragment:
        target = schema["$ref"]
        if target in self.refs:
            raise self.fail(f"recursive $ref {target!r} is not supported", where)
        node, at = self.resolve(target, where)
        siblings = {k: schema[k] for k in keys if k != "$ref"}
        self.refs.append(target)
        try:
            if siblings and self.dialect >= 2019:
                if node is False:
                    return self.never()
                rest = {k: v for k, v in schema.items() if k != "$ref"}
                return self.value({"allOf": [node, rest]}, where)
            return self.value(node, at)
        finally:
            self.refs.pop()

    def deref(self, schema: Any, where: tuple[str, ...], seen: list[str]) -> Any:
        """Return a schema with a top-level $ref chain followed (the refs followed appended to `seen`)."""
        while isinstance(schema, dict) and "$ref" in enforced(schema, self.dialect):
            target = schema["$ref"]
            if target in self.refs or target in seen:
                raise self.fail(f"recursive $ref {target!r} is not supported", where)
            node, _ = self.resolve(target, where)
            seen.append(target)
            siblings = [k for k in enforced(schema, self.dialect) if k != "$ref"]
            if siblings and self.dialect >= 2019:
                rest = {k: v for k, v in schema.items() if k != "$ref"}
                node = conjoin([node, rest])
            schema = node
        return schema

    def conjunction(self, parts: list[Any], where: tuple[str, ...], seen: list[str]) -> Any:
        """Return one schema for the conjunction of several (allOf flattened, $refs followed)."""
        todo = deque(parts)
        out: Any = True
        rounds = 0
        while todo:
            rounds += 1
            if rounds > 4 * MAX_BRANCHES:
                raise self.fail("allOf nests too deeply to combine", where)
            part = self.deref(todo.popleft(), where, seen)
            if part is True:
                continue
            if part is False:
                return False
            if not isinstance(part, dict):
                raise self.fail(f"a schema must be an object or a boolean, not {type(part).__name__}", where)
            keys = enforced(part, self.dialect)
            for key in keys:
                if key in REFUSED:
                    raise self.fail(f"unsupported keyword {key!r}", where)
            part = self.normal(part, keys, where)
            if "allOf" in keys:
                if not isinstance(part["allOf"], list) or not part["allOf"]:
                    raise self.fail("'allOf' must be a non-empty list of schemas", where)
                todo.extend(part["allOf"])
                part = {k: v for k, v in part.items() if k != "allOf"}
            if out is True:
                out = part
                continue
            try:
                out = merge(out, part, self.dialect)
            except GrammarError as exc:
                raise self.fail(str(exc), where) from None
            if out is False:
                return False
        return out

    def all_of(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        seen: list[str] = []
        merged = self.conjunction([schema], where, seen)
        self.refs.extend(seen)
        try:
            return self.value(merged, where)
        finally:
            del self.refs[len(self.refs) - len(seen):]

    def any_of(self, schema: dict[str, Any], keys: list[str], where: tuple[str, ...]) -> Fragment:
        key = "anyOf" if "anyOf" in keys else "oneOf"
        branches = schema[key]
        if not isinstance(branches, list) or not branches:
            raise self.fail(f"{key!r} must be a non-empty list of schemas", where)
        rest = {k: v for k, v in schema.items() if k != key}
        if "anyOf" in keys and "oneOf" in keys:
            rest = {k: v for k, v in rest.items() if k != "oneOf"}
            rest["allOf"] = [{"oneOf": schema["oneOf"]}]
        if len(branches) > MAX_BRANCHES:
            raise self.fail(f"{key!r} with more than {MAX_BRANCHES} branches is not supported", where)
        trivial_rest = is_trivial(rest, self.dialect)
        seen: list[str] = []
        combined = []
        for i, branch in enumerate(branches):
            branch = self.deref(branch, (*where, key, str(i)), seen)
            combined.append(branch if trivial_rest else self.conjunction([rest, branch], where, seen))
        overlaps = self.overlaps(combined, where) if key == "oneOf" else {}
        self.refs.extend(seen)
        try:
            parts = []
            for i, b in enumerate(combined):
                if b is False:
                    continue
                if not overlaps.get(i):
                    parts.append(self.value(b, (*where, key, str(i))))
                    continue
                # exactly one: this branch and none of those it may overlap (a DFA difference, as `not`)
                alone = {"allOf": [b], "not": {"anyOf": [combined[j] for j in overlaps[i]]}}
                try:
                    parts.append(self.value(alone, (*where, key, str(i))))
                except LimitExceeded:
                    raise
                except GrammarError as exc:
                    first, second = sorted((i, overlaps[i][0]))
                    raise self.fail(f"oneOf branches {first} and {second} may both match one value, and 'exactly"
                                    f" one' cannot be compiled exactly here ({exc}); use anyOf if either may match",
                                    where) from None
        finally:
            del self.refs[len(self.refs) - len(seen):]
        if not parts:
            return self.never()
        return parts[0] if len(parts) == 1 else frag_alt(self.nfa, parts)

    def overlaps(self, branches: list[Any], where: tuple[str, ...]) -> dict[int, list[int]]:
        """Return, per oneOf branch, the other branches it is not proved disjoint from (a proof, not a guess)."""
        out: dict[int, list[int]] = {}
        for i in range(len(branches)):
            for j in range(i + 1, len(branches)):
                if not self.disjoint(branches[i], branches[j], where):
                    out.setdefault(i, []).append(j)
                    out.setdefault(j, []).append(i)
        return out

    def disjoint(self, a: Any, b: Any, where: tuple[str, ...]) -> bool:
        """Return True when no value satisfies both schemas, by kinds, literals or a required discriminator."""
        if a is False or b is False:
            return True
        seen: list[str] = []
        a, b = self.deref(a, where, seen), self.deref(b, where, seen)
        if not kinds(a, self.dialect) & kinds(b, self.dialect):
            return True
        la, lb = literal_texts(a, self.dialect), literal_texts(b, self.dialect)
        if la is not None and lb is not None and not la & lb:
            return True
        if isinstance(a, dict) and isinstance(b, dict) and kinds(a, self.dialect) & kinds(b, self.dialect) \
                <= {"object"}:
            for name in set(a.get("required", [])) & set(b.get("required", [])):
                pa = self.deref(a.get("properties", {}).get(name, True), where, seen)
                pb = self.deref(b.get("properties", {}).get(name, True), where, seen)
                if self.disjoint(pa, pb, where):
                    return True
        return False

    def literals(self, schema: dict[str, Any], keys: list[str], where: tuple[str, ...]) -> Fragment:
        if "const" in keys and "enum" in keys:
            values = [v for v in schema["enum"] if canonical(v) == canonical(schema["const"])] \
                if isinstance(schema["enum"], list) else []
        elif "const" in keys:
            values = [schema["const"]]
        else:
            values = schema["enum"]
            if not isinstance(values, list) or not values:
                raise self.fail("'enum' must be a non-empty list", where)
        rest = {k: v for k, v in schema.items() if k not in ("enum", "const")}
        rest_keys = enforced(rest, self.dialect)
        if "type" in rest_keys:
            types = type_set(rest) or set()
            values = [v for v in values if any(_has_type(v, t) for t in types)]
            if not values and types:
                raise self.fail("no 'enum' value has the schema's 'type'", where)
        if any(k != "type" for k in rest_keys):
            check = SchemaCompiler(self.root, SchemaOptions(self.opt.whitespace, self.opt.property_order,
                                                            self.opt.strict, self.opt.free_depth, False),
                                   self.budget)
            check.refs = list(self.refs)
            start, end = check.value(rest, where)
            dfa = nfa_to_dfa(check.nfa, start, {end})
            values = [v for v in values if dfa.accepts(_compact(v))]
        texts = {}
        for v in values:
            texts.setdefault(canonical(v), v)
        if not texts:
            return self.never()
        return frag_alt(self.nfa, [self.literal(v, where) for v in texts.values()])

    def literal(self, value: Any, where: tuple[str, ...]) -> Fragment:
        """Return a fragment for the JSON texts equal to one value (any key order, both spellings of 1 = 1.0)."""
        if value is None or isinstance(value, bool):
            return self.lit(json.dumps(value).encode())
        if isinstance(value, int | float):
            spellings = {json.dumps(value)}
            if (isinstance(value, int) or value.is_integer()) and abs(value) < 2**53:
                spellings |= {json.dumps(int(value)), json.dumps(float(value))}
            return frag_alt(self.nfa, [self.lit(s.encode()) for s in sorted(spellings)])
        if isinstance(value, str):
            return self.quoted_text(value)
        self.peak = max(self.peak, self.level + _json_depth(value))
        if isinstance(value, list):
            head = self.seq(self.lit(b"["), self.ws())
            if not value:
                return self.seq(head, self.lit(b"]"))
            parts = [head]
            for i, item in enumerate(value):
                if i:
                    parts += [self.lit(b","), self.ws()]
                parts += [self.literal(item, where), self.ws()]
            return self.seq(*parts, self.lit(b"]"))
        if isinstance(value, dict):
            members = {k: (lambda v=v: self.literal(v, where)) for k, v in value.items()}
            return self.members(members, set(value), [], None, 0, None, where)
        raise self.fail(f"an enum value must be JSON, not {type(value).__name__}", where)

    # -- typed values --

    def typed(self, schema: dict[str, Any], kind: str, where: tuple[str, ...]) -> Fragment:
        if kind == "string":
            return self.string(schema, where)
        if kind == "integer":
            return self.integer(schema, where)
        if kind == "number":
            return self.number(schema, where)
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
        if key not in schema or key not in enforced(schema, self.dialect):
            return None
        value = schema[key]
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(f"{key!r} must be a non-negative integer, not {value!r}", where)
        return value

    def bound(self, schema: dict[str, Any], key: str, where: tuple[str, ...]) -> Decimal | None:
        if key not in schema:
            return None
        value = schema[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"{key!r} must be a number, not {value!r}", where)
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)

    def bounds(self, schema: dict[str, Any], where: tuple[str, ...]) -> tuple[Decimal | None, ...]:
        return tuple(self.bound(schema, k, where) for k in ("minimum", "maximum", "exclusiveMinimum",
                                                            "exclusiveMaximum"))

    def multiple(self, schema: dict[str, Any], where: tuple[str, ...]) -> int | None:
        if "multipleOf" not in schema:
            return None
        k = schema["multipleOf"]
        if isinstance(k, float) and k.is_integer():
            k = int(k)
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            raise self.fail(f"'multipleOf' {k!r} is not supported (only positive integers)", where)
        if k > 10_000:
            raise self.fail(f"'multipleOf' {k} is too large for this compiler (at most 10000)", where)
        return k

    def integer(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        lo, hi = integer_bounds(*self.bounds(schema, where))
        regex = integer_regex(lo, hi)
        if regex is None:
            return self.never()
        k = self.multiple(schema, where)
        # draft 6+ counts 1.0 as an integer: its JSON spelling "1.0" is accepted (not "1.00…", a loop for a model)
        zero_fraction = r"(?:\.0)?" if self.dialect >= 6 else ""
        if k is None or k == 1:
            return frag_ast(self.nfa, parse(regex + zero_fraction, self.budget))
        table, accepting = multiple_of_table(k)
        dfa = intersect(ast_to_dfa(parse(regex, self.budget), self.budget), DFA(table, accepting, 0), self.budget)
        if zero_fraction:
            return self.seq(self.embed(dfa), frag_ast(self.nfa, parse(zero_fraction)))
        return self.embed(dfa)

    def number(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        minimum, maximum, ex_min, ex_max = self.bounds(schema, where)
        k = self.multiple(schema, where)
        if k is not None:  # a multiple of an integer is an integer
            return self.integer(schema, where)
        if minimum is None and maximum is None and ex_min is None and ex_max is None:
            return frag_ast(self.nfa, parse(NUMBER))
        parts = []
        for value, strict, make in ((minimum, False, lower_bound_regex), (ex_min, True, lower_bound_regex),
                                    (maximum, False, upper_bound_regex), (ex_max, True, upper_bound_regex)):
            if value is None:
                continue
            if value != value.to_integral_value():
                raise self.fail(f"a non-integral bound ({value}) on a number is not supported", where)
            parts.append(make(int(value), strict))
        dfa = ast_to_dfa(parse("-?" + r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?", self.budget), self.budget)
        for regex in parts:
            dfa = intersect(dfa, ast_to_dfa(parse(regex, self.budget), self.budget), self.budget)
        # Tiny values in exponent form (as json.dumps writes 1e-07) where every value of (0, 1) or
        # (-1, 0) is in range; other exponent forms are left out (a narrowing).
        lows = [v for v in (minimum, ex_min) if v is not None]
        highs = [v for v in (maximum, ex_max) if v is not None]
        tiny = []
        if all(v <= 0 for v in lows) and all(v >= 1 for v in highs):
            tiny.append(TINY)
        if all(v <= -1 for v in lows) and all(v >= 0 for v in highs):
            tiny.append("-" + TINY)
        self.narrow("a bounded number is written without an exponent (but for tiny values)")
        if tiny:
            return frag_alt(self.nfa, [self.embed(dfa), frag_ast(self.nfa, parse("|".join(tiny)))])
        return self.embed(dfa)

    def string(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        lo = self.count(schema, "minLength", where) or 0
        hi = self.count(schema, "maxLength", where)
        if hi is not None and hi < lo:
            raise self.fail(f"maxLength {hi} is below minLength {lo}", where)
        patterns = schema.get("pattern") if "pattern" in enforced(schema, self.dialect) else None
        if patterns is None:
            if not self.opt.placeholders:
                with self.budget.at(f"maxLength {hi} at {pointer(where)}"):
                    return self.quoted(text_dfa(lo, hi, self.budget))
            # A plain string becomes a counted family of about (maxLength + 1) x body states.
            size = ((hi if hi is not None else max(lo, 1)) + 1) * body_automaton().n_states
            with self.budget.at(f"maxLength {hi} at {pointer(where)}"):
                self.budget.states(size)
                self.budget.states(self.family_states + size)
            self.family_states += size
            symbol = self.symbols.setdefault((lo, hi), N_BYTES + len(self.symbols))
            start, mid, end = self.nfa.state(), self.nfa.state(), self.nfa.state()
            self.nfa.edge(start, QUOTE, QUOTE, mid)
            self.nfa.edge(mid, symbol, symbol, end)
            return start, end
        if isinstance(patterns, str):
            patterns = [patterns]
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            raise self.fail("'pattern' must be a string", where)
        text = None
        for pattern in patterns:
            hazard = unicode_hazard(pattern)
            if hazard is not None:
                raise self.fail(f"{hazard!r} in 'pattern' is not supported (the validator reads it as Unicode,"
                                " this compiler as ASCII)", where)
            try:
                with self.budget.at(f"the 'pattern' at {pointer(where)}"):
                    one = ast_to_dfa(parse_search(pattern, self.budget), self.budget)
            except LimitExceeded:
                raise
            except GrammarError as exc:
                raise self.fail(f"in 'pattern': {exc}", where) from None
            text = one if text is None else intersect(text, one, self.budget)
        assert text is not None
        if lo or hi is not None:
            lengths = f"minLength {lo} / maxLength {hi} with a 'pattern' at {pointer(where)}"
            with self.budget.at(lengths):
                count = Repeat(ANY_CHAR, lo, hi, lengths)
                text = intersect(text, ast_to_dfa(count, self.budget), self.budget)
        return self.quoted(text)

    # -- free-form values --

    def free(self, where: tuple[str, ...]) -> Fragment:
        """Return a fragment for any JSON value nested at most free_depth deep (a narrowing past that)."""
        self.narrow(f"a free-form value is nested at most {self.opt.free_depth} deep")
        with self.budget.at(f"a free-form value (any JSON, nested at most {self.opt.free_depth} deep) at"
                            f" {pointer(where)}"):
            return self.embed(free_dfa(self.opt.free_depth, self.opt.whitespace))

    # -- objects --

    def object(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        keys = set(enforced(schema, self.dialect))
        props = schema.get("properties", {}) if "properties" in keys else {}
        if not isinstance(props, dict):
            raise self.fail("'properties' must be an object", where)
        required = schema.get("required", []) if "required" in keys else []
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise self.fail("'required' must be a list of property names", where)
        extra = schema.get("additionalProperties", True) if "additionalProperties" in keys else True
        if not isinstance(extra, bool | dict):
            raise self.fail("'additionalProperties' must be a schema", where)
        if extra is True and self.opt.strict:
            extra = False
            self.narrow("objects are closed (strict)")
        patterns = schema.get("patternProperties", {}) if "patternProperties" in keys else {}
        if not isinstance(patterns, dict):
            raise self.fail("'patternProperties' must be an object", where)
        lo = self.count(schema, "minProperties", where) or 0
        hi = self.count(schema, "maxProperties", where)
        if hi is not None and hi < lo:
            return self.never()
        # Decoded-text automata of the patterns (search semantics, like 'pattern').
        pattern_dfas = []
        for i, (regex, sub) in enumerate(patterns.items()):
            hazard = unicode_hazard(regex)
            if hazard is not None:
                raise self.fail(f"{hazard!r} in patternProperties {regex!r} is not supported (the validator"
                                " reads it as Unicode, this compiler as ASCII)", where)
            try:
                with self.budget.at(f"the patternProperties {regex!r} at {pointer(where)}"):
                    pattern_dfas.append((ast_to_dfa(parse_search(regex, self.budget), self.budget), sub, regex))
            except LimitExceeded:
                raise
            except GrammarError as exc:
                raise self.fail(f"in patternProperties {i}: {exc}", where) from None
        names = list(dict.fromkeys([*props, *required]))
        declared: dict[str, Any] = {}
        for name in names:
            parts = [props[name]] if name in props else []
            data = name.encode("utf-8", errors="surrogatepass")
            matched = [sub for dfa, sub, _ in pattern_dfas if dfa.accepts(data)]
            parts += matched
            if name not in props and not matched:
                parts.append(extra)
            declared[name] = conjoin(parts)
        for name in required:
            if declared[name] is False:
                return self.never()
        # Key classes beyond the declared names: each pattern (minus the names), then the rest.
        keyed = bool(pattern_dfas) or extra is not False  # only then do undeclared keys need the names excluded
        excluded = names_dfa(tuple(names), self.budget) if names and keyed else None
        for dfa, sub, _ in pattern_dfas:  # a key matching a pattern whose schema is false may not appear at all
            if sub is False:
                excluded = dfa if excluded is None else product(excluded, dfa, lambda x, y: x or y, self.budget)
        classes: list[tuple[DFA, Any, str]] = []
        covered: DFA | None = excluded
        for dfa, sub, regex in pattern_dfas:
            own = dfa if excluded is None else difference(dfa, excluded, self.budget)
            if is_empty(own):
                continue
            for other, other_sub, other_regex in classes:
                if not is_empty(intersect(own, other, self.budget)) and canonical(other_sub) != canonical(sub):
                    raise self.fail(f"patternProperties {other_regex!r} and {regex!r} overlap with different"
                                    " schemas; this compiler cannot combine them", where)
            if sub is not False:
                classes.append((own, sub, regex))
            covered = dfa if covered is None else product(covered, dfa, lambda x, y: x or y, self.budget)
        if extra is not False:
            anything = text_dfa(0, None, self.budget)
            rest = anything if covered is None else difference(anything, covered, self.budget)
            if not is_empty(rest):
                classes.append((rest, extra, "additionalProperties"))
        if lo > 1 and classes:
            raise self.fail(f"minProperties {lo} on an object that allows undeclared properties is not"
                            " supported (a repeated key would count twice)", where)
        members = {name: (lambda sub=sub, name=name: self.value(sub, (*where, "properties", name)))
                   for name, sub in declared.items() if sub is not False}
        open_keys = [(dfa, (lambda sub=sub, r=regex: self.value(sub, (*where, "patternProperties", r))))
                     for dfa, sub, regex in classes]
        return self.members(members, set(required), open_keys, hi, lo, schema, where)

    def members(self, members: dict[str, Callable[[], Fragment]], required: set[str],
                open_keys: list[tuple[DFA, Callable[[], Fragment]]], hi: int | None, lo: int,
                schema: dict[str, Any] | None, where: tuple[str, ...]) -> Fragment:
        """Return an object fragment: declared members at most once each, open-key members any number of times.

        States are (seen, count): `seen` the declared names met (a bit set in any order, the next
        position in declared order), `count` the members so far (capped where no bound needs it).
        """
        nfa = self.nfa
        names = list(members)
        index = {n: i for i, n in enumerate(names)}
        need = sum(1 << index[n] for n in required if n in index)
        any_order = self.opt.property_order == "any"
        if len(names) > 1:
            if any_order:
                self.any_order += 1
            else:
                self.narrow("properties come in declared order")
        cap = (hi + 1) if hi is not None else max(lo, 1)

        def key_of(name: str) -> Fragment:
            return self.quoted_text(name)

        if any_order and len(names) > 1:
            self._check_any_order(members, open_keys, where)
        opened = self.seq(self.lit(b"{"), self.ws())
        close = self.lit(b"}")
        junction: dict[tuple[int, int], int] = {}
        todo: deque[tuple[int, int]] = deque()

        def state(seen: int, count: int) -> int:
            key = (seen, min(count, cap))
            if key not in junction:
                junction[key] = nfa.state()
                todo.append(key)
            return junction[key]

        nfa.epsilon(opened[1], state(0, 0))
        while todo:
            seen, count = todo.popleft()
            here = junction[seen, count]
            if hi is not None and count > hi:
                continue
            satisfied = (seen & need) == need if any_order else all(index[n] < seen for n in required
                                                                       if n in index)
            if satisfied and count >= lo:
                nfa.epsilon(here, close[0])
            if hi is not None and count >= hi:
                continue
            if count:
                comma = self.seq(self.lit(b","), self.ws())
                nfa.epsilon(here, comma[0])
                entry = comma[1]
            else:
                entry = here
            for name in names:
                i = index[name]
                if any_order:
                    if seen >> i & 1:
                        continue
                    after = seen | 1 << i
                else:
                    if i < seen or any(index[r] < i and index[r] >= seen for r in required if r in index):
                        continue
                    after = i + 1
                body = self.seq(key_of(name), self.ws(), self.lit(b":"), self.ws(), members[name](), self.ws())
                nfa.epsilon(entry, body[0])
                nfa.epsilon(body[1], state(after, count + 1))
            for dfa, make in open_keys:
                body = self.seq(self.quoted(dfa), self.ws(), self.lit(b":"), self.ws(), make(), self.ws())
                nfa.epsilon(entry, body[0])
                nfa.epsilon(body[1], state(seen, count + 1))
        return opened[0], close[1]

    def _check_any_order(self, members: dict[str, Callable[[], Fragment]],
                         open_keys: list[tuple[DFA, Callable[[], Fragment]]], where: tuple[str, ...]) -> None:
        """Refuse an any-order object whose subsets of seen properties would pass the limits."""
        n = len(members)
        hint = "pass property_order='declared' (a narrowing: properties in the schema's order)"
        with self.budget.at(f"the object at {pointer(where)} with {n} properties in any order"):
            if n > MAX_ANY_ORDER:
                raise self.budget.fail(f"2^{n} subsets of its properties", "max_states",
                                       self.budget.limits.max_states, hint)
            nfa_before, family_before = len(self.nfa), self.family_states
            for make in [*members.values(), *(m for _, m in open_keys), *(m for _, m in open_keys)]:
                make()  # a declared value is copied for half the subsets, an open key's for all of them
            nfa_one, family_one = len(self.nfa) - nfa_before, self.family_states - family_before
            copies = 2 ** (n - 1)
            seconds = nfa_one * copies * SECONDS_PER_NFA_STATE
            if seconds > self.budget.limits.max_seconds:
                raise self.budget.fail(f"about {seconds:.0f} s to compile ({nfa_one * copies:,} automaton states)",
                                       "max_seconds", self.budget.limits.max_seconds, hint)
            if nfa_before + nfa_one * copies > self.budget.limits.max_nfa_states:
                raise self.budget.fail(f"about {nfa_one * copies:,} automaton states", "max_nfa_states",
                                       self.budget.limits.max_nfa_states, hint)
            if family_one * copies > self.budget.limits.max_states:
                raise self.budget.fail(f"about {family_one * copies:,} DFA states for its strings",
                                       "max_states", self.budget.limits.max_states, hint)

    # -- arrays --

    def array(self, schema: dict[str, Any], where: tuple[str, ...]) -> Fragment:
        keys = set(enforced(schema, self.dialect))
        items = schema.get("items", True) if "items" in keys else True
        prefix: list[Any] = []
        rest: Any = items
        if "prefixItems" in keys:
            prefix = schema["prefixItems"]
            if not isinstance(prefix, list):
                raise self.fail("'prefixItems' must be a list of schemas", where)
        if isinstance(items, list):
            if self.dialect >= 2020:
                raise self.fail("'items' as a list is draft 2019-09 syntax; use 'prefixItems' or declare"
                                " an earlier $schema", where)
            prefix = items
            rest = schema.get("additionalItems", True) if "additionalItems" in keys else True
        lo = self.count(schema, "minItems", where) or 0
        hi = self.count(schema, "maxItems", where)
        if hi is not None and hi < lo:
            raise self.fail(f"maxItems {hi} is below minItems {lo}", where)
        if rest is False:
            hi = len(prefix) if hi is None else min(hi, len(prefix))
            if hi < lo:
                return self.never()

        def schema_at(i: int) -> tuple[Any, tuple[str, ...]]:
            if i < len(prefix):
                return prefix[i], (*where, "prefixItems" if "prefixItems" in keys else "items", str(i))
            return rest, (*where, "items" if not isinstance(items, list) else "additionalItems")

        def element(i: int) -> Fragment:
            sub, at = schema_at(i)
            return self.seq(self.value(sub, at), self.ws())

        nfa = self.nfa
        head = self.seq(self.lit(b"["), self.ws())
        close = self.lit(b"]")
        fixed = max(len(prefix), lo, 1)
        if hi is not None:
            fixed = min(fixed, hi)
        # Refuse before building: every position is a fresh copy of its element's automaton.
        before = len(nfa)
        element(fixed - 1 if fixed else 0)
        one = len(nfa) - before
        copies = (hi if hi is not None else fixed + 1)
        if len(nfa) + copies * (one + 4) > self.budget.limits.max_nfa_states:
            counted = "minItems" in schema or "maxItems" in schema
            counts = f"minItems {lo} / maxItems {hi}" if counted else "the nested arrays"
            with self.budget.at(f"{counts} at {pointer(where)}"):
                self.budget.nfa_states(len(nfa) + copies * (one + 4))
        after = head[1]
        if lo == 0:
            nfa.epsilon(after, close[0])
        if hi == 0:
            return head[0], close[1]
        for i in range(fixed):
            part = element(i) if i == 0 else self.seq(self.lit(b","), self.ws(), element(i))
            nfa.epsilon(after, part[0])
            after = part[1]
            if i + 1 >= lo:
                nfa.epsilon(after, close[0])
        if hi is None:
            loop = self.seq(self.lit(b","), self.ws(), element(fixed))
            nfa.epsilon(after, loop[0])
            nfa.epsilon(loop[1], after)
        else:
            for i in range(fixed, hi):
                part = self.seq(self.lit(b","), self.ws(), element(i))
                nfa.epsilon(after, part[0])
                after = part[1]
                nfa.epsilon(after, close[0])
        return head[0], close[1]


_EDGES: dict[int, tuple[DFA, list[int], list[tuple[int, int, int, int]]]] = {}


def _edge_list(dfa: DFA) -> tuple[list[int], list[tuple[int, int, int, int]]]:
    """Return a DFA's accepting states and its edges as (state, lo, hi, target) byte runs (memoised)."""
    hit = _EDGES.get(id(dfa))
    if hit is None or hit[0] is not dfa:
        edges = []
        for s, row in enumerate(dfa.transitions):
            cuts = np.flatnonzero(np.diff(row)) + 1
            starts = np.concatenate([[0], cuts]).tolist()
            ends = np.concatenate([cuts - 1, [N_BYTES - 1]]).tolist()
            edges += [(s, lo, hi, int(row[lo])) for lo, hi in zip(starts, ends, strict=True) if row[lo] >= 0]
        if len(_EDGES) > 4096:
            _EDGES.clear()
        hit = _EDGES[id(dfa)] = (dfa, np.flatnonzero(dfa.accepting).tolist(), edges)
    return hit[1], hit[2]


def unicode_hazard(pattern: str) -> str | None:
    """Return the construct of a pattern whose ASCII reading would accept more than Python's `re` does.

    The engine reads `\\d \\w \\s` as ASCII; jsonschema (Python `re`) reads them as Unicode. A
    positive class only narrows, but `\\D \\W \\S`, or `\\d \\w \\s` inside `[^…]`, would accept
    Unicode digits, letters or spaces that the validator rejects.
    """
    negated = False
    in_class = False
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            e = pattern[i + 1]
            if e in "DWS" or (in_class and negated and e in "dws"):
                return "\\" + e
            i += 2
            continue
        if not in_class and c == "[":
            in_class, negated = True, pattern[i + 1: i + 2] == "^"
        elif in_class and c == "]":
            in_class = False
        i += 1
    return None


def _has_type(value: Any, name: str) -> bool:
    if name == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer())
    return literal_kind(value) == name


def _compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", errors="surrogatepass")


def _json_depth(value: Any) -> int:
    """Return how many containers deep a JSON value nests (0 for a scalar)."""
    if isinstance(value, list):
        return 1 + max(map(_json_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_json_depth, value.values()), default=0)
    return 0


def _negation_blocker(schema: Any) -> str:
    """Return what in a `not` schema keeps negation from being exact here ('' if nothing): numbers, $ref."""
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        for key, value in node.items():
            if key in NUMBER_KEYWORDS:
                return f"a number constraint ({key!r})"
            if key == "type" and ("integer" in value if isinstance(value, list) else value == "integer"):
                return "'type': 'integer'"
            if key in ("const", "enum") and _holds_number(value):
                return f"a number in {key!r}"
            if key in ("$ref", "$dynamicRef", "$recursiveRef"):
                return "a $ref"
        todo.extend(v for k, v in node.items() if k not in ("const", "enum"))
    return ""


def _holds_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    if isinstance(value, list):
        return any(map(_holds_number, value))
    if isinstance(value, dict):
        return any(map(_holds_number, value.values()))
    return False


@cache
def free_dfa(depth: int, whitespace: int) -> DFA:
    """Return the DFA of any JSON value nested at most `depth` containers deep (strings in full)."""
    compiler = SchemaCompiler(None, SchemaOptions(whitespace=whitespace, placeholders=False), Budget())
    nfa = compiler.nfa
    string = text_dfa(0, None)
    scalars = [compiler.lit(b"null"), compiler.lit(b"true"), compiler.lit(b"false"),
               frag_ast(nfa, parse(NUMBER)), compiler.quoted(string)]
    if depth > 0:
        inner = free_dfa(depth - 1, whitespace)

        def item() -> Fragment:
            return compiler.seq(compiler.embed(inner), compiler.ws())

        def member() -> Fragment:
            return compiler.seq(compiler.quoted(string), compiler.ws(), compiler.lit(b":"), compiler.ws(),
                                compiler.embed(inner), compiler.ws())

        for opening, make, closing in ((b"[", item, b"]"), (b"{", member, b"}")):
            head = compiler.seq(compiler.lit(opening), compiler.ws())
            close = compiler.lit(closing)
            nfa.epsilon(head[1], close[0])
            first = make()
            nfa.epsilon(head[1], first[0])
            loop = compiler.seq(compiler.lit(b","), compiler.ws(), make())
            nfa.epsilon(first[1], loop[0])
            nfa.epsilon(loop[1], first[1])
            nfa.epsilon(first[1], close[0])
            scalars.append((head[0], close[1]))
    start, end = frag_alt(nfa, scalars)
    table, accepting = determinise(nfa, start, {end}, N_BYTES)
    table, accepting = minimise(table, accepting)
    return DFA(table, accepting, 0)
