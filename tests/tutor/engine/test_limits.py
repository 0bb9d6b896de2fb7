"""Compiler limits: every input the hardening probe found hanging, exhausting memory or recursing now
stops with the compiler's own error, naming the construct and the limit (issue 13, rows 3 and 4)."""

from __future__ import annotations

import inspect
import sys

import pytest

from tutor.engine.cfg.grammar import compile_grammar
from tutor.engine.cfg.matcher import compile_cfg
from tutor.engine.dfa_grammar import compile_json_schema, compile_regex, parse_schema_text
from tutor.engine.json_schema import schema_to_automaton
from tutor.engine.limits import LimitExceeded, Limits
from tutor.engine.matcher import GrammarError
from tutor.engine.regex import regex_to_dfa

SMALL = Limits(max_states=5_000, max_nfa_states=50_000, max_seconds=5.0)


def nested_arrays(depth: int) -> dict:
    """Return a schema of arrays nested `depth` deep around an integer."""
    schema: dict = {"type": "integer"}
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


def test_nested_counted_repeat_is_refused_before_it_is_built() -> None:
    with pytest.raises(LimitExceeded) as info:
        regex_to_dfa("(a{1000}){1000}")
    message = str(info.value)
    assert "the repetition '(a{1000}){1000}' at position 0" in message
    assert "max_nfa_states=1,000,000" in message


def test_exponential_subset_construction_stops_at_the_state_limit() -> None:
    with pytest.raises(LimitExceeded, match=r"the regex '\(a\|b\)\*a\(a\|b\)\{20\}' needs more than 5,000 DFA"):
        regex_to_dfa("(a|b)*a(a|b){20}", SMALL)


def test_the_time_limit_stops_a_slow_compilation() -> None:
    with pytest.raises(LimitExceeded, match=r"max_seconds=0\.05"):
        regex_to_dfa("(a|b)*a(a|b){16}", Limits(max_seconds=0.05))


def test_deep_regex_groups_are_a_depth_error_not_a_recursion_error() -> None:
    with pytest.raises(LimitExceeded, match="groups nested more than 64 deep"):
        regex_to_dfa("(" * 200 + "a" + ")" * 200)
    assert regex_to_dfa("(" * 30 + "a" + ")" * 30).accepts(b"a")


def test_arrays_nested_16_deep_stop_with_a_message_naming_the_arrays() -> None:
    with pytest.raises(LimitExceeded, match="the nested arrays at /items"):
        schema_to_automaton(nested_arrays(16), limits=SMALL)


def test_arrays_nested_200_deep_are_a_depth_error_with_a_short_pointer() -> None:
    with pytest.raises(LimitExceeded) as info:
        schema_to_automaton(nested_arrays(200))
    message = str(info.value)
    assert "schemas nested more than 64 deep" in message and "keys deep" in message
    assert len(message) < 300


@pytest.mark.parametrize(
    ("schema", "named"),
    [
        ({"type": "string", "maxLength": 10**9}, "maxLength 1000000000 at the root"),
        ({"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "integer"},
                                                   "maxItems": 1_000_000}}},
         "minItems 0 / maxItems 1000000 at /properties/xs"),
        ({"type": "string", "pattern": "(a|b)*a(a|b){20}" + "x" * 64}, "the 'pattern' at the root"),
        ({"type": "string", "pattern": "^[a-z]+$", "maxLength": 10**7}, "maxLength 10000000 with a 'pattern'"),
    ],
)
def test_schema_limits_name_the_keyword_and_pointer(schema: dict, named: str) -> None:
    with pytest.raises(LimitExceeded) as info:
        schema_to_automaton(schema, limits=SMALL)
    assert named in str(info.value)
    assert "limit max_" in str(info.value)


def test_deeply_nested_schema_text_is_a_grammar_error() -> None:
    with pytest.raises(GrammarError, match="nested too deeply"):
        parse_schema_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(GrammarError, match="not JSON"):
        parse_schema_text('{"type": ')


def test_index_bytes_limit_is_checked_while_the_index_is_built(small_vocab) -> None:
    with pytest.raises(LimitExceeded, match="bytes of token index"):
        compile_regex("[a-z]{0,40}", small_vocab, use_cache=False, limits=Limits(max_index_bytes=2_000))
    compiled = compile_regex("[a-z]{0,40}", small_vocab, use_cache=False)
    assert compiled.n_states > 40


def test_a_cached_grammar_larger_than_the_limits_is_refused(small_vocab) -> None:
    compile_json_schema({"type": "string", "maxLength": 300}, small_vocab)  # now in the cache
    with pytest.raises(LimitExceeded, match="DFA states"):
        compile_json_schema({"type": "string", "maxLength": 300}, small_vocab, limits=Limits(max_states=100))


def test_the_a13_schema_compiles_well_inside_the_defaults(a13_schema: dict, small_vocab) -> None:
    compiled = compile_json_schema(a13_schema, small_vocab, use_cache=False, property_order="declared")
    assert 1_000 < compiled.n_states < Limits().max_states // 5


def test_500_chained_gbnf_rules_never_recurse_per_rule() -> None:
    # Compiled callees first: the Python stack stays shallow however long the chain. A recursion
    # limit barely above the current depth proves it (the old compiler needed ~3 frames per rule).
    rules = "\n".join(f'r{i} ::= "x" r{i + 1}' for i in range(120)) + '\nr120 ::= "y"\n'
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 120)
    try:
        grammar = compile_grammar(rules)
    finally:
        sys.setrecursionlimit(old)
    assert grammar.rule_names == ("r0",)


def test_gbnf_parentheses_and_stacked_operators_have_a_depth_limit() -> None:
    with pytest.raises(LimitExceeded, match=r"<grammar>:1:\d+: parentheses nested more than 64 deep"):
        compile_grammar("root ::= " + "(" * 200 + '"a"' + ")" * 200)
    with pytest.raises(LimitExceeded, match="repetition operators nested more than 64 deep"):
        compile_grammar('root ::= "a"' + "?" * 100)


def test_gbnf_state_limit_names_the_rule() -> None:
    grammar = 'root ::= item{1000}\nitem ::= [a-z]{1000}\n'
    states_only = Limits(max_states=5_000, max_nfa_states=50_000, max_seconds=120.0)  # the clock out of the way
    with pytest.raises(LimitExceeded, match=r"<grammar>:1:1: the rule 'root' needs more than 50,000 automaton"):
        compile_grammar(grammar, limits=states_only)


def test_gbnf_regex_terminal_uses_the_limits() -> None:
    with pytest.raises(LimitExceeded, match=r"<grammar>:1:10: in the terminal"):
        compile_grammar("root ::= /(a|b)*a(a|b){20}/", limits=SMALL)


def test_cfg_index_limit(small_vocab) -> None:
    with pytest.raises(LimitExceeded, match="bytes of token index"):
        compile_cfg('root ::= [a-z]+ ("," [a-z]+)*\n', small_vocab, limits=Limits(max_index_bytes=64))
    assert compile_cfg('root ::= [a-z]+ ("," [a-z]+)*\n', small_vocab).index_bytes > 64


def test_limits_refuse_nonsense_values() -> None:
    with pytest.raises(ValueError, match="max_states"):
        Limits(max_states=0)
    with pytest.raises(ValueError, match="max_seconds"):
        Limits(max_seconds=0)
