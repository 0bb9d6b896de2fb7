"""The low-level decode loop: logits → mask → sample → advance, with jump-forward through forced bytes.

It knows only the Matcher protocol (tutor.engine.matcher) and a small model protocol (`TokenModel`),
so a regex, CFG, JSON Schema or choice grammar plugs in without any change here, and so does any
model that can evaluate tokens and hand back logits. `tutor.engine.llama_cpp.LlamaContext` is that
model for llama-cpp-python; `matcher=None` decodes unconstrained.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from tutor.engine.errors import EngineError
from tutor.engine.matcher import Matcher, TokenRejected

__all__ = ["DecodeError", "Decoder", "EvalStats", "Generation", "TokenModel"]


class DecodeError(EngineError):
    """Decoding did not reach an accepting state within the token budget (or the mask allowed nothing)."""


@dataclass
class EvalStats:
    """Running totals of forward passes: count, tokens and time."""

    calls: int = 0
    tokens: int = 0
    ns: int = 0


class TokenModel(Protocol):
    """What the loop needs from a model: evaluate tokens into a KV cache, then read the last logits."""

    stats: EvalStats

    def tokenize(self, data: bytes, *, bos: bool = False, special: bool = False) -> list[int]:
        """Return the model's canonical tokenization of data."""
        ...

    def piece(self, token: int) -> bytes:
        """Return the bytes a token adds to generated text."""
        ...

    def is_eog(self, token: int) -> bool:
        """Return True for end-of-generation tokens."""
        ...

    def set_context(self, tokens: list[int]) -> int:
        """Make the cache hold exactly `tokens`, logits for the last one; return how many were evaluated."""
        ...

    def append(self, tokens: list[int]) -> None:
        """Evaluate tokens after what is in the cache, logits for the last one."""
        ...

    def logits(self) -> np.ndarray:
        """Return the logits of the last evaluated token (float32, one per vocabulary id)."""
        ...


@dataclass
class Generation:
    """What one decode produced and what it cost."""

    text: bytes
    tokens: list[int]
    forced: list[bool]
    finished: bool
    prompt_tokens_evaluated: int = 0
    prompt_ms: float = 0.0
    forward_ms: float = 0.0
    mask_ns: list[int] = field(default_factory=list)
    total_ms: float = 0.0
    logprob: float = 0.0
    steps: list[tuple[int, float]] = field(default_factory=list)  # (byte offset, log-prob) per sampled token

    @property
    def n_sampled(self) -> int:
        """Return how many tokens were sampled."""
        return self.forced.count(False)

    @property
    def n_forced(self) -> int:
        """Return how many tokens were fed by jump-forward."""
        return self.forced.count(True)


