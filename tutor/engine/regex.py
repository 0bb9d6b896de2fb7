"""Regular expressions: a parser for the supported subset, UTF-8 byte-range expansion, Thompson construction.

`regex_to_dfa(pattern)` is the front door: pattern → AST → NFA over bytes → DFA → minimal DFA.
Matching is whole-string (like `re.fullmatch`). `\\d`, `\\w` and `\\s` are the ASCII classes
(as with `re.ASCII`); `.` is any Unicode scalar except newline; a negated class is any scalar
(newline included) outside the class. Unsupported syntax raises GrammarError naming the construct
and its character position.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tutor.engine.dfa import DFA, NFA, nfa_to_dfa
from tutor.engine.limits import Budget, Limits, short
from tutor.engine.matcher import GrammarError

MAX_SCALAR = 0x10FFFF
SURROGATES = (0xD800, 0xDFFF)
# Bound on {m,n} counts: the automaton is copied once per repetition.
MAX_REPEAT = 10_000

Ranges = tuple[tuple[int, int], ...]


# --- AST -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CharSet:
    """A set of Unicode scalars as sorted, disjoint, inclusive ranges."""

    ranges: Ranges


@dataclass(frozen=True)
class Seq:
    """A concatenation (the empty Seq matches the empty string)."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    """An alternation."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Repeat:
    """`item` repeated between `min` and `max` times (`max` None: unbounded)."""

    item: Node
    min: int
    max: int | None
    text: str = field(default="", compare=False)  # the source construct, for limit errors


Node = CharSet | Seq | Alt | Repeat
EMPTY = Seq(())


