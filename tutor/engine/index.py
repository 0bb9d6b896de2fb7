"""The token index: for every DFA state, the set of token ids allowed there.

Built by walking the vocabulary's byte trie (trie.py) alongside the automaton, level by level with numpy,
for all start states at once (a prefix shared by many tokens is stepped once per state). Counted
string families (see json_schema) are walked once in collapsed form (the one-character automaton,
counting characters) and then every (q, u) state's set is a slice of one array sorted by the
character count, so a maxLength of 1000 costs about as much as a maxLength of 30.

The result is a handful of flat numpy arrays (`IndexArrays`), cheap to cache and load:
each set is a slice `pool[start:stop]` of allowed ids (or banned ids when that list is
shorter), optionally with a packed bitmask for dense sets; `state_set` maps a state to its set.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tutor.engine.json_schema import QUOTE, body_automaton
from tutor.engine.limits import Budget, Limits
from tutor.engine.matcher import AllowedSet
from tutor.engine.trie import TokenTrie, token_trie

if TYPE_CHECKING:
    from tutor.engine.dfa import ClassDFA
    from tutor.engine.json_schema import StringFamily
    from tutor.engine.vocab import Vocabulary

# Apply cost model (ns on the development machine, float32 logits): scattering -inf to banned ids
# costs ~1 per id; the allowed form fills the array (~0.07 per vocabulary entry) then gathers and
# scatters (~2 per id); a packed bitmask costs ~0.35 per vocabulary entry, whatever the density.
_NS_BANNED = 1.0
_NS_ALLOWED = 2.0
_NS_FILL = 0.075
_NS_BITMASK = 0.35


def token_classes(dfa: ClassDFA, states: np.ndarray, depth: int) -> np.ndarray:
    """Return a class for each of `states` such that states in one class allow the same tokens.

    Two states allow the same tokens (EOS aside) when the same byte strings of up to `depth` bytes
    keep them alive: at most `depth` rounds of Moore's refinement on liveness alone. States not
    listed count as all different.
    """
    n = dfa.n_states
    classes = np.arange(n, dtype=np.int64) + 1  # unlisted states: their own class (0 is taken)
    classes[states] = 0
    rows = dfa.table[states]
    n_classes = 1
    for _ in range(depth):
        signature = np.where(rows >= 0, classes[np.maximum(rows, 0)], -1)
        _, refined = np.unique(signature, axis=0, return_inverse=True)
        refined = refined.reshape(-1)
        count = int(refined.max()) + 1 if refined.size else 0
        if count == n_classes:
            break
        classes[states] = refined - n - 1  # keep listed classes apart from the unlisted ids
        n_classes = count
    return classes[states]


def _live_depth(trie: TokenTrie, live_bytes: np.ndarray) -> int:
    """Return the length of the longest piece made only of bytes in live_bytes (bool [256])."""
    depth = 0
    frontier = np.array([0])
    while frontier.size:
        counts = trie.child_count[frontier]
        rep = np.repeat(np.arange(frontier.size), counts)
        child = trie.child_start[frontier][rep] + (np.arange(rep.size) - (np.cumsum(counts) - counts)[rep])
        frontier = child[live_bytes[trie.node_byte[child]]]
        depth += bool(frontier.size)
    return depth


@dataclass
class _Walk:
    """Tokens reached by a trie walk: per hit, the start index, the token, the end state and the count."""

    origin: np.ndarray
    token: np.ndarray
    state: np.ndarray
    count: np.ndarray


def walk(
    trie: TokenTrie,
    table: np.ndarray,
    origin: np.ndarray,
    state: np.ndarray,
    node: np.ndarray | None = None,
    count: np.ndarray | None = None,
    starts: np.ndarray | None = None,
    marker: int = -1,
    byte_class: np.ndarray | None = None,
    budget: Budget | None = None,
    prepared: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[_Walk, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Walk the trie from (state, node) pairs through `table` (-1 dead) for all pairs at once.

    `table` is [n, 256], or [n, classes] with `byte_class` mapping bytes to columns. Returns the
    tokens reached alive, and the (origin, node, count) triples where the walk entered state
    `marker` (whose row must be dead). `starts` (like table, 0/1) counts characters. `prepared` is
    prepare(trie, table, byte_class), for a caller that walks the same table many times.
    """
    width = table.shape[1]
    flat, node_column = prepared if prepared is not None else prepare(trie, table, byte_class)
    flat_starts = starts.reshape(-1).astype(np.int64) if starts is not None else None
    node = np.zeros_like(origin) if node is None else node
    count = np.zeros_like(origin) if count is None else count
    hits: list[tuple[np.ndarray, ...]] = []
    marks: list[tuple[np.ndarray, ...]] = []
    held = 0  # bytes of hits kept so far
    while origin.size:
        if budget is not None:
            budget.check_time()
        n_children = trie.child_count[node]
        keep = n_children > 0
        if not keep.all():
            origin, state, node, count, n_children = (
                origin[keep], state[keep], node[keep], count[keep], n_children[keep],
            )
        if not origin.size:
            break
        if budget is not None:  # the step's temporaries are about 8 int64 arrays of this size
            budget.index_bytes(held + int(n_children.sum()) * 64)
        rep = np.repeat(np.arange(origin.size), n_children)
        offsets = np.cumsum(n_children) - n_children
        child = trie.child_start[node][rep] + (np.arange(rep.size) - offsets[rep])
        cell = state[rep] * width + node_column[child]
        nxt = flat[cell]
        alive = nxt >= 0
        rep, child, cell, nxt = rep[alive], child[alive], cell[alive], nxt[alive]
        origin, count = origin[rep], count[rep]
        if flat_starts is not None:
            count = count + flat_starts[cell]
        token = trie.node_token[child]
        has = token >= 0
        if has.any():
            hits.append((origin[has], token[has], nxt[has], count[has]))
            held += int(has.sum()) * 32
        if marker >= 0:
            at = nxt == marker
            if at.any():
                marks.append((origin[at], child[at], count[at]))
        state, node = nxt, child
    def cat(parts: list[tuple[np.ndarray, ...]], k: int, n: int) -> list[np.ndarray]:
        if not parts:
            return [np.zeros(0, dtype=np.int64) for _ in range(n)]
        return [np.concatenate([p[i] for p in parts]) for i in range(k)]

    got = _Walk(*cat(hits, 4, 4))
    got = _with_duplicates(trie, got)
    return got, tuple(cat(marks, 3, 3))  # type: ignore[return-value]


