"""A grammar compiled against a vocabulary, and CFGMatcher: the Matcher protocol for context-free grammars.

The allowed set of a parser state is the union, over the state's stacks, of the precomputed
context-independent tokens of each top node plus those of its uncertain tokens that the stack below
accepts. It is computed once per parser state and cached, so a matcher that meets a state again pays
one dict lookup. The cache keeps states up to `cache_depth` frames deep and at most `cache_states` of
them; deeper or later states are computed each time (still exact), which bounds memory on inputs such
as a thousand nested parentheses.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from tutor.engine.cfg.grammar import Grammar, compile_grammar
from tutor.engine.cfg.parser import ACCEPT, DEAD, PushdownParser
from tutor.engine.cfg.tokens import NodeTokens, classify_node
from tutor.engine.limits import Budget, Limits
from tutor.engine.matcher import AllowedSet, TokenRejected
from tutor.engine.trie import token_trie
from tutor.engine.vocab import Vocabulary

MAX_FORCED = 256  # a forced continuation longer than this is handed out in pieces


class CompiledCFG:
    """A grammar bound to a vocabulary: the parser, the token classes per node and the mask cache.

    The grammar and vocabulary are immutable; the rest are caches filled on demand and shared by
    every matcher made from this object (not thread-safe: use one per thread).
    """

    def __init__(self, grammar: Grammar, vocab: Vocabulary, *, cache_depth: int = 64, cache_states: int = 4096,
                 precompute: bool = True, limits: Limits | None = None, budget: Budget | None = None) -> None:
        t0 = time.perf_counter()
        # One budget for the whole compilation: given one (from compile_grammar), its clock keeps running.
        budget = budget if budget is not None else Budget(limits, subject=f"the grammar {grammar.source}")
        budget.states(grammar.n_nodes)
        self.grammar = grammar
        self.vocab = vocab
        self.pieces: tuple[bytes, ...] = tuple(vocab.pieces)
        self.n_vocab = len(self.pieces)
        self.special = frozenset(vocab.special_ids) | frozenset(vocab.eog_ids)
        self.eog = np.array(sorted(vocab.eog_ids), dtype=np.int32)
        self.eog_set = frozenset(vocab.eog_ids)
        self.parser = PushdownParser(grammar)
        self.trie = token_trie(vocab)
        self.cache_depth = cache_depth
        self.cache_states = cache_states
        self._node_tokens: dict[int, NodeTokens] = {}
        self._allowed: dict[int, AllowedSet] = {}
        self._next: dict[int, int] = {}
        self._forced: dict[int, bytes] = {}
        called = self._called_frames()
        self._track = [int(r) in called for r in grammar.node_rule.tolist()]
        self.index_bytes = 0
        if precompute:
            for node in range(grammar.n_nodes):
                if self.parser.has_bytes[node]:
                    nt = self.node_tokens(node)
                    self.index_bytes += nt.accepted.nbytes + 16 * len(nt.uncertain)
                    budget.index_bytes(self.index_bytes)
                    budget.check_time()
        self.compile_ms = (time.perf_counter() - t0) * 1e3

    def _called_frames(self) -> set[int]:
        starts = {int(self.grammar.node_rule[callee]) for cs in self.grammar.calls for callee, _ in cs}
        return starts

    def node_tokens(self, node: int) -> NodeTokens:
        """Return the context-independent and uncertain tokens at a grammar node (memoised)."""
        nt = self._node_tokens.get(node)
        if nt is None:
            nt = self._node_tokens[node] = classify_node(
                self.parser, self.trie, node, track_returns=self._track[node]
            )
        return nt

    def matcher(self) -> CFGMatcher:
        """Return a new matcher at the start of the grammar."""
        return CFGMatcher(self)

    # --- per-state queries (memoised) -----------------------------------------------------------

    def allowed(self, state: int) -> AllowedSet:
        """Return the allowed set of a parser state."""
        hit = self._allowed.get(state)
        if hit is not None:
            return hit
        result = self._compute_allowed(state)
        if self.parser.state_depth[state] <= self.cache_depth and len(self._allowed) < self.cache_states:
            self._allowed[state] = result
        return result

    def allowed_mask(self, state: int) -> np.ndarray:
        """Return a bool array over the vocabulary: True where the token is allowed in `state`."""
        p = self.parser
        mask = np.zeros(self.n_vocab, dtype=bool)
        pieces = self.pieces
        for s in p.state_stacks[state]:
            if s == ACCEPT:
                continue
            nt = self.node_tokens(p.stack_top[s])
            mask[nt.accepted] = True
            if nt.uncertain:
                below = p.expand_stack(p.stack_parent[s])
                for tid, offsets in nt.uncertain:
                    if mask[tid]:
                        continue
                    piece = pieces[tid]
                    for j in offsets:
                        if p.walk(below, piece[j:]) != DEAD:
                            mask[tid] = True
                            break
        if p.state_accepts[state]:
            mask[self.eog] = True
        return mask

    def _compute_allowed(self, state: int) -> AllowedSet:
        mask = self.allowed_mask(state)
        n_allowed = int(np.count_nonzero(mask))
        bitmask = None
        if min(n_allowed, self.n_vocab - n_allowed) > self.n_vocab // 8:
            bitmask = np.packbits(mask, bitorder="little")
            bitmask = np.pad(bitmask, (0, -len(bitmask) % 4)).view("<u4")
        if 2 * n_allowed > self.n_vocab:
            return AllowedSet(np.flatnonzero(~mask).astype(np.int32), banned=True, bitmask=bitmask)
        return AllowedSet(np.flatnonzero(mask).astype(np.int32), banned=False, bitmask=bitmask)

    def next_state(self, state: int, token_id: int) -> int:
        """Return the parser state after a (non-special) token, or DEAD."""
        key = state * self.n_vocab + token_id
        nxt = self._next.get(key)
        if nxt is None:
            nxt = self._next[key] = self.parser.walk(state, self.pieces[token_id])
        return nxt

    def forced_bytes(self, state: int) -> bytes:
        """Return the unique continuation of a parser state (empty when there is a choice or it may end)."""
        hit = self._forced.get(state)
        if hit is None:
            p = self.parser
            out = bytearray()
            s = state
            while len(out) < MAX_FORCED and not p.state_accepts[s]:
                nxt = p.next_bytes(s)
                if len(nxt) != 1:
                    break
                out.append(nxt[0])
                s = p.step(s, nxt[0])
            hit = self._forced[state] = bytes(out)
        return hit


class CFGMatcher:
    """One request's position in a CompiledCFG (implements tutor.engine.matcher.Matcher)."""

    __slots__ = ("_allowed", "_c", "_ended", "_history", "_state")

    def __init__(self, compiled: CompiledCFG) -> None:
        self._c = compiled
        self._allowed = compiled._allowed
        self._state = compiled.parser.start
        self._ended = False
        self._history: list[tuple[int, bool]] = []

    @property
    def state(self) -> int:
        """Return the current parser state id."""
        return self._state

    def allowed(self) -> AllowedSet:
        """Return the tokens allowed now (EOS only when accepting; never control tokens)."""
        hit = self._allowed.get(self._state)
        return hit if hit is not None else self._c.allowed(self._state)

    def advance(self, token_id: int) -> None:
        """Consume one token; raise TokenRejected if it is not allowed."""
        c = self._c
        if self._ended:
            raise TokenRejected(f"token {token_id} after the end of generation")
        if token_id in c.special:
            if token_id in c.eog_set and c.parser.state_accepts[self._state]:
                self._history.append((self._state, False))
                self._ended = True
                return
            raise TokenRejected(f"token {token_id} is a control token, or end-of-generation before the end")
        if not 0 <= token_id < c.n_vocab:
            raise TokenRejected(f"token {token_id} is outside the vocabulary of {c.n_vocab}")
        nxt = c.next_state(self._state, token_id)
        if nxt == DEAD:
            raise TokenRejected(f"token {token_id} ({c.pieces[token_id]!r}) does not fit the grammar here")
        self._history.append((self._state, False))
        self._state = nxt

    def is_accepting(self) -> bool:
        """Return True when the bytes consumed so far form a complete sentence of the grammar."""
        return self._c.parser.state_accepts[self._state]

    def is_finished(self) -> bool:
        """Return True when accepting and no further byte can follow (generation must stop)."""
        return self._ended or self._c.parser.state_stacks[self._state] == (ACCEPT,)

    def forced_bytes(self) -> bytes:
        """Return the unique continuation from here (empty if there is a choice), for jump-forward."""
        return b"" if self._ended else self._c.forced_bytes(self._state)

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes (a forced continuation); raise TokenRejected if they do not fit."""
        nxt = self._c.parser.walk(self._state, data)
        if self._ended or nxt == DEAD:
            raise TokenRejected(f"the bytes {data!r} do not fit the grammar here")
        self._history.append((self._state, self._ended))
        self._state = nxt

    def forced_completes(self) -> bool:
        """Return True when consuming forced_bytes() leaves nothing but the end of the output."""
        data = self.forced_bytes()
        if not data:
            return False
        nxt = self._c.parser.walk(self._state, data)
        return nxt != DEAD and self._c.parser.state_stacks[nxt] == (ACCEPT,)

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` calls of advance() / advance_bytes(); ValueError past the start."""
        if not 0 <= steps <= len(self._history):
            raise ValueError(f"cannot roll back {steps} steps: {len(self._history)} were taken since the start")
        if steps:
            self._state, self._ended = self._history[-steps]
            del self._history[-steps:]

    def reset(self) -> None:
        """Return to the start state."""
        self._state = self._c.parser.start
        self._ended = False
        self._history.clear()


def compile_cfg(source: str | Path, vocab: Vocabulary, *, limits: Limits | None = None, cache_depth: int = 64,
                cache_states: int = 4096, precompute: bool = True) -> CompiledCFG:
    """Return a GBNF grammar (a .gbnf path, or the grammar text itself) compiled against a vocabulary.

    `limits` bound both steps together (GrammarError / LimitExceeded naming the rule or the limit).
    """
    if isinstance(source, Path) or (source.endswith(".gbnf") and "\n" not in source):
        path = Path(source)
        text, name = path.read_text(encoding="utf-8"), path.name
    else:
        text, name = str(source), "<grammar>"
    token_trie(vocab)  # built once per process: the vocabulary's cost, not this grammar's
    budget = Budget(limits, subject=f"the grammar {name}")
    grammar = compile_grammar(text, name, limits, budget=budget)
    return CompiledCFG(grammar, vocab, cache_depth=cache_depth, cache_states=cache_states, precompute=precompute,
                       limits=limits, budget=budget)
