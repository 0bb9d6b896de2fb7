"""The engine's one bridge to llama-cpp-python: the vocabulary of a model, and a logits processor.

This is the only module of tutor.engine that imports `llama_cpp`. Use it as:

    from tutor.engine import GrammarCompiler, Vocabulary
    from tutor.engine.llama_cpp import LogitsProcessor

    compiled = GrammarCompiler(Vocabulary.from_llama(llm)).compile_regex("[0-9]{3}-[0-9]{4}")
    llm.create_completion(prompt, logits_processor=[LogitsProcessor(compiled)])
"""

from __future__ import annotations

import ctypes
import re
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np

from tutor.engine.errors import VocabularyError
from tutor.engine.matcher import NEG_INF, Matcher

if TYPE_CHECKING:
    from llama_cpp import Llama

    from tutor.engine.compiler import CompiledGrammar

__all__ = ["LogitsProcessor", "gguf_token_table", "token_table"]

# llama.cpp token attributes (enum llama_token_attr)
ATTR_UNKNOWN = 1 << 0
ATTR_UNUSED = 1 << 1
ATTR_CONTROL = 1 << 3
ATTR_USER_DEFINED = 1 << 4
# User-defined tokens that are markers rather than text: <|im_start|>, <start_of_image>, [multimodal].
MARKER = re.compile(rb"<\|[^|]*\|>|</?[a-z]+(?:_[a-z]+)+>|\[[a-z_]+\]")
TokenTable = tuple[list[bytes], list[int], list[int]]  # (pieces, special ids, end-of-generation ids)

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

    def __init__(self, compiled: CompiledGrammar) -> None:
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
