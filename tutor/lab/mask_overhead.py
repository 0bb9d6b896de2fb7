"""Mask µs per token for each family on the real model, and its overhead against an unmasked decode.

Families: `regex` (grammars/phone.regex, precompiled DFA index), `cfg` (grammars/parens.gbnf, the
pushdown parser with its cached masks), `json_precompiled` (grammars/a13.schema.json, precompiled DFA
index) and `json_rederived` (the same schema's DFA with the mask re-derived by scanning the whole
vocabulary at every token; a reference only). Each decodes N samples at temperature 1.0 without
jump-forward, so every token goes through the mask. `mask` is the time of `matcher.allowed()`;
`overhead_pct` is the decoder's whole masking time per token (allowed set + applying it to the logits)
as a percentage of the time per token of an unmasked decode of the same prompts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from tutor.engine.matcher import AllowedSet, Matcher

DEFAULT_N = 10
FAMILIES = {  # family key -> (workload, whether the mask is re-derived naively)
    "regex": ("phone", False),
    "cfg": ("parens", False),
    "json_precompiled": ("a13", False),
    "json_rederived": ("a13", True),
}


class TimedMatcher:
    """A Matcher that records how long each allowed() of the matcher inside takes."""

    def __init__(self, inner: Matcher, sink: list[int]) -> None:
        self.inner = inner
        self.sink = sink

    def allowed(self) -> AllowedSet:
        """Return the inner matcher's allowed set, timing it."""
        t0 = time.perf_counter_ns()
        result = self.inner.allowed()
        self.sink.append(time.perf_counter_ns() - t0)
        return result

    def advance(self, token_id: int) -> None:
        """Consume one token."""
        self.inner.advance(token_id)

    def is_accepting(self) -> bool:
        """Return True when the inner matcher accepts."""
        return self.inner.is_accepting()

    def is_finished(self) -> bool:
        """Return True when the inner matcher is finished."""
        return self.inner.is_finished()

    def forced_bytes(self) -> bytes:
        """Return the inner matcher's forced continuation."""
        return self.inner.forced_bytes()

    def advance_bytes(self, data: bytes) -> None:
        """Consume raw bytes."""
        self.inner.advance_bytes(data)

    def forced_completes(self) -> bool:
        """Return True when the inner matcher's forced continuation ends the output."""
        return self.inner.forced_completes()

    def rollback(self, steps: int = 1) -> None:
        """Undo the last `steps` advances."""
        self.inner.rollback(steps)

    def reset(self) -> None:
        """Return to the start state."""
        self.inner.reset()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument("--n", type=int, default=DEFAULT_N, help=f"samples per family (default {DEFAULT_N})")
    parser.add_argument("--family", action="append", choices=list(FAMILIES), metavar="NAME",
                        help=f"measure only this family (repeatable): {', '.join(FAMILIES)}")
    parser.add_argument("--model", help="catalogue name or GGUF path (default: the bundled model)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first sample; sample i uses seed+i")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")


def _matcher_factory(lab: Any, workload: Any, naive: bool) -> Any:
    from tutor.lab.families import load_family

    family = load_family(workload.grammar, lab.vocab)
    if not naive:
        return family.matcher
    from tutor.lab.naive import NaiveDFAMatcher

    naive = NaiveDFAMatcher(family.compiled.dfa, lab.vocab)  # the DFA the precompiled index was built from
    return lambda: naive  # one instance, reset by the decoder before each sample


def measure(lab: Any, key: str, n: int, seed: int, sentences: list[str]) -> dict[str, float]:
    """Return mask p50/p99 µs, apply p50 µs, µs per token with and without the mask, and the overhead %."""
    from tutor.decoding.decoder import DecodeError
    from tutor.lab.workloads import load_workloads

    workload_name, naive = FAMILIES[key]
    workload = load_workloads()[1][workload_name]
    new_matcher = _matcher_factory(lab, workload, naive)
    prompts = lab.prompts(workload, n, sentences)
    allowed_ns: list[int] = []
    masking_ns: list[int] = []
    unmasked_ns: list[float] = []
    for i, prompt in enumerate(prompts):
        sink: list[int] = []
        try:
            gen = lab.decoder.generate(prompt, TimedMatcher(new_matcher(), sink), temperature=1.0,
                                       seed=seed + i, max_tokens=workload.max_tokens, jump_forward=False)
        except DecodeError:
            continue  # out of budget: not a complete sample
        allowed_ns.extend(sink)
        masking_ns.extend(gen.mask_ns)
        # the unmasked baseline decodes as many tokens as the masked sample, so both pay the same context
        free = lab.decoder.generate(prompt, None, temperature=1.0, seed=seed + i,
                                    max_tokens=max(1, len(gen.tokens)), stop_at_eos=False)
        if free.tokens:
            unmasked_ns.append((free.total_ms - free.prompt_ms) * 1e6 / len(free.tokens))
    mask_us = np.array(allowed_ns, dtype=np.float64) / 1e3
    apply_us = np.maximum(np.array(masking_ns, dtype=np.float64) / 1e3 - (mask_us), 0.0)
    per_token_us = float(np.mean(unmasked_ns)) / 1e3 if unmasked_ns else float("nan")
    masking_mean_us = float(np.mean(masking_ns)) / 1e3 if masking_ns else float("nan")
    return {
        "mask_p50_us": float(np.percentile(mask_us, 50)) if len(mask_us) else float("nan"),
        "mask_p99_us": float(np.percentile(mask_us, 99)) if len(mask_us) else float("nan"),
        "apply_p50_us": float(np.percentile(apply_us, 50)) if len(apply_us) else float("nan"),
        "unmasked_token_us": per_token_us,
        "tokens": len(mask_us),
        "overhead_pct": 100.0 * masking_mean_us / per_token_us if unmasked_ns else float("nan"),
    }


def run(args: argparse.Namespace) -> int:
    """Load the model, measure each family and print the report; return 0."""
    from tutor.lab.workloads import LabModel

    lab = LabModel.load(args.model)
    try:
        return report(lab, args)
    finally:
        lab.close()


def report(lab: Any, args: argparse.Namespace) -> int:
    """Measure each family on a loaded model and print a markdown table (and JSON with --json); return 0."""
    from tutor.lab.workloads import a13_sentences, find_dev_set, load_dev_items

    keys = args.family or list(FAMILIES)
    sentences = a13_sentences(load_dev_items(find_dev_set()))
    rows: dict[str, dict[str, float]] = {}
    for key in keys:
        print(f"[mask-overhead] {key}: {args.n} samples…", file=sys.stderr)
        rows[key] = measure(lab, key, args.n, args.seed, sentences)
    print(f"Model {lab.file.name}, vocabulary of {lab.vocab.size} tokens; {args.n} samples per family at"
          " temperature 1.0, no jump-forward.\n")
    print("| family | grammar | tokens | mask p50 µs | mask p99 µs | apply p50 µs | unmasked µs/token | overhead % |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    from tutor.lab.workloads import load_workloads

    workloads = load_workloads()[1]
    for key, r in rows.items():
        grammar = workloads[FAMILIES[key][0]].grammar
        print(f"| {key} | {grammar} | {r['tokens']} | {r['mask_p50_us']:.2f} | {r['mask_p99_us']:.2f} |"
              f" {r['apply_p50_us']:.2f} | {r['unmasked_token_us']:.0f} | {r['overhead_pct']:.2f} |")
    if args.json:
        print(json.dumps({
            key: {k: round(r[k], 3) for k in ("mask_p50_us", "mask_p99_us", "overhead_pct")}
            for key, r in rows.items()
        }))
    return 0
