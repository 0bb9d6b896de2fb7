"""Parse the GBNF-like grammar language of `grammars/*.gbnf` into a tree of rules (see grammars/README.md).

The subset: `name ::= body` rules (a rule runs until the next `name ::=`), `#` comments, string literals
"…", character classes […] and [^…], `.` (any character), regex terminals /…/, alternation `|`,
grouping `( )`, and the postfix operators `?`, `*`, `+`, `{m}`, `{m,}`, `{m,n}`. The start rule is
`root`, or the first rule when there is no `root`. Anything else raises GrammarError naming the
construct and its line:column.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from tutor.engine.limits import DEFAULT_LIMITS, Budget, LimitExceeded, Limits
from tutor.engine.matcher import GrammarError

# --- the tree -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in the grammar source, for error messages."""

    source: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Literal:
    """A string literal, as UTF-8 bytes."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Pattern:
    """A terminal given as a regex of the project's regex subset: a class, `.`, or /…/."""

    regex: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to another rule."""

    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Seq:
    """Items in sequence (no items: the empty string)."""

    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Alt:
    """A choice between alternatives."""

    options: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Repeat:
    """`item` repeated between `lo` and `hi` times (`hi` None: unbounded)."""

    item: Node
    lo: int
    hi: int | None


Node = Literal | Pattern | Ref | Seq | Alt | Repeat


@dataclass(frozen=True, slots=True)
class Rule:
    """One `name ::= body` definition."""

    name: str
    body: Node
    pos: Pos


@dataclass(frozen=True, slots=True)
class GrammarSource:
    """A parsed grammar file: its rules in file order and the start rule's name."""

    rules: tuple[Rule, ...]
    start: str
    source: str


# --- the tokenizer -------------------------------------------------------------------------------

MAX_REPEAT = 1000  # {m,n} bounds above this would expand into an enormous automaton

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_REPEAT = re.compile(r"\{\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?\}")
_SIMPLE_ESCAPES = {
    "n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"', "'": "'", "/": "/", "[": "[", "]": "]",
}

# Constructs from neighbouring grammar languages that people try, with what to write instead.
_UNSUPPORTED = {
    "->": ("the '->' alias (Lark)", "remove it; rules have no aliases"),
    ":": ("a ':' rule definition (Lark)", "write 'name ::= …'"),
    "%": ("a '%' directive (Lark)", "define the rule in this file instead of importing it"),
    "!": ("the '!' negative lookahead", "describe the allowed strings positively"),
    "&": ("the '&' lookahead", "describe the allowed strings positively"),
    "~": ("the '~' repetition (Lark)", "use {m,n}"),
    "'": ("a single-quoted string", 'use double quotes: "…"'),
    "=": ("a bare '='", "write '::=' to define a rule, or \"=\" for the literal"),
    "<": ("an angle-bracket rule name (BNF)", "write rule names bare: name ::= …"),
}


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # ident, defn, string, class, regex, dot, op, repeat, end
    value: object
    pos: Pos


