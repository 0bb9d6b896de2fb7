"""Compile a parsed GBNF grammar into immutable byte automata: one DFA per recursive rule, calls as edges.

Each rule body becomes a byte DFA whose edges are either bytes or calls of another rule ("nonterminal
edges"). Rules that are not recursive are inlined into their callers, so a grammar without recursion
(like grammars/config.gbnf) is one plain DFA and only truly context-free rules (like `expr` in
grammars/parens.gbnf) keep a stack frame. All rule states are numbered globally as *nodes*.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from tutor.engine.cfg.gbnf import Alt, GrammarSource, Literal, Node, Pattern, Ref, Repeat, Rule, Seq, parse_gbnf
from tutor.engine.dfa import minimise
from tutor.engine.limits import Budget, LimitExceeded, Limits
from tutor.engine.matcher import GrammarError
from tutor.engine.sources import grammar_text


@dataclass(frozen=True, eq=False)
class Grammar:
    """A compiled context-free grammar over bytes (immutable).

    Node n belongs to rule `node_rule[n]`. `trans[n, b]` is the node after byte b within the same rule
    (-1: none); `calls[n]` lists (callee start node, return node) pairs; `final[n]` marks nodes where
    the rule may end. The grammar starts at `start_node` with an empty stack.
    """

    source: str
    sha256: str
    rule_names: tuple[str, ...]
    node_rule: np.ndarray
    trans: np.ndarray
    calls: tuple[tuple[tuple[int, int], ...], ...]
    final: np.ndarray
    start_node: int
    start_is_called: bool

    @property
    def n_nodes(self) -> int:
        """Return the number of nodes (rule states) in the grammar."""
        return len(self.final)


# --- analysis of the rule tree ---------------------------------------------------------------------


def _refs(node: Node) -> list[Ref]:
    if isinstance(node, Ref):
        return [node]
    if isinstance(node, Seq | Alt):
        children = node.items if isinstance(node, Seq) else node.options
        return [r for child in children for r in _refs(child)]
    if isinstance(node, Repeat):
        return _refs(node.item)
    return []


def _fixpoint(rules: dict[str, Rule], leaf: Callable[[Node, dict[str, bool]], bool],
              budget: Budget | None = None) -> dict[str, bool]:
    """Least fixpoint of a boolean property (productive, nullable) over mutually recursive rules.

    A worklist: every rule is judged once, then again only when a rule it calls has just become true,
    so a chain of n rules costs O(n), not n passes over all n rules.
    """

    def holds(node: Node, env: dict[str, bool]) -> bool:
        if isinstance(node, Ref):
            return env[node.name]
        if isinstance(node, Seq):
            return all(holds(i, env) for i in node.items)
        if isinstance(node, Alt):
            return any(holds(o, env) for o in node.options)
        if isinstance(node, Repeat):
            return node.lo == 0 or holds(node.item, env)
        return leaf(node, env)

    callers: dict[str, set[str]] = {name: set() for name in rules}
    for name, rule in rules.items():
        for ref in _refs(rule.body):
            if ref.name in callers:
                callers[ref.name].add(name)
    env = dict.fromkeys(rules, False)
    todo = list(reversed(rules))
    queued = set(todo)
    while todo:
        name = todo.pop()
        queued.discard(name)
        if budget is not None:
            budget.tick()
        if env[name] or not holds(rules[name].body, env):
            continue
        env[name] = True
        for caller in callers[name]:
            if not env[caller] and caller not in queued:
                queued.add(caller)
                todo.append(caller)
    return env


def _first_refs(node: Node, nullable: Callable[[Node], bool]) -> set[str]:
    """Rule names that can be called before any byte of `node` is read (its left corner)."""
    if isinstance(node, Ref):
        return {node.name}
    if isinstance(node, Alt):
        return set().union(*(_first_refs(o, nullable) for o in node.options))
    if isinstance(node, Repeat):
        return _first_refs(node.item, nullable) if node.hi != 0 else set()
    if isinstance(node, Seq):
        out: set[str] = set()
        for item in node.items:
            out |= _first_refs(item, nullable)
            if not nullable(item):
                break
        return out
    return set()


def _find_cycle(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """Return a path start → … → start in graph, or None."""
    stack, seen = [(start, [start])], set()
    while stack:
        name, path = stack.pop()
        for nxt in sorted(graph.get(name, ())):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def _on_cycles(graph: dict[str, set[str]], budget: Budget | None = None) -> set[str]:
    """Return the names that lie on a cycle of `graph` (Tarjan's strongly connected components, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: set[str] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            if budget is not None:
                budget.tick()
            name, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[name] = min(low[name], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[name])
            if low[name] == index[name]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == name:
                        break
                if len(component) > 1 or name in graph.get(name, ()):
                    out.update(component)
    return out


# --- NFA construction ------------------------------------------------------------------------------


class _NFA:
    """A Thompson NFA over bytes with epsilon edges and rule-call edges."""

    def __init__(self, budget: Budget) -> None:
        self.eps: list[list[int]] = []
        self.byte_edges: list[list[tuple[tuple[int, ...], int]]] = []
        self.calls: list[list[tuple[int, int]]] = []
        self.budget = budget

    def state(self) -> int:
        self.budget.nfa_states(len(self.eps) + 1)
        self.eps.append([])
        self.byte_edges.append([])
        self.calls.append([])
        return len(self.eps) - 1

    def splice(self, rows: np.ndarray, calls: tuple[tuple[tuple[int, int], ...], ...], final: np.ndarray,
               start: int) -> tuple[int, int]:
        """Copy a DFA (byte rows, call edges, final flags) in as a fragment; return (entry, exit)."""
        ids = [self.state() for _ in range(len(final))]
        end = self.state()
        for s, row in enumerate(rows):
            targets, inverse = np.unique(row, return_inverse=True)
            for k, t in enumerate(targets):
                if t >= 0:
                    byte_set = tuple(np.flatnonzero(inverse == k).tolist())
                    self.byte_edges[ids[s]].append((byte_set, ids[int(t)]))
            for rule, t in calls[s]:
                self.calls[ids[s]].append((rule, ids[t]))
            if final[s]:
                self.eps[ids[s]].append(end)
        return ids[start], end


@dataclass(frozen=True)
class _RuleDFA:
    rows: np.ndarray  # int32[n, 256]
    calls: tuple[tuple[tuple[int, int], ...], ...]  # per state: (callee rule index, target state)
    final: np.ndarray  # bool[n]


def _determinize(nfa: _NFA, start: int, end: int) -> _RuleDFA:
    budget = nfa.budget

    def closure(states: set[int]) -> frozenset[int]:
        todo, seen = list(states), set(states)
        while todo:
            budget.tick()
            for t in nfa.eps[todo.pop()]:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        return frozenset(seen)

    first = closure({start})
    index = {first: 0}
    order = [first]
    rows: list[list[int]] = []
    calls: list[tuple[tuple[int, int], ...]] = []
    i = 0
    while i < len(order):
        subset = order[i]
        i += 1
        by_byte: dict[int, set[int]] = {}
        by_rule: dict[int, set[int]] = {}
        for s in subset:
            for byte_set, t in nfa.byte_edges[s]:
                for b in byte_set:
                    by_byte.setdefault(b, set()).add(t)
            for rule, t in nfa.calls[s]:
                by_rule.setdefault(rule, set()).add(t)
        row = [-1] * 256
        memo: dict[frozenset[int], int] = {}
        for b, targets in by_byte.items():
            key = frozenset(targets)
            if key not in memo:
                memo[key] = _intern(closure(targets), index, order)
                budget.states(len(order))
            row[b] = memo[key]
        rows.append(row)
        calls.append(tuple(sorted((r, _intern(closure(ts), index, order)) for r, ts in by_rule.items())))
    final = np.array([end in subset for subset in order], dtype=bool)
    return _minimize(np.array(rows, dtype=np.int32).reshape(-1, 256), tuple(calls), final, budget)


def _intern(subset: frozenset[int], index: dict[frozenset[int], int], order: list[frozenset[int]]) -> int:
    if subset not in index:
        index[subset] = len(order)
        order.append(subset)
    return index[subset]


_Calls = tuple[tuple[tuple[int, int], ...], ...]


def _minimize(rows: np.ndarray, calls: _Calls, final: np.ndarray, budget: Budget) -> _RuleDFA:
    """Trim states that cannot finish, then merge equivalent states; start stays 0.

    Each callee becomes one extra symbol column (a determinised state calls a rule with one target),
    so the engine's Hopcroft minimisation does the work in O(n log n).
    """
    callees = sorted({r for cs in calls for r, _ in cs})
    column = {r: 256 + k for k, r in enumerate(callees)}
    table = np.full((rows.shape[0], 256 + len(callees)), -1, dtype=np.int32)
    table[:, :256] = rows
    for s, cs in enumerate(calls):
        for r, t in cs:
            table[s, column[r]] = t
    out, out_final = minimise(table, final, budget=budget)
    out_calls = tuple(
        tuple((r, int(out[s, column[r]])) for r in callees if out[s, column[r]] >= 0) for s in range(out.shape[0])
    )
    return _RuleDFA(np.ascontiguousarray(out[:, :256]), out_calls, out_final)


# --- the compiler ----------------------------------------------------------------------------------


@cache
def _pattern_dfa(regex: str, limits: Limits | None) -> tuple[np.ndarray, np.ndarray, int]:
    from tutor.engine.regex import regex_to_dfa  # the project's regex compiler (byte-level, UTF-8 aware)

    dfa = regex_to_dfa(regex, limits)
    return np.asarray(dfa.transitions, dtype=np.int32), np.asarray(dfa.accepting, dtype=bool), int(dfa.start)


class _Compiler:
    def __init__(self, src: GrammarSource, budget: Budget) -> None:
        self.src = src
        self.budget = budget
        self.rules = {r.name: r for r in src.rules}
        self._check_references()
        self.reachable = self._reachable(src.start)
        self.rules = {name: self.rules[name] for name in self.rules if name in self.reachable}
        self.productive = _fixpoint(self.rules, lambda node, env: True, budget)
        for name, ok in self.productive.items():
            if not ok:
                rule = self.rules[name]
                raise GrammarError(
                    f"{rule.pos}: the rule {name!r} can never finish: every alternative calls a rule that"
                    " never finishes; add an alternative without that call (a base case)"
                )
        self.nullable_rule = _fixpoint(self.rules, self._leaf_nullable, budget)
        self._check_left_recursion()
        graph = {name: {r.name for r in _refs(rule.body)} for name, rule in self.rules.items()}
        self.recursive = _on_cycles(graph, budget)
        self.called = {r.name for rule in self.rules.values() for r in _refs(rule.body)}
        self.frames = [src.start, *sorted(self.recursive - {src.start})]
        self.frame_index = {name: i for i, name in enumerate(self.frames)}
        self.dfas: dict[str, _RuleDFA] = {}

    def _check_references(self) -> None:
        for rule in self.src.rules:
            for ref in _refs(rule.body):
                if ref.name not in self.rules:
                    raise GrammarError(f"{ref.pos}: the rule {ref.name!r} is used but never defined")

    def _reachable(self, start: str) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for ref in _refs(self.rules[todo.pop()].body):
                if ref.name not in seen:
                    seen.add(ref.name)
                    todo.append(ref.name)
        return seen

    def _leaf_nullable(self, node: Node, env: dict[str, bool]) -> bool:
        if isinstance(node, Literal):
            return not node.data
        assert isinstance(node, Pattern)
        _, accepting, start = self._pattern(node)
        return bool(accepting[start])

    def _nullable(self, node: Node) -> bool:
        if isinstance(node, Ref):
            return self.nullable_rule[node.name]
        if isinstance(node, Seq):
            return all(self._nullable(i) for i in node.items)
        if isinstance(node, Alt):
            return any(self._nullable(o) for o in node.options)
        if isinstance(node, Repeat):
            return node.lo == 0 or self._nullable(node.item)
        return self._leaf_nullable(node, self.nullable_rule)

    def _check_left_recursion(self) -> None:
        corner = {name: _first_refs(rule.body, self._nullable) for name, rule in self.rules.items()}
        cyclic = _on_cycles(corner, self.budget)
        for rule in self.src.rules:
            if rule.name in cyclic and (path := _find_cycle(corner, rule.name)):
                raise GrammarError(
                    f"{rule.pos}: the rule {rule.name!r} is left-recursive ({' → '.join(path)}), which this"
                    " parser does not support; rewrite it with repetition, e.g. list ::= item (\",\" item)*"
                )

    def _pattern(self, node: Pattern) -> tuple[np.ndarray, np.ndarray, int]:
        try:
            return _pattern_dfa(node.regex, self.budget.limits)
        except LimitExceeded as exc:
            raise LimitExceeded(f"{node.pos}: in the terminal {node.regex!r}: {exc}") from None
        except GrammarError as exc:
            raise GrammarError(f"{node.pos}: in the terminal {node.regex!r}: {exc}") from None

    def fragment(self, nfa: _NFA, node: Node) -> tuple[int, int]:
        if isinstance(node, Literal):
            start = cur = nfa.state()
            for b in node.data:
                nxt = nfa.state()
                nfa.byte_edges[cur].append(((b,), nxt))
                cur = nxt
            return start, cur
        if isinstance(node, Pattern):
            rows, accepting, start = self._pattern(node)
            return nfa.splice(rows, ((),) * len(rows), accepting, start)
        if isinstance(node, Ref):
            if node.name in self.recursive:
                s, e = nfa.state(), nfa.state()
                nfa.calls[s].append((self.frame_index[node.name], e))
                return s, e
            dfa = self.rule_dfa(node.name)
            return nfa.splice(dfa.rows, dfa.calls, dfa.final, 0)
        if isinstance(node, Seq):
            start = cur = nfa.state()
            for item in node.items:
                s, e = self.fragment(nfa, item)
                nfa.eps[cur].append(s)
                cur = e
            return start, cur
        if isinstance(node, Alt):
            start, end = nfa.state(), nfa.state()
            for option in node.options:
                s, e = self.fragment(nfa, option)
                nfa.eps[start].append(s)
                nfa.eps[e].append(end)
            return start, end
        assert isinstance(node, Repeat)
        start = cur = nfa.state()
        for _ in range(node.lo):
            s, e = self.fragment(nfa, node.item)
            nfa.eps[cur].append(s)
            cur = e
        end = nfa.state()
        if node.hi is None:
            s, e = self.fragment(nfa, node.item)
            nfa.eps[cur].extend((s, end))
            nfa.eps[e].append(cur)
        else:
            for _ in range(node.hi - node.lo):
                s, e = self.fragment(nfa, node.item)
                nfa.eps[cur].extend((s, end))
                cur = e
            nfa.eps[cur].append(end)
        return start, end

    def rule_dfa(self, name: str) -> _RuleDFA:
        if name not in self.dfas:
            rule = self.rules[name]
            with self.budget.at(f"{rule.pos}: the rule {name!r}"):
                nfa = _NFA(self.budget)
                start, end = self.fragment(nfa, rule.body)
                self.dfas[name] = _determinize(nfa, start, end)
        return self.dfas[name]

    def _inline_order(self) -> list[str]:
        """Return the inlined (non-recursive) rules, callees before callers, found without recursion.

        Building them in this order means fragment() finds every inlined callee already compiled,
        so a chain of 500 rules never nests 500 Python calls deep.
        """
        order: list[str] = []
        done: set[str] = set()
        for root in self.rules:
            if root in done:
                continue
            stack = [(root, iter({r.name for r in _refs(self.rules[root].body)} - self.recursive))]
            done.add(root)
            while stack:
                name, children = stack[-1]
                child = next(children, None)
                if child is None:
                    stack.pop()
                    if name not in self.recursive:
                        order.append(name)
                elif child not in done:
                    done.add(child)
                    stack.append((child, iter({r.name for r in _refs(self.rules[child].body)} - self.recursive)))
        return order

    def compile(self, text_sha256: str) -> Grammar:
        for name in self._inline_order():
            self.rule_dfa(name)
        dfas = [self.rule_dfa(name) for name in self.frames]
        self.budget.states(sum(len(d.final) for d in dfas))
        offsets = np.cumsum([0] + [len(d.final) for d in dfas])
        trans = np.concatenate(
            [np.where(d.rows >= 0, d.rows + offsets[i], -1) for i, d in enumerate(dfas)]
        ).astype(np.int32)
        calls: list[tuple[tuple[int, int], ...]] = []
        for i, d in enumerate(dfas):
            for cs in d.calls:
                calls.append(tuple((int(offsets[r]), int(offsets[i] + t)) for r, t in cs))
        return Grammar(
            source=self.src.source,
            sha256=text_sha256,
            rule_names=tuple(self.frames),
            node_rule=np.repeat(np.arange(len(dfas)), [len(d.final) for d in dfas]).astype(np.int32),
            trans=trans,
            calls=tuple(calls),
            final=np.concatenate([d.final for d in dfas]),
            start_node=0,
            start_is_called=self.src.start in self.called,
        )


def compile_grammar(text: str, source: str = "<grammar>", limits: Limits | None = None, *,
                    budget: Budget | None = None) -> Grammar:
    """Return the compiled grammar of a GBNF text; raise GrammarError naming what cannot be compiled.

    A grammar that would pass `limits` (states, seconds, nesting) raises LimitExceeded naming the rule.
    A `budget` already running (the caller's whole compilation) is charged instead of a new one.
    """
    budget = budget if budget is not None else Budget(limits, subject=f"the grammar {source}")
    parsed = parse_gbnf(grammar_text(text, "GBNF grammar"), source, budget.limits, budget=budget)
    return _Compiler(parsed, budget).compile(hashlib.sha256(text.encode("utf-8")).hexdigest())


def load_grammar(path: str | Path, limits: Limits | None = None) -> Grammar:
    """Return the compiled grammar of a .gbnf file."""
    path = Path(path)
    return compile_grammar(path.read_text(encoding="utf-8"), path.name, limits)
