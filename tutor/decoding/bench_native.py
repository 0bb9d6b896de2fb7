"""Tokens per second with llama.cpp's repacking buffer types on and off, each in a fresh child process.

`grammar-tutor bench buffers [--models a,b] [--json]`. The tutor turns the extra (repacking) buffer
types off only where the CPU has AMX (tutor.decoding.native); this measures what that choice
costs on the machine at hand. Prompt evaluation: a 128-token batch, best of 5. Generation: 64
single-token forward passes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

PROMPT = ("When I was a child I lived in a small town near the sea, and every morning my grandmother made"
          " bread for the whole family while my brother and I walked to school. ")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--models", default=None,
                        help="comma-separated catalogue names (default: every installed one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _child(model: str) -> int:
    from tutor.catalogue import resolve
    from tutor.decoding.llm import LoadedModel
    from tutor.decoding.native import use_extra_buffer_types

    m = LoadedModel(resolve(model), n_ctx=512)
    toks = m.tokenize((PROMPT * 8).encode(), bos=True)[:128]
    best = float("inf")
    for _ in range(5):
        m._trim(0)
        t0 = time.perf_counter()
        m.append(toks)
        best = min(best, time.perf_counter() - t0)
    m._trim(1)
    t0 = time.perf_counter()
    for k in range(64):
        m.append([toks[1 + k]])
    gen = time.perf_counter() - t0
    print(json.dumps({"model": model, "extra_buffer_types": use_extra_buffer_types(),
                      "prompt_tokens_per_s": round(len(toks) / best, 1),
                      "generation_tokens_per_s": round(64 / gen, 1)}))
    return 0


def run(args: argparse.Namespace) -> int:
    """Measure each model with the extra buffer types on, then off; print the figures."""
    from tutor.catalogue import catalogue, resolve
    from tutor.decoding.native import cpu_has_amx, llama_system_info
    from tutor.errors import TutorError
    from tutor.threads import set_openmp_waits

    names = args.models.split(",") if args.models else list(catalogue())
    rows, skipped = [], []
    for name in names:
        try:
            resolve(name)
        except TutorError as exc:
            skipped.append({"model": name, "reason": str(exc)})
            continue
        for extra in ("1", "0"):
            env = dict(os.environ, GRAMMAR_TUTOR_EXTRA_BUFTS=extra)
            set_openmp_waits(env)
            proc = subprocess.run([sys.executable, "-m", "tutor.decoding.bench_native", name], env=env,
                                  capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
            if proc.returncode != 0:
                rows.append({"model": name, "extra_buffer_types": extra == "1", "error": f"exit {proc.returncode}"})
            else:
                rows.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    report = {"amx": cpu_has_amx(), "system_info": llama_system_info(), "rows": rows, "skipped": skipped}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"CPU: AMX {'yes' if report['amx'] else 'no'}; {report['system_info']}")
    print(f"{'model':<22} {'repack':<7} {'prompt tok/s':>13} {'generation tok/s':>17}")
    for r in rows:
        if "error" in r:
            print(f"{r['model']:<22} {'on' if r['extra_buffer_types'] else 'off':<7} {r['error']:>13}")
        else:
            print(f"{r['model']:<22} {'on' if r['extra_buffer_types'] else 'off':<7}"
                  f" {r['prompt_tokens_per_s']:>13.1f} {r['generation_tokens_per_s']:>17.1f}")
    for s in skipped:
        print(f"{s['model']:<22} skipped: not installed")
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1]))
