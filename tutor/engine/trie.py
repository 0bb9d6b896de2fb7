"""The vocabulary's byte trie: the one structure every engine family reads the vocabulary through.

The token index (index.py) walks it with numpy, all DFA states at once; the CFG classifier
(cfg/tokens.py) walks it node by node through `first_child` / `next_sibling`; the choice matchers
(choices.py's PieceIndex) look pieces up by their bytes, read from it. The trie holds the pieces
that can appear in text: special, end-of-generation and empty pieces are left out.

`token_trie(vocab)` builds it once per vocabulary and process. On disk it is kept only when the
caller asks (`persist=True`, in `cache_dir` or, with none, the tutor's cache folder): a library
caller that passed no cache folder leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tutor.engine import cache

if TYPE_CHECKING:
    from tutor.engine.vocab import Vocabulary

__all__ = ["TokenTrie", "build_piece_trie", "build_trie", "token_trie"]

TRIE_CACHE_VERSION = 2


@dataclass(frozen=True, eq=False)
class TokenTrie:
    """A byte trie of the vocabulary's usable pieces, nodes in breadth-first order (root = 0).

    Children of a node are contiguous and in ascending byte order:
    `child_start[n] : child_start[n] + child_count[n]`. `node_token[n]` is the lowest token id whose
    piece ends at n (-1 if none); tokens with the same piece as another are listed in `dup_canon`
    (the token in the trie) and `dup_ids` (the duplicate). `order` holds every usable id sorted by
    piece (ties by id); the ids of every piece under node n are `order[node_lo[n]:node_hi[n]]`, and
    those whose piece ends at n come first there. `node_depth[n]` is the length of n's prefix.
    """

    node_byte: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    node_token: np.ndarray
    dup_canon: np.ndarray
    dup_ids: np.ndarray
    order: np.ndarray
    node_lo: np.ndarray
    node_hi: np.ndarray
    node_depth: np.ndarray

    @property
    def n_nodes(self) -> int:
        """Return the number of nodes, root included."""
        return int(self.node_byte.shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        """Return the trie's arrays by field name (what the disk cache stores)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    # -- list views for walks in Python (a list index is several times faster than a numpy one) ------------

    @cached_property
    def node_tokens(self) -> np.ndarray:
        """Return, per node, how many token ids have the piece that ends there (0 for an inner prefix)."""
        counts = np.zeros(self.n_nodes, dtype=np.int64)
        ends = np.flatnonzero(self.node_token >= 0)
        counts[ends] = 1
        if self.dup_canon.size:
            extra = np.bincount(self.dup_canon, minlength=int(self.node_token.max()) + 1)
            counts[ends] += extra[self.node_token[ends]]
        return counts

    @cached_property
    def first_child(self) -> list[int]:
        """Return each node's first child (-1 for a leaf)."""
        return np.where(self.child_count > 0, self.child_start, -1).tolist()

    @cached_property
    def next_sibling(self) -> list[int]:
        """Return each node's next sibling in byte order (-1 for the last child and the root)."""
        parent = np.repeat(np.arange(self.n_nodes), self.child_count)  # the parent of nodes 1..
        nxt = np.arange(2, self.n_nodes + 1)
        end = (self.child_start + self.child_count)[parent]
        return [-1, *np.where(nxt < end, nxt, -1).tolist()]

    @cached_property
    def label(self) -> list[int]:
        """Return each node's byte (-1 for the root)."""
        return [-1, *self.node_byte[1:].tolist()]

    @cached_property
    def depth(self) -> list[int]:
        """Return each node's prefix length."""
        return self.node_depth.tolist()

    @cached_property
    def lo(self) -> list[int]:
        """Return where each node's range of `order` starts."""
        return self.node_lo.tolist()

    @cached_property
    def hi(self) -> list[int]:
        """Return where each node's range of `order` stops."""
        return self.node_hi.tolist()

    @cached_property
    def tokens_at(self) -> list[tuple[int, ...]]:
        """Return, per node, the token ids whose piece ends there (ascending; empty for an inner prefix)."""
        out: list[tuple[int, ...]] = [()] * self.n_nodes
        order = self.order.tolist()
        counts = self.node_tokens
        ends = np.flatnonzero(counts)
        for n, lo, m in zip(ends.tolist(), self.node_lo[ends].tolist(), counts[ends].tolist(), strict=True):
            out[n] = tuple(order[lo : lo + m])
        return out

    def piece_lists(self, pieces: Sequence[bytes]) -> tuple[dict[bytes, list[int]], set[bytes], int]:
        """Return (ids by piece, every proper prefix of a piece, the longest piece's length) for dict lookups.

        `pieces` are the vocabulary's pieces the trie was built from.
        """
        counts = self.node_tokens
        ends = np.flatnonzero(counts)
        order = self.order.tolist()
        starts = self.node_lo[ends].tolist()
        by_bytes = {pieces[order[lo]]: order[lo : lo + m] for lo, m in zip(starts, counts[ends].tolist(), strict=True)}
        inner = np.flatnonzero(self.child_count[1:] > 0) + 1
        prefixes = {pieces[order[lo]][:d] for lo, d in zip(self.node_lo[inner].tolist(),
                                                             self.node_depth[inner].tolist(), strict=True)}
        max_len = int(self.node_depth.max()) if self.n_nodes > 1 else 1
        return by_bytes, prefixes, max_len


