"""Automata over bytes: the Thompson NFA the compilers build, the DFA data, subset construction and minimisation.

Tables are int32 `[n_states, n_symbols]` with -1 for the dead state. The public `DFA` is over the
256 byte values; the internal helpers also accept wider alphabets (the JSON Schema compiler uses
symbols above 255 as placeholders for string bodies).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tutor.engine.limits import Budget

N_BYTES = 256


class NFA:
    """A Thompson-style NFA whose edges carry inclusive symbol ranges (bytes 0–255, or larger symbols)."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.edges: list[list[tuple[int, int, int]]] = []
        self.eps: list[list[int]] = []
        self.budget = budget if budget is not None else Budget()

    def state(self) -> int:
        """Return a new state id (LimitExceeded past the budget's max_nfa_states)."""
        self.budget.nfa_states(len(self.edges) + 1)
        self.edges.append([])
        self.eps.append([])
        return len(self.edges) - 1

    def edge(self, src: int, lo: int, hi: int, dst: int) -> None:
        """Add an edge src → dst on every symbol in lo..hi."""
        self.edges[src].append((lo, hi, dst))

    def epsilon(self, src: int, dst: int) -> None:
        """Add an empty edge src → dst."""
        self.eps[src].append(dst)

    def __len__(self) -> int:
        return len(self.edges)


@dataclass(frozen=True, eq=False)
class DFA:
    """A deterministic automaton over bytes: `transitions[state, byte]` is the next state or -1 (dead)."""

    transitions: np.ndarray
    accepting: np.ndarray
    start: int

    @property
    def n_states(self) -> int:
        """Return the number of states."""
        return int(self.transitions.shape[0])

    def step(self, state: int, data: bytes) -> int:
        """Return the state reached from `state` after `data`, or -1 if the automaton dies."""
        table = self.transitions
        for b in data:
            if state < 0:
                return -1
            state = int(table[state, b])
        return state

    def accepts(self, data: bytes) -> bool:
        """Return True when the automaton accepts exactly `data`."""
        state = self.step(self.start, data)
        return state >= 0 and bool(self.accepting[state])


@dataclass(frozen=True, eq=False)
class ClassDFA:
    """A byte DFA stored by byte class: the next state is `table[state, byte_class[b]]` (-1 dead).

    Bytes whose columns are identical share a class, so the table has a few dozen columns
    instead of 256. `dfa` expands it.
    """

    table: np.ndarray
    byte_class: np.ndarray
    accepting: np.ndarray

    @classmethod
    def from_dfa(cls, dfa: DFA) -> ClassDFA:
        """Return the compressed form of a DFA whose start state is 0."""
        if dfa.start != 0:
            raise ValueError("ClassDFA expects the start state to be 0")
        representatives, byte_class = column_classes(dfa.transitions)
        return cls(np.ascontiguousarray(dfa.transitions[:, representatives]), byte_class, dfa.accepting)

    @property
    def n_states(self) -> int:
        """Return the number of states."""
        return int(self.table.shape[0])

    @cached_property
    def dfa(self) -> DFA:
        """Return the DFA with its full [n_states, 256] table."""
        return DFA(np.ascontiguousarray(self.table[:, self.byte_class]), self.accepting, 0)

    def class_sizes(self) -> np.ndarray:
        """Return how many bytes fall in each class."""
        return np.bincount(self.byte_class, minlength=self.table.shape[1])


