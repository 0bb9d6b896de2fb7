"""Load any grammar file as a mask family: the extension picks the compiler, the result makes matchers.

`.regex` → the regex DFA and its token index, `.gbnf` → the CFG engine, `.schema.json` → the JSON
Schema DFA and its token index. Every family hands out objects of the one Matcher protocol, so the
decoder that consumes them does not know which family it drives.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tutor.engine.matcher import GrammarError, Matcher
from tutor.lab.validity import Judge, gbnf_judge, regex_judge, schema_judge
from tutor.resources import grammar_path

SUFFIXES = {".regex": "regex", ".gbnf": "cfg", ".schema.json": "json"}


@dataclass(frozen=True, eq=False)
class Family:
    """One grammar compiled against one vocabulary."""

    name: str
    kind: str
    path: Path
    compiled: Any
    compile_ms: float
    judge: Judge
    _new_matcher: Callable[[], Matcher]

    def matcher(self) -> Matcher:
        """Return a new matcher at the start of the grammar."""
        return self._new_matcher()


def family_kind(path: Path) -> str:
    """Return 'regex', 'cfg' or 'json' from a grammar file's name; raise GrammarError for others."""
    for suffix, kind in SUFFIXES.items():
        if path.name.endswith(suffix):
            return kind
    raise GrammarError(
        f"{path.name}: unknown grammar file type; use one of {', '.join(SUFFIXES)} (see grammars/README.md)"
    )


def find_grammar(name_or_path: str | Path) -> Path:
    """Return the grammar file for a path, or for a bare name found in grammars/ (e.g. 'parens')."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    for suffix in SUFFIXES:
        candidate = grammar_path(f"{name_or_path}{suffix}")
        if candidate.is_file():
            return candidate
    if grammar_path(str(name_or_path)).is_file():
        return grammar_path(str(name_or_path))
    raise FileNotFoundError(f"no grammar file {name_or_path!r}: give a path, or a name from grammars/")


def read_regex(path: Path) -> str:
    """Return the pattern of a .regex file: its text without one trailing newline."""
    text = path.read_text(encoding="utf-8")
    return text[:-1] if text.endswith("\n") else text


def load_family(name_or_path: str | Path, vocab: Any, *, use_cache: bool = True) -> Family:
    """Return the family of a grammar file compiled against `vocab`, choosing the compiler by extension.

    `use_cache` False compiles a regex or schema index cold instead of loading it from the disk cache.
    """
    path = find_grammar(name_or_path)
    kind = family_kind(path)
    name = path.name
    for suffix in SUFFIXES:
        name = name.removesuffix(suffix)
    t0 = time.perf_counter()
    if kind == "cfg":
        from tutor.engine.cfg.matcher import compile_cfg

        text = path.read_text(encoding="utf-8")
        compiled: Any = compile_cfg(path, vocab)
        judge = gbnf_judge(text, path.name)
        new_matcher: Callable[[], Matcher] = compiled.matcher
    elif kind == "regex":
        from tutor.engine.dfa_grammar import compile_regex

        pattern = read_regex(path)
        compiled = compile_regex(pattern, vocab, use_cache=use_cache)
        judge = regex_judge(pattern)
        new_matcher = compiled.matcher
    else:
        from tutor.engine.dfa_grammar import compile_json_schema

        schema = json.loads(path.read_text(encoding="utf-8"))
        # declared property order: the tutor's schemas are written in it, and the peers compile it so
        compiled = compile_json_schema(schema, vocab, use_cache=use_cache, property_order="declared")
        judge = schema_judge(schema)
        new_matcher = compiled.matcher
    compile_ms = (time.perf_counter() - t0) * 1e3
    return Family(name, kind, path, compiled, compile_ms, judge, new_matcher)
