"""The one matcher interface that every mask family (regex, CFG, JSON Schema) implements.

The decoder knows only this interface: a compiled grammar is immutable data, and a matcher
holds one request's position in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from tutor.engine.errors import GrammarError, TokenRejected

__all__ = ["NEG_INF", "AllowedSet", "FillPlan", "GrammarError", "Matcher", "TokenRejected", "apply_bitmask",
           "bitmask_view", "write_plan"]

NEG_INF = np.float32(-np.inf)

# How one set's packed bitmask is written into a caller's buffer (AllowedSet.fill_plan): a background of
# the buffer's full length (the shared zero row, or the set's own row), then `words` at byte range `span`
# (None: the background is the whole mask). Byte memoryviews, so a write is one or two memcpy calls.
FillPlan = tuple[memoryview, slice, memoryview | None]
_ZERO_ROWS: dict[int, memoryview] = {}  # nbytes -> a read-only row of zeros shared by every sparse plan


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
    _plan: list[FillPlan] = field(default_factory=list, repr=False, compare=False, kw_only=True)

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

    def fill_plan(self, vocab_size: int) -> FillPlan:
        """Return how to write the packed bitmask reading the fewest bytes (memoised with the row).

        A sparse row, whose nonzero words lie within half of it, is written as the shared zero row and
        then its nonzero span: the zeros are hot in the cache and the set's own row is barely read. A
        dense row is copied whole.
        """
        if self._plan:
            return self._plan[0]
        row = self.packed(vocab_size)
        full = memoryview(np.ascontiguousarray(row).view(np.uint8))
        nonzero = np.flatnonzero(row)
        plan: FillPlan
        if nonzero.size and 2 * (int(nonzero[-1]) + 1 - int(nonzero[0])) > row.size:
            plan = (full, slice(0, 0), None)
        else:
            zeros = _ZERO_ROWS.get(full.nbytes)
            if zeros is None:
                zeros = _ZERO_ROWS.setdefault(full.nbytes, memoryview(bytes(full.nbytes)))
            if nonzero.size:
                span = slice(int(nonzero[0]) * 4, (int(nonzero[-1]) + 1) * 4)
                plan = (zeros, span, full[span])
            else:
                plan = (zeros, slice(0, 0), None)
        self._plan.append(plan)
        return plan

    def fill_bitmask(self, out: np.ndarray, vocab_size: int | None = None) -> np.ndarray:
        """Write the packed bitmask of the allowed ids into `out` (uint32 or int32 words) and return `out`.

        `vocab_size` defaults to 32 bits per word of `out`. The first call per set builds its row and
        plan (O(vocabulary)); later calls write every word of `out` from them (fill_plan).
        """
        plan = self._plan[0] if self._plan else self.fill_plan(out.size * 32 if vocab_size is None else vocab_size)
        write_plan(bitmask_view(out, plan[0].nbytes // 4), plan)
        return out

    def allowed_ids(self, vocab_size: int) -> np.ndarray:
        """Return the sorted allowed ids (materialised; for tests and tools, not the hot path)."""
        if not self.banned:
            return np.sort(self.ids)
        keep = np.ones(vocab_size, dtype=bool)
        keep[self.ids] = False
        return np.flatnonzero(keep)


def bitmask_view(out: np.ndarray, words: int) -> memoryview:
    """Return a writable byte view of a caller's bitmask buffer; ValueError unless it is `words` 32-bit integers.

    `out` must be a C-contiguous, writable numpy array of int32 or uint32 (any shape, e.g. [1, words]).
    """
    if (not isinstance(out, np.ndarray) or out.dtype.kind not in "iu" or out.dtype.itemsize != 4
            or out.size != words or not out.flags.c_contiguous or not out.flags.writeable):
        described = f"{out.dtype} {out.shape}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"a bitmask buffer must be a writable C-contiguous array of {words} int32 or uint32"
                         f" words, not {described}")
    return memoryview(out.view(np.uint8).reshape(-1))


def write_plan(view: memoryview, plan: FillPlan) -> None:
    """Write a set's whole packed bitmask into a byte view of the caller's buffer, as its FillPlan says."""
    background, span, words = plan
    view[:] = background
    if words is not None:
        view[span] = words


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
