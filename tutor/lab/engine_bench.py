"""Engine benchmark: compile, cache load, mask and apply costs of the §A13 schema on a vocabulary.

`grammar-tutor bench engine [--model PATH] [--json]`. With --json the last line of output is one
JSON object with the keys vocab_size, compile_cold_ms, first_mask_cold_ms, load_warm_ms, mask_p50_us,
mask_p99_us, apply_p50_us, apply_p99_all_states_us and index_bytes (other tools read them: keep them
stable). compile_cold_ms is the median of --runs compiles without the disk cache (each builds the
automaton; token sets are built as decoding reaches their states); first_mask_cold_ms is the process's
first compile and first mask.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

# A fixed valid a13 output: the per-token figures are measured along its tokens.
FIXED_OUTPUT = (
    '{"original":"She go to the market yesterday and buy some apples.","verb":"go",'
    '"tense":"past simple","person":"3rd singular","correct_form":"went","spanish":"fue"}'
)
KEYS = (
    "vocab_size",
    "compile_cold_ms",
    "first_mask_cold_ms",
    "load_warm_ms",
    "mask_p50_us",
    "mask_p99_us",
    "apply_p50_us",
    "apply_p99_all_states_us",
    "index_bytes",
)
_WARM_SCRIPT = """
import json, sys, time
from tutor.engine.vocab import load_vocabulary
from tutor.engine.dfa_grammar import compile_json_schema
vocab = load_vocabulary(sys.argv[1])
schema = json.loads(open(sys.argv[2], encoding="utf-8").read())
t0 = time.perf_counter()
grammar = compile_json_schema(schema, vocab, property_order="declared")
ms = (time.perf_counter() - t0) * 1e3
print(json.dumps({"ms": ms, "hit": grammar.from_cache}))
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--model", help="catalogue name or GGUF path whose vocabulary to use (default model)")
    parser.add_argument("--json", action="store_true", help="end the output with one JSON line of figures")
    parser.add_argument("--runs", type=int, default=5, help="cold compiles and fresh warm-load processes (5)")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def _per_call_us(fn: Any, reps: int, repeat: int = 5) -> float:
    """Return the µs per fn() call: the best of `repeat` means over `reps` calls (loop overhead included).

    The best of several means drops the time the process spent descheduled (as timeit does).
    """
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter_ns() - t0) / reps / 1e3)
    return best


def _piece_ids(grammar: Any) -> tuple[dict[bytes, int], int]:
    vocab = grammar.vocab
    by_piece: dict[bytes, int] = {}
    for token, piece in enumerate(vocab.pieces):
        if piece and token not in vocab.special_ids and token not in vocab.eog_ids:
            by_piece.setdefault(piece, token)
    return by_piece, max(map(len, by_piece))


def path_steps(grammar: Any, text: bytes, jump_forward: bool = False) -> list[tuple[int, int]]:
    """Return the (state, token) steps a decoder samples to spell text, greedy longest allowed match.

    With jump_forward, forced continuations are consumed as bytes and produce no step (the decoder
    evaluates them without a mask).
    """
    pieces = grammar.vocab.pieces
    by_piece, longest = _piece_ids(grammar)
    matcher = grammar.matcher()
    steps = []
    pos = 0
    while pos < len(text):
        forced = matcher.forced_bytes() if jump_forward else b""
        if forced and text.startswith(forced, pos):
            matcher.advance_bytes(forced)
            pos += len(forced)
            continue
        for size in range(min(longest, len(text) - pos), 0, -1):
            token = by_piece.get(text[pos : pos + size])
            if token is not None and matcher.allowed().contains(token):
                break
        else:
            raise RuntimeError(f"no allowed token at byte {pos} of the fixed output")
        steps.append((matcher.state, token))
        matcher.advance(token)
        pos += len(pieces[token])
    eog = min(grammar.vocab.eog_ids, default=None)
    if eog is not None:
        steps.append((matcher.state, eog))
    return steps


def token_path(grammar: Any, text: bytes) -> list[int]:
    """Return the tokens of text, one per step (see path_steps), without the end-of-generation token."""
    return [token for _, token in path_steps(grammar, text) if token not in grammar.vocab.eog_ids]


