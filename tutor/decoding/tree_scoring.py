"""Score many variants of one text in a single forward pass: the variants' token trie as one batch.

Every variant follows the same prompt. A token shared by several variants (a trie node) is one
cell of the KV cache that belongs to all of their sequences, so llama.cpp's causal mask lets each
token attend exactly to its own ancestors: one `llama_decode` evaluates the whole trie, each node
once, where a sequential walk needs a call per branch. It needs a context with several sequences
over one unified KV cache (`n_seq_max > 1`, `kv_unified`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import llama_cpp
import numpy as np


@dataclass
class _Node:
    token: int
    depth: int  # index in the variant (0: the first token after the prompt)
    parent: int  # node index, -1: the prompt's last token
    seqs: list[int] = field(default_factory=list)
    needs_row: bool = False  # its logits score a child


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
        whose log-probability cancels out. The KV cache holds the prompt afterwards (sequence 0).
        """
        c = self.c
        p = len(prompt)
        if p == 0:
            raise ValueError("token_logprobs needs a non-empty prompt (at least BOS)")
        longest = max((len(v) for v in variants), default=0)
        if p + longest >= c.n_ctx:
            raise c.error(f"the sentence needs {p + longest} tokens but the context holds {c.n_ctx}")
        skip = skip or [0] * len(variants)
        out: list[np.ndarray] = [np.zeros(len(v), dtype=np.float64) for v in variants]
        for group in self._groups(p, variants):
            self._score_group(prompt, [(i, variants[i], skip[i]) for i in group], out)
        return out

    def _groups(self, p: int, variants: list[list[int]]) -> list[list[int]]:
        """Split the variants (in sorted order) into batches that fit: at most n_seq - 1 sequences
        (sequence 0 keeps the prompt) and a trie small enough for the KV cache's free cells."""
        budget = max(1, self.c.n_ctx - p - 8)
        groups: list[list[int]] = []
        nodes, prev = 0, None
        for i in sorted(range(len(variants)), key=lambda i: variants[i]):
            v = variants[i]
            new = len(v) - (shared_prefix_length([prev, v]) if prev is not None else 0)
            if not groups or len(groups[-1]) >= self.n_seq - 1 or nodes + new > budget:
                groups.append([])
                nodes, new = 0, len(v)
            groups[-1].append(i)
            nodes += new
            prev = v
        return groups

    def _score_group(self, prompt: list[int], group: list[tuple[int, list[int], int]],
                     out: list[np.ndarray]) -> None:
        c = self.c
        p = len(prompt)
        # the prompt in sequence 0, all but its last token (re-evaluated: its logits score token 0)
        common = 0
        c._claim()
        for a, b in zip(c.kv_tokens, prompt, strict=False):
            if a != b:
                break
            common += 1
        common = min(common, p - 1)
        c._trim(common)
        seqs = list(range(1, len(group) + 1))
        for s in seqs:
            llama_cpp.llama_memory_seq_rm(c.memory, s, -1, -1)
            if common:
                llama_cpp.llama_memory_seq_cp(c.memory, 0, s, 0, common)
        # the trie of the group's variants
        nodes: list[_Node] = []
        children: list[dict[int, int]] = []
        root_children: dict[int, int] = {}
        paths: list[list[int]] = []
        for s, (_, v, _) in zip(seqs, group, strict=True):
            here, kids, path = -1, root_children, []
            for d, tok in enumerate(v):
                n = kids.get(tok)
                if n is None:
                    n = len(nodes)
                    nodes.append(_Node(tok, d, here))
                    children.append({})
                    kids[tok] = n
                nodes[n].seqs.append(s)
                path.append(n)
                here, kids = n, children[n]
            paths.append(path)
        need_prompt_row = False
        for (_, v, sk), path in zip(group, paths, strict=True):
            for d in range(max(sk, 0), len(v)):
                if d == 0:
                    need_prompt_row = True
                else:
                    nodes[path[d - 1]].needs_row = True
        # one batch: the prompt's tail (sequence 0 and every variant's), then the trie in DFS order
        entries: list[tuple[int, int, list[int], bool, int]] = []  # token, pos, seqs, logits, node
        tail = prompt[common:]
        for k, tok in enumerate(tail):
            last = k == len(tail) - 1
            entries.append((tok, common + k, [0, *seqs], last and need_prompt_row, -1))
        for n, node in enumerate(nodes):  # creation order is DFS over sorted variants: parents first
            entries.append((node.token, p + node.depth, node.seqs, node.needs_row, n))
        rows: dict[int, dict[int, float]] = {}  # node (-1: prompt) -> child token -> log-prob
        for off in range(0, len(entries), self.cap):
            self._decode(entries[off:off + self.cap], rows, children, root_children)
        c.kv_tokens.extend(tail)
        for (i, v, sk), path in zip(group, paths, strict=True):
            lp = out[i]
            for d in range(max(sk, 0), len(v)):
                lp[d] = rows[path[d - 1] if d else -1][v[d]]
        for s in seqs:  # drop the variants: the cache holds the prompt again
            llama_cpp.llama_memory_seq_rm(c.memory, s, -1, -1)

    def _decode(self, chunk: list[tuple[int, int, list[int], bool, int]], rows: dict[int, dict[int, float]],
                children: list[dict[int, int]], root_children: dict[int, int]) -> None:
        """Evaluate one batch; for each row with logits, keep the log-probability of its children's tokens."""
        c, b = self.c, self.batch
        wanted: list[tuple[int, int]] = []  # (batch index, node)
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
        for i, node in wanted:  # llama_get_logits_ith maps the batch index to its output row
            row = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(c.ctx, i), shape=(c.n_vocab,))
            m = float(row.max())
            lse = m + float(np.log(np.exp(row - m).sum(dtype=np.float64)))
            kids = root_children if node < 0 else children[node]
            rows[node] = {tok: float(row[tok]) - lse for tok in kids}
