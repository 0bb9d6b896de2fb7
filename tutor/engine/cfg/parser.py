"""The incremental pushdown parser over bytes, built lazily into a DFA over parser states.

A *stack* is a chain of grammar nodes (top first): the top is where the next byte is read, the nodes
below are the return points of the rules called so far. Stacks are hash-consed, so a stack is an int.
A parser *state* is the set of stacks the input read so far may have left (the grammar may be
ambiguous), each expanded until its top can read a byte; states are hash-consed too. Stepping a state
by a byte is memoised, so a parser that has seen a state before moves on with one dict lookup: the
same structure as a DFA, discovered on demand (a pushdown language has infinitely many states, a
given workload only a few).

Two marker stacks end a stack set: ACCEPT (the start rule finished: the input may end here) and
UNKNOWN (a rule finished whose caller is not known; used to classify tokens per node, see tokens.py).
"""

from __future__ import annotations

from tutor.engine.cfg.grammar import Grammar

ACCEPT = 0
UNKNOWN = 1
DEAD = -1
MAX_EXPANSION = 100_000  # stacks visited while expanding one state: a guard, never hit by a checked grammar


class PushdownParser:
    """The lazily built state machine of one grammar; shared by every matcher on that grammar."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self._trans = grammar.trans.tolist()  # rows of Python ints: faster to index than numpy here
        self.has_bytes = [any(t >= 0 for t in row) for row in self._trans]
        self._calls = grammar.calls
        self._final = grammar.final.tolist()
        # stacks: id -> (top node, parent id, depth); markers have top -1
        self.stack_top: list[int] = [-1, -1]
        self.stack_parent: list[int] = [-1, -1]
        self.stack_depth: list[int] = [0, 0]
        self._stack_ids: dict[tuple[int, int], int] = {}
        # states: id -> tuple of stack ids
        self.state_stacks: list[tuple[int, ...]] = []
        self.state_accepts: list[bool] = []
        self.state_pops: list[bool] = []
        self.state_depth: list[int] = []
        self._state_ids: dict[frozenset[int], int] = {}
        self.step_memo: dict[int, int] = {}
        self._expanded: dict[int, int] = {}
        self.start = self.expand_stack(self.push(grammar.start_node, ACCEPT))

    # --- stacks and states ---------------------------------------------------------------------

    def push(self, node: int, parent: int) -> int:
        """Return the id of the stack with `node` on top of stack `parent`."""
        key = (node, parent)
        sid = self._stack_ids.get(key)
        if sid is None:
            sid = len(self.stack_top)
            self._stack_ids[key] = sid
            self.stack_top.append(node)
            self.stack_parent.append(parent)
            self.stack_depth.append(self.stack_depth[parent] + 1)
        return sid

    def _state(self, stacks: set[int]) -> int:
        if not stacks:
            return DEAD
        key = frozenset(stacks)
        sid = self._state_ids.get(key)
        if sid is None:
            sid = len(self.state_stacks)
            self._state_ids[key] = sid
            self.state_stacks.append(tuple(sorted(key)))
            self.state_accepts.append(ACCEPT in key)
            self.state_pops.append(UNKNOWN in key)
            self.state_depth.append(max(self.stack_depth[s] for s in key))
        return sid

    def _expand(self, stack: int, out: set[int]) -> None:
        """Add to `out` every stack reachable from `stack` without reading a byte (calls and returns)."""
        trans_ok, calls, final = self.has_bytes, self._calls, self._final
        top_of, parent_of = self.stack_top, self.stack_parent
        todo, seen = [stack], {stack}
        while todo:
            s = todo.pop()
            node = top_of[s]
            if node < 0:
                out.add(s)
                continue
            parent = parent_of[s]
            if trans_ok[node]:
                out.add(s)
            nxt = [self.push(callee, self.push(ret, parent)) for callee, ret in calls[node]]
            if final[node]:
                nxt.append(parent)
            for t in nxt:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
            if len(seen) > MAX_EXPANSION:
                raise RuntimeError(f"grammar {self.grammar.source}: runaway expansion (left recursion?)")

    def expand_stack(self, stack: int) -> int:
        """Return the state of a single stack, expanded until every top can read a byte."""
        sid = self._expanded.get(stack)
        if sid is None:
            out: set[int] = set()
            self._expand(stack, out)
            sid = self._expanded[stack] = self._state(out)
        return sid

    def unexpanded_state(self, stack: int) -> int:
        """Return a state holding exactly `stack` (its top must read a byte): the start of a token check."""
        return self._state({stack})

    # --- stepping ------------------------------------------------------------------------------

    def step(self, state: int, byte: int) -> int:
        """Return the state after reading `byte` in `state`, or DEAD."""
        key = state * 256 + byte
        nxt = self.step_memo.get(key)
        if nxt is None:
            out: set[int] = set()
            trans, top_of, parent_of = self._trans, self.stack_top, self.stack_parent
            for s in self.state_stacks[state]:
                node = top_of[s]
                if node >= 0 and (t := trans[node][byte]) >= 0:
                    self._expand(self.push(t, parent_of[s]), out)
            nxt = self.step_memo[key] = self._state(out)
        return nxt

    def walk(self, state: int, data: bytes) -> int:
        """Return the state after reading all of `data`, or DEAD."""
        step = self.step_memo
        for b in data:
            nxt = step.get(state * 256 + b)
            state = self.step(state, b) if nxt is None else nxt
            if state < 0:
                return DEAD
        return state

    def next_bytes(self, state: int) -> list[int]:
        """Return the bytes that can be read in `state`, ascending."""
        allowed: set[int] = set()
        for s in self.state_stacks[state]:
            node = self.stack_top[s]
            if node >= 0:
                allowed.update(b for b, t in enumerate(self._trans[node]) if t >= 0)
        return sorted(allowed)

    def accepts(self, data: bytes) -> bool:
        """Return True when `data` is a complete sentence of the grammar."""
        state = self.walk(self.start, data)
        return state >= 0 and self.state_accepts[state]

    def is_prefix(self, data: bytes) -> bool:
        """Return True when `data` can be extended into a sentence of the grammar."""
        return self.walk(self.start, data) >= 0

    # --- distances to the end (for finishing within a budget) -----------------------------------

    def _node_distance(self) -> list[float]:
        """Per node, the fewest bytes that finish its rule (calls cost their callee's shortest sentence)."""
        dist = getattr(self, "_node_dist", None)
        if dist is None:
            inf = float("inf")
            dist = [0.0 if f else inf for f in self._final]
            changed = True
            while changed:
                changed = False
                for n, row in enumerate(self._trans):
                    best = dist[n]
                    for t in set(row):
                        if t >= 0 and dist[t] + 1 < best:
                            best = dist[t] + 1
                    for callee, ret in self._calls[n]:
                        if dist[callee] + dist[ret] < best:
                            best = dist[callee] + dist[ret]
                    if best < dist[n]:
                        dist[n] = best
                        changed = True
            self._node_dist = dist
            self._stack_dist: dict[int, float] = {ACCEPT: 0.0, UNKNOWN: 0.0}
        return dist

    def _stack_distance(self, stack: int) -> float:
        node_dist = self._node_distance()
        memo = self._stack_dist
        chain = []
        s = stack
        while s not in memo:
            chain.append(s)
            s = self.stack_parent[s]
        total = memo[s]
        for s in reversed(chain):
            total += node_dist[self.stack_top[s]]
            memo[s] = total
        return memo[stack]

    def distance(self, state: int) -> int:
        """Return the fewest bytes that complete a sentence from `state` (0 when it accepts)."""
        return int(min(self._stack_distance(s) for s in self.state_stacks[state]))

    def shortest_completion(self, state: int) -> bytes:
        """Return a shortest byte string that completes a sentence from `state`."""
        out = bytearray()
        d = self.distance(state)
        while d > 0:
            for b in self.next_bytes(state):
                nxt = self.step(state, b)
                if self.distance(nxt) == d - 1:
                    out.append(b)
                    state, d = nxt, d - 1
                    break
            else:  # unreachable for a checked grammar: every state has a shortest way out
                raise RuntimeError(f"no shortest completion from parser state {state}")
        return bytes(out)