class Decoder:
    """Greedy or temperature decoding of one model under any Matcher.

    `decode_error` is the exception type raised when decoding cannot finish (an application may use a
    subclass of DecodeError that also belongs to its own error tree).
    """

    decode_error: type[DecodeError] = DecodeError

    def __init__(self, model: TokenModel) -> None:
        self.model = model

    def forced_tokens(self, data: bytes) -> list[int]:
        """Return a canonical tokenization of forced bytes whose pieces spell exactly `data`."""
        toks = self.model.tokenize(data)
        if b"".join(self.model.piece(t) for t in toks) == data:
            return toks
        # A tokenizer that adds a leading space (SentencePiece) or merges oddly: fall back to
        # tokenizing byte by byte, which always spells the data exactly.
        out = []
        for ch in data.decode("utf-8", errors="surrogateescape"):
            part = ch.encode("utf-8", errors="surrogateescape")
            sub = self.model.tokenize(part)
            if b"".join(self.model.piece(t) for t in sub) != part:
                return []
            out.extend(sub)
        return out

    def generate(
        self,
        prompt: list[int],
        matcher: Matcher | None,
        *,
        temperature: float = 0.0,
        seed: int | None = None,
        max_tokens: int = 256,
        jump_forward: bool = True,
        on_text: Callable[[bytes], None] | None = None,
        stop_at_eos: bool = True,
        choose: Callable[[np.ndarray], int] | None = None,
    ) -> Generation:
        """Decode after `prompt` until the matcher finishes (or EOS / max_tokens when unconstrained).

        `choose`, when given, picks each sampled token from the masked logits instead of sampling (a
        benchmark replays a fixed token sequence with it); the mask is still computed and timed.
        """
        t_start = time.perf_counter_ns()
        model = self.model
        rng = np.random.default_rng(seed)
        fwd0 = model.stats.ns
        prompt_ns = 0
        gen = Generation(text=b"", tokens=[], forced=[], finished=False)
        text = bytearray()
        if matcher is not None:
            matcher.reset()
        # Tokens are evaluated lazily, in one batch, only when logits are needed: forced text that
        # ends the output (the grammar has decided everything) never runs through the model.
        pending: list[int] = []
        in_context = False
        while len(gen.tokens) < max_tokens:
            if matcher is not None and matcher.is_finished():
                gen.finished = True
                break
            if jump_forward and matcher is not None:
                forced = matcher.forced_bytes()
                if forced:
                    toks = self.forced_tokens(forced)
                    # Keep the last forced token for sampling: the natural token may run past the
                    # forced bytes (e.g. `":` rather than a bare `"`), and the mask allows it.
                    # When the forced bytes end the output there is nothing to run past.
                    completes = matcher.forced_completes()
                    if not completes:
                        toks = toks[:-1] if len(toks) > 1 else []
                    if toks and len(gen.tokens) + len(toks) <= max_tokens:
                        data = b"".join(model.piece(t) for t in toks)
                        matcher.advance_bytes(data)
                        pending += toks
                        text += data
                        gen.tokens += toks
                        gen.forced += [True] * len(toks)
                        if on_text:
                            on_text(data)
                        continue
            if not in_context:
                t0 = model.stats.ns
                gen.prompt_tokens_evaluated = model.set_context(prompt + pending)
                prompt_ns = model.stats.ns - t0
                in_context, pending = True, []
            elif pending:
                model.append(pending)
                pending = []
            logits = model.logits()
            t0 = time.perf_counter_ns()
            if matcher is not None:
                logits = matcher.allowed().apply(logits)
            gen.mask_ns.append(time.perf_counter_ns() - t0)
            token = choose(logits) if choose is not None else self._sample(logits, temperature, rng)
            if token < 0:
                raise self.decode_error("the mask allowed no token: the grammar has no continuation here")
            lp = self._logprob(logits, token)
            gen.logprob += lp
            gen.steps.append((len(text), lp))
            if matcher is None:
                if stop_at_eos and model.is_eog(token):
                    gen.finished = True
                    break
            else:
                if model.is_eog(token):
                    if not matcher.is_accepting():
                        raise TokenRejected(f"EOS sampled in a non-accepting state (token {token})")
                    gen.finished = True
                    break
                matcher.advance(token)
            piece = model.piece(token)
            text += piece
            gen.tokens.append(token)
            gen.forced.append(False)
            if on_text:
                on_text(piece)
            if matcher is not None and matcher.is_finished():
                gen.finished = True
                break
            pending = [token]
        gen.text = bytes(text)
        gen.prompt_ms = prompt_ns / 1e6
        gen.forward_ms = (model.stats.ns - fwd0 - prompt_ns) / 1e6
        gen.total_ms = (time.perf_counter_ns() - t_start) / 1e6
        if matcher is not None and not gen.finished:
            raise self.decode_error(f"no complete output within {max_tokens} tokens")
        return gen

    @staticmethod
    def _sample(logits: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
        if temperature <= 0:
            token = int(np.argmax(logits))
            return token if np.isfinite(logits[token]) else -1
        finite = np.isfinite(logits)
        if not finite.any():
            return -1
        z = logits[finite].astype(np.float64) / temperature
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        ids = np.flatnonzero(finite)
        return int(ids[rng.choice(len(ids), p=p)])

    @staticmethod
    def _logprob(logits: np.ndarray, token: int) -> float:
        finite = logits[np.isfinite(logits)]
        m = float(finite.max())
        return float(logits[token] - m - np.log(np.exp(finite - m).sum()))
