"""The engine's one bridge to llama-cpp-python: a model's vocabulary, a logits processor, and the low-level loop.

This is the only module of tutor.engine that imports `llama_cpp`. Use it as:

    from tutor.engine import GrammarCompiler, Vocabulary
    from tutor.engine.llama_cpp import LogitsProcessor

    compiled = GrammarCompiler(Vocabulary.from_llama(llm)).compile_regex("[0-9]{3}-[0-9]{4}")
    llm.create_completion(prompt, logits_processor=[LogitsProcessor(compiled)])

or, with jump-forward through forced bytes and per-step timings, the low-level loop of tutor.engine.decode
over the model's own context:

    generation = generate(llm, llm.tokenize(prompt.encode()), compiled)   # generation.text, .mask_ns, ...
"""

from __future__ import annotations

import ctypes
import re
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Protocol

import numpy as np

from tutor.engine.decode import Decoder, EvalStats, Generation
from tutor.engine.errors import EngineError, VocabularyError
from tutor.engine.matcher import NEG_INF, Matcher

if TYPE_CHECKING:
    from llama_cpp import Llama

__all__ = ["LlamaContext", "LogitsProcessor", "generate", "gguf_token_table", "token_table"]

# llama.cpp token attributes (enum llama_token_attr)
ATTR_UNKNOWN = 1 << 0
ATTR_UNUSED = 1 << 1
ATTR_CONTROL = 1 << 3
ATTR_USER_DEFINED = 1 << 4
# User-defined tokens that are markers rather than text: <|im_start|>, <start_of_image>, [multimodal].
MARKER = re.compile(rb"<\|[^|]*\|>|</?[a-z]+(?:_[a-z]+)+>|\[[a-z_]+\]")
TokenTable = tuple[list[bytes], list[int], list[int]]  # (pieces, special ids, end-of-generation ids)


class Tokens(Protocol):
    """What the processor reads of a grammar's vocabulary (tutor.engine.Vocabulary is one)."""

    @property
    def size(self) -> int: ...

    @property
    def eog_ids(self) -> frozenset[int]: ...


class Grammar(Protocol):
    """What the processor needs of a compiled grammar (tutor.engine.CompiledGrammar is one).

    A protocol rather than the class, so this adapter imports nothing that imports the vocabulary module,
    which calls this one to read a model's tokens: no import circle.
    """

    @property
    def vocabulary(self) -> Tokens: ...

    def matcher(self) -> Matcher: ...

def _import_llama_cpp() -> ModuleType:
    try:
        import llama_cpp
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise VocabularyError("llama-cpp-python is not installed; install it with: pip install llama-cpp-python") \
            from exc
    return llama_cpp


def token_table(llm: Llama) -> TokenTable:
    """Return a loaded llama_cpp.Llama's pieces, special ids and end-of-generation ids (Vocabulary.from_llama)."""
    lib = _import_llama_cpp()
    vocab = lib.llama_model_get_vocab(llm.model)
    n = lib.llama_vocab_n_tokens(vocab)
    size = 256
    buf = ctypes.create_string_buffer(size)
    pieces: list[bytes] = []
    special: list[int] = []
    eog: list[int] = []
    for token in range(n):
        got = lib.llama_token_to_piece(vocab, token, buf, size, 0, False)
        if got < 0:  # the piece is longer than the buffer: -got bytes are needed
            size = max(-got, 2 * size)
            buf = ctypes.create_string_buffer(size)
            got = lib.llama_token_to_piece(vocab, token, buf, size, 0, False)
        piece = buf.raw[:got]
        pieces.append(piece)
        attr = lib.llama_vocab_get_attr(vocab, token)
        if lib.llama_vocab_is_eog(vocab, token):
            eog.append(token)
        elif (
            attr & (ATTR_UNKNOWN | ATTR_UNUSED | ATTR_CONTROL)
            or lib.llama_vocab_is_control(vocab, token)
            or (attr & ATTR_USER_DEFINED and MARKER.fullmatch(piece))
        ):
            special.append(token)
    return pieces, special, eog


def gguf_token_table(gguf_path: Path) -> TokenTable:
    """Return a GGUF file's token table, loading only its vocabulary (`vocab_only=True`, no cache)."""
    lib = _import_llama_cpp()
    try:
        llm = lib.Llama(model_path=str(gguf_path), vocab_only=True, verbose=False)
    except (ValueError, RuntimeError) as exc:
        raise VocabularyError(f"cannot read the vocabulary of {gguf_path}: {exc}") from exc
    try:
        return token_table(llm)
    finally:
        llm.close()


