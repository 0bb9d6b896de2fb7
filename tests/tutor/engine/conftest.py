"""Fixtures for the engine tests: an isolated cache folder, small vocabularies, a brute-force index."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tutor.engine.vocab import Vocabulary
from tutor.resources import grammar_path


@pytest.fixture(scope="session")
def engine_cache_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a cache folder shared by the engine tests of this session."""
    return tmp_path_factory.mktemp("engine-cache")


@pytest.fixture(autouse=True)
def _isolated_cache(engine_cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point GRAMMAR_TUTOR_CACHE at the session's temporary folder for every engine test."""
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(engine_cache_root))
    return engine_cache_root


@pytest.fixture(scope="session")
def a13_schema() -> dict:
    """Return grammars/a13.schema.json."""
    return json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))


def _small_pieces() -> list[bytes]:
    """Pieces that exercise JSON strings: quotes, escapes, UTF-8 fragments, control bytes, long runs."""
    pieces = [b"", b"<|im_start|>", b""]  # 0: eos, 1: control marker, 2: end of turn
    pieces += [bytes([b]) for b in range(256)]  # every single byte, so any text can be spelled
    pieces += [
        b'{"', b'":"', b'","', b'"}', b'"', b'""', b'\\', b'\\"', b'\\\\', b'\\n', b'\\u', b'\\u00e9',
        b'\\ud800', b'\\x', b"\\/", b"ori", b"original", b'original":"', b"verb", b'"verb":"', b"go",
        b"went", b"fue", b"past simple", b"3rd singular", b"1st", b" singular", b"She", b" go", b" to",
        b" school", b"\xc3", b"\xa9", b"\xc3\xa9", b"\xe2\x82", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
        b"\xed\xa0\x80", b"\xc0\x80", b"a\tb", b"\n", b"tense", b"person", b"correct_form", b"spanish",
        b"x" * 40, b"ab" * 20, b"\xc3\xa9" * 20, b'."', b'.","', b'"}\n', b"} ", b"0", b"12", b"-", b"1.5e",
        b"true", b"fals", b"null", b"[", b"]", b",", b"[1,", b" ", b"  ", b"\t", b":", b"{", b"}",
        b"infinitive", b"present simple", b"work", b"watch", b"ed", b"es", b"esp", b"anish",
        b"went", b"ori",  # duplicates of earlier pieces
    ]
    return pieces


@pytest.fixture(scope="session")
def small_vocab() -> Vocabulary:
    """Return a ~370-token vocabulary: eos 0 and 2, control 1, single bytes, JSON-ish multi-byte pieces."""
    return Vocabulary.from_pieces(_small_pieces(), special_ids={1}, eog_ids={0, 2})


def brute_allowed(transitions: np.ndarray, accepting: np.ndarray, vocab: Vocabulary, state: int) -> set[int]:
    """Return the allowed ids of a state by walking every piece through the table (slow, obviously right)."""
    allowed = set()
    for token, piece in enumerate(vocab.pieces):
        if token in vocab.eog_ids:
            if accepting[state]:
                allowed.add(token)
            continue
        if token in vocab.special_ids or not piece:
            continue
        s = state
        for b in piece:
            s = int(transitions[s, b])
            if s < 0:
                break
        if s >= 0:
            allowed.add(token)
    return allowed


@pytest.fixture(scope="session")
def brute():
    """Return brute_allowed (tests get helpers through fixtures: conftest modules are not importable)."""
    return brute_allowed


@pytest.fixture(scope="session")
def smol_vocab(default_model_path: Path) -> Vocabulary:
    """Return the default model's vocabulary read through llama-cpp-python (49k tokens)."""
    from tutor.engine.vocab import read_gguf_vocabulary

    return read_gguf_vocabulary(default_model_path)


@pytest.fixture(scope="session")
def smol_grammar(smol_vocab: Vocabulary, a13_schema: dict):
    """Return a13 compiled for the default model's vocabulary (no disk cache)."""
    from tutor.engine.dfa_grammar import compile_json_schema

    return compile_json_schema(a13_schema, smol_vocab, use_cache=False, property_order="declared")


@pytest.fixture(scope="session")
def plain_llm(default_model_path: Path):
    """Return a plain llama_cpp.Llama on the bundled GGUF (what a user of the library brings), loaded with
    llama.cpp's repacking buffers off on a CPU with AMX, whose kernel crashes (tutor/decoding/native.py)."""
    import llama_cpp

    from tutor.decoding.native import model_params_for_this_cpu

    with model_params_for_this_cpu():
        llm = llama_cpp.Llama(str(default_model_path), n_ctx=256, seed=1234, verbose=False)
    yield llm
    llm.close()
