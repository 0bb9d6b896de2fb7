"""A literal's JSON string built directly (quoted_text) has the language of the general path (quoted of its DFA)."""

from __future__ import annotations

import numpy as np
import pytest

from tutor.engine.dfa import nfa_to_dfa, product
from tutor.engine.limits import Budget
from tutor.engine.schema_compiler import SchemaCompiler, SchemaOptions, literal_dfa

TEXTS = ["", "go", "a/b", "//", 'say "hi"', "back\\slash", "tab\there", "\x00\x1f\x7f", "\u00e9t\u00e9",
         "\U0001f600", "line\nbreak\r\x08\x0c", "/\\\"/"]


def _dfa(build):
    compiler = SchemaCompiler(None, SchemaOptions(placeholders=False), Budget())
    start, end = build(compiler)
    return nfa_to_dfa(compiler.nfa, start, {end})


@pytest.mark.parametrize("text", TEXTS)
def test_quoted_text_equals_the_quoted_literal_dfa(text: str) -> None:
    direct = _dfa(lambda c: c.quoted_text(text))
    general = _dfa(lambda c: c.quoted(literal_dfa(text)))
    differ = product(direct, general, lambda x, y: x != y)
    assert not differ.accepting.any(), text  # no string accepted by one and not the other
    assert direct.accepts(b'"' + text.replace("\\", "\\\\").replace('"', '\\"').encode() + b'"') or any(
        ord(ch) < 0x20 for ch in text)
    assert not direct.accepts(b'"' + text.encode() + b'x"')
    assert np.array_equal(direct.accepting.sum(keepdims=True) > 0, np.array([True]))
