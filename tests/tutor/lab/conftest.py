"""Fixtures for the lab tests: an isolated cache, a small byte-level vocabulary and the shared real model."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tutor.engine.vocab import Vocabulary


@pytest.fixture(scope="session")
def lab_cache_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a cache folder shared by the lab tests of this session."""
    return tmp_path_factory.mktemp("lab-cache")


@pytest.fixture(autouse=True)
def _isolated_cache(lab_cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point GRAMMAR_TUTOR_CACHE at the session's temporary folder for every lab test."""
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(lab_cache_root))
    return lab_cache_root


@pytest.fixture(scope="session")
def byte_vocab() -> Vocabulary:
    """Every single byte, multi-byte pieces of the workloads' alphabets, EOS (0) and a control token (1)."""
    pieces = [b"", b"<|im_start|>"] + [bytes([b]) for b in range(256)]
    pieces += [bytes(p) for p in itertools.product(b"()atom", repeat=2)]
    pieces += [b"atom", b"(atom", b"))", b")))", b"12", b"345", b"-555", b"55-", b'="', b'"\n', b"key", b"name",
               b'="Ada"', b"_x", b"\xc3", b"\xa9", "é".encode(), b'"}', b'{"', b'":"', b'","', b"original"]
    return Vocabulary.from_pieces(pieces, special_ids={1}, eog_ids={0})


@pytest.fixture(scope="session")
def lab_model(tutor_engine):
    """Return a LabModel sharing the session's real model and its decoder."""
    from tutor.lab.workloads import LabModel

    return LabModel(tutor_engine.llm, tutor_engine.model, tutor_engine.answer_decoder.decoder)
