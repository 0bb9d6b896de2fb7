"""Why a regex cannot be the language of balanced parentheses: every string up to a length, judged by both.

A regex limited to nesting depth d needs more DFA states for every extra level and still rejects depth
d + 1; a regex that does not count accepts unbalanced strings. The CFG (grammars/parens.gbnf) has a
fixed number of nodes and gets every string right.
"""

from __future__ import annotations

import argparse
import itertools
import json
from dataclasses import dataclass, field

PIECES = (b"(", b")", b"atom")
# A regex people write for "a parenthesised group of atoms": it does not count, so it accepts "(()".
FLAT_REGEX = r"atom|\((atom|[()])*\)"


def depth_limited_regex(depth: int) -> str:
    """Return a regex for parenthesised atoms nested at most `depth` levels deep."""
    expr = "atom"
    for _ in range(depth):
        expr = rf"(atom|\(({expr})*\))"
    return expr


@dataclass
class Comparison:
    """How one regex disagrees with the CFG on the enumerated strings."""

    key: str
    name: str
    pattern: str
    dfa_states: int
    wrongly_accepted: int = 0
    wrongly_rejected: int = 0
    examples_accepted: list[str] = field(default_factory=list)
    examples_rejected: list[str] = field(default_factory=list)


def compare(max_pieces: int, max_depth: int, examples: int = 3) -> tuple[dict[str, object], list[Comparison]]:
    """Return (CFG summary, one Comparison per regex) over every string of up to `max_pieces` pieces."""
    from tutor.engine.cfg.grammar import load_grammar
    from tutor.engine.cfg.parser import PushdownParser
    from tutor.engine.regex import regex_to_dfa
    from tutor.resources import grammar_path

    grammar = load_grammar(grammar_path("parens.gbnf"))
    parser = PushdownParser(grammar)
    regexes = [(f"depth_{d}", f"depth ≤ {d}", depth_limited_regex(d)) for d in range(1, max_depth + 1)]
    regexes.append(("flat", "flat (no counting)", FLAT_REGEX))
    dfas = [regex_to_dfa(pattern) for _, _, pattern in regexes]
    rows = [Comparison(*names, dfa.n_states) for names, dfa in zip(regexes, dfas, strict=True)]
    n_strings = n_cfg = 0
    for n in range(1, max_pieces + 1):  # shortest first, so the examples are the shortest ones
        for combo in itertools.product(PIECES, repeat=n):
            data = b"".join(combo)
            n_strings += 1
            in_cfg = parser.accepts(data)
            n_cfg += in_cfg
            for row, dfa in zip(rows, dfas, strict=True):
                in_regex = dfa.accepts(data)
                if in_regex and not in_cfg:
                    row.wrongly_accepted += 1
                    if len(row.examples_accepted) < examples:
                        row.examples_accepted.append(data.decode())
                elif in_cfg and not in_regex:
                    row.wrongly_rejected += 1
                    if len(row.examples_rejected) < examples:
                        row.examples_rejected.append(data.decode())
    summary = {"strings": n_strings, "cfg_accepts": n_cfg, "cfg_nodes": grammar.n_nodes}
    summary["max_pieces"] = max_pieces
    return summary, rows


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument("--max-pieces", type=int, default=10,
                        help="enumerate every string of up to this many pieces '(' ')' 'atom' (default 10)")
    parser.add_argument("--depth", type=int, default=3, help="deepest depth-limited regex to try (default 3)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")


def run(args: argparse.Namespace) -> int:
    """Print the comparison as a markdown table (and JSON with --json); return 0."""
    summary, rows = compare(args.max_pieces, args.depth)
    s = summary
    print(f"Every string of 1 to {s['max_pieces']} pieces from '(' ')' 'atom': {s['strings']} strings,"
          f" {s['cfg_accepts']} of them balanced (grammars/parens.gbnf: {s['cfg_nodes']} CFG nodes"
          " for any depth).\n")
    print("| regex | DFA states | wrongly accepts | wrongly rejects | shortest wrongly accepted"
          " | shortest wrongly rejected |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for r in rows:
        acc = ", ".join(f"`{s}`" for s in r.examples_accepted) or "–"
        rej = ", ".join(f"`{s}`" for s in r.examples_rejected) or "–"
        print(f"| {r.name} | {r.dfa_states} | {r.wrongly_accepted} | {r.wrongly_rejected} | {acc} | {rej} |")
    print("\nEach extra level of nesting costs the regex more states, and the next level is still rejected:"
          " a finite automaton cannot count unbounded depth. The flat regex stays small by not counting,"
          " and so accepts unbalanced strings. The CFG's stack counts.")
    if args.json:
        out = dict(summary)
        out["regexes"] = {
            r.key: {
                "name": r.name, "pattern": r.pattern, "dfa_states": r.dfa_states,
                "wrongly_accepted": r.wrongly_accepted, "wrongly_rejected": r.wrongly_rejected,
                "examples_accepted": r.examples_accepted, "examples_rejected": r.examples_rejected,
            }
            for r in rows
        }
        print(json.dumps(out))
    return 0
