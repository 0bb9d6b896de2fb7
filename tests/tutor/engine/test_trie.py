"""The one vocabulary trie: its views against brute force, the piece index read off it, and where it is cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tutor.engine import GrammarCompiler
from tutor.engine.choices import PieceIndex
from tutor.engine.trie import TRIE_CACHE_VERSION, build_piece_trie, build_trie, token_trie
from tutor.engine.vocab import Vocabulary


def _usable(vocab: Vocabulary) -> list[int]:
    return [i for i, p in enumerate(vocab.pieces) if p and i not in vocab.special_ids and i not in vocab.eog_ids]


def _linked_walk(trie) -> dict[bytes, int]:
    """Return node by prefix, found through first_child / next_sibling / label only."""
    nodes = {b"": 0}
    stack = [(0, b"")]
    while stack:
        node, prefix = stack.pop()
        child, labels = trie.first_child[node], []
        while child >= 0:
            labels.append(trie.label[child])
            nodes[prefix + bytes([trie.label[child]])] = child
            stack.append((child, prefix + bytes([trie.label[child]])))
            child = trie.next_sibling[child]
        assert labels == sorted(labels)  # children in ascending byte order
    return nodes


def test_linked_view_spells_every_prefix_with_its_tokens_and_ranges(small_vocab: Vocabulary) -> None:
    trie = build_trie(small_vocab)
    usable = _usable(small_vocab)
    pieces = small_vocab.pieces
    nodes = _linked_walk(trie)
    expected_prefixes = {pieces[i][:j] for i in usable for j in range(len(pieces[i]) + 1)}
    assert set(nodes) == expected_prefixes
    assert trie.n_nodes == len(expected_prefixes)
    for prefix, node in nodes.items():
        assert trie.depth[node] == len(prefix)
        assert trie.tokens_at[node] == tuple(i for i in usable if pieces[i] == prefix)
        under = sorted((i for i in usable if pieces[i].startswith(prefix)), key=lambda i: (pieces[i], i))
        assert trie.order[trie.lo[node]:trie.hi[node]].tolist() == under
    assert trie.order.tolist() == sorted(usable, key=lambda i: (pieces[i], i))


def test_piece_index_read_off_the_trie_equals_brute_force(small_vocab: Vocabulary) -> None:
    excluded = small_vocab.special_ids | small_vocab.eog_ids
    usable = _usable(small_vocab)
    by_bytes: dict[bytes, list[int]] = {}
    for i in usable:
        by_bytes.setdefault(small_vocab.pieces[i], []).append(i)
    prefixes = {p[:j] for p in by_bytes for j in range(1, len(p))}
    shared = PieceIndex(small_vocab.pieces, excluded, sorted(small_vocab.eog_ids), trie=token_trie(small_vocab))
    own = PieceIndex(small_vocab.pieces, excluded, sorted(small_vocab.eog_ids))
    for index in (shared, own):
        assert index.by_bytes == by_bytes
        assert index.prefixes == prefixes
        assert index.max_len == max(map(len, by_bytes))
    assert by_bytes[b"went"] == [i for i in usable if small_vocab.pieces[i] == b"went"] and len(by_bytes[b"went"]) == 2


def test_an_empty_trie_has_only_the_root() -> None:
    trie = build_piece_trie([b"", b"a"], excluded={1})
    assert trie.n_nodes == 1 and trie.first_child == [-1] and trie.tokens_at == [()]
    assert PieceIndex([b"", b"a"], {1}).by_bytes == {}


def _fresh_vocab(tag: bytes) -> Vocabulary:
    """Return a small vocabulary no other test has built a trie for (its own sha256)."""
    return Vocabulary.from_pieces([b"", *(bytes([b]) for b in range(32, 127)), b"ab", b"abc", tag], eog_ids={0})


def _trie_files(root: Path) -> list[Path]:
    return sorted((root / "trie").glob("*.gtc")) if (root / "trie").exists() else []


def test_no_cache_dir_leaves_no_trie_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path / "default"))
    vocab = _fresh_vocab(b"no-cache-dir")
    compiler = GrammarCompiler(vocab)
    compiler.compile_json_schema({"type": "string", "maxLength": 3})
    compiler.compile_regex("ab+c")
    compiler.compile_gbnf('root ::= "ab" [c]*')
    compiler.compile_choices(["abc", "ab"])
    assert not (tmp_path / "default").exists()


def test_a_cache_dir_holds_the_trie_and_the_default_folder_stays_empty(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path / "default"))
    vocab = _fresh_vocab(b"given-cache-dir")
    GrammarCompiler(vocab, tmp_path / "mine").compile_regex("ab+c")
    files = _trie_files(tmp_path / "mine")
    assert [f.name for f in files] == [f"{vocab.sha256}-v{TRIE_CACHE_VERSION}.gtc"]
    assert _trie_files(tmp_path / "default") == []
    saved = build_trie(vocab)
    from tutor.engine import cache

    arrays, meta = cache.load(files[0])
    assert meta["vocab"] == vocab.sha256
    for name, array in saved.arrays().items():
        assert np.array_equal(arrays[name], array), name


def test_the_tutors_default_path_persists_in_its_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path / "default"))
    vocab = _fresh_vocab(b"tutor-default")
    token_trie(vocab)
    assert _trie_files(tmp_path / "default") == []  # memoised in the process only
    again = token_trie(vocab, persist=True)
    assert len(_trie_files(tmp_path / "default")) == 1
    assert again is token_trie(vocab)


def test_pieces_that_differ_by_trailing_nul_bytes_each_end_at_their_own_node() -> None:
    # numpy's fixed-width sort pads with NUL: these tie there, and the build falls back to Python's byte order
    from tutor.engine.trie import build_piece_trie

    pieces = [b"a\x00", b"b", b"a", b"a", b"\x00", b"ab\x00\x00", b"ab", b"", b"ab\x00"]
    trie = build_piece_trie(pieces, excluded=[1])
    for token, piece in enumerate(pieces):
        if token == 1 or not piece:  # excluded, or empty: in no node
            continue
        node = 0
        for byte in piece:
            child = trie.first_child[node]
            while child >= 0 and trie.label[child] != byte:
                child = trie.next_sibling[child]
            assert child >= 0, piece
            node = child
        expected = sorted(i for i, p in enumerate(pieces) if p == piece and i != 1)
        assert sorted(trie.tokens_at[node]) == expected, piece
