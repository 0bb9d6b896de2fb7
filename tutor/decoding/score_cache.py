"""The model's scores kept by their exact inputs, so a text checked again costs only what changed.

The judge asks the model for the token log-probabilities of a sentence's variants after a prompt
(`token_logprobs(prompt, variants, skip)`). The answer depends on nothing else, so it is kept under
those inputs: a sentence whose text, previous sentence (as corrected) and candidates are unchanged
gets the very same scores back without a forward pass. Everything else is the model's own.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import numpy as np


def request_key(prompt: list[int], variants: list[list[int]], skip: list[int] | None) -> bytes:
    """Return a 32-byte digest of one scoring request: every list of ids, each preceded by its length."""
    h = hashlib.blake2b(digest_size=32)
    for part in (prompt, *variants, skip if skip is not None else [-1]):
        h.update(len(part).to_bytes(8, "little"))
        h.update(np.asarray(part, dtype=np.int64).tobytes())
    return h.digest()


class ScoreCache:
    """A model whose `token_logprobs` answers repeated requests from memory (least recently used first out)."""

    def __init__(self, model: Any, max_entries: int = 512) -> None:
        self.model = model
        self.max_entries = max_entries
        self._kept: OrderedDict[bytes, list[np.ndarray]] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.tag: Any = None  # the caller's label for the next requests (the sentence being judged)
        self.missed: list[Any] = []  # the tag of every request the model had to evaluate

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)  # tokenize, stats, kv_tokens, …: the model's own

    def token_logprobs(self, prompt: list[int], variants: list[list[int]],
                       skip: list[int] | None = None) -> list[np.ndarray]:
        """Return the model's `token_logprobs(prompt, variants, skip)`, evaluated only the first time."""
        key = request_key(prompt, variants, skip)
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return [a.copy() for a in found]
        out = self.model.token_logprobs(prompt, variants, skip)
        self.misses += 1
        self.missed.append(self.tag)
        self._kept[key] = [a.copy() for a in out]
        while len(self._kept) > self.max_entries:
            self._kept.popitem(last=False)
        return out

    def clear(self) -> None:
        """Forget every kept score."""
        self._kept.clear()

    def __len__(self) -> int:
        return len(self._kept)
