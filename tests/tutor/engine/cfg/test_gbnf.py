"""The GBNF parser and grammar compiler: the supported subset, and clear errors for everything else."""

from __future__ import annotations

import pytest

from tutor.engine.cfg.gbnf import Alt, Literal, Pattern, Ref, Repeat, Seq, parse_gbnf
from tutor.engine.cfg.grammar import compile_grammar, load_grammar
from tutor.engine.cfg.parser import PushdownParser
from tutor.engine.matcher import GrammarError
from tutor.resources import grammar_path


def accepts(text: str, data: bytes) -> bool:
    return PushdownParser(compile_grammar(text)).accepts(data)


def test_parse_tree_of_every_construct() -> None:
    src = parse_gbnf('root ::= "a\\n" ( x | [b-d] )* . /e+/ x? x+ x{2,3} x{2,} x{4}\nx ::= "y"')
    assert src.start == "root"
    body = src.rules[0].body
    assert isinstance(body, Seq)
    lit, star, dot, regex, opt, plus, rng, atleast, exact = body.items
    assert lit == Literal(b"a\n")
    assert isinstance(star, Repeat) and (star.lo, star.hi) == (0, None) and isinstance(star.item, Alt)
    assert isinstance(dot, Pattern) and isinstance(regex, Pattern) and regex.regex == "e+"
    bounds = [(r.lo, r.hi) for r in (opt, plus, rng, atleast, exact)]
    assert bounds == [(0, 1), (1, None), (2, 3), (2, None), (4, 4)]
    assert isinstance(opt.item, Ref) and opt.item.name == "x"


def test_start_is_root_or_first_rule() -> None:
    assert parse_gbnf('a ::= "x"\nroot ::= a').start == "root"
    assert parse_gbnf('first ::= "x"\nsecond ::= "y"').start == "first"


def test_rule_spans_lines_until_next_definition() -> None:
    text = 'root ::= "a"\n  | "b"\n  "c"\nother ::= "z"'
    assert accepts(text, b"a") and accepts(text, b"bc") and not accepts(text, b"b")


def test_string_escapes_are_utf8() -> None:
    assert accepts('root ::= "\\u00e9\\x41\\t\\"\\\\"', 'éA\t"\\'.encode())


def test_comments_and_blank_lines_are_ignored() -> None:
    assert accepts('# a comment\n\nroot ::= "x" # trailing comment\n', b"x")


def test_shipped_grammars_compile() -> None:
    for name in ("parens.gbnf", "config.gbnf"):
        grammar = load_grammar(grammar_path(name))
        assert grammar.n_nodes > 0 and grammar.source == name


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('root ::= "x" -> alias', "1:14", "'->' alias"),
        ("root: \"x\"", "1:5", "':' rule definition"),
        ('%import common.WORD\nroot ::= "x"', "1:1", "'%' directive"),
        ('root ::= !"x"', "1:10", "'!' negative lookahead"),
        ("root ::= 'x'", "1:10", "single-quoted string"),
        ('root ::= "x" ~ 3', "1:14", "'~' repetition"),
        ('root ::= "x"\n<b> ::= "y"', "2:1", "angle-bracket"),
        ('root ::= "a\\q"', "1:12", "escape \\q"),
        ('root ::= "abc', "1:10", "not closed"),
        ("root ::= [a-z", "1:10", "class is not closed"),
        ("root ::= /ab", "1:10", "/regex/ terminal is not closed"),
        ('root ::= ("a"', "1:10", "'(' is not closed"),
        ('root ::= "a")', "1:13", "no matching '('"),
        ('root ::= "a"{3,1}', "1:13", "maximum below its minimum"),
        ('root ::= "a"{2000}', "1:13", "exceeds the limit"),
        ('root ::= "a"{x}', "1:13", "malformed repetition"),
        ("root ::= missing", "1:10", "'missing' is used but never defined"),
        ('root ::= "a"\nroot ::= "b"', "2:1", "defined twice"),
        ('root ::= "a" root', "1:1", "can never finish"),
        ('root ::= expr\nexpr ::= expr "+" "1" | "1"', "2:1", "left-recursive (expr → expr)"),
        ('root ::= a\na ::= b? "x" | "y"\nb ::= a "z"', "2:1", "left-recursive"),
        ('"x"', "1:1", "expected a rule definition"),
        ("", "<grammar>", "defines no rules"),
        ('root ::= "a" @', "1:14", "unexpected character '@'"),
    ],
)
def test_unsupported_constructs_name_themselves_and_their_place(text: str, where: str, what: str) -> None:
    with pytest.raises(GrammarError) as info:
        compile_grammar(text)
    message = str(info.value)
    assert f"<grammar>:{where}" in message if where[0].isdigit() else where in message
    assert what in message
