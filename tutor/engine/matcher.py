"""The one matcher interface that every mask family (regex, CFG, JSON Schema) implements.

The decoder knows only this interface: a compiled grammar is immutable data, and a matcher
holds one request's position in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

NEG_INF = np.float32(-np.inf)


@dataclass(frozen=True, slots=True)
class AllowedSet:
    """The tokens allowed at one step, in the sparser of two forms.

    If `banned` is False, `ids` lists the allowed token ids; if True, `ids` lists the banned ones
    (every other id of the vocabulary is allowed). `bitmask`, when present, is a packed uint32
    bitmask of the allowed ids (bit i of word i//32), for dense states.
    """

    ids: np.ndarray
    banned: bool
    bitmask: np.ndarray | None = None

    def apply(self, logits: np.ndarray) -> np.ndarray:
        """Return logits with every disallowed token at -inf (may modify and return `logits`)."""
        if self.banned:
            logits[self.ids] = NEG_INF
            return logits
        out = np.full_like(logits, NEG_INF)
        out[self.ids] = logits[self.ids]
        return out

    def contains(self, token_id: int) -> bool:
        """Return True when token_id is allowed."""
        hit = bool(np.any(self.ids == token_id))
        return not hit if self.banned else hit


class GrammarError(ValueError):
    """A grammar (regex, schema or CFG) uses something the compiler does not support.

    The message names the construct and where it is (position or JSON pointer).
    """


class TokenRejected(ValueError):
    """A token was fed to a matcher that does not allow it in its current state."""


@runtime_checkable
class Matcher(Protocol):
    """One request's state in a compiled grammar."""

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

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes (a forced continuation); raise TokenRejected if they do not fit."""
        ...

    def reset(self) -> None:
        """Return to the start state."""
        ...
