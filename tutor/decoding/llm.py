"""A loaded GGUF model driven through llama-cpp-python's low-level API.

It keeps the tokens currently in the KV cache, so a request that shares a prefix with the
previous one (the fixed few-shot prompt) re-evaluates only what differs.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import time
from dataclasses import dataclass
from pathlib import Path

import llama_cpp
import numpy as np

from tutor.decoding.native import model_params_for_this_cpu
from tutor.errors import ModelError
from tutor.models import ModelFile, check_gguf


def _silence_llama_logs() -> None:
    @llama_cpp.llama_log_callback
    def _quiet(level, text, user_data):
        return None

    llama_cpp.llama_log_set(_quiet, ctypes.c_void_p(0))
    _silence_llama_logs.keep = _quiet  # type: ignore[attr-defined]  # the C side keeps a pointer


@dataclass
class EvalStats:
    """Running totals of forward passes: count, tokens and time."""

    calls: int = 0
    tokens: int = 0
    ns: int = 0


class LoadedModel:
    """A llama.cpp model + context with prefix-aware evaluation and zero-copy logits."""

    def __init__(self, model: ModelFile | str | Path, *, n_ctx: int = 2048, n_threads: int | None = None,
                 seed: int = 0) -> None:
        path = Path(model.path if isinstance(model, ModelFile) else model)
        check_gguf(path)
        _silence_llama_logs()
        threads = n_threads or max(1, min(4, os.cpu_count() or 1))
        try:
            with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(devnull), \
                    model_params_for_this_cpu():
                self.llm = llama_cpp.Llama(
                    str(path), n_ctx=n_ctx, n_batch=512, n_threads=threads, n_threads_batch=threads,
                    seed=seed, verbose=False, logits_all=False,
                )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelError(
                f"the model file {path} could not be loaded ({exc}). It may be truncated or damaged:"
                " choose another .gguf file or reinstall the default model."
            ) from exc
        except Exception as exc:  # e.g. a chat template in the file that does not parse (jinja2)
            raise ModelError(
                f"the model file {path} could not be loaded: {type(exc).__name__}: {exc}. The file's"
                " metadata is broken: choose another .gguf file or reinstall the default model."
            ) from exc
        self.path = path
        self.file = model if isinstance(model, ModelFile) else None
        self.ctx = self.llm._ctx.ctx
        self.vocab_ptr = self.llm._model.vocab
        self.memory = llama_cpp.llama_get_memory(self.ctx)
        self.n_vocab = self.llm.n_vocab()
        self.n_ctx = n_ctx
        self.eos = llama_cpp.llama_vocab_eos(self.vocab_ptr)
        self.add_bos = bool(llama_cpp.llama_vocab_get_add_bos(self.vocab_ptr))
        self.bos = llama_cpp.llama_vocab_bos(self.vocab_ptr)
        self._batch_cap = 512
        self._batch = llama_cpp.llama_batch_init(self._batch_cap, 0, 1)
        self.kv_tokens: list[int] = []
        self.stats = EvalStats()
        self._piece_cache: dict[int, bytes] = {}

    def close(self) -> None:
        """Free the batch and the model."""
        if self._batch is not None:
            llama_cpp.llama_batch_free(self._batch)
            self._batch = None
        self.llm.close()

    # -- tokens ---------------------------------------------------------------------------------
    def tokenize(self, data: bytes, *, bos: bool = False, special: bool = False) -> list[int]:
        """Return the model's canonical tokenization of data."""
        return self.llm.tokenize(data, add_bos=bos and self.add_bos, special=special)

    def piece(self, token: int) -> bytes:
        """Return the bytes a token adds to generated text."""
        cached = self._piece_cache.get(token)
        if cached is None:
            buf = ctypes.create_string_buffer(64)
            n = llama_cpp.llama_token_to_piece(self.vocab_ptr, token, buf, 64, 0, False)
            if n < 0:
                buf = ctypes.create_string_buffer(-n)
                n = llama_cpp.llama_token_to_piece(self.vocab_ptr, token, buf, -n, 0, False)
            cached = buf.raw[:n]
            self._piece_cache[token] = cached
        return cached

    def is_eog(self, token: int) -> bool:
        """Return True for end-of-generation tokens."""
        return bool(llama_cpp.llama_vocab_is_eog(self.vocab_ptr, token))

    # -- evaluation -----------------------------------------------------------------------------
    def _decode(self, tokens: list[int], start: int, logits_for: str) -> None:
        """Evaluate tokens at positions start.. in chunks; logits_for is 'last', 'all' or 'none'."""
        for off in range(0, len(tokens), self._batch_cap):
            chunk = tokens[off: off + self._batch_cap]
            b = self._batch
            n = len(chunk)
            last_chunk = off + n == len(tokens)
            for i, tok in enumerate(chunk):
                b.token[i] = tok
                b.pos[i] = start + off + i
                b.n_seq_id[i] = 1
                b.seq_id[i][0] = 0
                b.logits[i] = logits_for == "all" or (logits_for == "last" and last_chunk and i == n - 1)
            b.n_tokens = n
            t0 = time.perf_counter_ns()
            rc = llama_cpp.llama_decode(self.ctx, b)
            self.stats.ns += time.perf_counter_ns() - t0
            self.stats.calls += 1
            self.stats.tokens += n
            if rc != 0:
                raise ModelError(f"the model failed to evaluate {n} tokens (llama_decode returned {rc})")

    def _trim(self, keep: int) -> None:
        if keep < len(self.kv_tokens):
            llama_cpp.llama_memory_seq_rm(self.memory, 0, keep, -1)
            del self.kv_tokens[keep:]

    def set_context(self, tokens: list[int]) -> int:
        """Make the KV cache hold exactly `tokens`, with logits for the last one; return tokens evaluated.

        The longest common prefix with what is cached already is kept and not re-evaluated.
        """
        if len(tokens) >= self.n_ctx:
            raise ModelError(f"the prompt needs {len(tokens)} tokens but the context holds {self.n_ctx}")
        common = 0
        for a, b in zip(self.kv_tokens, tokens, strict=False):
            if a != b:
                break
            common += 1
        common = min(common, len(tokens) - 1)  # the last token is re-evaluated to get its logits
        self._trim(common)
        rest = tokens[common:]
        self._decode(rest, common, "last")
        self.kv_tokens.extend(rest)
        return len(rest)

    def append(self, tokens: list[int], *, logits_for: str = "last") -> None:
        """Evaluate tokens after what is in the cache."""
        if len(self.kv_tokens) + len(tokens) >= self.n_ctx:
            raise ModelError("the output does not fit in the model's context window")
        self._decode(tokens, len(self.kv_tokens), logits_for)
        self.kv_tokens.extend(tokens)

    def logits(self, i: int = -1) -> np.ndarray:
        """Return a zero-copy float32 view of the logits of output row i (-1: the last one)."""
        ptr = llama_cpp.llama_get_logits_ith(self.ctx, i)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))

    # -- scoring --------------------------------------------------------------------------------
    def all_logits(self, n_rows: int) -> np.ndarray:
        """Return a zero-copy (n_rows, n_vocab) view of the logits of the last batch (logits_for='all')."""
        ptr = llama_cpp.llama_get_logits(self.ctx)
        return np.ctypeslib.as_array(ptr, shape=(n_rows, self.n_vocab))

    def token_logprobs(self, prompt: list[int], variants: list[list[int]]) -> list[np.ndarray]:
        """Return, for each variant, the log-probability of each of its tokens after `prompt`.

        Variants are evaluated in sorted order, so each one re-evaluates only what differs from the
        one before it (a shared prefix is run once); a position whose context is unchanged keeps the
        log-probability computed for the previous variant.
        """
        p = len(prompt)
        if p == 0:
            raise ValueError("token_logprobs needs a non-empty prompt (at least BOS)")
        out: list[np.ndarray | None] = [None] * len(variants)
        prev: list[int] | None = None
        prev_lp: np.ndarray | None = None
        for k in sorted(range(len(variants)), key=lambda i: variants[i]):
            v = variants[k]
            full = prompt + v
            if len(full) >= self.n_ctx:
                raise ModelError(f"the sentence needs {len(full)} tokens but the context holds {self.n_ctx}")
            lp = np.zeros(len(v), dtype=np.float64)
            if prev is None:
                common = 0
                for a, b in zip(self.kv_tokens, full, strict=False):
                    if a != b:
                        break
                    common += 1
                start = min(common, p - 1)
                known = 0
            else:
                shared = 0
                for a, b in zip(prev, v, strict=False):
                    if a != b:
                        break
                    shared += 1
                known = shared
                lp[:shared] = prev_lp[:shared]
                start = p + shared - 1
            self._trim(start)
            chunk = full[start: len(full) - 1]
            if chunk and known < len(v):
                if len(chunk) > self._batch_cap:
                    raise ModelError("the sentence is too long to score in one batch")
                self._decode(chunk, start, "all")
                self.kv_tokens.extend(chunk)
                rows = self.all_logits(len(chunk))
                for pos in range(p + known, len(full)):
                    row = rows[pos - start - 1]
                    m = float(row.max())
                    lp[pos - p] = float(row[full[pos]]) - m - float(np.log(np.exp(row - m).sum()))
            out[k] = lp
            prev, prev_lp = v, lp
        return out  # type: ignore[return-value]