def _sorted_pieces(pieces: Sequence[bytes], excluded: Iterable[int]) -> tuple[list[int], ...]:
    """Return (usable ids by piece, canonical ids, each duplicate's canonical id, duplicate ids, multiplicities).

    Sorted with numpy on fixed-width byte strings (ties kept in id order), then checked against Python's byte
    order: numpy pads with NUL, so a piece and the same piece plus trailing NULs would tie; then Python sorts.
    """
    skip = np.zeros(len(pieces), dtype=bool)
    skip[[i for i in excluded if 0 <= i < len(pieces)]] = True
    lens = np.fromiter(map(len, pieces), dtype=np.int64, count=len(pieces))
    ids = np.flatnonzero((lens > 0) & ~skip)
    if not ids.size:
        return [], [], [], [], []
    fixed = np.array([pieces[i] for i in ids.tolist()], dtype=f"S{int(lens.max())}")
    order = np.argsort(fixed, kind="stable")
    usable = ids[order].tolist()
    ordered = [pieces[i] for i in usable]
    if not all(a <= b for a, b in pairwise(ordered)):  # a NUL tie: sort in Python's order
        usable.sort(key=pieces.__getitem__)
        ordered = [pieces[i] for i in usable]
    same = np.fromiter((a == b for a, b in pairwise(ordered)), dtype=bool,
                       count=max(len(ordered) - 1, 0))
    head = np.concatenate([[True], ~same])  # the first piece of each run of equal pieces
    run = np.cumsum(head) - 1
    used = np.asarray(usable, dtype=np.int64)
    canon = used[head]
    dups = np.flatnonzero(~head)
    return (usable, canon.tolist(), canon[run[dups]].tolist(), used[dups].tolist(),
            np.bincount(run).tolist())


