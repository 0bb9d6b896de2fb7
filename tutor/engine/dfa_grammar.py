"""Compiled grammars over a byte DFA (regex and JSON Schema) and the matcher that walks them.

`compile_regex(pattern, vocab)` and `compile_json_schema(schema, vocab, whitespace=0)` return a
DFAGrammar, loaded from the disk cache when the same grammar was compiled for the same vocabulary
before. `DFAMatcher(compiled)` holds one request's state and implements
tutor.engine.matcher.Matcher: `allowed()` is one list lookup of an AllowedSet.

What a state needs only when decoding reaches it is built then and kept in the grammar: its
allowed set (`allowed_at`, through index.LazyIndex), its bitmask fill plan (`fill_plan`) and its
forced continuation (`forced_at`). A grammar written to the disk cache or to bytes is built in full
first (`arrays`, with the eager `index`).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from functools import cache as cache_in_process
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from tutor.engine import cache
from tutor.engine.dfa import DFA, ClassDFA
from tutor.engine.index import IndexArrays, LazyIndex, build_index
from tutor.engine.limits import Budget, Limits, short
from tutor.engine.matcher import AllowedSet, FillPlan, GrammarError, TokenRejected, bitmask_view
from tutor.engine.sources import grammar_text, json_value
from tutor.engine.trie import token_trie
from tutor.engine.vocab import Vocabulary

# Part of every cache key, with a hash of the compiler's own source (see code_version), so an
# entry written by different compiler code is never loaded.
ENGINE_VERSION = 2
_COMPILER_MODULES = ("regex.py", "dfa.py", "json_schema.py", "index.py", "trie.py", "dfa_grammar.py", "vocab.py",
                     "limits.py", "schema_compiler.py", "schema_keywords.py", "schema_merge.py", "schema_numbers.py")
MAX_FORCED = 4096


@dataclass(frozen=True, eq=False)
class DFAGrammar:
    """A grammar compiled for one vocabulary: the DFA, its token index and per-state lookups.

    The DFA is kept compressed: bytes with identical columns share a class, and
    `class_table[state, byte_class[b]]` is the next state (-1 dead). State `n_states` is the
    state after an end-of-generation token; the lookup tuples have one entry per state
    including that one.
    """

    kind: str
    key: str
    vocab: Vocabulary
    byte_class: np.ndarray
    class_table: np.ndarray
    accepting_states: np.ndarray
    sets: list[AllowedSet | None]  # per state; None until allowed_at(state) first builds it
    lazy: LazyIndex | None  # what builds the sets; None for a grammar loaded fully built
    forced: list[bytes | None]  # per state; None until forced_at(state) first walks it
    accepting: tuple[bool, ...]
    finished: tuple[bool, ...]
    step_table: memoryview
    step_class: tuple[int, ...]
    from_cache: bool
    build_ms: float
    cache_path: Path | None = None  # the cache entry this grammar was loaded from or saved to
    plans: list[FillPlan | None] = field(default_factory=list)  # per state; None until fill_plan(state)
    class_sizes: tuple[int, ...] = ()  # bytes per byte class
    full_index: list[IndexArrays] = field(default_factory=list)  # the eager index, once built (or loaded)

    def __post_init__(self) -> None:
        self.plans.extend([None] * (self.n_states + 1 - len(self.plans)))
        sizes = np.bincount(self.byte_class, minlength=self.class_table.shape[1])
        object.__setattr__(self, "class_sizes", tuple(sizes.tolist()))

    @property
    def n_states(self) -> int:
        """Return the number of DFA states."""
        return int(self.class_table.shape[0])

    @property
    def end_state(self) -> int:
        """Return the state entered by an end-of-generation token."""
        return self.n_states

    @cached_property
    def dfa(self) -> DFA:
        """Return the DFA with its full [n_states, 256] table."""
        return DFA(np.ascontiguousarray(self.class_table[:, self.byte_class]), self.accepting_states, 0)

    @property
    def index_bytes(self) -> int:
        """Return the bytes held by the index, the compressed DFA and the forced continuations."""
        return sum(a.nbytes for a in self.arrays().values())

    @property
    def index(self) -> IndexArrays:
        """Return the whole token index as arrays (the eager build: build_index, every state; then kept).

        The states whose sets were not built yet take theirs from it. Raises LimitExceeded past the
        grammar's limits, counting the packed rows that decoding builds as the lazy build does.
        """
        if not self.full_index:  # (a race here builds it twice: the same arrays, one kept)
            lazy = self.lazy
            assert lazy is not None  # a grammar without a lazy index was assembled with its full index
            budget = Budget(lazy.limits, subject=lazy.subject)
            dfa = ClassDFA(self.class_table, self.byte_class, self.accepting_states)
            index = build_index(dfa, self.vocab, lazy.families, trie=lazy.trie, budget=budget)
            rows_bytes = int(index.set_start.size) * 4 * -(-self.vocab.size // 32)
            budget.index_bytes(index.nbytes + dfa.table.nbytes + rows_bytes)
            self.full_index.append(index)
            built = _allowed_sets(index)
            for s, allowed in enumerate(built):
                if self.sets[s] is None:
                    self.sets[s] = allowed
        return self.full_index[0]

    @property
    def state_sets(self) -> tuple[AllowedSet, ...]:
        """Return every state's allowed set, indexed by state (the eager build, through `index`)."""
        _ = self.index
        return tuple(self.sets)  # type: ignore[arg-type]  # index filled every entry

    def allowed_at(self, state: int) -> AllowedSet:
        """Return state's allowed set, built the first time it is asked for (LazyIndex), then kept in `sets`."""
        allowed = self.sets[state]
        if allowed is None:
            assert self.lazy is not None
            allowed = self.sets[state] = self.lazy.allowed(state)
        return allowed

    def warm_bitmasks(self) -> int:
        """Build every state's packed bitmask and fill plan now (the eager build); return the bytes held.

        Decoding does not need this: a state's plan is built when a matcher first fills its mask.
        The bytes are those of the packed rows (AllowedSet.packed); the plans are views into them.
        """
        _ = self.fill_plans
        return sum(allowed.packed(self.vocab.size).nbytes for allowed in {id(a): a for a in self.state_sets}.values())

    @property
    def fill_plans(self) -> tuple[FillPlan, ...]:
        """Return every state's AllowedSet.fill_plan, indexed by state (building those not built yet)."""
        _ = self.index
        return tuple(plan if plan is not None else self.fill_plan(s) for s, plan in enumerate(self.plans))

    def fill_plan(self, state: int) -> FillPlan:
        """Return state's fill plan, building its set's packed row the first time (then kept in `plans`)."""
        plan = self.plans[state]
        if plan is None:
            plan = self.plans[state] = self.allowed_at(state).fill_plan(self.vocab.size)
        return plan

    def forced_at(self, state: int) -> bytes:
        """Return state's unique continuation, walked the first time it is asked for (then kept in `forced`).

        It follows states with exactly one live byte and stops at an accepting state, a branch, a state
        met before on the walk, or after MAX_FORCED bytes.
        """
        data = self.forced[state]
        if data is not None:
            return data
        step, width, sizes, accepting = self.step_table, self.class_table.shape[1], self.class_sizes, self.accepting
        out = bytearray()
        seen = set()
        cur = state
        while cur != self.end_state and not accepting[cur] and cur not in seen and len(out) < MAX_FORCED:
            row = step[cur * width : (cur + 1) * width]
            live = [c for c in range(width) if row[c] >= 0]
            if len(live) != 1 or sizes[live[0]] != 1:
                break
            seen.add(cur)
            out.append(self.step_class.index(live[0]))
            cur = row[live[0]]
        data = self.forced[state] = bytes(out)
        return data

    def matcher(self, state: int = 0) -> DFAMatcher:
        """Return a new matcher at the start state (or at `state`, for tools and tests)."""
        return DFAMatcher(self, state)

    def arrays(self) -> dict[str, np.ndarray]:
        """Return everything needed to rebuild this grammar, as arrays (what the cache stores).

        The forced continuations not built yet are built first, all at once (forced_continuations, which
        gives what forced_at would), so the arrays describe the full grammar.
        """
        if any(data is None for data in self.forced):
            blob, offsets = forced_continuations(ClassDFA(self.class_table, self.byte_class, self.accepting_states))
            data = blob.tobytes()
            for s, known in enumerate(self.forced):
                if known is None:
                    self.forced[s] = data[offsets[s] : offsets[s + 1]]
        pieces = self.forced
        lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
        offsets = np.zeros(len(pieces) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return {
            "byte_class": self.byte_class,
            "class_table": self.class_table,
            "accepting": self.accepting_states,
            "finished": np.array(self.finished, dtype=bool),
            "forced_blob": np.frombuffer(b"".join(pieces), dtype=np.uint8),
            "forced_offsets": offsets,
            **self.index.arrays(),
        }


def forced_continuations(dfa: ClassDFA) -> tuple[np.ndarray, np.ndarray]:
    """Return (blob, offsets): state s's unique continuation is blob[offsets[s]:offsets[s+1]] (the eager build).

    Compiling no longer calls this (DFAGrammar.forced_at walks a state when asked); tests compare the two.

    The continuation follows states with exactly one live byte and stops at an accepting state,
    a branch, or after MAX_FORCED bytes.
    """
    live = dfa.table >= 0
    sizes = dfa.class_sizes()
    single = (live.astype(np.int64) @ sizes == 1) & ~dfa.accepting
    column = np.argmax(live, axis=1)
    byte = np.argmax(dfa.byte_class[None, :] == column[:, None], axis=1)  # the class's only byte
    nxt = dfa.table[np.arange(dfa.n_states), column]
    single_l, byte_l, nxt_l = single.tolist(), byte.tolist(), nxt.tolist()
    memo: dict[int, bytes] = {}
    for s in np.flatnonzero(single).tolist():
        if s in memo:
            continue
        path: list[int] = []
        on_path: set[int] = set()
        cur = s
        while single_l[cur] and cur not in memo and cur not in on_path and len(path) < MAX_FORCED:
            path.append(cur)
            on_path.add(cur)
            cur = nxt_l[cur]
        tail = memo.get(cur, b"")
        for p in reversed(path):
            tail = (bytes((byte_l[p],)) + tail)[:MAX_FORCED]
            memo[p] = tail
    pieces = [memo.get(s, b"") for s in range(dfa.n_states)] + [b""]
    lengths = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    offsets = np.zeros(len(pieces) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return np.frombuffer(b"".join(pieces), dtype=np.uint8), offsets


def _allowed_sets(index: IndexArrays) -> list[AllowedSet]:
    """Return each state's AllowedSet from the index arrays (one object per distinct set)."""
    pool, bitmasks = index.pool, index.bitmasks
    sets = [
        AllowedSet(pool[a:b], bool(banned), bitmasks[m] if m >= 0 else None)
        for a, b, banned, m in zip(
            index.set_start.tolist(), index.set_stop.tolist(), index.set_banned.tolist(),
            index.set_bitmask.tolist(), strict=True,
        )
    ]
    return [sets[k] for k in index.state_set.tolist()]


def assemble(
    kind: str, key: str, vocab: Vocabulary, arrays: dict[str, np.ndarray], from_cache: bool, build_ms: float,
    cache_path: Path | None = None, lazy: LazyIndex | None = None,
) -> DFAGrammar:
    """Return a DFAGrammar from its arrays: fully built (loaded from the cache or bytes) or, with `lazy`, not."""
    class_table = arrays["class_table"].astype(np.int32, copy=False)
    sets: list[AllowedSet | None]
    if lazy is None:
        fields = {name: arrays[name] for name in IndexArrays.__dataclass_fields__}
        fields["pool"] = fields["pool"].astype(np.intp, copy=False)  # intp indexes ~3x faster than int32
        index = IndexArrays(**fields)
        sets, full = list(_allowed_sets(index)), [index]
    else:
        sets, full = [None] * (class_table.shape[0] + 1), []
    forced: list[bytes | None] = [None] * (class_table.shape[0] + 1)
    if "forced_blob" in arrays:  # a fully built grammar (from the cache or bytes): every state known
        blob = arrays["forced_blob"].tobytes()
        offsets = arrays["forced_offsets"]
        forced = [b""] * (class_table.shape[0] + 1)
        for s in np.flatnonzero(offsets[1:] != offsets[:-1]).tolist():
            forced[s] = blob[offsets[s] : offsets[s + 1]]
    return DFAGrammar(
        kind=kind,
        key=key,
        vocab=vocab,
        byte_class=arrays["byte_class"],
        class_table=class_table,
        accepting_states=arrays["accepting"],
        sets=sets,
        lazy=lazy,
        full_index=full,
        forced=forced,
        accepting=(*arrays["accepting"].tolist(), True),
        finished=tuple(arrays["finished"].tolist()),
        step_table=memoryview(np.ascontiguousarray(class_table).reshape(-1)),
        step_class=tuple(arrays["byte_class"].tolist()),
        from_cache=from_cache,
        build_ms=build_ms,
        cache_path=cache_path,
    )


def stored_arrays(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Return the arrays in their compact on-disk dtypes (undone by assemble())."""
    out = dict(arrays)
    if out["class_table"].shape[0] < np.iinfo(np.int16).max:
        out["class_table"] = out["class_table"].astype(np.int16)
    out["pool"] = out["pool"].astype(np.int32)
    return out


@cache_in_process
def code_version() -> str:
    """Return a hash of the compiler modules' source files."""
    digest = hashlib.sha256(str(ENGINE_VERSION).encode())
    here = Path(__file__).resolve().parent
    for name in _COMPILER_MODULES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def grammar_key(kind: str, source: str, vocab: Vocabulary) -> tuple[str, str]:
    """Return (cache key, grammar sha256) of a grammar source for a vocabulary under this compiler's code."""
    grammar_sha = hashlib.sha256(f"{kind}\0{code_version()}\0{source}".encode()).hexdigest()
    return f"{kind}-{grammar_sha[:32]}-{vocab.sha256[:32]}", grammar_sha


def _compile(kind: str, source: str, vocab: Vocabulary, build: Any, use_cache: bool,
             budget: Budget, cache_dir: Path | None = None) -> DFAGrammar:
    """Return the grammar from the cache, or build it with build() -> (ClassDFA, families) and cache it.

    The budget's limits bind the build; a cached grammar larger than them is refused as well.
    """
    key, grammar_sha = grammar_key(kind, source, vocab)
    entry = cache.entry_path("index", key, cache_dir)
    if use_cache:
        hit = cache.load(entry)
        if hit is not None and hit[1].get("vocab") == vocab.sha256 and hit[1].get("grammar") == grammar_sha:
            budget.states(int(hit[0]["class_table"].shape[0]))
            budget.index_bytes(sum(a.nbytes for a in hit[0].values()))
            return assemble(kind, key, vocab, hit[0], True, 0.0, entry)
    t0 = time.perf_counter()
    dfa, families = build(budget)
    budget.states(dfa.n_states)
    # the trie goes to disk only with the grammar (use_cache): in cache_dir, else in the tutor's cache folder
    trie = token_trie(vocab, cache_dir, persist=use_cache)
    arrays = {
        "byte_class": dfa.byte_class,
        "class_table": dfa.table,
        "accepting": dfa.accepting,
        "finished": np.append(dfa.accepting & ~(dfa.table >= 0).any(axis=1), True),
    }
    base_bytes = sum(a.nbytes for a in arrays.values())
    budget.index_bytes(base_bytes)
    # the token sets are built as decoding reaches their states, under the same limits (LazyIndex)
    lazy = LazyIndex(dfa, vocab, families, trie, budget.limits, budget.subject, base_bytes)
    build_ms = (time.perf_counter() - t0) * 1e3
    grammar = assemble(kind, key, vocab, arrays, False, build_ms, entry if use_cache else None, lazy)
    if use_cache:
        cache.save(entry, stored_arrays(grammar.arrays()), {"vocab": vocab.sha256, "grammar": grammar_sha,
                                                            "kind": kind})
    return grammar


def compile_regex(pattern: str, vocab: Vocabulary, *, use_cache: bool = True,
                  limits: Limits | None = None, cache_dir: Path | None = None) -> DFAGrammar:
    """Return the compiled grammar of strings fully matching `pattern`.

    Raises GrammarError for unsupported syntax and LimitExceeded (a GrammarError) past `limits`.
    """
    from tutor.engine.regex import ast_to_dfa, parse

    grammar_text(pattern, "regex")

    def build(budget: Budget) -> tuple[ClassDFA, tuple]:
        return ClassDFA.from_dfa(ast_to_dfa(parse(pattern, budget), budget)), ()

    return _compile("regex", pattern, vocab, build, use_cache, Budget(limits, subject=f"the regex {short(pattern)}"),
                    cache_dir)


def compile_json_schema(
    schema: dict[str, Any] | str, vocab: Vocabulary, *, whitespace: int = 0, use_cache: bool = True,
    limits: Limits | None = None, cache_dir: Path | None = None, property_order: str = "any",
    strict: bool = False, free_depth: int = 2,
) -> DFAGrammar:
    """Return the compiled grammar of JSON texts valid under `schema` (a dict or JSON text).

    whitespace: at most this many bytes of whitespace between JSON tokens (default none).
    property_order, strict, free_depth: the narrowings, off by default (json_schema.schema_to_automaton).
    Raises GrammarError for what the compiler does not support (and for JSON text that does not
    parse), and LimitExceeded (a GrammarError) past `limits`.
    """
    from tutor.engine.json_schema import schema_to_automaton

    parsed = parse_schema_text(schema) if isinstance(schema, str) else schema
    json_value(parsed, "schema")
    try:
        source = json.dumps({"schema": parsed, "whitespace": whitespace, "property_order": property_order,
                             "strict": strict, "free_depth": free_depth}, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise GrammarError(f"the schema cannot be written as JSON ({exc})") from None
    budget = Budget(limits, subject="the schema")

    def build(budget: Budget) -> tuple[ClassDFA, tuple]:
        automaton = schema_to_automaton(parsed, whitespace, budget=budget, property_order=property_order,
                                        strict=strict, free_depth=free_depth)
        return automaton.automaton, automaton.families

    return _compile("json", source, vocab, build, use_cache, budget, cache_dir)


def _not_json(name: str) -> Any:
    raise GrammarError(f"the schema holds {name}, which is not JSON; use a finite number")


def parse_schema_text(text: str) -> Any:
    """Return the JSON value of a schema text; GrammarError (never RecursionError) if it does not parse.

    NaN and Infinity are refused: they are not JSON, and a schema holding them would make the model write them.
    """
    grammar_text(text, "schema")
    try:
        return json.loads(text, parse_constant=_not_json)
    except json.JSONDecodeError as exc:
        raise GrammarError(f"the schema is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise GrammarError("the schema is nested too deeply to read as JSON") from None


class DFAMatcher:
    """One request's position in a DFAGrammar (implements tutor.engine.matcher.Matcher)."""

    __slots__ = (
        "_accepting", "_class", "_compiled", "_end", "_eog", "_finished", "_forced", "_history", "_out", "_pieces",
        "_plans", "_sets", "_size", "_special", "_state", "_step", "_view", "_width",
    )

    def __init__(self, compiled: DFAGrammar, state: int = 0) -> None:
        if not 0 <= state <= compiled.end_state:
            raise ValueError(f"state {state} is outside the grammar's {compiled.end_state + 1} states")
        self._compiled = compiled
        self._sets = compiled.sets
        self._forced = compiled.forced
        self._accepting = compiled.accepting
        self._finished = compiled.finished
        self._step = compiled.step_table
        self._class = compiled.step_class
        self._width = compiled.class_table.shape[1]
        self._pieces = compiled.vocab.pieces
        self._eog = compiled.vocab.eog_ids
        self._special = compiled.vocab.special_ids
        self._end = compiled.end_state
        self._size = compiled.vocab.size
        self._state = state
        self._history: list[int] = []
        self._out: np.ndarray | None = None  # the last bitmask buffer filled, and a byte view of it
        self._view = memoryview(b"")
        self._plans: list[FillPlan | None] = compiled.plans

    @property
    def state(self) -> int:
        """Return the current DFA state (dfa.n_states after an end-of-generation token)."""
        return self._state

    def allowed(self) -> AllowedSet:
        """Return the tokens allowed now (EOS only when accepting; never control tokens)."""
        allowed = self._sets[self._state]
        return allowed if allowed is not None else self._compiled.allowed_at(self._state)

    def fill_bitmask(self, out: np.ndarray) -> None:
        """Write the packed bitmask of the tokens allowed now into every word of `out` (ceil(vocab / 32) words).

        `out` is a writable C-contiguous int32 or uint32 array (ValueError otherwise). The state's fill
        plan (DFAGrammar.fill_plan, built the first time a matcher meets the state) writes the shared zero
        row and the row's nonzero span, or the whole row of a dense state. The matcher keeps a byte view of
        the last buffer, so refilling the same buffer is one list lookup and one or two memcpy calls.
        """
        if out is not self._out:
            self._bind(out)
        plan = self._plans[self._state]
        background, span, words = plan if plan is not None else self._compiled.fill_plan(self._state)
        view = self._view
        view[:] = background
        if words is not None:
            view[span] = words

    def _bind(self, out: np.ndarray) -> None:
        """Check a new bitmask buffer and keep its byte view (and the grammar's fill plans, built once)."""
        view = bitmask_view(out, -(-self._size // 32))
        self._plans = self._compiled.plans
        self._out, self._view = out, view

    def advance(self, token_id: int) -> None:
        """Consume one token; raise TokenRejected if it is not allowed."""
        state = self._state
        if token_id in self._eog:
            if not self._accepting[state] or state == self._end:
                raise TokenRejected(f"end-of-generation token {token_id} before the output is complete"
                                    f" (state {state})")
            self._history.append(state)
            self._state = self._end
            return
        if token_id in self._special or not 0 <= token_id < len(self._pieces) or state == self._end:
            raise TokenRejected(f"token {token_id} is not allowed in state {state}")
        step, cls, width = self._step, self._class, self._width
        for b in self._pieces[token_id]:
            state = step[state * width + cls[b]]
            if state < 0:
                raise TokenRejected(
                    f"token {token_id} ({self._pieces[token_id]!r}) is not allowed in state {self._state}"
                )
        self._history.append(self._state)
        self._state = state

    def is_accepting(self) -> bool:
        """Return True when the bytes consumed so far form a complete sentence of the grammar."""
        return self._accepting[self._state]

    def is_finished(self) -> bool:
        """Return True when accepting and no further byte can follow (generation must stop)."""
        return self._finished[self._state]

    def forced_bytes(self) -> bytes:
        """Return the unique continuation from here (empty if there is a choice), for jump-forward."""
        data = self._forced[self._state]
        return data if data is not None else self._compiled.forced_at(self._state)

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes (a forced continuation); raise TokenRejected if they do not fit."""
        state = self._state
        if state == self._end and data:
            raise TokenRejected("no bytes can follow the end of generation")
        step, cls, width = self._step, self._class, self._width
        for i, b in enumerate(data):
            state = step[state * width + cls[b]]
            if state < 0:
                raise TokenRejected(f"bytes {data!r} do not fit at offset {i} (from state {self._state})")
        self._history.append(self._state)
        self._state = state

    def forced_completes(self) -> bool:
        """Return True when consuming forced_bytes() reaches a finished state."""
        data = self.forced_bytes()
        if not data:
            return False
        state, step, cls, width = self._state, self._step, self._class, self._width
        for b in data:
            state = step[state * width + cls[b]]
        return self._finished[state]

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` calls of advance() / advance_bytes(); ValueError past the start."""
        if not 0 <= steps <= len(self._history):
            raise ValueError(f"cannot roll back {steps} steps: {len(self._history)} were taken since the start")
        if steps:
            self._state = self._history[-steps]
            del self._history[-steps:]

    def reset(self) -> None:
        """Return to the start state."""
        self._state = 0
        self._history.clear()
