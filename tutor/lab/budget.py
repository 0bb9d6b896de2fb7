"""Finishing within the token budget: a matcher wrapper that keeps every sample able to end in time.

A mask guarantees that the output stays a prefix of the language, not that it ends: a small model at
temperature 1.0 can keep choosing letters inside `key ::= /[a-z_]+/`, and the decoder stops it at its
token budget with an incomplete output. BudgetedMatcher shadows the matcher with a *completion
oracle* that knows, for every state, the fewest bytes that finish a sentence (d). While the tokens
left (r) are comfortably more than d, it changes nothing. Near the end it keeps only tokens after
which the rest still fits (d after the token + 1 ≤ r − 1; one token for end-of-generation), so the
sample always ends, and the language is unchanged: every output is still a sentence of the grammar.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Protocol

import numpy as np

from tutor.engine.dfa import DFA
from tutor.engine.matcher import AllowedSet, Matcher

SLACK = 32  # act when the tokens left are within this many of the bytes still needed
CACHED_STATES = 512  # states whose per-token distances are kept (each is one int32 per token)


class Completion(Protocol):
    """A view of a grammar that knows how far each state is from the end."""

    start: int
    after_cache: dict[int, np.ndarray]  # per state: each token's distance to the end after it

    def walk(self, state: int, data: bytes) -> int:
        """Return the state after `data` (-1 if it does not fit)."""
        ...

    def step(self, state: int, byte: int) -> int:
        """Return the state after one byte (-1 if it does not fit)."""
        ...

    def distance(self, state: int) -> int:
        """Return the fewest bytes that complete a sentence from `state`."""
        ...

    def shortest_completion(self, state: int) -> bytes:
        """Return one shortest completion from `state`."""
        ...


class DFACompletion:
    """Completion distances of a byte DFA (breadth-first search backwards from the accepting states)."""

    def __init__(self, dfa: DFA) -> None:
        self.table = np.asarray(dfa.transitions)
        self.start = int(dfa.start)
        n = self.table.shape[0]
        dist = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        preds: list[list[int]] = [[] for _ in range(n)]
        for s, t in zip(*np.nonzero(self.table >= 0), strict=True):
            preds[int(self.table[s, t])].append(int(s))
        todo = deque(int(s) for s in np.flatnonzero(dfa.accepting))
        dist[list(todo)] = 0
        while todo:
            t = todo.popleft()
            for s in preds[t]:
                if dist[s] > dist[t] + 1:
                    dist[s] = dist[t] + 1
                    todo.append(s)
        self.dist = dist
        self.dfa = dfa
        self.after_cache: dict[int, np.ndarray] = {}
        self._rows: dict[int, list[int]] = {}

    def walk(self, state: int, data: bytes) -> int:
        """Return the state after `data` (-1 if it does not fit)."""
        return self.dfa.step(state, data)

    def step(self, state: int, byte: int) -> int:
        """Return the state after one byte (-1 if it does not fit)."""
        row = self._rows.get(state)
        if row is None:
            row = self._rows[state] = self.table[state].tolist()
        return row[byte]

    def distance(self, state: int) -> int:
        """Return the fewest bytes that complete a sentence from `state`."""
        return int(self.dist[state])

    def shortest_completion(self, state: int) -> bytes:
        """Return one shortest completion from `state`."""
        out = bytearray()
        while self.dist[state] > 0:
            row = self.table[state]
            ok = np.flatnonzero((row >= 0) & (self.dist[np.maximum(row, 0)] == self.dist[state] - 1))
            out.append(int(ok[0]))
            state = int(row[ok[0]])
        return bytes(out)


class CFGCompletion:
    """Completion distances of a CFG's pushdown parser."""

    def __init__(self, parser: Any) -> None:
        self.parser = parser
        self.start = parser.start
        self.after_cache: dict[int, np.ndarray] = {}

    def walk(self, state: int, data: bytes) -> int:
        """Return the state after `data` (-1 if it does not fit)."""
        return self.parser.walk(state, data)

    def step(self, state: int, byte: int) -> int:
        """Return the state after one byte (-1 if it does not fit)."""
        return self.parser.step(state, byte)

    def distance(self, state: int) -> int:
        """Return the fewest bytes that complete a sentence from `state`."""
        return self.parser.distance(state)

    def shortest_completion(self, state: int) -> bytes:
        """Return one shortest completion from `state`."""
        return self.parser.shortest_completion(state)


def completion_for(family: Any) -> Completion:
    """Return the completion oracle of a loaded family (tutor.lab.families.Family)."""
    if family.kind == "cfg":
        return CFGCompletion(family.compiled.parser)
    return DFACompletion(family.compiled.dfa)


