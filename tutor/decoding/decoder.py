"""The one decoder loop: logits → mask → sample → advance, with jump-forward through forced bytes.

It knows only the Matcher protocol (tutor.engine.matcher), so a regex, CFG or JSON Schema
engine plugs in without any change here. `matcher=None` decodes unconstrained.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tutor.decoding.llm import LoadedModel
from tutor.engine.matcher import Matcher, TokenRejected
from tutor.errors import TutorError


class DecodeError(TutorError):
    """Decoding did not reach an accepting state within the token budget."""


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
    """Greedy or temperature decoding of one model under any Matcher."""

    def __init__(self, model: LoadedModel) -> None:
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
    ) -> Generation:
        """Decode after `prompt` until the matcher finishes (or EOS / max_tokens when unconstrained)."""
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
            token = self._sample(logits, temperature, rng)
            if token < 0:
                raise DecodeError("the mask allowed no token: the grammar has no continuation here")
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
            raise DecodeError(f"no complete output within {max_tokens} tokens")
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