class _Lexer:
    def __init__(self, text: str, source: str, budget: Budget | None = None) -> None:
        self.text = text
        self.source = source
        self.budget = budget
        self.i = 0
        self.newlines = [m.start() for m in re.finditer("\n", text)]  # pos() is a bisection, not a scan

    def pos(self, i: int | None = None) -> Pos:
        i = self.i if i is None else i
        line = bisect_right(self.newlines, i - 1)
        col = i - (self.newlines[line - 1] + 1 if line else 0) + 1
        return Pos(self.source, line + 1, col)

    def error(self, message: str, i: int | None = None) -> GrammarError:
        return GrammarError(f"{self.pos(i)}: {message}")

    def tokens(self) -> list[_Tok]:
        out: list[_Tok] = []
        text, n = self.text, len(self.text)
        while True:
            if self.budget is not None:
                self.budget.tick()
            self._skip_space()
            if self.i >= n:
                out.append(_Tok("end", None, self.pos()))
                return out
            start, ch = self.i, text[self.i]
            pos = self.pos()
            if text.startswith("::=", start):
                out.append(_Tok("defn", "::=", pos))
                self.i += 3
            elif m := _IDENT.match(text, start):
                out.append(_Tok("ident", m.group(), pos))
                self.i = m.end()
            elif ch == '"':
                out.append(_Tok("string", self._string(), pos))
            elif ch == "[":
                out.append(_Tok("class", self._class(), pos))
            elif ch == "/":
                out.append(_Tok("regex", self._regex(), pos))
            elif ch == ".":
                out.append(_Tok("dot", ".", pos))
                self.i += 1
            elif ch in "|()?*+":
                out.append(_Tok("op", ch, pos))
                self.i += 1
            elif ch == "{":
                m = _REPEAT.match(text, start)
                if m is None:
                    raise self.error("a malformed repetition; write {m}, {m,} or {m,n} with whole numbers")
                lo = int(m.group(1))
                hi = lo if m.group(2) is None else (int(m.group(3)) if m.group(3) else None)
                if hi is not None and hi < lo:
                    raise self.error(f"the repetition {m.group()} has its maximum below its minimum")
                if max(lo, hi or 0) > MAX_REPEAT:
                    raise self.error(f"the repetition {m.group()} exceeds the limit of {MAX_REPEAT}")
                out.append(_Tok("repeat", (lo, hi), pos))
                self.i = m.end()
            else:
                for lead, (what, hint) in _UNSUPPORTED.items():
                    if text.startswith(lead, start):
                        raise self.error(f"{what} is not supported; {hint}")
                raise self.error(f"unexpected character {ch!r}; grammars/README.md lists the syntax")

    def _skip_space(self) -> None:
        text, n = self.text, len(self.text)
        while self.i < n:
            ch = text[self.i]
            if ch in " \t\r\n":
                self.i += 1
            elif ch == "#":
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end + 1
            else:
                return

    def _string(self) -> bytes:
        text, n = self.text, len(self.text)
        start = self.i
        self.i += 1
        chars: list[str] = []
        while True:
            if self.i >= n or text[self.i] == "\n":
                raise self.error("a string literal is not closed before the end of the line", start)
            ch = text[self.i]
            if ch == '"':
                self.i += 1
                return "".join(chars).encode("utf-8")
            if ch == "\\":
                chars.append(self._escape())
            else:
                chars.append(ch)
                self.i += 1

    def _escape(self) -> str:
        text = self.text
        at = self.i
        if at + 1 >= len(text):
            raise self.error("a backslash ends the file", at)
        code = text[at + 1]
        if code in _SIMPLE_ESCAPES:
            self.i += 2
            return _SIMPLE_ESCAPES[code]
        width = {"x": 2, "u": 4, "U": 8}.get(code)
        digits = text[at + 2 : at + 2 + width] if width else ""
        if width is None or len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
            raise self.error(
                f"the escape \\{code} is not supported; use \\n \\r \\t \\\\ \\\" \\xHH or \\uHHHH", at
            )
        value = int(digits, 16)
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            raise self.error(f"the escape \\{code}{digits} is not a Unicode scalar value", at)
        self.i += 2 + width
        return chr(value)

    def _class(self) -> str:
        # Kept as regex text: the regex compiler handles classes, ranges, negation and UTF-8.
        text, n = self.text, len(self.text)
        start = self.i
        j = start + 1
        if j < n and text[j] == "^":
            j += 1
        if j < n and text[j] == "]":
            j += 1  # a leading ']' is a literal, as in regex
        while True:
            if j >= n or text[j] == "\n":
                raise self.error("a character class is not closed before the end of the line", start)
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == "]":
                self.i = j + 1
                return text[start : j + 1]
            j += 1

    def _regex(self) -> str:
        text, n = self.text, len(self.text)
        start = self.i
        j = start + 1
        parts: list[str] = []
        while True:
            if j >= n or text[j] == "\n":
                raise self.error("a /regex/ terminal is not closed before the end of the line", start)
            if text[j] == "\\" and j + 1 < n and text[j + 1] == "/":
                parts.append("/")
                j += 2
                continue
            if text[j] == "\\":
                parts.append(text[j : j + 2])
                j += 2
                continue
            if text[j] == "/":
                self.i = j + 1
                if j == start + 1:
                    raise self.error("an empty /regex/ terminal; use \"\" for the empty string", start)
                return "".join(parts)
            parts.append(text[j])
            j += 1


