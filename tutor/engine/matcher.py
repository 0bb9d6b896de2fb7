"""The one matcher interface that every mask family (regex, CFG, JSON Schema) implements.

The decoder knows only this interface: a compiled grammar is immutable data, and a matcher
holds one request's position in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from tutor.engine.errors import GrammarError, TokenRejected

__all__ = ["NEG_INF", "AllowedSet", "GrammarError", "Matcher", "TokenRejected", "apply_bitmask"]

NEG_INF = np.float32(-np.inf)


@dataclass(frozen=True, slots=True)
class AllowedSet:
    """The tokens allowed at one step, in the sparser of two forms.

    If `banned` is False, `ids` lists the allowed token ids; if True, `ids` lists the banned ones
    (every other id of the vocabulary is allowed). `bitmask`, when present, is a packed uint32
    bitmask of the allowed ids (bit i of word i//32), for dense states: applying it costs the
    same whatever the density, which beats either list when both are long.
    """

    ids: np.ndarray
    banned: bool
    bitmask: np.ndarray | None = None
    _row: list[np.ndarray] = field(default_factory=list, repr=False, compare=False, kw_only=True)

    def apply(self, logits: np.ndarray) -> np.ndarray:
        """Return logits with every disallowed token at -inf (may modify and return `logits`)."""
        if self.bitmask is not None and logits.dtype == np.float32 and logits.flags.c_contiguous:
            return apply_bitmask(self.bitmask, logits)
        if self.banned:
            logits[self.ids] = NEG_INF
            return logits
        kept = logits[self.ids]
        logits.fill(NEG_INF)
        logits[self.ids] = kept
        return logits

    def contains(self, token_id: int) -> bool:
        """Return True when token_id is allowed."""
        if self.bitmask is not None:
            word = token_id >> 5
            return 0 <= word < self.bitmask.size and bool((int(self.bitmask[word]) >> (token_id & 31)) & 1)
        hit = bool(np.any(self.ids == token_id))
        return not hit if self.banned else hit

    def packed(self, vocab_size: int) -> np.ndarray:
        """Return the packed little-endian uint32 bitmask of the allowed ids (built once, then memoised).

        Bit i of word i // 32 is token i; ceil(vocab_size / 32) words, bits past vocab_size clear.
        """
        if self._row:
            return self._row[0]
        words = -(-vocab_size // 32)
        if self.bitmask is not None and self.bitmask.size == words:
            row = self.bitmask
        else:
            bits = np.full(words * 32, self.banned, dtype=bool)
            bits[self.ids] = not self.banned
            bits[vocab_size:] = False
            row = np.packbits(bits, bitorder="little").view("<u4")
        self._row.append(row)
        return row

    def fill_bitmask(self, out: np.ndarray, vocab_size: int | None = None) -> np.ndarray:
        """Write the packed bitmask of the allowed ids into `out` (uint32 or int32 words) and return `out`.

        `vocab_size` defaults to 32 bits per word of `out`. The first call per set builds its row (O(vocabulary));
        later calls copy it (a few hundred ns for 49k tokens).
        """
        row = self._row[0] if self._row else self.packed(out.size * 32 if vocab_size is None else vocab_size)
        if out.dtype == np.uint32:
            out[:] = row
        else:
            out.view(np.uint32)[:] = row
        return out

    def allowed_ids(self, vocab_size: int) -> np.ndarray:
        """Return the sorted allowed ids (materialised; for tests and tools, not the hot path)."""
        if not self.banned:
            return np.sort(self.ids)
        keep = np.ones(vocab_size, dtype=bool)
        keep[self.ids] = False
        return np.flatnonzero(keep)


_NEG_INF_BITS = np.int32(np.float32(-np.inf).view(np.int32))


def apply_bitmask(bitmask: np.ndarray, logits: np.ndarray) -> np.ndarray:
    """Set float32 logits outside a packed little-endian bitmask to -inf with branch-free integer ops; return them.

    `logits` must be C-contiguous float32; it is modified in place.
    """
    keep = np.unpackbits(bitmask.view(np.uint8), count=logits.size, bitorder="little").astype(np.int32)
    np.negative(keep, out=keep)  # allowed: all ones, banned: 0
    bits = logits.view(np.int32).reshape(-1)
    np.bitwise_and(bits, keep, out=bits)
    np.invert(keep, out=keep)  # banned: all ones
    np.bitwise_and(keep, _NEG_INF_BITS, out=keep)
    np.bitwise_or(bits, keep, out=bits)
    return logits


@runtime_checkable
class Matcher(Protocol):
    """One request's state in a compiled grammar.

    Every family implements all of it (DFA, CFG, choices, and the composed matchers), so the
    decoder never probes for optional methods.
    """

    def allowed(self) -> AllowedSet:
        """Return the tokens allowed now (EOS only when accepting; never control tokens)."""
        ...

    def advance(self, token_id: int) -> None:
        """Consume one token; raise TokenRejected if it is not allowed."""
        ...

    def is_accepting(self) -> bool:
        """Return True when the bytes consumed so far form a complete sentence of the grammar."""
        ...

    def is_finished(self) -> bool:
        """Return True when accepting and no further byte can follow (generation must stop)."""
        ...

    def forced_bytes(self) -> bytes:
        """Return the unique continuation from here (empty if there is a choice), for jump-forward."""
        ...

    def forced_completes(self) -> bool:
        """Return True when consuming forced_bytes() ends the output (nothing is left to sample)."""
        ...

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes (a forced continuation); raise TokenRejected if they do not fit."""
        ...

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` calls of advance() / advance_bytes(); ValueError past the start."""
        ...

    def reset(self) -> None:
        """Return to the start state."""
        ...
