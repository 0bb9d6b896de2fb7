"""Independent judges of whether an output belongs to a grammar's language, used to score samples.

They share no code with the engines that produce the masks: a regex is judged by Python's `re`
(ASCII classes, as the project's regex compiler uses), a GBNF grammar by a memoised recursive
recogniser over its parse tree, and a JSON Schema by `jsonschema`. A judge that reused the engine
would only check the engine against itself.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

from tutor.engine.cfg.gbnf import Alt, GrammarSource, Literal, Node, Pattern, Ref, Repeat, Seq, parse_gbnf

Judge = Callable[[bytes], bool]


def regex_judge(pattern: str) -> Judge:
    """Return a judge: True when the bytes are UTF-8 text that `re.fullmatch`es the pattern."""
    compiled = re.compile(pattern, re.ASCII)

    def judge(data: bytes) -> bool:
        try:
            return compiled.fullmatch(data.decode("utf-8")) is not None
        except UnicodeDecodeError:
            return False

    return judge


def gbnf_judge(text: str, source: str = "<grammar>") -> Judge:
    """Return a judge for a GBNF grammar: True when the bytes are a sentence of it."""
    grammar = parse_gbnf(text, source)
    return lambda data: recognise(grammar, data)


def recognise(grammar: GrammarSource, data: bytes) -> bool:
    """Return True when `data` is UTF-8 text derived from the grammar's start rule (no left recursion)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    rules = {r.name: r.body for r in grammar.rules}
    patterns: dict[str, re.Pattern[str]] = {}

    @cache
    def rule_ends(name: str, i: int) -> frozenset[int]:
        return ends(rules[name], i)

    def ends(node: Node, i: int) -> frozenset[int]:
        if isinstance(node, Literal):
            lit = node.data.decode("utf-8")
            return frozenset({i + len(lit)}) if text.startswith(lit, i) else frozenset()
        if isinstance(node, Pattern):
            pat = patterns.get(node.regex)
            if pat is None:
                pat = patterns[node.regex] = re.compile(node.regex, re.ASCII)
            return frozenset(j for j in range(i, len(text) + 1) if pat.fullmatch(text, i, j))
        if isinstance(node, Ref):
            return rule_ends(node.name, i)
        if isinstance(node, Seq):
            cur = frozenset({i})
            for item in node.items:
                cur = frozenset().union(*(ends(item, j) for j in cur))
            return cur
        if isinstance(node, Alt):
            return frozenset().union(*(ends(o, i) for o in node.options))
        assert isinstance(node, Repeat)
        cur = frozenset({i})
        for _ in range(node.lo):
            cur = frozenset().union(*(ends(node.item, j) for j in cur))
        out = set(cur)
        if node.hi is None:  # every position reachable by more repetitions
            todo = list(cur)
            while todo:
                for k in ends(node.item, todo.pop()):
                    if k not in out:
                        out.add(k)
                        todo.append(k)
            return frozenset(out)
        for _ in range(node.hi - node.lo):
            cur = frozenset().union(*(ends(node.item, j) for j in cur))
            out |= cur
        return frozenset(out)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20 * len(text) + 1000))
    try:
        return len(text) in rule_ends(grammar.start, 0)
    finally:
        sys.setrecursionlimit(limit)


def schema_judge(schema: dict[str, Any]) -> Judge:
    """Return a judge: True when the bytes are one JSON document valid against the schema."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema)

    def judge(data: bytes) -> bool:
        try:
            doc = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return False
        return validator.is_valid(doc)

    return judge
