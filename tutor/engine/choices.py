"""A matcher over a small finite set of byte strings, with an optional log-prior per string.

Used for per-request answer sets (the §A13 cells the sentence allows). The allowed tokens at a
position are the vocabulary pieces that start at that position in some live string, found by
dictionary lookups of its prefixes (read once off the vocabulary trie), so nothing is compiled per request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tutor.engine.matcher import NEG_INF, AllowedSet, Matcher, TokenRejected
from tutor.engine.trie import TokenTrie, build_piece_trie


@dataclass(frozen=True, slots=True)
class BiasedAllowedSet(AllowedSet):
    """An allowed-id list plus an additive logit bias per allowed id."""

    bias: np.ndarray | None = None

    def apply(self, logits: np.ndarray) -> np.ndarray:
        """Return logits masked to the allowed ids, each plus its bias."""
        out = np.full_like(logits, NEG_INF)
        out[self.ids] = logits[self.ids] + (self.bias if self.bias is not None else 0.0)
        return out


class PieceIndex:
    """Vocabulary pieces by their bytes (several ids may spell the same bytes), read off the vocabulary trie.

    `by_bytes` maps a piece to its ids (ascending), `prefixes` holds every proper prefix of a piece (a
    lookup can stop as soon as no longer piece can match) and `max_len` is the longest piece's length.
    Pass the vocabulary's `trie` (tutor.engine.trie.token_trie) to share it; without one it is built
    from `pieces`, leaving out `excluded`.
    """

    def __init__(self, pieces: Sequence[bytes], excluded: set[int] | frozenset[int] = frozenset(),
                 eog_ids: Sequence[int] = (), *, trie: TokenTrie | None = None) -> None:
        self.pieces = list(pieces)
        trie = build_piece_trie(self.pieces, excluded) if trie is None else trie
        self.by_bytes, self.prefixes, self.max_len = trie.piece_lists(self.pieces)
        self.eog_ids = np.asarray(sorted(eog_ids), dtype=np.int32)


class ChoiceMatcher:
    """Matcher whose language is a fixed list of byte strings; priors bias the model between them."""

    def __init__(self, strings: Sequence[bytes], index: PieceIndex, priors: Sequence[float] | None = None) -> None:
        if not strings:
            raise ValueError("ChoiceMatcher needs at least one string")
        self.strings = list(strings)
        self.index = index
        self.priors = np.asarray(priors if priors is not None else [0.0] * len(strings), dtype=np.float64)
        self.reset()

    def reset(self) -> None:
        """Return to the start."""
        self.pos = 0
        self.alive = list(range(len(self.strings)))
        self._history: list[tuple[int, list[int]]] = []

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` calls of advance() / advance_bytes(); ValueError past the start."""
        if not 0 <= steps <= len(self._history):
            raise ValueError(f"cannot roll back {steps} steps: {len(self._history)} were taken since the start")
        if steps:
            self.pos, self.alive = self._history[-steps]
            del self._history[-steps:]

    def _weights(self, members: list[int]) -> float:
        return float(np.logaddexp.reduce(self.priors[members])) if members else -np.inf

    def allowed(self) -> AllowedSet:
        """Return the ids whose piece fits some live string here, biased by the strings' priors."""
        windows: dict[bytes, list[int]] = {}
        for k in self.alive:
            windows.setdefault(self.strings[k][self.pos: self.pos + self.index.max_len], []).append(k)
        groups: dict[bytes, list[int]] = {}
        by_bytes, prefixes = self.index.by_bytes, self.index.prefixes
        for window, members in windows.items():
            for j in range(1, len(window) + 1):
                piece = window[:j]
                if piece in by_bytes:
                    groups.setdefault(piece, []).extend(members)
                if piece not in prefixes:
                    break
        ids: list[int] = []
        bias: list[float] = []
        total = self._weights(self.alive)
        for piece, members in groups.items():
            b = self._weights(members) - total
            for tid in self.index.by_bytes[piece]:
                ids.append(tid)
                bias.append(b)
        if self.is_accepting():
            done = [k for k in self.alive if len(self.strings[k]) == self.pos]
            b = self._weights(done) - total
            ids.extend(int(t) for t in self.index.eog_ids)
            bias.extend([b] * len(self.index.eog_ids))
        return BiasedAllowedSet(np.asarray(ids, dtype=np.int64), False, None,
                                np.asarray(bias, dtype=np.float32))

    def advance(self, token_id: int) -> None:
        """Consume one token."""
        self.advance_bytes(self.index.pieces[token_id], token_id=token_id)

    def advance_bytes(self, data: bytes, token_id: int | None = None) -> None:
        """Consume bytes; raise TokenRejected if no live string continues with them."""
        end = self.pos + len(data)
        alive = [k for k in self.alive if self.strings[k].startswith(data, self.pos) and len(self.strings[k]) >= end]
        if not alive:
            what = f"token {token_id}" if token_id is not None else f"bytes {data!r}"
            raise TokenRejected(f"{what} does not continue any allowed answer at byte {self.pos}")
        self._history.append((self.pos, self.alive))
        self.alive = alive
        self.pos = end

    def is_accepting(self) -> bool:
        """Return True when some live string is complete."""
        return any(len(self.strings[k]) == self.pos for k in self.alive)

    def is_finished(self) -> bool:
        """Return True when every live string is complete."""
        return all(len(self.strings[k]) == self.pos for k in self.alive)

    def forced_bytes(self) -> bytes:
        """Return the common continuation of every live string (empty at a choice or an end)."""
        rests = [self.strings[k][self.pos:] for k in self.alive]
        if any(not r for r in rests):
            return b""
        first = rests[0]
        n = len(first)
        for r in rests[1:]:
            m = 0
            limit = min(n, len(r))
            while m < limit and r[m] == first[m]:
                m += 1
            n = m
            if n == 0:
                break
        return first[:n]

    def forced_completes(self) -> bool:
        """Return True when the forced continuation ends the output (one live string is left)."""
        return len(self.alive) == 1

    def chosen(self) -> int | None:
        """Return the index of the completed string, once there is exactly one."""
        done = [k for k in self.alive if len(self.strings[k]) == self.pos]
        return done[0] if len(done) == 1 else None