def determinise(nfa: NFA, start: int, finals: set[int], n_symbols: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (table, accepting) of the subset construction; DFA state 0 is the start.

    Raises LimitExceeded when the DFA passes the NFA's budget (max_states, max_seconds).
    """
    budget = nfa.budget
    budget.index_bytes(n_symbols * 4)  # one row of the table; checked again as the table grows
    closures: dict[int, frozenset[int]] = {}

    def closure(s: int) -> frozenset[int]:
        got = closures.get(s)
        if got is None:
            seen = {s}
            todo = [s]
            while todo:
                budget.tick()
                for t in nfa.eps[todo.pop()]:
                    if t not in seen:
                        seen.add(t)
                        todo.append(t)
            got = closures[s] = frozenset(seen)
        return got

    union_cache: dict[frozenset[int], frozenset[int]] = {}
    first = closure(start)
    ids = {first: 0}
    order = [first]
    rows: list[np.ndarray] = []
    k = 0
    while k < len(order):
        current = order[k]
        k += 1
        row = np.full(n_symbols, -1, dtype=np.int32)
        edges = [e for s in current for e in nfa.edges[s]]
        if edges:
            bounds = sorted({e[0] for e in edges} | {e[1] + 1 for e in edges})
            cells: list[set[int]] = [set() for _ in bounds]
            for lo, hi, dst in edges:
                for j in range(bisect_right(bounds, lo) - 1, bisect_right(bounds, hi + 1) - 1):
                    cells[j].add(dst)
            for j, cell in enumerate(cells):
                if not cell:
                    continue
                key = frozenset(cell)
                target = union_cache.get(key)
                if target is None:
                    target = union_cache[key] = frozenset().union(*(closure(t) for t in cell))
                tid = ids.get(target)
                if tid is None:
                    tid = ids[target] = len(order)
                    order.append(target)
                    budget.states(len(order))
                    budget.index_bytes(len(order) * n_symbols * 4)
                row[bounds[j] : bounds[j + 1]] = tid
        rows.append(row)
    table = np.stack(rows) if rows else np.full((1, n_symbols), -1, dtype=np.int32)
    accepting = np.array([bool(state & finals) for state in order], dtype=bool)
    return table, accepting


def column_classes(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (representatives, class_of_symbol): the distinct columns of a table, in first-seen order."""
    cols = np.ascontiguousarray(table.T)
    seen: dict[bytes, int] = {}
    class_of = np.fromiter((seen.setdefault(c.tobytes(), len(seen)) for c in cols), dtype=np.int64,
                           count=cols.shape[0])
    first = np.zeros(len(seen), dtype=np.int64)
    first[class_of[::-1]] = np.arange(cols.shape[0])[::-1]
    return first, class_of


def _reachable(rows: list[list[int]], start: int) -> np.ndarray:
    """Return a bool mask of the states reachable from start (rows: transition lists, -1 dead)."""
    seen = np.zeros(len(rows), dtype=bool)
    seen[start] = True
    todo = [start]
    while todo:
        for t in set(rows[todo.pop()]):
            if t >= 0 and not seen[t]:
                seen[t] = True
                todo.append(t)
    return seen


def hopcroft(table: np.ndarray, accepting: np.ndarray, budget: Budget | None = None) -> np.ndarray:
    """Return the class of each state of a complete DFA (no -1 entries) under Hopcroft's algorithm."""
    budget = budget if budget is not None else Budget()
    n = table.shape[0]
    # Symbols with identical columns are interchangeable: refine on one representative each.
    columns = table[:, column_classes(table)[0]].T
    preimages: list[tuple[list[int], list[int]]] = []  # per symbol: sources sorted by target, offsets
    for col in columns:
        order = np.argsort(col, kind="stable")
        offsets = np.concatenate([[0], np.cumsum(np.bincount(col, minlength=n))])
        preimages.append((order.tolist(), offsets.tolist()))
    block_of = [0] * n
    blocks: list[set[int]] = []
    acc = {int(s) for s in np.flatnonzero(accepting)}
    rej = set(range(n)) - acc
    for part in (acc, rej):
        if part:
            for s in part:
                block_of[s] = len(blocks)
            blocks.append(part)
    work = {min(range(len(blocks)), key=lambda b: len(blocks[b]))} if len(blocks) == 2 else set()
    while work:
        budget.tick()
        splitter = list(blocks[work.pop()])
        for sources, offsets in preimages:
            touched: dict[int, set[int]] = {}
            for t in splitter:
                for s in sources[offsets[t] : offsets[t + 1]]:
                    touched.setdefault(block_of[s], set()).add(s)
            for b, inside in touched.items():
                block = blocks[b]
                if len(inside) == len(block):
                    continue
                block -= inside
                nb = len(blocks)
                blocks.append(inside)
                for s in inside:
                    block_of[s] = nb
                if b in work or len(inside) <= len(block):
                    work.add(nb)
                else:
                    work.add(b)
    return np.array(block_of, dtype=np.int64)


def minimise(table: np.ndarray, accepting: np.ndarray, start: int = 0,
             budget: Budget | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return (table, accepting) of the minimal trimmed DFA; state 0 is the start, states in BFS order.

    Unreachable states are dropped, and so are states from which no accepting state can be
    reached (transitions to them become -1). If the language is empty, one dead start state remains.
    """
    # Work on one representative per group of identical columns, and expand at the end.
    representatives, symbol_class = column_classes(table)
    table = table[:, representatives]
    n_symbols = table.shape[1]
    live = _reachable(table.tolist(), start)
    keep = np.flatnonzero(live)
    remap = np.full(table.shape[0] + 1, -1, dtype=np.int64)
    remap[keep] = np.arange(keep.size)
    dead = keep.size
    remap[-1] = dead  # -1 entries index the last slot: the explicit dead state
    complete = np.vstack([remap[table[keep]], np.full((1, n_symbols), dead)])
    acc = np.append(accepting[keep], False)
    classes = hopcroft(complete, acc, budget)
    dead_class = classes[dead]
    # Renumber classes in BFS order from the start state, leaving out the dead class.
    class_table = np.empty((classes.max() + 1, n_symbols), dtype=np.int64)
    class_table[classes] = classes[complete]
    class_acc = np.zeros(classes.max() + 1, dtype=bool)
    class_acc[classes] = acc
    start_class = classes[remap[start]]
    numbering = {int(start_class): 0}
    queue = deque([int(start_class)])
    rows = class_table.tolist()
    while queue:
        c = queue.popleft()
        if c == dead_class:
            continue
        for t in sorted(set(rows[c])):
            if t != dead_class and t not in numbering:
                numbering[t] = len(numbering)
                queue.append(t)
    lookup = np.full(class_table.shape[0], -1, dtype=np.int32)
    for c, i in numbering.items():
        if c != dead_class:
            lookup[c] = i
    ordered = sorted(numbering, key=numbering.get)
    out = lookup[class_table[ordered]]
    out_acc = class_acc[ordered]
    if start_class == dead_class:
        out[:] = -1
    return np.ascontiguousarray(out[:, symbol_class], dtype=np.int32), out_acc


def nfa_to_dfa(nfa: NFA, start: int, finals: set[int]) -> DFA:
    """Return the minimal byte DFA of an NFA."""
    table, accepting = determinise(nfa, start, finals, N_BYTES)
    table, accepting = minimise(table, accepting, budget=nfa.budget)
    return DFA(table, accepting, 0)


def product(a: DFA, b: DFA, keep: Callable[[bool, bool], bool], budget: Budget | None = None) -> DFA:
    """Return the minimal DFA accepting where keep(a accepts, b accepts) (product construction).

    A missing edge leads to a dead state of its side; pairs whose dead side can no longer make
    `keep` true (for `and`: either side dead) are not explored at all.
    """
    budget = budget if budget is not None else Budget()
    prune_a = not (keep(False, False) or keep(False, True))  # once a is dead nothing is accepted
    prune_b = not (keep(False, False) or keep(True, False))
    da, db = a.n_states, b.n_states
    ta = np.vstack([a.transitions, np.full((1, N_BYTES), -1, dtype=np.int32)])
    tb = np.vstack([b.transitions, np.full((1, N_BYTES), -1, dtype=np.int32)])
    ta[ta < 0] = da
    tb[tb < 0] = db
    acc_a = np.append(a.accepting, False)
    acc_b = np.append(b.accepting, False)
    nb = db + 1
    ids = {a.start * nb + b.start: 0}
    order = [(a.start, b.start)]
    rows: list[np.ndarray] = []
    k = 0
    while k < len(order):
        x, y = order[k]
        k += 1
        live = np.ones(N_BYTES, dtype=bool)
        if prune_a:
            live &= ta[x] != da
        if prune_b:
            live &= tb[y] != db
        keys = ta[x].astype(np.int64) * nb + tb[y]
        row = np.full(N_BYTES, -1, dtype=np.int32)
        for key in np.unique(keys[live]).tolist():
            tid = ids.get(key)
            if tid is None:
                tid = ids[key] = len(order)
                order.append(divmod(key, nb))
                budget.states(len(order))
            row[live & (keys == key)] = tid
        rows.append(row)
    accepting = np.array([keep(bool(acc_a[x]), bool(acc_b[y])) for x, y in order])
    table, accepting = minimise(np.stack(rows), accepting, budget=budget)
    return DFA(table, accepting, 0)


def intersect(a: DFA, b: DFA, budget: Budget | None = None) -> DFA:
    """Return the minimal DFA accepting the strings both a and b accept."""
    return product(a, b, lambda x, y: x and y, budget)
