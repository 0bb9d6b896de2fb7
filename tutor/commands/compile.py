"""`grammar-tutor compile`: compile a regex, JSON Schema or GBNF grammar for a model's vocabulary.

Prints the states, compile time, index bytes and cache path (one JSON object with --json). A grammar
the compiler refuses, or one past its limits, exits 2 with the compiler's message. Other tools call
this command: the keys of the --json object stay stable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from tutor.errors import TutorError


class GrammarInputError(TutorError):
    """The grammar given to `compile` cannot be read or compiled (the message says why)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `compile` subcommand."""
    p = sub.add_parser("compile", help="compile a regex, JSON Schema or GBNF grammar for a model's vocabulary",
                       description=__doc__)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--regex", metavar="R", help="a regular expression (whole-string match)")
    what.add_argument("--schema", metavar="FILE", help="a JSON Schema file")
    what.add_argument("--gbnf", metavar="FILE", help="a GBNF grammar file")
    p.add_argument("--model", help="catalogue name or .gguf path whose vocabulary to use (default: bundled)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-cache", action="store_true", help="compile afresh and do not write the disk cache")
    p.set_defaults(handler=run)


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GrammarInputError(f"the {what} file {path} does not exist; check the path") from None
    except UnicodeDecodeError as exc:
        raise GrammarInputError(f"the {what} file {path} is not UTF-8 text (bad byte at offset {exc.start})") from None
    except OSError as exc:
        raise GrammarInputError(f"cannot read the {what} file {path} ({exc.strerror or exc})") from None


def compile_grammar_for(args: argparse.Namespace) -> dict[str, Any]:
    """Compile what `args` names for the model's vocabulary; return the report (GrammarInputError)."""
    from tutor.catalogue import resolve
    from tutor.engine.matcher import GrammarError
    from tutor.engine.vocab import load_vocabulary

    texts = {"regex": args.regex} if args.regex is not None else {}
    if args.schema is not None:
        texts["schema"] = _read(args.schema, "schema")
    if args.gbnf is not None:
        texts["gbnf"] = _read(args.gbnf, "grammar")
    model = resolve(args.model)
    vocab = load_vocabulary(model.path)
    use_cache = not args.no_cache
    t0 = time.perf_counter()
    try:
        if "regex" in texts:
            from tutor.engine.dfa_grammar import compile_regex

            compiled = compile_regex(texts["regex"], vocab, use_cache=use_cache)
        elif "schema" in texts:
            from tutor.engine.dfa_grammar import compile_json_schema, parse_schema_text

            compiled = compile_json_schema(parse_schema_text(texts["schema"]), vocab, use_cache=use_cache)
        else:
            from tutor.engine.cfg.matcher import compile_cfg

            cfg = compile_cfg(texts["gbnf"], vocab)
            return _report("gbnf", model.name, vocab.size, cfg.grammar.n_nodes, cfg.compile_ms, cfg.index_bytes,
                           None, False)
    except GrammarError as exc:
        raise GrammarInputError(str(exc)) from None
    ms = (time.perf_counter() - t0) * 1e3
    return _report(compiled.kind if compiled.kind != "json" else "schema", model.name, vocab.size,
                   compiled.n_states, compiled.build_ms if not compiled.from_cache else ms, compiled.index_bytes,
                   compiled.cache_path, compiled.from_cache)


def _report(kind: str, model: str, vocab_size: int, states: int, ms: float, index_bytes: int,
            cache_path: Path | None, from_cache: bool) -> dict[str, Any]:
    return {"kind": kind, "model": model, "vocab_size": vocab_size, "states": int(states),
            "compile_ms": round(float(ms), 3), "index_bytes": int(index_bytes),
            "cache_path": str(cache_path) if cache_path is not None else None, "from_cache": from_cache}


def run(args: argparse.Namespace) -> int:
    """Compile and print the report; return the exit code (errors exit 2 through tutor.cli)."""
    report = compile_grammar_for(args)
    if args.json:
        print(json.dumps(report))
        return 0
    how = "loaded from the cache" if report["from_cache"] else "compiled"
    print(f"{report['kind']} {how} for {report['model']} ({report['vocab_size']:,} tokens)")
    print(f"states       {report['states']:,}")
    print(f"compile ms   {report['compile_ms']:.1f}")
    print(f"index bytes  {report['index_bytes']:,}")
    print(f"cache path   {report['cache_path'] or 'none (not cached)'}")
    sys.stdout.flush()
    return 0