class PinnedPrefixMatcher:
    """Force a literal prefix (e.g. `{"original":"<sentence>"`), then hand over to an inner matcher.

    The inner matcher is advanced through the literal too, so its grammar still governs everything
    after it; nothing is recompiled per request.
    """

    def __init__(self, prefix: bytes, inner: Matcher, index: PieceIndex) -> None:
        self.prefix = prefix
        self.inner = inner
        self.index = index
        self.reset()

    def reset(self) -> None:
        """Return to the start."""
        self.pos = 0
        self._history: list[int] = []
        self.inner.reset()

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` calls of advance() / advance_bytes() (in the inner matcher too)."""
        if not 0 <= steps <= len(self._history):
            raise ValueError(f"cannot roll back {steps} steps: {len(self._history)} were taken since the start")
        if steps:
            self.inner.rollback(steps)
            self.pos = self._history[-steps]
            del self._history[-steps:]

    def _in_prefix(self) -> bool:
        return self.pos < len(self.prefix)

    def allowed(self) -> AllowedSet:
        """Return the pieces that spell the next bytes of the literal, or the inner matcher's set."""
        if not self._in_prefix():
            return self.inner.allowed()
        ids: list[int] = []
        rest = self.prefix[self.pos:]
        for j in range(1, min(self.index.max_len, len(rest)) + 1):
            ids.extend(self.index.by_bytes.get(rest[:j], ()))
        return AllowedSet(np.asarray(ids, dtype=np.int64), False)

    def advance(self, token_id: int) -> None:
        """Consume one token."""
        self.advance_bytes(self.index.pieces[token_id])

    def advance_bytes(self, data: bytes) -> None:
        """Consume bytes: first through the literal, then through the inner matcher."""
        if self._in_prefix():
            rest = self.prefix[self.pos:]
            if not (rest.startswith(data) or data.startswith(rest)):
                raise TokenRejected(f"bytes {data!r} leave the pinned literal at byte {self.pos}")
        self.inner.advance_bytes(data)
        self._history.append(self.pos)
        self.pos += len(data)

    def is_accepting(self) -> bool:
        """Return True when past the literal and the inner matcher accepts."""
        return not self._in_prefix() and self.inner.is_accepting()

    def is_finished(self) -> bool:
        """Return True when past the literal and the inner matcher is finished."""
        return not self._in_prefix() and self.inner.is_finished()

    def forced_bytes(self) -> bytes:
        """Return the rest of the literal (plus what the inner matcher forces after it)."""
        if self._in_prefix():
            return self.prefix[self.pos:]
        return self.inner.forced_bytes()

    def forced_completes(self) -> bool:
        """Return True when consuming forced_bytes() finishes the output."""
        if not self._in_prefix():
            return self.inner.forced_completes()
        self.advance_bytes(self.prefix[self.pos:])
        done = self.inner.is_finished()
        self.rollback()
        return done