def prepare(trie: TokenTrie, table: np.ndarray, byte_class: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return what walk() reads: the table flat (int64 when it could overflow int32) and each trie node's column."""
    node_column = trie.node_byte.astype(np.int64) if byte_class is None else byte_class[trie.node_byte]
    wide = table.size >= 2**31 - 1
    return table.reshape(-1).astype(np.int64 if wide else np.int32, copy=False), node_column


def _with_duplicates(trie: TokenTrie, got: _Walk) -> _Walk:
    """Add a hit for each token whose piece duplicates a token that was hit."""
    if not trie.dup_ids.size or not got.token.size:
        return got
    order = np.argsort(trie.dup_canon, kind="stable")
    canon, dups = trie.dup_canon[order], trie.dup_ids[order]
    lo = np.searchsorted(canon, got.token, "left")
    hi = np.searchsorted(canon, got.token, "right")
    n = hi - lo
    if not n.any():
        return got
    rep = np.repeat(np.arange(got.token.size), n)
    extra = dups[np.repeat(lo, n) + (np.arange(rep.size) - np.repeat(np.cumsum(n) - n, n))]
    return _Walk(
        np.concatenate([got.origin, got.origin[rep]]),
        np.concatenate([got.token, extra]),
        np.concatenate([got.state, got.state[rep]]),
        np.concatenate([got.count, got.count[rep]]),
    )


@dataclass(frozen=True, eq=False)
class IndexArrays:
    """The token index as flat arrays.

    Set k is `pool[set_start[k]:set_stop[k]]`: allowed ids, or banned ids if `set_banned[k]`;
    `set_bitmask[k]` is a row of `bitmasks` (packed uint32 bitmask of the allowed ids) or -1.
    `state_set[s]` is the set of state s; the last entry is the state after end-of-generation.
    """

    pool: np.ndarray
    set_start: np.ndarray
    set_stop: np.ndarray
    set_banned: np.ndarray
    set_bitmask: np.ndarray
    bitmasks: np.ndarray
    state_set: np.ndarray

    def arrays(self) -> dict[str, np.ndarray]:
        """Return the arrays by field name."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @property
    def nbytes(self) -> int:
        """Return the memory held by the arrays."""
        return sum(a.nbytes for a in self.arrays().values())


class _SetBuilder:
    """Collects sets into one pool, deduplicating identical ones and choosing each set's form.

    `base_bytes` (the tables the sets are built from) and `row_bytes` per set (the packed row that
    decoding builds for it later) count against the budget with the pool.
    """

    def __init__(self, vocab_size: int, budget: Budget | None = None, *, base_bytes: int = 0,
                 row_bytes: int = 0) -> None:
        self.v = vocab_size
        self.budget = budget
        self.base_bytes = base_bytes
        self.row_bytes = row_bytes
        self.segments: list[np.ndarray] = []
        self.segment_starts: list[int] = []
        self.pool_size = 0
        self.sets: list[tuple[int, int, bool, int]] = []
        self.bitmasks: list[np.ndarray] = []
        self.by_content: dict[bytes, int] = {}

    def segment(self, ids: np.ndarray) -> int:
        """Append ids to the pool; return where they start."""
        start = self.pool_size
        self.segments.append(ids.astype(np.int64, copy=False))
        self.segment_starts.append(start)
        self.pool_size += ids.size
        self._check()
        return start

    @property
    def nbytes(self) -> int:
        """Return the bytes the sets hold (and will hold, with their packed rows), with base_bytes."""
        return (self.base_bytes + self.pool_size * 8 + len(self.bitmasks) * (self.v // 8 + 4)
                + len(self.sets) * (32 + self.row_bytes))

    def _check(self) -> None:
        if self.budget is not None:
            self.budget.index_bytes(self.nbytes)
            self.budget.tick()

    def allowed_set(self, k: int) -> AllowedSet:
        """Return set k as an AllowedSet (its ids a view of the pool segment holding them)."""
        start, stop, banned, m = self.sets[k]
        i = bisect.bisect_right(self.segment_starts, start) - 1
        seg, at = self.segments[i], self.segment_starts[i]
        return AllowedSet(seg[start - at : stop - at], bool(banned), self.bitmasks[m] if m >= 0 else None)

    def _bitmask(self, allowed: np.ndarray, n_allowed: int) -> int:
        n_banned = self.v - n_allowed
        best_list = min(_NS_BANNED * n_banned, _NS_FILL * self.v + _NS_ALLOWED * n_allowed)
        if best_list <= _NS_BITMASK * self.v:
            return -1
        bits = np.zeros(-(-self.v // 32) * 32, dtype=bool)
        bits[allowed] = True
        self.bitmasks.append(np.packbits(bits, bitorder="little").view("<u4"))
        self._check()
        return len(self.bitmasks) - 1

    def add_ids(self, allowed: np.ndarray, dedupe: bool = True) -> int:
        """Add a set given by its allowed ids (no repeats); return the set index."""
        key = b""
        if dedupe:
            allowed = np.sort(allowed)
            key = allowed.tobytes()
            got = self.by_content.get(key)
            if got is not None:
                return got
        banned = allowed.size > self.v - allowed.size
        if banned:
            mask = np.ones(self.v, dtype=bool)
            mask[allowed] = False
            ids = np.flatnonzero(mask)
        else:
            ids = allowed
        start = self.segment(ids)
        self.sets.append((start, start + ids.size, banned, self._bitmask(allowed, allowed.size)))
        self._check()
        if dedupe:
            self.by_content[key] = len(self.sets) - 1
        return len(self.sets) - 1

    def add_prefix(self, base: int, ordered_allowed: np.ndarray, count: int) -> int:
        """Add the set of the first `count` ids of the segment at pool[base:].

        The segment holds `ordered_allowed` and, when it is a full permutation of the vocabulary,
        every other id after it (needed only when the banned form is the shorter one).
        """
        banned = count > self.v - count
        start, stop = (base + count, base + self.v) if banned else (base, base + count)
        self.sets.append((start, stop, banned, self._bitmask(ordered_allowed[:count], count)))
        self._check()
        return len(self.sets) - 1

    def finish(self, state_set: np.ndarray) -> IndexArrays:
        words = -(-self.v // 32)
        table = np.array(self.sets, dtype=np.int64).reshape(-1, 4)
        return IndexArrays(
            pool=np.concatenate(self.segments) if self.segments else np.zeros(0, dtype=np.int64),
            set_start=table[:, 0].copy(),
            set_stop=table[:, 1].copy(),
            set_banned=table[:, 2].astype(bool),
            set_bitmask=table[:, 3].copy(),
            bitmasks=np.vstack(self.bitmasks) if self.bitmasks else np.zeros((0, words), dtype="<u4"),
            state_set=state_set.astype(np.int32),
        )


def build_index(
    dfa: ClassDFA, vocab: Vocabulary, families: tuple[StringFamily, ...] = (), trie: TokenTrie | None = None,
    budget: Budget | None = None,
) -> IndexArrays:
    """Return the token index of a DFA (with its counted string families, if any) for a vocabulary.

    With a `budget`, raises LimitExceeded when the index would pass max_index_bytes or max_seconds.
    """
    trie = token_trie(vocab) if trie is None else trie
    n = dfa.n_states
    v = vocab.size
    eog = np.array(sorted(vocab.eog_ids), dtype=np.int64)
    sets = _SetBuilder(v, budget)
    state_set = np.full(n + 1, -1, dtype=np.int64)
    in_family = np.zeros(n, dtype=bool)
    for fam in families:
        in_family[fam.ids[fam.ids >= 0]] = True

    # Plain states: one walk for all of them, from one representative per class of states that
    # no token can tell apart (a counted repetition has a handful of classes, not one per count).
    plain = np.flatnonzero(~in_family)
    if plain.size > 32:
        live_bytes = (dfa.table[plain] >= 0).any(axis=0)[dfa.byte_class]
        same = token_classes(dfa, plain, _live_depth(trie, live_bytes))
        reps, rep_of = np.unique(same, return_inverse=True)
        rep_of = rep_of.reshape(-1)
    else:
        reps, rep_of = plain, np.arange(plain.size)
    first = np.zeros(reps.size, dtype=np.int64)
    first[rep_of[::-1]] = plain[::-1]
    got, _ = walk(trie, dfa.table, np.arange(reps.size, dtype=np.int64), first, byte_class=dfa.byte_class,
                  budget=budget)
    order = np.argsort(got.origin, kind="stable")
    tokens = got.token[order]
    bounds = np.searchsorted(got.origin[order], np.arange(reps.size + 1))
    done: dict[tuple[int, bool], int] = {}
    for s, r in zip(plain.tolist(), rep_of.tolist(), strict=True):
        key = (r, bool(dfa.accepting[s]))
        if key not in done:
            allowed = tokens[bounds[r] : bounds[r + 1]]
            done[key] = sets.add_ids(np.concatenate([allowed, eog]) if key[1] else allowed)
        state_set[s] = done[key]
    state_set[n] = sets.add_ids(eog)

    if families:
        _family_sets(dfa, trie, families, sets, state_set, budget)
    return sets.finish(state_set)


@dataclass(frozen=True, eq=False)
class BodyWalk:
    """The vocabulary inside a JSON string body, per state q of the one-character automaton (any grammar's).

    `body[q]`: the tokens that stay inside the body from q and the characters each starts, sorted by that
    count; `close[q]`: those that end with the closing quote; `marks`: (q, trie node, count) where a token
    goes on past the quote (the grammar's walk continues from there).
    """

    body: tuple[tuple[np.ndarray, np.ndarray], ...]
    close: tuple[tuple[np.ndarray, np.ndarray], ...]
    marks: tuple[np.ndarray, np.ndarray, np.ndarray]


_BODY_WALKS: dict[int, tuple[TokenTrie, BodyWalk]] = {}  # id(trie) -> (the trie, its walk): per vocabulary


def body_walk(trie: TokenTrie, budget: Budget | None = None) -> BodyWalk:
    """Return the trie's BodyWalk, walked once per trie and process (shared by every grammar's string families)."""
    hit = _BODY_WALKS.get(id(trie))
    if hit is not None and hit[0] is trie:
        return hit[1]
    body = body_automaton()
    n_q = body.n_states
    marker = n_q
    table = np.vstack([body.table, np.full((1, 256), -1, dtype=np.int32)])
    table[0, QUOTE] = marker
    starts = np.vstack([body.starts, np.zeros((1, 256), dtype=np.uint8)])
    qs = np.arange(n_q, dtype=np.int64)
    inside, marks = walk(trie, table, qs, qs, starts=starts, marker=marker, budget=budget)
    order = np.lexsort((inside.count, inside.origin))
    inside = _Walk(*(a[order] for a in (inside.origin, inside.token, inside.state, inside.count)))
    in_body = inside.state < marker
    bounds = np.searchsorted(inside.origin, np.arange(n_q + 1))
    parts, closing = [], []
    for q in range(n_q):
        part = slice(bounds[q], bounds[q + 1])
        keep = in_body[part]
        parts.append((inside.token[part][keep], inside.count[part][keep]))
        closing.append((inside.token[part][~keep], inside.count[part][~keep]))  # ends with the closing quote
    got = BodyWalk(tuple(parts), tuple(closing), marks)
    if len(_BODY_WALKS) >= 8:
        _BODY_WALKS.pop(next(iter(_BODY_WALKS)))
    _BODY_WALKS[id(trie)] = (trie, got)
    return got


def _exit_walk(dfa: ClassDFA, trie: TokenTrie, fam: StringFamily, walked: BodyWalk,
               budget: Budget | None = None) -> _Walk:
    """Return the walk of the tokens that go on past a family's closing quote, from its exit state."""
    m_origin, m_node, m_count = walked.marks
    after, _ = walk(trie, dfa.table, m_origin, np.full_like(m_origin, fam.exit), m_node, m_count,
                    byte_class=dfa.byte_class, budget=budget)
    return after


def _fill_family(fam: StringFamily, q: int, walked: BodyWalk, after: _Walk, sets: _SetBuilder,
                 state_set: np.ndarray) -> None:
    """Fill the states (q, u) of one family, every u."""
    us = np.flatnonzero(fam.ids[:, q] >= 0)
    if not us.size:
        return
    ma = after.origin == q
    exit_tok = np.concatenate([walked.close[q][0], after.token[ma]])
    exit_cnt = np.concatenate([walked.close[q][1], after.count[ma]])
    _fill_family_q(fam, q, us, *walked.body[q], exit_tok, exit_cnt, sets, state_set)


def _family_sets(
    dfa: ClassDFA, trie: TokenTrie, families: tuple[StringFamily, ...], sets: _SetBuilder, state_set: np.ndarray,
    budget: Budget | None = None,
) -> None:
    """Fill state_set for every family state (see the module docstring)."""
    walked = body_walk(trie, budget)
    for fam in families:
        after = _exit_walk(dfa, trie, fam, walked, budget)
        for q in range(len(walked.body)):
            _fill_family(fam, q, walked, after, sets, state_set)


def _fill_family_q(
    fam: StringFamily, q: int, us: np.ndarray, body_tok: np.ndarray, body_cnt: np.ndarray,
    exit_tok: np.ndarray, exit_cnt: np.ndarray, sets: _SetBuilder, state_set: np.ndarray,
) -> None:
    """Assign a set to each state (q, u) of one family.

    State (q, u) may take a body token that starts c <= budget characters, and a closing token
    that starts `deficit` <= c <= budget characters before its quote (budget = max - u, deficit =
    min - u). Sorting all live tokens by c makes every set with no deficit a prefix of one array.
    """
    v = sets.v
    order = np.argsort(exit_cnt, kind="stable")
    exit_tok, exit_cnt = exit_tok[order], exit_cnt[order]
    # Merge the two count-sorted lists (exits after body tokens of the same count).
    is_exit = np.zeros(body_tok.size + exit_tok.size, dtype=bool)
    is_exit[np.searchsorted(body_cnt, exit_cnt, "right") + np.arange(exit_tok.size)] = True
    tok = np.empty(is_exit.size, dtype=np.int64)
    cnt = np.empty(is_exit.size, dtype=np.int64)
    tok[is_exit], tok[~is_exit] = exit_tok, body_tok
    cnt[is_exit], cnt[~is_exit] = exit_cnt, body_cnt
    lowest_exit = int(exit_cnt[0]) if exit_cnt.size else None
    budget = fam.max - us if fam.max is not None else np.full(us.size, np.iinfo(np.int64).max // 2)
    deficit = np.maximum(fam.min - us, 0)
    prefix_counts = np.searchsorted(cnt, budget, "right")
    pure = np.ones(us.size, dtype=bool) if lowest_exit is None else deficit <= lowest_exit
    keys = np.stack([prefix_counts, np.where(pure, 0, deficit)], axis=1)  # states with one key share a set
    distinct, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    made = np.empty(len(distinct), dtype=np.int64)
    base = None
    for k in np.argsort(first, kind="stable").tolist():  # in the order the states first need them
        r_count, d = int(distinct[k, 0]), int(distinct[k, 1])
        if pure[first[k]]:
            if base is None:
                if tok.size > v // 4:  # dense: store a full permutation so banned forms are slices too
                    rest = np.ones(v, dtype=bool)
                    rest[tok] = False
                    base = sets.segment(np.concatenate([tok, np.flatnonzero(rest)]))
                else:
                    base = sets.segment(tok)
            made[k] = sets.add_prefix(base, tok, r_count)
        else:
            keep = (np.arange(tok.size) < r_count) & (~is_exit | (cnt >= d))
            made[k] = sets.add_ids(tok[keep], dedupe=False)
    state_set[fam.ids[us, q]] = made[inverse.reshape(-1)]


class LazyIndex:
    """The token index built state by state, the first time decoding asks for a state (`allowed(state)`).

    It gives every state the set build_index gives it: a plain state's set is one trie walk from that
    state; a string family's states at one body position q are filled together, as build_index fills
    them, from the vocabulary's body walk (`body_walk`: once per trie and process, shared by every grammar)
    and the family's walk past its closing quote (kept): the sets are prefixes of one array, so a maxLength
    of 1000 costs about as much as 30. Identical sets are stored once.
    Each build runs under a fresh Budget of `limits` (time), and everything built so far counts against
    max_index_bytes, so a grammar whose index would grow past it raises LimitExceeded when it does.
    """

    def __init__(self, dfa: ClassDFA, vocab: Vocabulary, families: tuple[StringFamily, ...], trie: TokenTrie,
                 limits: Limits | None = None, subject: str = "the grammar", base_bytes: int = 0) -> None:
        self.dfa, self.vocab, self.families, self.trie = dfa, vocab, families, trie
        self.limits, self.subject = limits, subject
        n = dfa.n_states
        self.eog = np.array(sorted(vocab.eog_ids), dtype=np.int64)
        self.sets = _SetBuilder(vocab.size, base_bytes=base_bytes, row_bytes=4 * -(-vocab.size // 32))
        self.state_set = np.full(n + 1, -1, dtype=np.int64)
        self.family_of = np.full(n, -1, dtype=np.int64)
        self.q_of = np.zeros(n, dtype=np.int64)
        for f, fam in enumerate(families):
            us, qs = np.nonzero(fam.ids >= 0)
            self.family_of[fam.ids[us, qs]] = f
            self.q_of[fam.ids[us, qs]] = qs
        self._after: dict[int, _Walk] = {}  # family -> the walk past its closing quote
        self._lock = threading.Lock()  # one build at a time: matchers of one grammar may run in several threads
        self._objects: dict[int, AllowedSet] = {}
        self._prepared: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def nbytes(self) -> int:
        """Return the bytes built so far (the sets, their packed rows to come, and base_bytes)."""
        return self.sets.nbytes

    @property
    def built(self) -> int:
        """Return how many states have their set."""
        return int((self.state_set >= 0).sum())

    def allowed(self, state: int) -> AllowedSet:
        """Return state's allowed set, building it (a family state: its family's states at its q) the first time."""
        k = int(self.state_set[state])
        if k < 0:
            with self._lock:
                if self.state_set[state] < 0:  # not built by another thread meanwhile
                    self.sets.budget = Budget(self.limits, subject=self.subject)
                    if state == self.dfa.n_states:
                        self.state_set[state] = self.sets.add_ids(self.eog)
                    elif self.family_of[state] >= 0:
                        self._family_q(int(self.family_of[state]), int(self.q_of[state]))
                    else:
                        self._plain(state)
                k = int(self.state_set[state])
                got = self._objects.get(k)
                if got is None:
                    got = self._objects[k] = self.sets.allowed_set(k)
                return got
        got = self._objects.get(k)
        if got is None:
            with self._lock:
                got = self._objects.get(k)
                if got is None:
                    got = self._objects[k] = self.sets.allowed_set(k)
        return got

    def _plain(self, state: int) -> None:
        if self._prepared is None:
            self._prepared = prepare(self.trie, self.dfa.table, self.dfa.byte_class)
        got, _ = walk(self.trie, self.dfa.table, np.zeros(1, dtype=np.int64), np.array([state], dtype=np.int64),
                      byte_class=self.dfa.byte_class, budget=self.sets.budget, prepared=self._prepared)
        allowed = got.token
        if self.dfa.accepting[state]:
            allowed = np.concatenate([allowed, self.eog])
        self.state_set[state] = self.sets.add_ids(allowed)

    def _family_q(self, f: int, q: int) -> None:
        """Fill family f's states at body position q (the body walk is the vocabulary's; the exit walk is kept)."""
        walked = body_walk(self.trie, self.sets.budget)
        after = self._after.get(f)
        if after is None:
            after = self._after[f] = _exit_walk(self.dfa, self.trie, self.families[f], walked, self.sets.budget)
        _fill_family(self.families[f], q, walked, after, self.sets, self.state_set)