def build_piece_trie(pieces: Sequence[bytes], excluded: Iterable[int] = ()) -> TokenTrie:
    """Return the byte trie of every non-empty piece whose id is not in `excluded`."""
    usable, canon, dup_canon, dup_ids, mult = _sorted_pieces(pieces, excluded)
    n = len(canon)
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        root = np.zeros(1, dtype=np.int64)
        return TokenTrie(np.zeros(1, np.uint8), root + 1, root, root - 1, empty, empty, empty, root, root, root)
    chosen = [pieces[i] for i in canon]
    lens = np.fromiter(map(len, chosen), dtype=np.int64, count=n)
    width = int(lens.max())
    blob = np.frombuffer(b"".join(chosen), dtype=np.uint8)
    offsets = np.concatenate([[0], np.cumsum(lens)[:-1]])
    matrix = np.full((n, width), -1, dtype=np.int16)
    for j in range(width):  # column by column: no [n, width] index matrix
        rows = np.flatnonzero(lens > j)
        matrix[rows, j] = blob[offsets[rows] + j]
    lcp = np.zeros(n, dtype=np.int64)
    if n > 1:
        lcp[1:] = np.argmax(matrix[1:] != matrix[:-1], axis=1)
    del matrix
    # Node (i, d): the prefix of length d of piece i, created by the first piece that has it.
    new = lens - lcp
    first = np.concatenate([[0], np.cumsum(new)[:-1]])
    total = int(new.sum())
    node_i = np.repeat(np.arange(n), new)
    node_d = lcp[node_i] + 1 + (np.arange(total) - first[node_i])
    order = np.lexsort((node_i, node_d))
    bfs = np.empty(total, dtype=np.int64)
    bfs[order] = np.arange(1, total + 1)
    # Parent of (i, d): (i, d-1) when i created it, else the node piece j made, where j is the
    # closest earlier piece with lcp_j < lcp_i (the start of the run sharing that prefix).
    lcp_list = lcp.tolist()
    prev_smaller = [0] * n
    stack: list[int] = []
    for i, value in enumerate(lcp_list):
        while stack and lcp_list[stack[-1]] >= value:
            stack.pop()
        prev_smaller[i] = stack[-1] if stack else 0
        stack.append(i)
    owner = np.array(prev_smaller, dtype=np.int64)
    parent = np.zeros(total, dtype=np.int64)
    deeper = node_d - 1 > lcp[node_i]
    idx = np.flatnonzero(deeper)
    parent[idx] = bfs[idx - 1]
    idx = np.flatnonzero(~deeper & (node_d > 1))
    j = owner[node_i[idx]]
    parent[idx] = bfs[first[j] + (node_d[idx] - 1) - lcp[j] - 1]
    n_nodes = total + 1
    node_parent = np.zeros(n_nodes, dtype=np.int64)
    node_parent[bfs] = parent
    node_byte = np.zeros(n_nodes, dtype=np.uint8)
    node_byte[bfs] = blob[offsets[node_i] + node_d - 1]
    node_token = np.full(n_nodes, -1, dtype=np.int64)
    ends = node_d == lens[node_i]
    node_token[bfs[ends]] = np.asarray(canon, dtype=np.int64)[node_i[ends]]
    child_count = np.bincount(node_parent[1:], minlength=n_nodes).astype(np.int64)
    child_start = np.ones(n_nodes, dtype=np.int64)
    child_start[1:] += np.cumsum(child_count)[:-1]
    # Ranges of `order`: a node's subtree holds the pieces from its creator to the last piece of its
    # last child's subtree (pieces are sorted, children ascend), filled from the deepest level up.
    mults = np.asarray(mult, dtype=np.int64)
    start_pos = np.concatenate([[0], np.cumsum(mults)[:-1]])
    node_depth = np.zeros(n_nodes, dtype=np.int64)
    node_depth[bfs] = node_d
    creator = np.zeros(n_nodes, dtype=np.int64)
    creator[bfs] = node_i
    last = creator.copy()
    last[0] = n - 1
    level_start = np.searchsorted(node_depth, np.arange(width + 2))  # BFS order: depths ascend
    for d in range(width - 1, -1, -1):
        parents = np.arange(level_start[d], level_start[d + 1])
        parents = parents[child_count[parents] > 0]
        last_child = child_start[parents] + child_count[parents] - 1
        last[parents] = np.maximum(last[parents], last[last_child])
    node_lo = start_pos[creator]
    node_hi = start_pos[last] + mults[last]
    node_lo[0] = 0
    return TokenTrie(
        node_byte, child_start, child_count, node_token,
        np.asarray(dup_canon, dtype=np.int64), np.asarray(dup_ids, dtype=np.int64),
        np.asarray(usable, dtype=np.int32), node_lo, node_hi, node_depth,
    )


def build_trie(vocab: Vocabulary) -> TokenTrie:
    """Return the byte trie of every token that can appear in text (not special, not eog, not empty)."""
    return build_piece_trie(vocab.pieces, vocab.special_ids | vocab.eog_ids)


_TRIES: dict[str, TokenTrie] = {}


def token_trie(vocab: Vocabulary, cache_dir: Path | str | None = None, *, persist: bool = False) -> TokenTrie:
    """Return the vocabulary's trie, built once per process (keyed by vocab.sha256).

    With `persist`, the trie is also loaded from and saved to the disk cache: in `cache_dir`, or in the
    tutor's cache folder (tutor.engine.cache.cache_dir()) when that is None. Without it nothing is written.
    """
    trie = _TRIES.get(vocab.sha256)
    if trie is not None and not persist:
        return trie
    entry = cache.entry_path("trie", f"{vocab.sha256}-v{TRIE_CACHE_VERSION}",
                             Path(cache_dir) if cache_dir is not None else None)
    if trie is None:
        hit = cache.load(entry) if persist else None
        if hit is not None and set(hit[0]) == set(TokenTrie.__dataclass_fields__):
            trie = TokenTrie(**hit[0])
        else:
            trie = build_trie(vocab)
        _TRIES[vocab.sha256] = trie
    if persist and not entry.exists():
        cache.save(entry, trie.arrays(), {"vocab": vocab.sha256})
    return trie
