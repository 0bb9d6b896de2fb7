"""A loaded GGUF model driven through llama-cpp-python's low-level API (tutor.engine.llama_cpp.LlamaContext).

It keeps the tokens currently in the KV cache, so a request that shares a prefix with the
previous one (the fixed few-shot prompt) re-evaluates only what differs.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import llama_cpp
import numpy as np

from tutor.catalogue import ModelFile, check_gguf
from tutor.decoding.native import context_params_with_sequences, model_params_for_this_cpu
from tutor.engine.decode import EvalStats
from tutor.engine.llama_cpp import LlamaContext
from tutor.errors import ModelError
from tutor.llama_logs import silence_llama_logs

__all__ = ["EvalStats", "LoadedModel"]

# Sequences of the context (one KV cache shared by all): sequence 0 holds the prompt and the rest
# let the judge score up to this many variants of a sentence in one batch (tutor/decoding/tree_scoring.py).
SCORING_SEQUENCES = 64



class LoadedModel(LlamaContext):
    """A llama.cpp model + context with prefix-aware evaluation and zero-copy logits (the engine's LlamaContext).

    This adds what the tutor needs around the engine's context: loading a GGUF file with the CPU's
    buffer settings and the tutor's errors (ModelError), and scoring (token_logprobs).
    """

    error = ModelError

    def __init__(self, model: ModelFile | str | Path, *, n_ctx: int = 2048, n_threads: int | None = None,
                 seed: int = 0) -> None:
        path = Path(model.path if isinstance(model, ModelFile) else model)
        check_gguf(path)
        silence_llama_logs()
        threads = n_threads or max(1, min(4, os.cpu_count() or 1))
        try:
            with open(os.devnull, "w") as devnull, contextlib.redirect_stderr(devnull), \
                    model_params_for_this_cpu(), context_params_with_sequences(SCORING_SEQUENCES):
                llm = llama_cpp.Llama(
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
        super().__init__(llm, n_batch=512)
        self.n_ctx = n_ctx
        self.path = path
        self.file = model if isinstance(model, ModelFile) else None

    def close(self) -> None:
        """Free the batches and the model."""
        if getattr(self, "_tree", None) is not None:
            self._tree.free()
            self._tree = None
        self.free()
        self.llm.close()

    # -- scoring --------------------------------------------------------------------------------
    def token_logprobs(self, prompt: list[int], variants: list[list[int]],
                       skip: list[int] | None = None) -> list[np.ndarray]:
        """Return, for each variant, the log-probability of each of its tokens after `prompt`.

        The variants' token trie is evaluated in one batch over several sequences of the KV cache
        (each shared token once); `skip[i]` leading tokens of variant i are left unscored (0), for a
        lead whose log-probability cancels out. A context of one sequence walks the variants instead.
        """
        from tutor.decoding.tree_scoring import TreeScorer, max_sequences

        if getattr(self, "_tree", None) is None and max_sequences(self) > 1:
            self._tree = TreeScorer(self, batch_cap=self._batch_cap)
        if getattr(self, "_tree", None) is not None:
            return self._tree.token_logprobs(prompt, variants, skip)
        return self.walk_logprobs(prompt, variants)

    def walk_logprobs(self, prompt: list[int], variants: list[list[int]]) -> list[np.ndarray]:
        """Return what token_logprobs does, one variant after the other over a single sequence.

        Variants are evaluated in sorted order, so each one re-evaluates only what differs from the
        one before it (a shared prefix is run once); a position whose context is unchanged keeps the
        log-probability computed for the previous variant.
        """
        p = len(prompt)
        if p == 0:
            raise ValueError("token_logprobs needs a non-empty prompt (at least BOS)")
        self._claim()
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
