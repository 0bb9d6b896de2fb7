"""Decoder benchmark: wall time per correction and validity, for each decoding path, in one run.

Paths, on the same model and prompts: unconstrained generation; llama.cpp's own grammar built from
the same schema (LlamaGrammar.from_json_schema); this decoder on the plain schema FSM with and
without jump-forward; and this decoder with the §A13 constraints (original pinned, table answers),
with and without jump-forward.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

SENTENCES = [
    "He goed to school yesterday.",
    "My mum have a new car.",
    "I will went to the party.",
    "She has wrote three books.",
    "You was late again!",
    "I want eat something.",
    "The kids watchs cartoons every morning.",
    "Mi hermano study in Madrid.",
]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    parser.add_argument("--n", type=int, default=len(SENTENCES), help="sentences per path")
    parser.add_argument("--paths", default="all", help="comma-separated subset of the paths")
    parser.add_argument("--json", action="store_true", help="last line: one JSON object keyed by path")


def _valid(text: str) -> bool:
    from tutor.scoring import schema_valid

    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return False
    return isinstance(obj, dict) and schema_valid(obj) and "verb" in obj


def run(args: argparse.Namespace) -> int:
    """Run every path on the same sentences and print a table (and JSON with --json)."""
    import llama_cpp

    from tutor.a13.prompt import render
    from tutor.api import Tutor
    from tutor.resources import grammar_path

    tutor = Tutor.load(args.model)
    sentences = (SENTENCES * (args.n // len(SENTENCES) + 1))[: args.n]
    schema_text = grammar_path("a13.schema.json").read_text(encoding="utf-8")
    tutor.schema_grammar()  # compiled (or loaded) once, outside the timings
    results: dict[str, dict] = {}

    def measure(name: str, fn) -> None:
        times, valid = [], 0
        for s in sentences:
            t0 = time.perf_counter()
            text = fn(s)
            times.append(time.perf_counter() - t0)
            valid += _valid(text)
        results[name] = {"p50_s": statistics.median(times), "max_s": max(times), "valid": valid / len(sentences)}
        print(f"  {name}: p50 {results[name]['p50_s']:.3f} s, valid {results[name]['valid']:.2f}", flush=True)

    def prompt_tokens(s: str) -> list[int]:
        prefix, request = render(s, tutor.model.prompt_format, private=False)
        return tutor.llm.tokenize((prefix + request).encode(), bos=True, special=True)

    def unconstrained(s: str) -> str:
        gen = tutor.decoder.generate(prompt_tokens(s), None, max_tokens=120)
        return gen.text.decode("utf-8", "replace").split("<|im_end|>")[0]

    grammar = llama_cpp.LlamaGrammar.from_json_schema(schema_text, verbose=False)

    def llama_grammar(s: str) -> str:
        prefix, request = render(s, tutor.model.prompt_format, private=False)
        out = tutor.llm.llm.create_completion(prefix + request, grammar=grammar, max_tokens=160, temperature=0.0)
        return out["choices"][0]["text"]

    def ours(**settings):
        variant = tutor.with_settings(**settings)
        return lambda s: json.dumps(variant.correct(s).output, ensure_ascii=False)

    paths = {
        "unconstrained": unconstrained,
        "llama_grammar": llama_grammar,
        "schema_fsm": ours(table=False, pin_original=False),
        "schema_fsm_no_jump": ours(table=False, pin_original=False, jump_forward=False),
        "a13_constrained": ours(),
        "a13_constrained_no_jump": ours(jump_forward=False),
    }
    wanted = list(paths) if args.paths == "all" else args.paths.split(",")
    print(f"model {tutor.model.name}, {len(sentences)} sentences per path")
    for name in wanted:
        measure(name, paths[name])
    print("\n| path | p50 s / correction | max s | valid |\n| --- | --- | --- | --- |")
    for name, r in results.items():
        print(f"| {name} | {r['p50_s']:.3f} | {r['max_s']:.3f} | {r['valid']:.2f} |")
    if "llama_grammar" in results and "a13_constrained" in results:
        ratio = results["llama_grammar"]["p50_s"] / results["a13_constrained"]["p50_s"]
        print(f"\nspeed-up of the a13 path against llama.cpp's grammar: {ratio:.1f}x")
    if args.json:
        print(json.dumps(results))
    return 0