class BudgetedMatcher:
    """A Matcher that also guarantees the sentence can end within `max_tokens` tokens."""

    def __init__(self, inner: Matcher, completion: Completion, vocab: Any, max_tokens: int) -> None:
        from tutor.engine.trie import token_trie

        self.inner = inner
        self.completion = completion
        self.pieces = vocab.pieces
        self.n_vocab = len(vocab.pieces)
        self.eog = np.array(sorted(vocab.eog_ids), dtype=np.int32)
        self.eog_set = frozenset(vocab.eog_ids)
        self.trie = token_trie(vocab)
        self.max_tokens = max_tokens
        self.interventions = 0
        self.reset()

    def reset(self) -> None:
        """Return to the start state."""
        self.inner.reset()
        self.used = 0
        self.state = self.completion.start
        self.history: list[tuple[int, int]] = []

    def allowed(self) -> AllowedSet:
        """Return the inner allowed set, narrowed near the end of the budget to tokens that still fit."""
        left = self.max_tokens - self.used
        d = self.completion.distance(self.state)
        base = self.inner.allowed()
        if left - 2 >= d + SLACK:
            return base
        ids = np.setdiff1d(np.arange(self.n_vocab, dtype=np.int32), base.ids) if base.banned else base.ids
        after = self._distances_after(self.state)
        keep = ids[(after[ids] >= 0) & (after[ids] + 2 <= left)]
        if not len(keep):  # cannot happen while left > d; kept as a safe way out
            keep = self._along_shortest()
        if self.inner.is_accepting():
            keep = np.union1d(keep, self.eog)
        if len(keep) < len(ids):
            self.interventions += 1
        return AllowedSet(np.asarray(keep, dtype=np.int32), banned=False)

    def _distances_after(self, state: int) -> np.ndarray:
        """Return, per token, the distance to the end after it (-1: the token does not fit), by a trie walk."""
        cache = self.completion.after_cache
        hit = cache.get(state)
        if hit is not None:
            return hit
        c, trie = self.completion, self.trie
        after = np.full(self.n_vocab, -1, dtype=np.int64)
        dist: dict[int, int] = {}
        todo = [(0, state)]
        while todo:
            node, s = todo.pop()
            child = trie.first_child[node]
            while child >= 0:
                nxt = c.step(s, trie.label[child])
                if nxt >= 0:
                    if trie.tokens_at[child]:
                        d = dist.get(nxt)
                        if d is None:
                            d = dist[nxt] = c.distance(nxt)
                        after[list(trie.tokens_at[child])] = d
                    todo.append((child, nxt))
                child = trie.next_sibling[child]
        if len(cache) < CACHED_STATES:
            cache[state] = after
        return after

    def _along_shortest(self) -> np.ndarray:
        """Return the tokens whose piece is a prefix of a shortest completion (each shortens the rest)."""
        target = self.completion.shortest_completion(self.state)
        trie, node, out = self.trie, 0, []
        for b in target:
            child = trie.first_child[node]
            while child >= 0 and trie.label[child] != b:
                child = trie.next_sibling[child]
            if child < 0:
                break
            node = child
            out.extend(trie.tokens_at[node])
        return np.array(sorted(out), dtype=np.int32)

    def advance(self, token_id: int) -> None:
        """Consume one token."""
        self.inner.advance(token_id)
        self.history.append((self.used, self.state))
        self.used += 1
        if token_id not in self.eog_set:
            self.state = self.completion.walk(self.state, self.pieces[token_id])

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes (counted as one token per byte: an upper bound on the tokens they take)."""
        self.inner.advance_bytes(data)
        self.history.append((self.used, self.state))
        self.used += len(data)
        self.state = self.completion.walk(self.state, data)

    def is_accepting(self) -> bool:
        """Return True when the inner matcher accepts."""
        return self.inner.is_accepting()

    def is_finished(self) -> bool:
        """Return True when the inner matcher is finished."""
        return self.inner.is_finished()

    def forced_bytes(self) -> bytes:
        """Return the inner matcher's forced continuation."""
        return self.inner.forced_bytes()

    def forced_completes(self) -> bool:
        """Return True when the inner matcher's forced continuation ends the output."""
        return self.inner.forced_completes()

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` advances (the token count and the completion state too)."""
        if not 0 <= steps <= len(self.history):
            raise ValueError(f"cannot roll back {steps} steps: {len(self.history)} were taken since the start")
        if steps:
            self.inner.rollback(steps)
            self.used, self.state = self.history[-steps]
            del self.history[-steps:]
