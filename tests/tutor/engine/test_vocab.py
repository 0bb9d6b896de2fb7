"""The vocabulary: flags and hash, and the real GGUF read through llama-cpp-python (cached on disk)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.engine import cache
from tutor.engine.errors import VocabularyError
from tutor.engine.vocab import Vocabulary, load_vocabulary


def test_from_pieces_flags() -> None:
    vocab = Vocabulary.from_pieces([b"", b"a", b"", b"bc"], special_ids={1}, eog_ids={0})
    assert vocab.size == 4
    assert vocab.eog_ids == {0}
    assert vocab.special_ids == {1, 2}  # empty, not end-of-generation: never allowed
    same = Vocabulary.from_pieces([b"", b"a", b"", b"bc"], special_ids={1}, eog_ids={0})
    assert same.sha256 == vocab.sha256
    assert Vocabulary.from_pieces([b"", b"a", b"", b"bc"], eog_ids={0}).sha256 != vocab.sha256
    assert Vocabulary.from_pieces([b"", b"a", b"", b"bd"], special_ids={1}, eog_ids={0}).sha256 != vocab.sha256
    with pytest.raises(ValueError, match="outside the vocabulary"):
        Vocabulary.from_pieces([b"a"], eog_ids={3})


def test_eog_wins_over_special() -> None:
    vocab = Vocabulary.from_pieces([b"", b"x"], special_ids={0}, eog_ids={0})
    assert vocab.eog_ids == {0} and 0 not in vocab.special_ids


def test_arrays_round_trip() -> None:
    vocab = Vocabulary.from_pieces([b"", b"\xc3", b"long" * 20, b"a"], special_ids={3}, eog_ids={0})
    again = Vocabulary.from_arrays(vocab.arrays(), vocab.sha256)
    assert again.pieces == vocab.pieces
    assert again.special_ids == vocab.special_ids and again.eog_ids == vocab.eog_ids


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(VocabularyError, match="model file not found"):
        load_vocabulary(tmp_path / "nope.gguf")


@pytest.mark.model
def test_real_gguf_vocabulary(smol_vocab: Vocabulary, default_model_path: Path) -> None:
    import ctypes

    import llama_cpp

    assert smol_vocab.size == 49152
    assert smol_vocab.eog_ids >= {0, 2}  # <|endoftext|>, <|im_end|>
    assert 1 in smol_vocab.special_ids  # <|im_start|> is a control token
    assert smol_vocab.pieces[198] == b"\n"
    long_ids = [i for i, p in enumerate(smol_vocab.pieces) if len(p) > 32]
    assert long_ids, "the default vocabulary has pieces longer than 32 bytes"
    # Llama.detokenize() uses a 32-byte buffer and returns b"" for these; the low-level call does not.
    llm = llama_cpp.Llama(model_path=str(default_model_path), vocab_only=True, verbose=False)
    try:
        vocab = llama_cpp.llama_model_get_vocab(llm.model)
        buf = ctypes.create_string_buffer(1024)
        for token in [*long_ids[:5], 198, 28, 1000]:
            n = llama_cpp.llama_detokenize(vocab, (llama_cpp.llama_token * 1)(token), 1, buf, 1024, False, False)
            assert smol_vocab.pieces[token] == buf.raw[:n]
            assert llm.tokenize(smol_vocab.pieces[token], add_bos=False, special=False) == [token]
    finally:
        llm.close()


@pytest.mark.model
def test_vocabulary_cache_hit_miss_and_corruption(smol_vocab: Vocabulary, default_model_path: Path) -> None:
    from tutor.catalogue import file_sha256

    entry = cache.entry_path("vocab", f"{file_sha256(default_model_path)}-v1")
    entry.unlink(missing_ok=True)
    first = load_vocabulary(default_model_path)
    assert entry.is_file()
    assert first.sha256 == smol_vocab.sha256 and first.pieces == smol_vocab.pieces
    assert load_vocabulary(default_model_path).pieces == smol_vocab.pieces  # from the cache
    entry.write_bytes(entry.read_bytes()[:1000])
    rebuilt = load_vocabulary(default_model_path)
    assert rebuilt.sha256 == smol_vocab.sha256
    assert cache.load(entry) is not None


@pytest.mark.model
def test_from_gguf_caches_only_in_the_folder_it_is_given(smol_vocab: Vocabulary, default_model_path: Path,
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    default_folder, given = tmp_path / "default", tmp_path / "given"
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(default_folder))
    plain = Vocabulary.from_gguf(default_model_path)  # cache_dir=None: no disk cache at all
    assert plain.sha256 == smol_vocab.sha256
    assert not default_folder.exists()
    cached = Vocabulary.from_gguf(str(default_model_path), cache_dir=given)
    entries = list(given.rglob("*.gtc"))
    assert [e.parent.name for e in entries] == ["vocab"]
    assert cached.pieces == smol_vocab.pieces and not default_folder.exists()
    marker = Vocabulary.from_pieces([b"", b"a"], eog_ids={0})
    cache.save(entries[0], marker.arrays(), {"sha256": marker.sha256})
    assert Vocabulary.from_gguf(default_model_path, cache_dir=given).pieces == marker.pieces  # read from the entry
    assert Vocabulary.from_gguf(default_model_path).sha256 == smol_vocab.sha256  # None reads the file again
    for folder in (None, given):
        with pytest.raises(VocabularyError, match="model file not found"):
            Vocabulary.from_gguf(tmp_path / "nope.gguf", cache_dir=folder)
