"""The regex compiler: DFA acceptance equals re.fullmatch, UTF-8 correctness, minimality, errors."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.dfa import DFA
from tutor.engine.matcher import GrammarError
from tutor.engine.regex import parse_search, regex_to_dfa, utf8_sequences

# -- random regexes of the supported subset, rendered as text ---------------------------------------

ALPHABET = "ab_é€😀\n0"
_CLASS_ITEMS = ["a", "b", "a-c", "0-9", "é-ü", "\\d", "\\w", "\\s", "\\n", "\\u00e9", "€", "😀", "\\-", "\\]"]


def _escape(ch: str) -> str:
    return re.escape(ch) if ch != "\n" else "\\n"


literals = st.sampled_from(ALPHABET).map(_escape)
classes = st.builds(
    lambda neg, items: "[" + ("^" if neg else "") + "".join(items) + "]",
    st.booleans(),
    st.lists(st.sampled_from(_CLASS_ITEMS), min_size=1, max_size=3),
)
shorthands = st.sampled_from([".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\x41", "\\u20ac"])
atoms = st.one_of(literals, classes, shorthands)


def _quantify(node: str, q: str) -> str:
    return f"(?:{node}){q}"


regexes = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map("".join),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
        st.tuples(inner, st.sampled_from(["?", "*", "+", "{2}", "{0,2}", "{1,3}", "{2,}"])).map(
            lambda t: _quantify(*t)
        ),
        inner.map(lambda x: f"({x})"),
    ),
    max_leaves=8,
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pattern=regexes, data=st.data())
def test_dfa_accepts_exactly_what_fullmatch_accepts(pattern: str, data: st.DataObject) -> None:
    dfa = regex_to_dfa(pattern)
    compiled = re.compile(pattern, re.ASCII)
    samples = data.draw(st.lists(st.text(alphabet=ALPHABET + "c-", max_size=6), max_size=12))
    # Likely matches, drawn with Unicode semantics (the check below still uses re.ASCII).
    samples += [data.draw(st.from_regex(re.compile(pattern), fullmatch=True)) for _ in range(3)]
    for text in samples:
        assert dfa.accepts(text.encode("utf-8")) == bool(compiled.fullmatch(text)), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "yes", "no"),
    [
        (".", ["x", "é", "€", "😀", "\x00"], ["\n", "", "ab"]),
        ("[^a]", ["\n", "b", "😀"], ["a", ""]),
        ("[\u0080-\U0010ffff]", ["\u0080", "\u07ff", "\u0800", "\uffff", "\U00010000", "\U0010ffff"], ["a"]),
        ("[\u07ff-\u0801]", ["\u07ff", "\u0800", "\u0801"], ["\u07fe", "\u0802"]),
        ("[\ud7ff-\ue000]", ["\ud7ff", "\ue000"], ["\ue001"]),
        (r"\d{3}-\w+", ["123-ab_"], ["12-a", "123-", "١٢٣-a"]),
        ("^(ab|cd){2,3}$", ["abcd", "cdabab"], ["ab", "abcdabcd"]),
        ("a{,2}", ["", "a", "aa"], ["aaa"]),
        ("a{x}", ["a{x}"], ["a"]),
        ("(?P<name>ab)+", ["abab"], ["aba"]),
    ],
)
def test_examples(pattern: str, yes: list[str], no: list[str]) -> None:
    dfa = regex_to_dfa(pattern)
    for text in yes:
        assert dfa.accepts(text.encode("utf-8")), (pattern, text)
    for text in no:
        assert not dfa.accepts(text.encode("utf-8")), (pattern, text)


def test_only_valid_utf8_is_accepted() -> None:
    dfa = regex_to_dfa(".*")
    assert dfa.accepts("a€😀é".encode())
    for bad in (b"\xc0\x80", b"\xc1\xbf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
                b"\x80", b"\xc3", b"\xe2\x82", b"\xff"):
        assert not dfa.accepts(bad), bad


@given(st.integers(0x80, 0x10FFFF), st.integers(0, 0x3FF))
@settings(max_examples=200, deadline=None)
def test_utf8_sequences_cover_the_range_exactly(lo: int, width: int) -> None:
    hi = min(lo + width, 0x10FFFF)
    seqs = utf8_sequences(lo, hi)
    for cp in {lo, hi, (lo + hi) // 2, lo - 1, hi + 1}:
        if not 0 <= cp <= 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
            continue
        encoded = chr(cp).encode("utf-8")
        hit = any(len(s) == len(encoded) and all(a <= b <= z for (a, z), b in zip(s, encoded, strict=True))
                  for s in seqs)
        assert hit == (lo <= cp <= hi), hex(cp)


def _moore_classes(dfa: DFA) -> int:
    """Count the Myhill-Nerode classes of a trimmed DFA by Moore's refinement (an independent check)."""
    n = dfa.n_states
    table = np.where(dfa.transitions < 0, n, dfa.transitions)
    table = np.vstack([table, np.full((1, 256), n)])
    classes = np.append(dfa.accepting.astype(np.int64), 0)
    while True:
        signature = np.hstack([classes[:, None], classes[table]])
        _, new = np.unique(signature, axis=0, return_inverse=True)
        new = new.reshape(-1)
        if len(set(new.tolist())) == len(set(classes.tolist())):
            return len(set(new[:n].tolist()) - ({new[n]} if n else set()))
        classes = new