class LogitsProcessor:
    """A llama-cpp-python logits processor that keeps generation inside a CompiledGrammar.

    Pass one per request: `llm.create_completion(prompt, logits_processor=[LogitsProcessor(compiled)])`.
    The first call takes the ids it sees as the prompt; later calls feed the newly sampled tokens to
    the grammar's matcher, then set every token the grammar does not allow to -inf. Once the output
    is complete (no byte can follow), only end-of-generation tokens are left, so llama.cpp stops;
    where the output may end or go on, end-of-generation is allowed beside the continuations. A call
    whose ids do not extend the previous ones starts a new request (the matcher is reset).
    """

    def __init__(self, compiled: Grammar) -> None:
        self.compiled = compiled
        self.matcher: Matcher = compiled.matcher()
        self._eog = np.array(sorted(compiled.vocabulary.eog_ids), dtype=np.intp)
        self._prompt: np.ndarray | None = None
        self._consumed = 0

    def reset(self) -> None:
        """Forget the request: the next call starts a new one."""
        self.matcher.reset()
        self._prompt = None
        self._consumed = 0

    def _sync(self, input_ids: np.ndarray) -> None:
        n = len(input_ids)
        prompt = self._prompt
        if prompt is None or n < prompt.size + self._consumed or not np.array_equal(input_ids[: prompt.size], prompt):
            self.reset()
            self._prompt = prompt = np.array(input_ids, dtype=np.int64)
            return
        for token in input_ids[prompt.size + self._consumed :].tolist():
            self.matcher.advance(int(token))
            self._consumed += 1

    def __call__(self, input_ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """Return the scores with every token the grammar does not allow next at -inf."""
        self._sync(input_ids)
        logits = np.array(scores, dtype=np.float32)  # a contiguous copy: llama-cpp-python passes a strided view
        if logits.size != self.compiled.vocabulary.size:
            raise ValueError(f"the model scores {logits.size} tokens but the grammar was compiled for a vocabulary of"
                             f" {self.compiled.vocabulary.size}; compile it with Vocabulary.from_llama(llm)")
        if self.matcher.is_finished():
            kept = logits[self._eog]
            logits.fill(NEG_INF)
            logits[self._eog] = kept
            return logits
        return self.matcher.allowed().apply(logits)


class LlamaContext:
    """A llama_cpp.Llama's context driven through the low-level API: prefix-aware evaluation, zero-copy logits.

    It keeps the tokens currently in the KV cache, so a request that shares a prefix with the previous
    one re-evaluates only what differs. It implements tutor.engine.decode.TokenModel. The Llama's own
    generation (create_completion) may be used on the same object in between: each side notices that
    the other changed the cache and starts it afresh. `error` is the exception type raised when the
    context is too small or llama_decode fails.
    """

    error: type[Exception] = EngineError

    def __init__(self, llm: Llama, *, n_batch: int = 512) -> None:
        lib = _import_llama_cpp()
        self.llm = llm
        self.ctx = llm._ctx.ctx
        self.vocab_ptr = llm._model.vocab
        self.memory = lib.llama_get_memory(self.ctx)
        self.n_vocab = llm.n_vocab()
        self.n_ctx = llm.n_ctx()
        self.eos = lib.llama_vocab_eos(self.vocab_ptr)
        self.add_bos = bool(lib.llama_vocab_get_add_bos(self.vocab_ptr))
        self.bos = lib.llama_vocab_bos(self.vocab_ptr)
        self._batch_cap = n_batch
        self._batch = lib.llama_batch_init(self._batch_cap, 0, 1)
        self.kv_tokens: list[int] = []
        self.stats = EvalStats()
        self._piece_cache: dict[int, bytes] = {}

    def free(self) -> None:
        """Free the batch (the Llama stays open: it belongs to the caller)."""
        if self._batch is not None:
            _import_llama_cpp().llama_batch_free(self._batch)
            self._batch = None

    # -- tokens ---------------------------------------------------------------------------------
    def tokenize(self, data: bytes, *, bos: bool = False, special: bool = False) -> list[int]:
        """Return the model's canonical tokenization of data."""
        return self.llm.tokenize(data, add_bos=bos and self.add_bos, special=special)

    def piece(self, token: int) -> bytes:
        """Return the bytes a token adds to generated text."""
        cached = self._piece_cache.get(token)
        if cached is None:
            lib = _import_llama_cpp()
            buf = ctypes.create_string_buffer(64)
            n = lib.llama_token_to_piece(self.vocab_ptr, token, buf, 64, 0, False)
            if n < 0:
                buf = ctypes.create_string_buffer(-n)
                n = lib.llama_token_to_piece(self.vocab_ptr, token, buf, -n, 0, False)
            cached = buf.raw[:n]
            self._piece_cache[token] = cached
        return cached

    def is_eog(self, token: int) -> bool:
        """Return True for end-of-generation tokens."""
        return bool(_import_llama_cpp().llama_vocab_is_eog(self.vocab_ptr, token))

    # -- evaluation -----------------------------------------------------------------------------
    def _decode(self, tokens: list[int], start: int, logits_for: str) -> None:
        """Evaluate tokens at positions start.. in chunks; logits_for is 'last', 'all' or 'none'."""
        lib = _import_llama_cpp()
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
            rc = lib.llama_decode(self.ctx, b)
            self.stats.ns += time.perf_counter_ns() - t0
            self.stats.calls += 1
            self.stats.tokens += n
            if rc != 0:
                raise self.error(f"the model failed to evaluate {n} tokens (llama_decode returned {rc})")

    def _claim(self) -> None:
        """Take the cache back from the Llama's own generation, if it ran since our last call."""
        if self.llm.n_tokens:  # create_completion evaluated tokens: our record of the cache is stale
            _import_llama_cpp().llama_memory_seq_rm(self.memory, 0, 0, -1)
            self.kv_tokens.clear()
            self.llm.n_tokens = 0  # and its record too: its next call evaluates from the start

    def _trim(self, keep: int) -> None:
        self._claim()
        if keep < len(self.kv_tokens):
            _import_llama_cpp().llama_memory_seq_rm(self.memory, 0, keep, -1)
            del self.kv_tokens[keep:]

    def set_context(self, tokens: list[int]) -> int:
        """Make the KV cache hold exactly `tokens`, with logits for the last one; return tokens evaluated.

        The longest common prefix with what is cached already is kept and not re-evaluated.
        """
        if len(tokens) >= self.n_ctx:
            raise self.error(f"the prompt needs {len(tokens)} tokens but the context holds {self.n_ctx}")
        self._claim()
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
        self._claim()
        if len(self.kv_tokens) + len(tokens) >= self.n_ctx:
            raise self.error("the output does not fit in the model's context window")
        self._decode(tokens, len(self.kv_tokens), logits_for)
        self.kv_tokens.extend(tokens)

    def logits(self, i: int = -1) -> np.ndarray:
        """Return a zero-copy float32 view of the logits of output row i (-1: the last one)."""
        ptr = _import_llama_cpp().llama_get_logits_ith(self.ctx, i)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))

    def all_logits(self, n_rows: int) -> np.ndarray:
        """Return a zero-copy (n_rows, n_vocab) view of the logits of the last batch (logits_for='all')."""
        ptr = _import_llama_cpp().llama_get_logits(self.ctx)
        return np.ctypeslib.as_array(ptr, shape=(n_rows, self.n_vocab))


def generate(llm: Llama | LlamaContext, prompt: list[int], compiled: Grammar | None, *,
             temperature: float = 0.0, seed: int | None = None, max_tokens: int = 256,
             jump_forward: bool = True) -> Generation:
    """Decode after the prompt's token ids under `compiled` (None: unconstrained) with the engine's own loop.

    Forced bytes are fed without sampling (jump-forward); the result has the text, the tokens (and which
    were forced) and the time of the forward passes and of each mask. Pass a LlamaContext to keep its
    KV cache between calls (a prompt prefix is then evaluated once).
    """
    context = llm if isinstance(llm, LlamaContext) else LlamaContext(llm)
    try:
        matcher = compiled.matcher() if compiled is not None else None
        return Decoder(context).generate(prompt, matcher, temperature=temperature, seed=seed,
                                         max_tokens=max_tokens, jump_forward=jump_forward)
    finally:
        if context is not llm:
            context.free()
