"""Score many variants of one text in a single forward pass: the variants' token trie as one batch.

Every variant follows the same prompt. The tokens all variants start with (the *trunk*: a text's
previous sentence and the words before a sentence's first verb) are read once, after the prompt, in
sequence 0, and stay in the KV cache after the call: a later call whose prompt and trunk start the
same way (a re-check of a sentence edited after its first words) reads only what follows. Past the
trunk, a token shared by several variants (a trie node) is one cell of the KV cache that belongs to
all of their sequences, so llama.cpp's causal mask lets each token attend exactly to its own
ancestors: one `llama_decode` evaluates the whole trie, each node once, where a sequential walk
needs a call per branch. It needs a context with several sequences over one unified KV cache (`n_seq_max > 1`,
`kv_unified`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import llama_cpp
import numpy as np


@dataclass
class _Node:
    token: int
    depth: int  # index in the variant past the trunk (0: the first token after the trunk)
    parent: int  # node index, -1: the trunk's last token
    seqs: list[int] = field(default_factory=list)
    needs_row: bool = False  # its logits score a child


Row = dict[int, float] | np.ndarray  # token -> log-probability (sparse, or a whole row)


def shared_prefix_length(seqs: list[list[int]]) -> int:
    """Return how many leading tokens all the sequences share."""
    if not seqs:
        return 0
    n = min(len(v) for v in seqs)
    first = seqs[0]
    for v in seqs[1:]:
        n = next((i for i in range(n) if v[i] != first[i]), n)
    return n


def max_sequences(context) -> int:
    """Return how many sequences the context holds (1: no tree scoring)."""
    return int(llama_cpp.llama_n_seq_max(context.ctx))


def _log_softmax_at(row: np.ndarray, tokens) -> dict[int, float]:
    """Return the log-probability of each of `tokens` under one row of logits."""
    m = float(row.max())
    lse = m + float(np.log(np.exp(row - m).sum(dtype=np.float64)))
    return {tok: float(row[tok]) - lse for tok in tokens}


class TreeScorer:
    """Log-probabilities of variant token sequences after a prompt, one batch per group of variants."""

    def __init__(self, context, *, batch_cap: int = 512) -> None:
        self.c = context
        self.n_seq = max_sequences(context)
        if self.n_seq < 2:
            raise ValueError("tree scoring needs a context with several sequences (n_seq_max > 1)")
        self.cap = batch_cap
        self.batch = llama_cpp.llama_batch_init(batch_cap, 0, self.n_seq)

    def free(self) -> None:
        """Free the batch."""
        if self.batch is not None:
            llama_cpp.llama_batch_free(self.batch)
            self.batch = None

    def token_logprobs(self, prompt: list[int], variants: list[list[int]],
                       skip: list[int] | None = None) -> list[np.ndarray]:
        """Return, per variant, the log-probability of each of its tokens after `prompt`.

        `skip[i]` leading tokens of variant i are not scored (their entries are 0): a shared lead
        whose log-probability cancels out. The KV cache holds the prompt and the variants' trunk
        afterwards (sequence 0; `kv_tokens`).
        """
        c = self.c
        p = len(prompt)
        if p == 0:
            raise ValueError("token_logprobs needs a non-empty prompt (at least BOS)")
        longest = max((len(v) for v in variants), default=0)
        if p + longest >= c.n_ctx:
            raise c.error(f"the sentence needs {p + longest} tokens but the context holds {c.n_ctx}")
        skip = [max(s, 0) for s in skip] if skip else [0] * len(variants)
        out: list[np.ndarray] = [np.zeros(len(v), dtype=np.float64) for v in variants]
        if not variants:
            return out
        trunk = shared_prefix_length(variants)
        head = prompt + variants[0][:trunk]  # what sequence 0 holds: read once, kept after the call
        n = len(head)
        # rows of `head` whose logits score a variant's token: row p + d - 1 scores depth d (d ≤ trunk)
        wanted = {p + d - 1 for v, sk in zip(variants, skip, strict=True)
                  for d in range(sk, min(trunk, len(v) - 1) + 1)}
        c._claim()
        common = 0
        for a, b in zip(c.kv_tokens, head, strict=False):
            if a != b:
                break
            common += 1
        common = min(common, n - 1, *wanted) if wanted else min(common, n - 1)
        c._trim(common)
        head_rows: dict[int, Row] = {}  # head index -> token -> log-prob
        rest = [v[trunk:] for v in variants]
        try:
            for g, group in enumerate(self._groups(n, rest)):
                tail = head[common:] if g == 0 else []
                self._score_group(head, common, tail, wanted, head_rows, [(i, rest[i]) for i in group], out, trunk,
                                  skip)
                if g == 0:
                    c.kv_tokens.extend(tail)
        except Exception:  # a failed batch may leave cells we have no record of: start the cache afresh
            llama_cpp.llama_memory_clear(c.memory, True)
            c.kv_tokens.clear()
            raise
        for i, (v, sk) in enumerate(zip(variants, skip, strict=True)):
            for d in range(sk, min(trunk, len(v) - 1) + 1):
                if d < trunk:
                    out[i][d] = head_rows[p + d - 1][v[d]]
        return out

    def _groups(self, n: int, rest: list[list[int]]) -> list[list[int]]:
        """Split the variants (in sorted order) into batches that fit: at most n_seq - 1 sequences
        (sequence 0 keeps the prompt and trunk) and a trie small enough for the KV cache's free cells."""
        budget = max(1, self.c.n_ctx - n - 8)
        groups: list[list[int]] = []
        nodes, prev = 0, None
        for i in sorted(range(len(rest)), key=lambda i: rest[i]):
            v = rest[i]
            new = len(v) - (shared_prefix_length([prev, v]) if prev is not None else 0)
            if not groups or len(groups[-1]) >= self.n_seq - 1 or nodes + new > budget:
                groups.append([])
                nodes, new = 0, len(v)
            groups[-1].append(i)
            nodes += new
            prev = v
        return groups

    def _score_group(self, head: list[int], common: int, tail: list[int], wanted: set[int],
                     head_rows: dict[int, Row], group: list[tuple[int, list[int]]],
                     out: list[np.ndarray], trunk: int, skip: list[int]) -> None:
        c = self.c
        n = len(head)
        seqs = list(range(1, len(group) + 1))
        cached = n - len(tail)  # cells of sequence 0 the group's sequences start from
        for s in seqs:
            llama_cpp.llama_memory_seq_rm(c.memory, s, -1, -1)
            if cached:
                llama_cpp.llama_memory_seq_cp(c.memory, 0, s, 0, cached)
        # the trie of the group's variants past the trunk
        nodes: list[_Node] = []
        children: list[dict[int, int]] = []
        root_children: dict[int, int] = {}
        paths: list[list[int]] = []
        for s, (_, v) in zip(seqs, group, strict=True):
            here, kids, path = -1, root_children, []
            for d, tok in enumerate(v):
                k = kids.get(tok)
                if k is None:
                    k = len(nodes)
                    nodes.append(_Node(tok, d, here))
                    children.append({})
                    kids[tok] = k
                nodes[k].seqs.append(s)
                path.append(k)
                here, kids = k, children[k]
            paths.append(path)
        for (i, v), path in zip(group, paths, strict=True):
            for d in range(max(skip[i] - trunk, 1), len(v)):
                nodes[path[d - 1]].needs_row = True
        # one batch: the head's tail (sequence 0 and the group's), then the trie's inner nodes in DFS order
        entries: list[tuple[int, int, list[int], bool, int]] = []  # token, pos, seqs, logits, node
        for k, tok in enumerate(tail):
            at = common + k
            entries.append((tok, at, [0, *seqs], at in wanted, -2 - at))
        # creation order is DFS over sorted variants, parents first. Every node is evaluated, leaves too
        # (their cells are never read): the cells' layout in the KV cache moves llama.cpp's f16 attention
        # sums by up to a few tenths of a nat, so the layout stays that of one batch per sentence
        for k, node in enumerate(nodes):
            entries.append((node.token, n + node.depth, node.seqs, node.needs_row, k))
        rows: dict[int, dict[int, float]] = {}  # trie node -> child token -> log-prob
        for off in range(0, len(entries), self.cap):
            self._decode(entries[off:off + self.cap], rows, head_rows, head, children, root_children)
        root = head_rows.get(n - 1, {})
        for (i, v), path in zip(group, paths, strict=True):
            lp = out[i]
            for d in range(max(skip[i] - trunk, 0), len(v)):
                lp[trunk + d] = rows[path[d - 1]][v[d]] if d else root[v[0]]
        for s in seqs:  # drop the variants: the cache holds the prompt and the trunk again
            llama_cpp.llama_memory_seq_rm(c.memory, s, -1, -1)

    def _decode(self, chunk: list[tuple[int, int, list[int], bool, int]], rows: dict[int, dict[int, float]],
                head_rows: dict[int, Row], head: list[int], children: list[dict[int, int]],
                root_children: dict[int, int]) -> None:
        """Evaluate one batch; for each row with logits, keep the log-probability of the tokens it scores."""
        c, b = self.c, self.batch
        wanted: list[tuple[int, int]] = []  # (batch index, node; -2 - i for the head's index i)
        for i, (tok, pos, seqs, logits, node) in enumerate(chunk):
            b.token[i] = tok
            b.pos[i] = pos
            b.n_seq_id[i] = len(seqs)
            for k, s in enumerate(seqs):
                b.seq_id[i][k] = s
            b.logits[i] = logits
            if logits:
                wanted.append((i, node))
        b.n_tokens = len(chunk)
        t0 = time.perf_counter_ns()
        rc = llama_cpp.llama_decode(c.ctx, b)
        c.stats.ns += time.perf_counter_ns() - t0
        c.stats.calls += 1
        c.stats.tokens += len(chunk)
        if rc != 0:
            raise c.error(f"the model failed to evaluate {len(chunk)} tokens (llama_decode returned {rc})")
        n = len(head)
        for i, node in wanted:  # llama_get_logits_ith maps the batch index to its output row
            row = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(c.ctx, i), shape=(c.n_vocab,))
            if node >= 0:
                rows[node] = _log_softmax_at(row, children[node])
            else:
                at = -2 - node
                if at == n - 1:  # the trunk's last token scores the first token of every group's variants
                    m = float(row.max())
                    lse = m + float(np.log(np.exp(row - m).sum(dtype=np.float64)))
                    head_rows[at] = row.astype(np.float64) - lse  # indexed by token, like the sparse rows
                else:
                    head_rows[at] = _log_softmax_at(row, (head[at + 1],))
