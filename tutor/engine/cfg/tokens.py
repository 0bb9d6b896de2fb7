"""The vocabulary's byte trie, and per grammar node the tokens whose validity does not depend on the stack.

As in XGrammar, a token read from a node is *context-independent* when the node's own rule decides it:
either the token ends inside the rule (or exactly where the rule ends), so it is valid whatever called
the rule, or it fails inside the rule, so it is invalid everywhere. Only tokens that run past the end
of the rule are *uncertain*: they are checked against the actual stack when a parser state is first
seen. Walking the trie shares the work of common prefixes, and a dead prefix skips its whole subtree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from tutor.engine.cfg.parser import DEAD, UNKNOWN, PushdownParser
from tutor.engine.vocab import Vocabulary


class VocabTrie:
    """A byte trie of the vocabulary's pieces (special and empty pieces left out).

    Node 0 is the root. Children are linked through `first_child` / `next_sibling` in ascending byte
    order; `tokens_at[n]` lists the token ids whose piece ends at node n; the ids of every piece under
    node n are `order[lo[n]:hi[n]]`.
    """

    def __init__(self, pieces: Sequence[bytes], excluded: Iterable[int]) -> None:
        skip = set(excluded)
        ids = sorted((i for i, p in enumerate(pieces) if p and i not in skip), key=pieces.__getitem__)
        first_child, next_sibling, label, depth = [-1], [-1], [-1], [0]
        lo, hi, last_child = [0], [len(ids)], [-1]
        tokens_at: list[tuple[int, ...]] = [()]
        path = [0]
        prev = b""
        for k, tid in enumerate(ids):
            piece = pieces[tid]
            common = 0
            limit = min(len(prev), len(piece))
            while common < limit and prev[common] == piece[common]:
                common += 1
            for node in path[common + 1 :]:
                hi[node] = k
            del path[common + 1 :]
            for d in range(common, len(piece)):
                parent, new = path[-1], len(label)
                label.append(piece[d])
                depth.append(d + 1)
                lo.append(k)
                hi.append(-1)
                first_child.append(-1)
                next_sibling.append(-1)
                last_child.append(-1)
                tokens_at.append(())
                if last_child[parent] < 0:
                    first_child[parent] = new
                else:
                    next_sibling[last_child[parent]] = new
                last_child[parent] = new
                path.append(new)
            tokens_at[path[-1]] += (tid,)
            prev = piece
        for node in path[1:]:
            hi[node] = len(ids)
        self.first_child = first_child
        self.next_sibling = next_sibling
        self.label = label
        self.depth = depth
        self.lo = lo
        self.hi = hi
        self.tokens_at = tokens_at
        self.order = np.array(ids, dtype=np.int32)

    @property
    def n_nodes(self) -> int:
        """Return the number of trie nodes, root included."""
        return len(self.label)


_TRIES: dict[str, VocabTrie] = {}


def vocab_trie(vocab: Vocabulary) -> VocabTrie:
    """Return the (memoised) trie of a Vocabulary, leaving out its special tokens."""
    key = vocab.sha256
    trie = _TRIES.get(key)
    if trie is None:
        excluded = set(vocab.special_ids) | set(vocab.eog_ids)
        trie = _TRIES[key] = VocabTrie(vocab.pieces, excluded)
    return trie


@dataclass(frozen=True, slots=True)
class NodeTokens:
    """The tokens read from one grammar node: valid in every context, or only maybe.

    `uncertain` pairs a token id with the byte offsets at which the node's rule may end inside it;
    the rest of the piece from such an offset must be read by the caller of the rule.
    """

    accepted: np.ndarray
    uncertain: tuple[tuple[int, tuple[int, ...]], ...]


def classify_node(parser: PushdownParser, trie: VocabTrie, node: int, *, track_returns: bool) -> NodeTokens:
    """Return the context-independent and uncertain tokens at a grammar node, by one walk of the trie.

    `track_returns` False means the node's rule is never called, so running past its end is invalid.
    """
    step_memo, step = parser.step_memo, parser.step
    pops = parser.state_pops
    first_child, next_sibling, label = trie.first_child, trie.next_sibling, trie.label
    depth, tokens_at, lo, hi, order = trie.depth, trie.tokens_at, trie.lo, trie.hi, trie.order
    accepted: list[int] = []
    uncertain: list[tuple[int, tuple[int, ...]]] = []
    start = parser.unexpanded_state(parser.push(node, UNKNOWN))
    todo: list[tuple[int, int, tuple[int, ...]]] = [(0, start, ())]
    while todo:
        u, state, returns = todo.pop()
        c = first_child[u]
        base = state * 256
        while c >= 0:
            nxt = step_memo.get(base + label[c])
            if nxt is None:
                nxt = step(state, label[c])
            if nxt == DEAD:
                if returns:
                    uncertain.extend((tid, returns) for tid in order[lo[c] : hi[c]].tolist())
            else:
                if tokens_at[c]:
                    accepted.extend(tokens_at[c])
                if first_child[c] >= 0:
                    more = (*returns, depth[c]) if track_returns and pops[nxt] else returns
                    todo.append((c, nxt, more))
            c = next_sibling[c]
    return NodeTokens(np.array(sorted(accepted), dtype=np.int32), tuple(uncertain))