# --- the parser ----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, tokens: list[_Tok], max_depth: int) -> None:
        self.toks = tokens
        self.k = 0
        self.depth = 0
        self.max_depth = max_depth

    def _too_deep(self, pos: Pos, what: str) -> LimitExceeded:
        return LimitExceeded(f"{pos}: {what} nested more than {self.max_depth} deep (limit max_depth="
                             f"{self.max_depth}); split the expression into named rules")

    @property
    def tok(self) -> _Tok:
        return self.toks[self.k]

    def _at_rule_start(self) -> bool:
        return self.tok.kind == "ident" and self.toks[self.k + 1].kind == "defn"

    def grammar(self) -> list[Rule]:
        rules: list[Rule] = []
        while self.tok.kind != "end":
            if not self._at_rule_start():
                found = self._show()
                raise GrammarError(f"{self.tok.pos}: expected a rule definition 'name ::= …', found {found}")
            name_tok = self.tok
            self.k += 2
            body = self.alternates()
            if self.tok.kind == "op" and self.tok.value == ")":
                raise GrammarError(f"{self.tok.pos}: a ')' has no matching '('")
            rules.append(Rule(str(name_tok.value), body, name_tok.pos))
        return rules

    def alternates(self) -> Node:
        options = [self.sequence()]
        while self.tok.kind == "op" and self.tok.value == "|":
            self.k += 1
            options.append(self.sequence())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def sequence(self) -> Node:
        items: list[Node] = []
        while True:
            t = self.tok
            if t.kind == "end" or (t.kind == "op" and t.value in "|)") or self._at_rule_start():
                break
            items.append(self.postfix())
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def postfix(self) -> Node:
        node = self.primary()
        stacked = 0
        while True:
            t = self.tok
            if t.kind == "op" and t.value in "?*+":
                lo, hi = {"?": (0, 1), "*": (0, None), "+": (1, None)}[str(t.value)]
            elif t.kind == "repeat":
                lo, hi = t.value  # type: ignore[misc]
            else:
                return node
            stacked += 1
            if stacked > self.max_depth:
                raise self._too_deep(t.pos, "repetition operators")
            self.k += 1
            node = Repeat(node, lo, hi)

    def primary(self) -> Node:
        t = self.tok
        self.k += 1
        if t.kind == "string":
            return Literal(t.value)  # type: ignore[arg-type]
        if t.kind in ("class", "regex"):
            return Pattern(str(t.value), t.pos)
        if t.kind == "dot":
            return Pattern(r"(.|\n)", t.pos)  # any character, newline included (as in llama.cpp)
        if t.kind == "ident":
            return Ref(str(t.value), t.pos)
        if t.kind == "op" and t.value == "(":
            self.depth += 1
            if self.depth > self.max_depth:
                raise self._too_deep(t.pos, "parentheses")
            inner = self.alternates()
            self.depth -= 1
            if not (self.tok.kind == "op" and self.tok.value == ")"):
                found = self._show()
                raise GrammarError(f"{t.pos}: this '(' is not closed (found {found} at {self.tok.pos})")
            self.k += 1
            return inner
        self.k -= 1
        found = self._show()
        raise GrammarError(f"{t.pos}: expected a string, class, /regex/, rule name or '(', found {found}")

    def _show(self) -> str:
        t = self.tok
        if t.kind == "end":
            return "the end of the file"
        if t.kind == "repeat":
            return "a {m,n} repetition"
        return repr(t.value if not isinstance(t.value, bytes) else t.value.decode("utf-8", "replace"))


def parse_gbnf(text: str, source: str = "<grammar>", limits: Limits | None = None, *,
               budget: Budget | None = None) -> GrammarSource:
    """Return the rules of a GBNF grammar text; raise GrammarError naming any unsupported construct.

    Parentheses and stacked repetition operators may nest `limits.max_depth` deep (LimitExceeded);
    with a `budget`, reading the text counts against its clock too.
    """
    max_depth = (limits or DEFAULT_LIMITS).max_depth
    rules = _Parser(_Lexer(text, source, budget).tokens(), max_depth).grammar()
    if not rules:
        raise GrammarError(f"{source}: the grammar defines no rules; write at least 'root ::= …'")
    seen: dict[str, Rule] = {}
    for rule in rules:
        if rule.name in seen:
            first = seen[rule.name].pos
            raise GrammarError(f"{rule.pos}: the rule {rule.name!r} is defined twice (first at {first})")
        seen[rule.name] = rule
    start = "root" if "root" in seen else rules[0].name
    return GrammarSource(tuple(rules), start, source)
