"""Grammar sources that are not text, not Unicode or not JSON get the compiler's GrammarError, never a
UnicodeEncodeError, TypeError or OverflowError, and a schema can no longer make the model write
`Infinity` (issue 19, item 13). Through GrammarCompiler on the bundled model's vocabulary and the CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.engine import GrammarCompiler, GrammarError
from tutor.engine.matcher import TokenRejected
from tutor.engine.vocab import Vocabulary


@pytest.fixture(scope="module")
def compiler(smol_vocab: Vocabulary) -> GrammarCompiler:
    """Return a compiler for the bundled model's vocabulary (nothing cached on disk)."""
    return GrammarCompiler(smol_vocab)


@pytest.mark.parametrize(("call", "message"), [
    (lambda c: c.compile_regex("a\ud800"), r"regex holds a lone surrogate \(U\+D800\) at position 2"),
    (lambda c: c.compile_regex(b"abc"), r"regex must be text \(str\), not bytes"),
    (lambda c: c.compile_gbnf('root ::= "a\udfff"'), r"GBNF grammar holds a lone surrogate \(U\+DFFF\)"),
    (lambda c: c.compile_gbnf(None), r"GBNF grammar must be text"),
    (lambda c: c.compile_choices([1, None]), r"choice 1 is int 1; every choice must be text or bytes"),
    (lambda c: c.compile_choices(["ok", "a\ud800"]), r"choice 2 holds a lone surrogate"),
    (lambda c: c.compile_choices("yes"), r"needs a list of strings"),
    (lambda c: c.compile_choices(["a", "b"], [0.0, math.nan]), r"prior 2 is nan; every prior must be a finite"),
    (lambda c: c.compile_json_schema({"const": math.inf}), r"schema holds inf at /const, which is not a JSON"),
    (lambda c: c.compile_json_schema({"enum": [1, -math.inf]}), r"at /enum/1"),
    (lambda c: c.compile_json_schema({"type": "number", "maximum": math.inf}), r"at /maximum"),
    (lambda c: c.compile_json_schema({"const": math.nan}), r"holds nan at /const"),
    (lambda c: c.compile_json_schema('{"const": Infinity}'), r"schema holds Infinity, which is not JSON"),
    (lambda c: c.compile_json_schema({"const": "x\ud800"}), r"schema string at /const holds a lone surrogate"),
    (lambda c: c.compile_json_schema({"properties": {"a\udc80": {}}}), r"key at /properties holds a lone"),
    (lambda c: c.compile_json_schema({"const": {1, 2}}), r"\bset\b"),
])
def test_bad_sources_get_a_grammar_error_naming_the_place(compiler: GrammarCompiler, call, message: str) -> None:
    with pytest.raises(GrammarError, match=message):
        call(compiler)


def test_good_sources_still_compile(compiler: GrammarCompiler) -> None:
    assert compiler.compile_choices(["yes", b"no"], [0.0, -1]).kind == "choices"
    matcher = compiler.compile_json_schema({"enum": [1.5, -2, "é"]}).matcher()
    matcher.advance_bytes('"é"'.encode())
    assert matcher.is_accepting()
    matcher.reset()
    with pytest.raises(TokenRejected):
        matcher.advance_bytes(b"Infinity")


def test_the_compile_command_refuses_infinity_with_exit_2(tmp_path: Path) -> None:
    schema = tmp_path / "inf.json"
    schema.write_text('{"type": "object", "properties": {"x": {"const": Infinity}}}', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "tutor.cli", "compile", "--schema", str(schema), "--no-cache"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert "grammar-tutor: the schema holds Infinity, which is not JSON" in done.stderr
    assert "Traceback" not in done.stderr
    json.loads(schema.read_text(encoding="utf-8").replace("Infinity", "1"))  # the rest of the file was fine