@pytest.mark.parametrize("pattern", ["(a|b)*abb", "a{3}", "(ab|cd){2,3}", "[a-z]+@[a-z]+\\.(com|org)",
                                     "x*(yx*yx*)*", ".{0,5}", "(a|ab)(c|bcd)(d*)"])
def test_dfa_is_minimal(pattern: str) -> None:
    dfa = regex_to_dfa(pattern)
    assert _moore_classes(dfa) == dfa.n_states
    assert dfa.n_states == len({*dfa.transitions[dfa.transitions >= 0].tolist(), 0})  # all reachable


def test_known_minimal_sizes() -> None:
    assert regex_to_dfa("(a|b)*abb").n_states == 4
    assert regex_to_dfa("a{3}").n_states == 4
    assert regex_to_dfa("[^\\x00-\\U0010ffff]").n_states == 1  # the empty language: one dead start


def test_search_semantics_for_schema_patterns() -> None:
    from tutor.engine.regex import ast_to_dfa

    dfa = ast_to_dfa(parse_search("b+"))
    assert dfa.accepts(b"abba") and not dfa.accepts(b"aa")
    anchored = ast_to_dfa(parse_search("^ab|c$"))
    assert anchored.accepts(b"abx") and anchored.accepts(b"xc")
    assert not anchored.accepts(b"xab") and not anchored.accepts(b"cx")


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("a(?=b)", "lookahead '(?=' at position 1"),
        ("a(?!b)", "negative lookahead '(?!' at position 1"),
        ("(?<=a)b", "lookbehind '(?<=' at position 0"),
        ("(?<!a)b", "negative lookbehind '(?<!' at position 0"),
        ("(a)\\1", "backreference '\\1' at position 3"),
        ("(?P<x>a)(?P=x)", "backreference '(?P=' at position 8"),
        ("(?<x>a)", "named group '(?<name>' (write '(?P<name>') at position 0"),
        ("(?P<1>a)", "malformed named group at position 0"),
        ("(?>a)", "atomic group '(?>' at position 0"),
        ("(?#note)a", "comment group '(?#' at position 0"),
        ("(?(1)a|b)", "conditional group '(?(' at position 0"),
        ("(?i)a", "inline flags '(?...)' at position 0"),
        ("a^b", "anchor '^' (only supported at the start of the pattern) at position 1"),
        ("a$b", "anchor '$' (only supported at the end of the pattern) at position 1"),
        ("(a$)", "anchor '$' (only supported at the end of the pattern) at position 2"),
        ("a\\Ab", "anchor '\\A' (only supported at the start of the pattern) at position 1"),
        ("a\\Zb", "anchor '\\Z' (only supported at the end of the pattern) at position 1"),
        ("a\\zb", "anchor '\\z' (only supported at the end of the pattern) at position 1"),
        ("\\bword", "word boundary '\\b' at position 0"),
        ("a\\B", "non-boundary '\\B' at position 1"),
        ("\\Ga", "anchor '\\G' at position 0"),
        ("\\k<x>", "backreference '\\k' at position 0"),
        ("\\N{DIGIT ONE}", "named character '\\N{...}' at position 0"),
        ("\\p{L}", "Unicode property '\\p' at position 0"),
        ("\\P{L}", "Unicode property '\\P' at position 0"),
        ("\\q", "unknown escape '\\q' at position 0"),
        ("\\x4", "incomplete escape '\\x4' at position 0"),
        ("\\U00110000", "escape '\\U00110000' beyond U+10FFFF at position 0"),
        ("a\\", "trailing backslash at position 1"),
        ("a*?", "lazy quantifier at position 2"),
        ("a+?", "lazy quantifier at position 2"),
        ("a++", "possessive quantifier at position 2"),
        ("a**", "multiple repeat at position 2"),
        ("a{2}{3}", "multiple repeat at position 4"),
        ("*a", "nothing to repeat at position 0"),
        ("a|+", "nothing to repeat at position 2"),
        ("a{3,2}", "repeat range {3,2} with max < min at position 1"),
        ("a{20000}", "repeat count above 10000 at position 1"),
        ("(ab", "missing ')' for the group opened at position 0"),
        ("ab)", "unbalanced ')' at position 2"),
        ("[ab", "unterminated character class at position 0"),
        ("[z-a]", "bad character range 'z-a' at position 1"),
        ("[\\d-z]", "class shorthand as a range bound at position 1"),
        ("[a-\\d]", "class shorthand as a range bound at position 3"),
        ("[[:alpha:]]", "POSIX class '[:' at position 1"),
    ],
)
def test_unsupported_syntax_names_the_construct_and_position(pattern: str, message: str) -> None:
    with pytest.raises(GrammarError) as info:
        regex_to_dfa(pattern)
    assert str(info.value) == f"unsupported regex syntax: {message} in {pattern!r}" or (
        message in str(info.value) and str(info.value).startswith("unsupported regex syntax: ")
    ), str(info.value)
    assert message in str(info.value)
    assert repr(pattern) in str(info.value)
