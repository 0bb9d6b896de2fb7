"""The pushdown parser accepts exactly its grammar's language (hypothesis against reference recognisers)."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tutor.engine.cfg.gbnf import parse_gbnf
from tutor.engine.cfg.grammar import compile_grammar, load_grammar
from tutor.engine.cfg.parser import PushdownParser
from tutor.engine.matcher import GrammarError
from tutor.lab.validity import recognise
from tutor.resources import grammar_path


@pytest.fixture(scope="module")
def parens() -> PushdownParser:
    return PushdownParser(load_grammar(grammar_path("parens.gbnf")))


def balanced() -> st.SearchStrategy[bytes]:
    return st.recursive(
        st.just(b"atom"),
        lambda inner: st.lists(inner, max_size=3).map(lambda xs: b"(" + b"".join(xs) + b")"),
        max_leaves=12,
    )


_PIECES = st.sampled_from([b"(", b")", b"atom", b"at", b"x"])


@given(st.one_of(balanced(), st.lists(_PIECES, max_size=12).map(b"".join)))
@settings(max_examples=400, deadline=None)
def test_parens_matches_reference(parens: PushdownParser, reference: dict, data: bytes) -> None:
    prefix, sentence = reference["parens_state"](data)
    assert parens.accepts(data) == sentence
    assert parens.is_prefix(data) == prefix


def test_parens_examples(parens: PushdownParser) -> None:
    assert parens.accepts(b"((atom)(()atom))")
    assert not parens.accepts(b"(atom")
    assert not parens.accepts(b"atom atom")
    deep = b"(" * 300 + b"atom" + b")" * 300
    assert parens.accepts(deep) and not parens.accepts(deep + b")")


# Random grammars over literals: the compiled grammar agrees with a memoised recursive recogniser.
_NAMES = ("root", "a", "b")
_OPS = st.sampled_from(["?", "*", "+", "{2}", "{1,2}", "{0,}", "{2,}"])


def _expr(depth: int) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.sampled_from(['"x"', '"y"', '"xy"', '""']), st.sampled_from(_NAMES))
    if depth == 0:
        return leaf
    sub = _expr(depth - 1)
    return st.one_of(
        leaf,
        st.lists(sub, min_size=1, max_size=3).map(lambda xs: " ".join(xs)),
        st.lists(sub, min_size=2, max_size=3).map(lambda xs: "(" + " | ".join(xs) + ")"),
        st.tuples(sub, _OPS).map(lambda t: f"({t[0]}){t[1]}"),
    )


@given(
    st.lists(_expr(2), min_size=3, max_size=3),
    st.lists(st.lists(st.sampled_from([b"x", b"y"]), max_size=7).map(b"".join), min_size=8, max_size=8),
)
@settings(max_examples=250, deadline=None)
def test_random_grammars_match_reference(bodies: list[str], samples: list[bytes]) -> None:
    text = "\n".join(f"{name} ::= {body}" for name, body in zip(_NAMES, bodies, strict=True))
    try:
        parser = PushdownParser(compile_grammar(text))
    except GrammarError as exc:
        assume("left-recursive" not in str(exc) and "never finish" not in str(exc))
        raise
    src = parse_gbnf(text)
    for data in samples:
        assert parser.accepts(data) == recognise(src, data), (text, data)


@pytest.fixture(scope="module")
def config() -> PushdownParser:
    return PushdownParser(load_grammar(grammar_path("config.gbnf")))


_CONFIG_RE = re.compile(r'[a-z_]+="[^"]*"(\n[a-z_]+="[^"]*")*\n?', re.ASCII)
_CONFIG_CHUNKS = st.sampled_from(["a", "key", "_x", "=", '"', '"v"', "\n", "é", " ", "A", '="x y"'])


@given(st.lists(_CONFIG_CHUNKS, max_size=14).map("".join))
@settings(max_examples=400, deadline=None)
def test_config_matches_its_regex(config: PushdownParser, text: str) -> None:
    assert config.accepts(text.encode()) == bool(_CONFIG_RE.fullmatch(text))


def test_config_examples(config: PushdownParser) -> None:
    assert config.accepts(b'name="Ada"\nfavourite_verb="write"\n')
    assert config.accepts('note="año\n2"'.encode())
    assert not config.accepts(b'Name="Ada"') and not config.accepts(b'name = "Ada"')
    assert not config.accepts('x="\xe9"'.encode()[:-2])  # half a UTF-8 character inside the value


def test_regex_terminal_errors_point_into_the_grammar() -> None:
    with pytest.raises(GrammarError, match=r"<grammar>:2:11: in the terminal '\(\?=x\)'"):
        compile_grammar('root ::= a\na     ::= /(?=x)/')
