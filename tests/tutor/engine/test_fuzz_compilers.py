"""Fuzzing stays in the suite: random regexes, JSON Schemas and GBNF grammars either compile or raise
the compiler's GrammarError, within tight limits (never a hang, MemoryError, RecursionError or crash)."""

from __future__ import annotations

import json
import re
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.cfg.grammar import compile_grammar
from tutor.engine.json_schema import schema_to_automaton
from tutor.engine.limits import Limits
from tutor.engine.matcher import GrammarError
from tutor.engine.regex import regex_to_dfa

TIGHT = Limits(max_states=3_000, max_nfa_states=30_000, max_index_bytes=16 * 2**20, max_seconds=1.0)
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

REGEX_PIECES = ["a", "b", "é", "😀", ".", "|", "(", ")", "(?:", "*", "+", "?", "{2}", "{1,3}", "{0,}", "{9999}",
                "[", "]", "[a-c]", "[^a]", "\\d", "\\w", "\\", "^", "$", "-", "{", "}", "\\u00e9", "(?P<n>",
                "(?=", "\\1", "\\b", "{3,1}", "((", "))"]


@FUZZ
@given(st.lists(st.sampled_from(REGEX_PIECES), max_size=14).map("".join))
def test_random_regexes_compile_or_raise_grammar_error(pattern: str) -> None:
    try:
        dfa = regex_to_dfa(pattern, TIGHT)
    except GrammarError:
        return
    # When Python's re agrees the pattern is valid, both must agree on a few short strings.
    try:
        with warnings.catch_warnings():  # re warns about sets like '[[' that may change meaning later
            warnings.simplefilter("ignore", FutureWarning)
            compiled = re.compile(pattern, re.ASCII)
    except (re.error, OverflowError):
        return
    for text in ("", "a", "b", "ab", "aa", "é", "1", "😀"):
        assert dfa.accepts(text.encode("utf-8")) == (compiled.fullmatch(text) is not None), (pattern, text)


def _schemas() -> st.SearchStrategy:
    counts = st.one_of(st.integers(-2, 6), st.just(10**7), st.just(True), st.text(max_size=2))
    leaf = st.fixed_dictionaries(
        {"type": st.sampled_from(["string", "integer", "number", "boolean", "null", "nope", 3])},
        optional={"minLength": counts, "maxLength": counts,
                  "pattern": st.sampled_from(["^a+$", "(a|b)*a(a|b){12}", "[", "x{2,1}", "é"]),
                  "enum": st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()), max_size=3)},
    )
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.fixed_dictionaries({"type": st.just("array"), "items": inner},
                                  optional={"minItems": counts, "maxItems": counts}),
            st.fixed_dictionaries({"type": st.just("object"),
                                   "properties": st.dictionaries(st.text(max_size=3), inner, max_size=3)},
                                  optional={"required": st.lists(st.text(max_size=3), max_size=2),
                                            "additionalProperties": st.booleans()}),
            st.lists(inner, max_size=2),
        ),
        max_leaves=8,
    )


@FUZZ
@given(_schemas(), st.integers(0, 2))
def test_random_schemas_compile_or_raise_grammar_error(schema: object, whitespace: int) -> None:
    try:
        automaton = schema_to_automaton(schema, whitespace, TIGHT)
    except GrammarError:
        return
    assert automaton.automaton.n_states <= TIGHT.max_states
    json.dumps(schema)  # what compiled is plain JSON


GBNF_PIECES = ["root", " ::= ", "a", " ::= ", '"x"', '"é"', " ", "|", "(", ")", "*", "+", "?", "{2,3}", "{1000}",
               "[a-z]", "[^", "/a+/", "/(/", ".", "\n", "b", "root", "::=", "#c\n", '"', "->", "{3,1}"]


@FUZZ
@given(st.lists(st.sampled_from(GBNF_PIECES), max_size=16).map("".join))
def test_random_gbnf_compiles_or_raises_grammar_error(text: str) -> None:
    try:
        grammar = compile_grammar(text, limits=TIGHT)
    except GrammarError:
        return
    assert grammar.n_nodes >= 1
