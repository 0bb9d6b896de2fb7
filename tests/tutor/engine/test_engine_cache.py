"""The disk cache: round trips, hits, misses, and corrupt or truncated files that get rebuilt."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutor.engine import cache
from tutor.engine.dfa_grammar import compile_json_schema
from tutor.engine.vocab import Vocabulary

SCHEMA = {"type": "object", "properties": {"w": {"enum": ["go", "went"]}, "s": {"type": "string", "maxLength": 8}},
          "required": ["w", "s"], "additionalProperties": False}


def test_cache_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path / "c"))
    assert cache.entry_path("index", "k") == tmp_path / "c" / "index" / "k.gtc"
    monkeypatch.delenv("GRAMMAR_TUTOR_CACHE")
    assert "grammar-tutor" in str(cache.cache_dir())


def test_round_trip(tmp_path: Path) -> None:
    arrays = {"a": np.arange(10, dtype=np.int64), "b": np.ones((3, 4), dtype=np.uint8), "c": np.zeros(0, np.int32)}
    path = tmp_path / "x.gtc"
    cache.save(path, arrays, {"k": "v"})
    loaded, meta = cache.load(path)
    assert meta == {"k": "v"}
    for name, value in arrays.items():
        assert loaded[name].dtype == value.dtype and np.array_equal(loaded[name], value)
        assert not loaded[name].flags.writeable


@pytest.mark.parametrize("damage", ["truncate", "flip_payload", "flip_header", "magic", "empty", "missing"])
def test_damaged_files_load_as_none(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "x.gtc"
    cache.save(path, {"a": np.arange(1000, dtype=np.int64)}, {})
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[:-100]
    elif damage == "flip_payload":
        data[-5] ^= 0x01
    elif damage == "flip_header":
        data[20] ^= 0x01
    elif damage == "magic":
        data[:8] = b"NOTCACHE"
    elif damage == "empty":
        data = bytearray()
    if damage == "missing":
        path.unlink()
    else:
        path.write_bytes(bytes(data))
    assert cache.load(path) is None


def _entry(grammar) -> Path:
    return cache.entry_path("index", grammar.key)


def test_compile_miss_then_hit(small_vocab: Vocabulary) -> None:
    first = compile_json_schema(SCHEMA, small_vocab)
    path = _entry(first)
    assert path.is_file()
    second = compile_json_schema(SCHEMA, small_vocab)
    assert not first.from_cache or path.stat().st_size  # the first call may hit a previous test's entry
    assert second.from_cache
    for name, value in first.arrays().items():
        assert np.array_equal(second.arrays()[name], value), name
    m1, m2 = first.matcher(), second.matcher()
    text = b'{"w":"went","s":"ab\\n"}'
    m1.advance_bytes(text)
    m2.advance_bytes(text)
    assert m1.is_finished() and m2.is_finished()


def test_keys_separate_grammars_options_and_vocabularies(small_vocab: Vocabulary) -> None:
    other_vocab = Vocabulary.from_pieces([*small_vocab.pieces, b"extra"], small_vocab.special_ids,
                                         small_vocab.eog_ids)
    keys = {
        compile_json_schema(SCHEMA, small_vocab).key,
        compile_json_schema(SCHEMA, small_vocab, whitespace=1).key,
        compile_json_schema({**SCHEMA, "required": ["w"]}, small_vocab).key,
        compile_json_schema(SCHEMA, other_vocab).key,
    }
    assert len(keys) == 4


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_corrupt_entry_is_rebuilt(small_vocab: Vocabulary, damage: str) -> None:
    good = compile_json_schema(SCHEMA, small_vocab)
    path = _entry(good)
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(data[: len(data) // 2]) if damage == "truncate" else bytes(data[:-3] + b"\xff\xff\xff"))
    rebuilt = compile_json_schema(SCHEMA, small_vocab)
    assert not rebuilt.from_cache
    assert cache.load(path) is not None  # saved again, whole
    assert compile_json_schema(SCHEMA, small_vocab).from_cache
    assert np.array_equal(rebuilt.index.pool, good.index.pool)


def test_use_cache_false_neither_reads_nor_writes(small_vocab: Vocabulary) -> None:
    schema = {**SCHEMA, "title": "not cached"}
    grammar = compile_json_schema(schema, small_vocab, use_cache=False)
    assert not grammar.from_cache and not _entry(grammar).exists()