def normalise(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Return the ranges sorted and merged, with surrogates removed (they are not valid scalars)."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    clean: list[tuple[int, int]] = []
    for lo, hi in out:
        if hi < SURROGATES[0] or lo > SURROGATES[1]:
            clean.append((lo, hi))
            continue
        if lo < SURROGATES[0]:
            clean.append((lo, SURROGATES[0] - 1))
        if hi > SURROGATES[1]:
            clean.append((SURROGATES[1] + 1, hi))
    return tuple(clean)


def complement(ranges: Ranges) -> Ranges:
    """Return every Unicode scalar not in `ranges`."""
    out = []
    nxt = 0
    for lo, hi in normalise(ranges):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAX_SCALAR:
        out.append((nxt, MAX_SCALAR))
    return normalise(out)


def literal(text: str) -> Node:
    """Return the AST matching exactly `text` (one node per distinct character, shared: a 200,000-character
    literal is built in milliseconds, before the compilation's clock is first read)."""
    nodes = {ch: CharSet(((ord(ch), ord(ch)),)) for ch in set(text)}
    return Seq(tuple(map(nodes.__getitem__, text)))


# --- parser ----------------------------------------------------------------------------------------

_DIGIT: Ranges = ((0x30, 0x39),)
_WORD: Ranges = normalise([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
_SPACE: Ranges = normalise([(0x09, 0x0D), (0x20, 0x20)])
_SHORTHAND: dict[str, Ranges] = {
    "d": _DIGIT,
    "D": complement(_DIGIT),
    "w": _WORD,
    "W": complement(_WORD),
    "s": _SPACE,
    "S": complement(_SPACE),
}
_CONTROL_ESCAPES = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
_DOT: Ranges = complement(((0x0A, 0x0A),))
_HEX = "0123456789abcdefABCDEF"


class _Parser:
    """Recursive-descent parser for the supported regex subset."""

    def __init__(self, pattern: str, budget: Budget | None = None) -> None:
        self.p = pattern
        self.i = 0
        self.budget = budget if budget is not None else Budget(subject=f"the regex {short(pattern)}")
        self.depth = 0
        self.branches: list[tuple[Node, bool, bool]] = []  # top-level: (node, ^ anchored, $ anchored)

    def fail(self, what: str, pos: int | None = None, hint: str = "") -> GrammarError:
        pos = self.i if pos is None else pos
        msg = f"unsupported regex syntax: {what} at position {pos} in {self.p!r}"
        return GrammarError(msg + (f" ({hint})" if hint else ""))

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.p[j] if j < len(self.p) else ""

    def parse(self) -> Node:
        node = self.alternation(top=True)
        if self.i < len(self.p):  # only an unmatched ')' stops the top level early
            raise self.fail("unbalanced ')'")
        return node

    def alternation(self, top: bool) -> Node:
        branches = [self.sequence(top)]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence(top))
        return branches[0] if len(branches) == 1 else Alt(tuple(branches))

    def sequence(self, top: bool) -> Node:
        items: list[Node] = []
        head = tail = False
        if top:
            if self.peek() == "^":
                self.i += 1
                head = True
            elif self.p.startswith("\\A", self.i):
                self.i += 2
                head = True
        while self.i < len(self.p) and self.peek() not in "|)":
            if top and self._at_end_anchor():
                tail = True
                break
            items.append(self.quantified())
        node = items[0] if len(items) == 1 else Seq(tuple(items))
        if top:
            self.branches.append((node, head, tail))
        return node

    def _at_end_anchor(self) -> bool:
        """Consume a `$`, `\\Z` or `\\z` that ends a top-level branch; return True if one did."""
        for anchor in ("$", "\\Z", "\\z"):
            if self.p.startswith(anchor, self.i):
                end = self.i + len(anchor)
                if end == len(self.p) or self.p[end] == "|":
                    self.i = end
                    return True
        return False

    def quantified(self) -> Node:
        self.budget.tick()  # a long pattern is parsed against the compilation's clock too
        begin = self.i
        atom = self.atom()
        quantifier = self.quantifier()
        if quantifier is None:
            return atom
        lo, hi = quantifier
        if self.peek() == "?":
            raise self.fail("lazy quantifier", self.i, "a DFA matches the whole string; drop the '?'")
        if self.peek() == "+":
            raise self.fail("possessive quantifier", self.i)
        if self.quantifier_ahead():
            raise self.fail("multiple repeat", self.i)
        return Repeat(atom, lo, hi, f"the repetition {short(self.p[begin:self.i])} at position {begin}")

    def quantifier_ahead(self) -> bool:
        save = self.i
        found = self.quantifier() is not None
        self.i = save
        return found

    def quantifier(self) -> tuple[int, int | None] | None:
        ch = self.peek()
        if ch in ("*", "+", "?") and ch:
            self.i += 1
            return {"*": (0, None), "+": (1, None), "?": (0, 1)}[ch]
        if ch == "{":
            close = self.p.find("}", self.i)
            if close < 0:
                return None
            body = self.p[self.i + 1 : close]
            lo_text, comma, hi_text = body.partition(",")
            if not (lo_text.isdigit() or (comma and lo_text == "")) or (hi_text and not hi_text.isdigit()):
                return None  # like Python, a '{' that is not a quantifier is a literal
            if not lo_text.isascii() or not hi_text.isascii():
                return None
            lo = int(lo_text) if lo_text else 0
            hi = (int(hi_text) if hi_text else None) if comma else lo
            if hi is not None and hi < lo:
                raise self.fail(f"repeat range {{{body}}} with max < min", self.i)
            if max(lo, hi or 0) > MAX_REPEAT:
                raise self.fail(f"repeat count above {MAX_REPEAT}", self.i)
            self.i = close + 1
            return lo, hi
        return None

    def atom(self) -> Node:
        pos = self.i
        ch = self.peek()
        if ch == "(":
            return self.group()
        if ch == "[":
            return CharSet(self.char_class())
        if ch == ".":
            self.i += 1
            return CharSet(_DOT)
        if ch == "\\":
            return CharSet(self.escape(in_class=False))
        if ch in ("*", "+", "?"):
            raise self.fail("nothing to repeat", pos)
        if ch == "^":
            raise self.fail("anchor '^' (only supported at the start of the pattern)", pos)
        if ch == "$":
            raise self.fail("anchor '$' (only supported at the end of the pattern)", pos)
        self.i += 1
        return CharSet(((ord(ch), ord(ch)),))

    def group(self) -> Node:
        pos = self.i
        self.i += 1
        self.depth += 1
        with self.budget.at(f"the group at position {pos}"):
            self.budget.depth(self.depth, "groups")
        try:
            return self._group_body(pos)
        finally:
            self.depth -= 1

    def _group_body(self, pos: int) -> Node:
        if self.peek() == "?":
            rest = self.p[self.i : self.i + 4]
            if rest.startswith("?:"):
                self.i += 2
            elif rest.startswith("?P<"):
                close = self.p.find(">", self.i)
                name = self.p[self.i + 3 : close] if close > 0 else ""
                if close < 0 or not name.isidentifier():
                    raise self.fail("malformed named group", pos)
                self.i = close + 1
            else:
                names = [
                    ("?<=", "lookbehind '(?<='"),
                    ("?<!", "negative lookbehind '(?<!'"),
                    ("?=", "lookahead '(?='"),
                    ("?!", "negative lookahead '(?!'"),
                    ("?P=", "backreference '(?P='"),
                    ("?>", "atomic group '(?>'"),
                    ("?#", "comment group '(?#'"),
                    ("?(", "conditional group '(?('"),
                    ("?<", "named group '(?<name>' (write '(?P<name>')"),
                ]
                for prefix, label in names:
                    if rest.startswith(prefix):
                        raise self.fail(label, pos)
                raise self.fail("inline flags '(?...)'", pos)
        node = self.alternation(top=False)
        if self.peek() != ")":
            raise self.fail("missing ')' for the group opened", pos)
        self.i += 1
        return node

    def escape(self, in_class: bool) -> Ranges:
        pos = self.i
        self.i += 1
        ch = self.peek()
        if not ch:
            raise self.fail("trailing backslash", pos)
        self.i += 1
        if ch in _SHORTHAND:
            return _SHORTHAND[ch]
        if ch in _CONTROL_ESCAPES:
            return ((_CONTROL_ESCAPES[ch],) * 2,)
        if ch in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[ch]
            digits = self.p[self.i : self.i + width]
            if len(digits) != width or any(d not in _HEX for d in digits):
                raise self.fail(f"incomplete escape '\\{ch}{digits}'", pos)
            self.i += width
            value = int(digits, 16)
            if value > MAX_SCALAR:
                raise self.fail(f"escape '\\{ch}{digits}' beyond U+10FFFF", pos)
            return ((value, value),)
        if ch == "0":
            digits = ""
            while len(digits) < 2 and self.peek() in "01234567" and self.peek():
                digits += self.peek()
                self.i += 1
            value = int(digits or "0", 8)
            return ((value, value),)
        if ch.isdigit():
            raise self.fail(f"backreference '\\{ch}'", pos)
        if ch == "b" and in_class:
            return ((8, 8),)
        labels = {
            "b": "word boundary '\\b'",
            "B": "non-boundary '\\B'",
            "A": "anchor '\\A' (only supported at the start of the pattern)",
            "Z": "anchor '\\Z' (only supported at the end of the pattern)",
            "z": "anchor '\\z' (only supported at the end of the pattern)",
            "N": "named character '\\N{...}'",
            "p": "Unicode property '\\p'",
            "P": "Unicode property '\\P'",
            "G": "anchor '\\G'",
            "k": "backreference '\\k'",
        }
        if ch in labels:
            raise self.fail(labels[ch], pos)
        if ch.isascii() and ch.isalnum():
            raise self.fail(f"unknown escape '\\{ch}'", pos)
        return ((ord(ch), ord(ch)),)

    def char_class(self) -> Ranges:
        pos = self.i
        self.i += 1
        negate = self.peek() == "^"
        if negate:
            self.i += 1
        items: list[tuple[int, int]] = []
        first = True
        while True:
            ch = self.peek()
            if not ch:
                raise self.fail("unterminated character class", pos)
            if ch == "]" and not first:
                self.i += 1
                break
            first = False
            item_pos = self.i
            lo_ranges = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                hi_pos = self.i
                hi_ranges = self.class_atom()
                if len(lo_ranges) != 1 or lo_ranges[0][0] != lo_ranges[0][1]:
                    raise self.fail("class shorthand as a range bound", item_pos)
                if len(hi_ranges) != 1 or hi_ranges[0][0] != hi_ranges[0][1]:
                    raise self.fail("class shorthand as a range bound", hi_pos)
                lo, hi = lo_ranges[0][0], hi_ranges[0][0]
                if hi < lo:
                    raise self.fail(f"bad character range {self.p[item_pos:self.i]!r}", item_pos)
                items.append((lo, hi))
            else:
                items.extend(lo_ranges)
        ranges = normalise(items)
        return complement(ranges) if negate else ranges

    def class_atom(self) -> Ranges:
        ch = self.peek()
        if ch == "\\":
            return self.escape(in_class=True)
        if ch == "[" and self.peek(1) in (":", "=", "."):
            raise self.fail(f"POSIX class '[{self.peek(1)}'", self.i)
        self.i += 1
        return ((ord(ch), ord(ch)),)


def parse(pattern: str, budget: Budget | None = None) -> Node:
    """Parse a regex of the supported subset into an AST; raise GrammarError on unsupported syntax."""
    return _Parser(pattern, budget).parse()


ANY_SCALAR: Ranges = ((0, 0xD7FF), (0xE000, MAX_SCALAR))


def parse_search(pattern: str, budget: Budget | None = None) -> Node:
    """Return the AST of strings that *contain* a match (JSON Schema `pattern` semantics).

    A top-level branch anchored with `^` (or `$`) must match at the start (or end).
    """
    parser = _Parser(pattern, budget)
    parser.parse()
    anything = Repeat(CharSet(ANY_SCALAR), 0, None)
    branches = [
        Seq(((anything,) if not head else ()) + (node,) + ((anything,) if not tail else ()))
        for node, head, tail in parser.branches
    ]
    return branches[0] if len(branches) == 1 else Alt(tuple(branches))


# --- UTF-8 -----------------------------------------------------------------------------------------

ByteSeq = tuple[tuple[int, int], ...]  # one byte range per position

_LENGTH_LIMITS = (0x7F, 0x7FF, 0xFFFF, MAX_SCALAR)


def _encode(cp: int) -> bytes:
    return chr(cp).encode("utf-8", "surrogatepass")


def utf8_sequences(lo: int, hi: int) -> list[ByteSeq]:
    """Return byte-range sequences whose concatenated matches are exactly UTF-8 of scalars lo..hi."""
    out: list[ByteSeq] = []
    stack = [(lo, hi)]
    while stack:
        lo, hi = stack.pop()
        split = False
        for limit in _LENGTH_LIMITS[:-1]:
            if lo <= limit < hi:
                stack.append((limit + 1, hi))
                stack.append((lo, limit))
                split = True
                break
        if split:
            continue
        if hi <= 0x7F:
            out.append(((lo, hi),))
            continue
        n = len(_encode(lo))
        for i in range(1, n):
            mask = (1 << (6 * i)) - 1
            if lo & ~mask != hi & ~mask:
                if lo & mask:
                    stack.append(((lo | mask) + 1, hi))
                    stack.append((lo, lo | mask))
                    split = True
                    break
                if hi & mask != mask:
                    stack.append((hi & ~mask, hi))
                    stack.append((lo, (hi & ~mask) - 1))
                    split = True
                    break
        if split:
            continue
        a, b = _encode(lo), _encode(hi)
        out.append(tuple(zip(a, b, strict=True)))
    out.sort()
    return out


# --- NFA -------------------------------------------------------------------------------------------


Fragment = tuple[int, int]  # (entry state, exit state)


def frag_bytes(nfa: NFA, data: bytes) -> Fragment:
    """Return a fragment matching exactly `data`."""
    start = cur = nfa.state()
    for b in data:
        nxt = nfa.state()
        nfa.edge(cur, b, b, nxt)
        cur = nxt
    return start, cur


def frag_byte_seqs(nfa: NFA, seqs: Iterable[ByteSeq]) -> Fragment:
    """Return a fragment matching any of the byte-range sequences (shared prefixes are merged)."""
    start, end = nfa.state(), nfa.state()
    trie: dict[tuple[int, ByteSeq], int] = {}
    for seq in seqs:
        cur = start
        for k, (lo, hi) in enumerate(seq):
            if k == len(seq) - 1:
                nfa.edge(cur, lo, hi, end)
                break
            key = (cur, seq[: k + 1])
            if key not in trie:
                trie[key] = nfa.state()
                nfa.edge(cur, lo, hi, trie[key])
            cur = trie[key]
    return start, end


def frag_charset(nfa: NFA, ranges: Ranges) -> Fragment:
    """Return a fragment matching one scalar of the set, as UTF-8."""
    seqs = [seq for lo, hi in ranges for seq in utf8_sequences(lo, hi)]
    return frag_byte_seqs(nfa, seqs)


def frag_seq(nfa: NFA, parts: Iterable[Fragment]) -> Fragment:
    """Return the concatenation of fragments."""
    start = cur = nfa.state()
    for a, b in parts:
        nfa.epsilon(cur, a)
        cur = b
    return start, cur


def frag_alt(nfa: NFA, parts: Iterable[Fragment]) -> Fragment:
    """Return the alternation of fragments."""
    start, end = nfa.state(), nfa.state()
    for a, b in parts:
        nfa.epsilon(start, a)
        nfa.epsilon(b, end)
    return start, end


def frag_repeat(nfa: NFA, make: Callable[[], Fragment], lo: int, hi: int | None) -> Fragment:
    """Return `make()` repeated lo..hi times (hi None: unbounded); `make` builds one fresh copy."""
    start = cur = nfa.state()
    for _ in range(lo):
        a, b = make()
        nfa.epsilon(cur, a)
        cur = b
    if hi is None:
        a, b = make()
        loop = nfa.state()
        nfa.epsilon(cur, loop)
        nfa.epsilon(loop, a)
        nfa.epsilon(b, loop)
        return start, loop
    end = nfa.state()
    nfa.epsilon(cur, end)
    for _ in range(hi - lo):
        a, b = make()
        nfa.epsilon(cur, a)
        nfa.epsilon(b, end)
        cur = b
    return start, end


def frag_ast(nfa: NFA, node: Node) -> Fragment:
    """Return a fragment for an AST node (LimitExceeded, naming the construct, if it is too large)."""
    check_size(node, nfa.budget, len(nfa))
    return _frag_ast(nfa, node)


def _frag_ast(nfa: NFA, node: Node) -> Fragment:
    if isinstance(node, CharSet):
        return frag_charset(nfa, node.ranges)
    if isinstance(node, Seq):
        return frag_seq(nfa, [_frag_ast(nfa, item) for item in node.items])
    if isinstance(node, Alt):
        return frag_alt(nfa, [_frag_ast(nfa, item) for item in node.items])
    return frag_repeat(nfa, lambda: _frag_ast(nfa, node.item), node.min, node.max)


_CHARSET_SIZES: dict[Ranges, int] = {}


def nfa_size(node: Node, budget: Budget | None = None) -> int:
    """Return an upper bound on the NFA states frag_ast builds for `node` (without building them); with a
    `budget`, a big tree is measured against the compilation's clock."""
    if budget is not None:
        budget.tick()
    if isinstance(node, CharSet):
        size = _CHARSET_SIZES.get(node.ranges)
        if size is None:
            seqs = [seq for lo, hi in node.ranges for seq in utf8_sequences(lo, hi)]
            size = _CHARSET_SIZES[node.ranges] = 2 + sum(len(seq) - 1 for seq in seqs)
        return size
    if isinstance(node, Seq | Alt):
        return 2 + sum(nfa_size(item, budget) for item in node.items)
    item = nfa_size(node.item, budget)
    copies = node.min + 1 if node.max is None else node.max
    return 3 + copies * item


def check_size(node: Node, budget: Budget, used: int = 0) -> None:
    """Raise LimitExceeded naming the innermost construct whose NFA would pass max_nfa_states."""
    room = budget.limits.max_nfa_states - used
    if nfa_size(node, budget) <= room:
        return
    culprit = node
    while True:  # descend to the smallest construct that is too large on its own
        children = (culprit.item,) if isinstance(culprit, Repeat) else getattr(culprit, "items", ())
        big = [c for c in children if nfa_size(c, budget) > room]
        if not big:
            break
        culprit = big[0]
    text = culprit.text if isinstance(culprit, Repeat) and culprit.text else ""
    with contextlib.ExitStack() as stack:
        if text:
            stack.enter_context(budget.at(text))
        budget.nfa_states(budget.limits.max_nfa_states + 1)


def ast_to_dfa(node: Node, budget: Budget | None = None) -> DFA:
    """Return the minimal byte DFA of an AST."""

    nfa = NFA(budget)
    start, end = frag_ast(nfa, node)
    return nfa_to_dfa(nfa, start, {end})


def regex_to_dfa(pattern: str, limits: Limits | None = None) -> DFA:
    """Return the minimal byte-level DFA accepting the UTF-8 encodings of strings that fully match.

    Raises GrammarError for unsupported syntax, and LimitExceeded (a GrammarError) for a pattern
    that would pass `limits` (default: tutor.engine.limits.DEFAULT_LIMITS).
    """
    budget = Budget(limits, subject=f"the regex {short(pattern)}")
    return ast_to_dfa(parse(pattern, budget), budget)
