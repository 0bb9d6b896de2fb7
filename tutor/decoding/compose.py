"""Compose two matchers: a token is allowed only where both allow it (the intersection of masks).

The tutor decodes every answer under the precompiled §A13 schema FSM (`grammars/a13.schema.json`)
intersected with the per-request narrowing (the learner's sentence pinned as `original`, and the
judged answers). The guarantee "nothing outside §A13, no broken JSON" therefore comes from the
precompiled FSM itself: a narrowing that strayed outside it would be rejected, byte by byte.
"""

from __future__ import annotations

import numpy as np

from tutor.engine.choices import BiasedAllowedSet, ChoiceMatcher
from tutor.engine.matcher import AllowedSet, Matcher


class IntersectionMatcher:
    """Allowed = outer ∩ inner; every token and forced byte advances (and is checked by) both.

    `outer` is the precompiled grammar; `inner` the per-request narrowing, whose allowed list is
    short, so the intersection costs one membership lookup in the outer set per inner id.
    """

    def __init__(self, outer: Matcher, inner: Matcher) -> None:
        self.outer = outer
        self.inner = inner

    def reset(self) -> None:
        """Return both to their start states."""
        self.outer.reset()
        self.inner.reset()

    def allowed(self) -> AllowedSet:
        """Return the inner set filtered by the outer one (the inner set's biases kept)."""
        a = self.outer.allowed()
        b = self.inner.allowed()
        if b.banned:
            raise ValueError("IntersectionMatcher expects a narrowing with an explicit allowed list")
        keep = np.fromiter((a.contains(int(t)) for t in b.ids), dtype=bool, count=len(b.ids))
        ids = b.ids[keep]
        if isinstance(b, BiasedAllowedSet) and b.bias is not None:
            return BiasedAllowedSet(ids, False, None, b.bias[keep])
        return AllowedSet(ids, False)

    def advance(self, token_id: int) -> None:
        """Consume one token in both (each raises TokenRejected if it disallows it)."""
        self.outer.advance(token_id)
        self.inner.advance(token_id)

    def advance_bytes(self, data: bytes) -> None:
        """Consume forced bytes in both."""
        self.outer.advance_bytes(data)
        self.inner.advance_bytes(data)

    def is_accepting(self) -> bool:
        """Return True when both accept."""
        return self.outer.is_accepting() and self.inner.is_accepting()

    def is_finished(self) -> bool:
        """Return True when the narrowing is finished and the outer grammar accepts there."""
        return self.inner.is_finished() and self.outer.is_accepting()

    def forced_bytes(self) -> bytes:
        """Return the narrowing's forced continuation (the outer FSM checks it when it is consumed)."""
        return self.inner.forced_bytes()

    def forced_completes(self) -> bool:
        """Return True when the narrowing's forced continuation ends the output."""
        return self.inner.forced_completes()

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` advances in both."""
        self.inner.rollback(steps)
        self.outer.rollback(steps)

    def chosen(self) -> int | None:
        """Return the narrowing's completed string, when the narrowing is a ChoiceMatcher (else None)."""
        return self.inner.chosen() if isinstance(self.inner, ChoiceMatcher) else None
