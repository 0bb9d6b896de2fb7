"""The naive reference: a matcher that re-derives the allowed set at every token by scanning the vocabulary.

Nothing is precomputed per state: each call to allowed() runs every token's bytes through the DFA
(vectorised with numpy, one byte position at a time, dropping tokens as they die). It is kept only to
show what the precompiled token index saves; `grammar-tutor lab mask-overhead` measures both.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tutor.engine.dfa import DFA
from tutor.engine.matcher import AllowedSet, TokenRejected


class NaiveDFAMatcher:
    """Matcher protocol over a byte DFA, with the mask recomputed from scratch at every step."""

    def __init__(self, dfa: DFA, vocab: Any) -> None:
        self.dfa = dfa
        self.table = np.asarray(dfa.transitions, dtype=np.int32)
        self.accepting = np.asarray(dfa.accepting, dtype=bool)
        pieces = vocab.pieces
        self.n_vocab = len(pieces)
        blocked = set(vocab.special_ids) | set(vocab.eog_ids)
        ids = [i for i, p in enumerate(pieces) if p and i not in blocked]
        self.ids = np.array(ids, dtype=np.int64)
        self.lengths = np.array([len(pieces[i]) for i in ids], dtype=np.int64)
        width = int(self.lengths.max()) if ids else 0
        self.bytes = np.zeros((len(ids), width), dtype=np.uint8)
        for row, i in enumerate(ids):
            self.bytes[row, : len(pieces[i])] = np.frombuffer(pieces[i], dtype=np.uint8)
        self.pieces = pieces
        self.eog = np.array(sorted(vocab.eog_ids), dtype=np.int64)
        self.eog_set = frozenset(vocab.eog_ids)
        self.state = dfa.start
        self.history: list[int] = []

    def allowed(self) -> AllowedSet:
        """Return the allowed tokens, found by running every token through the DFA from the current state."""
        rows = np.arange(len(self.ids))
        states = np.full(len(rows), self.state, dtype=np.int32)
        ok = []
        for k in range(self.bytes.shape[1]):
            done = self.lengths[rows] == k
            ok.append(rows[done])
            rows, states = rows[~done], states[~done]
            states = self.table[states, self.bytes[rows, k]]
            alive = states >= 0
            rows, states = rows[alive], states[alive]
            if not len(rows):
                break
        else:
            ok.append(rows)
        allowed = self.ids[np.concatenate(ok)] if ok else np.zeros(0, dtype=np.int64)
        if self.accepting[self.state]:
            allowed = np.concatenate([allowed, self.eog])
        return AllowedSet(np.sort(allowed).astype(np.int32), banned=False)

    def advance(self, token_id: int) -> None:
        """Consume one token; raise TokenRejected if it is not allowed."""
        if token_id in self.eog_set and self.accepting[self.state]:
            self.history.append(self.state)
            return
        piece = self.pieces[token_id] if 0 <= token_id < self.n_vocab else b""
        nxt = self.dfa.step(self.state, piece) if piece else -1
        if nxt < 0:
            raise TokenRejected(f"token {token_id} does not fit the grammar here")
        self.history.append(self.state)
        self.state = nxt

    def is_accepting(self) -> bool:
        """Return True when the DFA accepts what was consumed."""
        return bool(self.accepting[self.state])

    def is_finished(self) -> bool:
        """Return True when accepting and no byte can follow."""
        return self.is_accepting() and not bool((self.table[self.state] >= 0).any())

    def forced_bytes(self) -> bytes:
        """Return the unique continuation from here."""
        out = bytearray()
        state = self.state
        while not self.accepting[state] and len(out) < 256:
            nxt = np.flatnonzero(self.table[state] >= 0)
            if len(nxt) != 1:
                break
            out.append(int(nxt[0]))
            state = int(self.table[state, nxt[0]])
        return bytes(out)

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes; raise TokenRejected if they do not fit."""
        nxt = self.dfa.step(self.state, data)
        if nxt < 0:
            raise TokenRejected(f"the bytes {data!r} do not fit the grammar here")
        self.history.append(self.state)
        self.state = nxt

    def forced_completes(self) -> bool:
        """Return True when consuming forced_bytes() reaches a state where generation must stop."""
        data = self.forced_bytes()
        if not data:
            return False
        end = self.dfa.step(self.state, data)
        return bool(self.accepting[end]) and not bool((self.table[end] >= 0).any())

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` calls of advance() / advance_bytes()."""
        if not 0 <= steps <= len(self.history):
            raise ValueError(f"cannot roll back {steps} steps: {len(self.history)} were taken since the start")
        if steps:
            self.state = self.history[-steps]
            del self.history[-steps:]

    def reset(self) -> None:
        """Return to the start state."""
        self.state = self.dfa.start
        self.history = []
