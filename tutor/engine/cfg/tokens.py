"""Per grammar node, the tokens whose validity does not depend on the stack, read off the vocabulary trie.

As in XGrammar, a token read from a node is *context-independent* when the node's own rule decides it:
either the token ends inside the rule (or exactly where the rule ends), so it is valid whatever called
the rule, or it fails inside the rule, so it is invalid everywhere. Only tokens that run past the end
of the rule are *uncertain*: they are checked against the actual stack when a parser state is first
seen. Walking the trie shares the work of common prefixes, and a dead prefix skips its whole subtree.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tutor.engine.cfg.parser import DEAD, UNKNOWN, PushdownParser
from tutor.engine.trie import TokenTrie


@dataclass(frozen=True, slots=True)
class NodeTokens:
    """The tokens read from one grammar node: valid in every context, or only maybe.

    `uncertain` pairs a token id with the byte offsets at which the node's rule may end inside it;
    the rest of the piece from such an offset must be read by the caller of the rule.
    """

    accepted: np.ndarray
    uncertain: tuple[tuple[int, tuple[int, ...]], ...]


def classify_node(parser: PushdownParser, trie: TokenTrie, node: int, *, track_returns: bool) -> NodeTokens:
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