def measure(grammar: Any, text: bytes, reps: int = 100) -> dict[str, float]:
    """Return mask and mask+apply µs per step along text (p50, p99) and the apply p99 over all states.

    Every token's step is measured (no jump-forward), as peers measure; the `jf_` figures are the
    steps a decoder with jump-forward actually masks.
    """
    import numpy as np

    rng = np.random.default_rng(0)
    base = rng.standard_normal(grammar.vocab.size).astype(np.float32)
    logits = base.copy()
    cost: dict[int, tuple[float, float]] = {}

    def state_cost(state: int) -> tuple[float, float]:
        if state not in cost:
            matcher = grammar.matcher(state)
            mask = _per_call_us(matcher.allowed, reps)

            def mask_apply() -> None:
                matcher.allowed().apply(logits)

            both = _per_call_us(mask_apply, reps)
            np.copyto(logits, base)
            cost[state] = (mask, both)
        return cost[state]

    every = [state_cost(s) for s, _ in path_steps(grammar, text, jump_forward=False)]
    jumped = [state_cost(s) for s, _ in path_steps(grammar, text, jump_forward=True)]
    # Every state's set, timed once per distinct set and counted once per state that uses it.
    sets: dict[int, tuple[Any, list[int]]] = {}
    for state, allowed in enumerate(grammar.state_sets):
        sets.setdefault(id(allowed), (allowed, []))[1].append(state)
    state_us: list[float] = []
    for allowed, states in sets.values():
        us = _per_call_us(lambda a=allowed: a.apply(logits), max(20, reps // 4))
        np.copyto(logits, base)
        state_us.extend([us] * len(states))
    return {
        "mask_p50_us": _percentile([m for m, _ in every], 50),
        "mask_p99_us": _percentile([m for m, _ in every], 99),
        "apply_p50_us": _percentile([a for _, a in every], 50),
        "apply_p99_us": _percentile([a for _, a in every], 99),
        "jf_apply_p50_us": _percentile([a for _, a in jumped], 50),
        "jf_apply_p99_us": _percentile([a for _, a in jumped], 99),
        "jf_steps": float(len(jumped)),
        "apply_p99_all_states_us": _percentile(state_us, 99),
        "apply_max_all_states_us": max(state_us),
        "steps": float(len(every)),
        "distinct_sets": float(len(sets)),
    }


def _warm_load_ms(model_path: Path, schema_path: Path, runs: int) -> list[float]:
    """Return the cache-hit load time measured in `runs` fresh Python processes."""
    times = []
    env = dict(os.environ)
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", _WARM_SCRIPT, str(model_path), str(schema_path)],
            capture_output=True, text=True, check=True, env=env,
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
        if not result["hit"]:
            raise RuntimeError("the warm-load process missed the cache")
        times.append(float(result["ms"]))
    return times


def run(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures; return the exit code."""
    from tutor.catalogue import resolve
    from tutor.engine.dfa_grammar import compile_json_schema
    from tutor.engine.index import body_walk
    from tutor.engine.trie import token_trie
    from tutor.engine.vocab import load_vocabulary
    from tutor.resources import grammar_path

    runs = max(1, args.runs)
    model = resolve(args.model)
    schema_path = grammar_path("a13.schema.json")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))

    t0 = time.perf_counter()
    vocab = load_vocabulary(model.path)
    vocab_ms = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    trie = token_trie(vocab, persist=True)  # the tutor's own cache folder, as the tutor keeps it
    trie_ms = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    body_walk(trie)  # the tokens inside a JSON string, shared by every grammar's string families
    body_ms = (time.perf_counter() - t0) * 1e3

    import numpy as np

    cold = []
    first_mask_ms = 0.0
    bitmask = np.zeros(-(-vocab.size // 32), dtype=np.uint32)
    for run_no in range(runs):
        t0 = time.perf_counter()
        grammar = compile_json_schema(schema, vocab, use_cache=False, property_order="declared")
        cold.append((time.perf_counter() - t0) * 1e3)
        if not run_no:  # the process's first compile, then the first mask: what a decoder waits for
            grammar.matcher().fill_bitmask(bitmask)
            first_mask_ms = (time.perf_counter() - t0) * 1e3
    compile_json_schema(schema, vocab, property_order="declared")  # make sure the cache entry exists
    warm = _warm_load_ms(model.path, schema_path, runs)

    figures = measure(grammar, FIXED_OUTPUT.encode("utf-8"))
    result: dict[str, Any] = {
        "vocab_size": vocab.size,
        "compile_cold_ms": round(statistics.median(cold), 2),
        "first_mask_cold_ms": round(first_mask_ms, 2),
        "load_warm_ms": round(statistics.median(warm), 2),
        "mask_p50_us": round(figures["mask_p50_us"], 3),
        "mask_p99_us": round(figures["mask_p99_us"], 3),
        "apply_p50_us": round(figures["apply_p50_us"], 2),
        "apply_p99_all_states_us": round(figures["apply_p99_all_states_us"], 2),
        "index_bytes": grammar.index_bytes,
    }
    print(f"model        {model.name} ({model.path.name}), vocabulary {vocab.size} tokens,"
          f" {len(vocab.special_ids)} special, eog {sorted(vocab.eog_ids)}")
    print(f"vocabulary   load {vocab_ms:.1f} ms, token trie {trie_ms:.1f} ms (both cached on disk),"
          f" string-body walk {body_ms:.1f} ms (once per process)")
    print(f"grammar      a13.schema.json: {grammar.n_states} DFA states, {int(figures['distinct_sets'])}"
          f" distinct allowed sets, {grammar.index.bitmasks.shape[0]} bitmasks")
    print(f"compile      cold {result['compile_cold_ms']} ms (median of {runs}; min {min(cold):.1f});"
          f" the process's first compile and first mask {result['first_mask_cold_ms']} ms")
    print(f"load         warm {result['load_warm_ms']} ms from the cache in a fresh process"
          f" (median of {runs}; min {min(warm):.2f})")
    print(f"mask         p50 {result['mask_p50_us']} µs, p99 {result['mask_p99_us']} µs"
          f" per step along a fixed output ({int(figures['steps'])} steps: every token, then EOS)")
    print(f"mask+apply   p50 {result['apply_p50_us']} µs, p99 {figures['apply_p99_us']:.2f} µs along the output;"
          f" with jump-forward ({int(figures['jf_steps'])} masked steps) p50 {figures['jf_apply_p50_us']:.2f},"
          f" p99 {figures['jf_apply_p99_us']:.2f} µs")
    print(f"all states   mask+apply p99 {result['apply_p99_all_states_us']} µs over all {grammar.n_states + 1}"
          f" states (max {figures['apply_max_all_states_us']:.2f})")
    print(f"memory       index {result['index_bytes'] / 1e6:.2f} MB")
    if args.json:
        print(json.dumps(result))
    return 0
