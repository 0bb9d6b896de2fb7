"""A text checked again as the learner edits it: the model reads only what changed.

Three pieces, none of them tied to a GUI:

- `Edit.between(old, new)` finds what an edit changed, and `Edit.remap` moves findings and notes
  with the text: spans before and after the edit keep their words, a span the edit touched is
  dropped (its word is gone or different). The app shows the moved underlines while it re-checks.
- `changed_sentences` and `to_rejudge` say which sentences the model must judge again: those whose
  text changed, and the one after each (it reads the one before as corrected). The rest keep their
  scores.
- `IncrementalChecker.check(text)` is `Tutor.check(text)` with the model's scores kept by their exact
  inputs (`tutor.decoding.score_cache.ScoreCache`): a sentence whose text, previous sentence as
  corrected and candidates are unchanged costs no forward pass, so the result is always exactly what
  a full check of the same text gives, never a patched-up older one. It records which sentences the
  model read (`CheckResult.rescored`) and how many tokens it evaluated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from typing import Any, TypeVar

from tutor.decoding.score_cache import ScoreCache
from tutor.text.check import CheckResult

T = TypeVar("T")


@dataclass(frozen=True)
class Edit:
    """One contiguous change: `old[start:old_end]` became `new[start:new_end]` (Python string indices)."""

    start: int
    old_end: int
    new_end: int

    @classmethod
    def between(cls, old: str, new: str) -> Edit:
        """Return the smallest single edit that turns `old` into `new` (common start and end kept)."""
        limit = min(len(old), len(new))
        start = 0
        while start < limit and old[start] == new[start]:
            start += 1
        tail = 0
        while tail < limit - start and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
            tail += 1
        return cls(start, len(old) - tail, len(new) - tail)

    @property
    def delta(self) -> int:
        """Return how much longer the text became."""
        return self.new_end - self.old_end

    def remap(self, items: Sequence[T], old: str, new: str) -> list[T]:
        """Return the spans (objects with `start`/`end`) that the edit left whole, moved to the new text.

        A span survives when it lies wholly before or after the changed characters and its text and
        the characters on both sides of it are as they were: typing a letter onto the end of a word
        changes the word, so its finding goes.
        """
        kept: list[T] = []
        for item in items:
            a, b = item.start, item.end  # type: ignore[attr-defined]
            if b <= self.start:
                s, e = a, b
            elif a >= self.old_end:
                s, e = a + self.delta, b + self.delta
            else:
                continue
            if s < 0 or new[s:e] != old[a:b] or new[max(s - 1, 0):s] != old[max(a - 1, 0):a] \
                    or new[e:e + 1] != old[b:b + 1]:
                continue
            kept.append(item if (s, e) == (a, b) else replace(item, start=s, end=e))  # type: ignore[type-var]
        return kept


def changed_sentences(old_sentences: Sequence[str], new_sentences: Sequence[str]) -> list[int]:
    """Return the indices of the new sentences that the old text does not have in the same order."""
    matcher = SequenceMatcher(None, list(old_sentences), list(new_sentences), autojunk=False)
    changed: list[int] = []
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.extend(range(j1, j2))
        elif tag == "delete" and j1 < len(new_sentences):
            changed.append(j1)  # the sentence after a deleted one reads a different sentence before it
    return sorted(set(changed))


def to_rejudge(changed: Sequence[int], count: int) -> list[int]:
    """Return the sentences to judge again: each changed one and the one after it (it reads the changed one)."""
    return sorted({k for c in changed for k in (c, c + 1) if k < count})


class IncrementalChecker:
    """Checks successive versions of a text with one tutor; what did not change is not read again."""

    def __init__(self, tutor: Any, *, max_entries: int = 512) -> None:
        self.base = tutor
        self.cache = ScoreCache(tutor.llm, max_entries=max_entries)
        self.tutor = tutor.with_scorer(self.cache)

    def check(self, text: str, progress: Callable[[int, int], None] | None = None) -> CheckResult:
        """Return `Tutor.check(text)`; `rescored` lists the sentences the model read, `tokens_evaluated` its cost."""
        cache = self.cache
        cache.missed = []
        stats = self.base.llm.stats
        tokens = stats.tokens

        def step(done: int, total: int) -> None:
            cache.tag = done  # progress(k, n) comes just before sentence k is judged
            if progress:
                progress(done, total)

        try:
            result = self.tutor.check(text, progress=step)
        finally:
            cache.tag = None
        result.rescored = sorted({k for k in cache.missed if k is not None})
        result.tokens_evaluated = stats.tokens - tokens
        return result

    def forget(self) -> None:
        """Drop every kept score (the next check reads the whole text)."""
        self.cache.clear()
