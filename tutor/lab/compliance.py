"""For each workload, N samples at temperature 1.0 with and without the mask: how many are valid, how fast.

Validity is judged independently of the engines (tutor/lab/validity.py). A constrained sample is
judged exactly as produced; an unconstrained one gets surrounding whitespace stripped first, a
generous baseline. A sample that runs out of its token budget counts as invalid. Constrained samples run
through tutor/lab/budget.py's BudgetedMatcher, which narrows the mask near the end of the budget so
that the sentence can always end (the column "steered" counts the samples where it did). For a13 the
command also decodes the dev set greedily, with and without the mask, and scores the answers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DEFAULT_N = 100


@dataclass
class WorkloadResult:
    """The counts and latencies of one workload."""

    name: str
    kind: str
    n: int
    constrained_valid: int = 0
    unconstrained_valid: int = 0
    unconstrained_n: int = 0
    unfinished: int = 0
    steered: int = 0
    constrained_ms: list[float] = field(default_factory=list)
    unconstrained_ms: list[float] = field(default_factory=list)
    invalid_examples: list[str] = field(default_factory=list)
    dev: dict[str, Any] | None = None

    @property
    def p50_ms(self) -> float:
        """Return the median latency of a constrained sample."""
        return float(np.percentile(self.constrained_ms, 50)) if self.constrained_ms else 0.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    from tutor.lab.workloads import load_workloads

    names = list(load_workloads()[1])
    parser.add_argument("--n", type=int, default=DEFAULT_N, help=f"samples per workload and mode (default {DEFAULT_N})")
    parser.add_argument("--unconstrained-n", type=int, default=None,
                        help="unconstrained samples per workload (default: --n); they run long, so fewer may do")
    parser.add_argument("--workload", action="append", choices=names, metavar="NAME",
                        help=f"run only this workload (repeatable): {', '.join(names)}")
    parser.add_argument("--model", help="catalogue name or GGUF path (default: the bundled model)")
    parser.add_argument("--temperature", type=float, default=1.0, help="sampling temperature (default 1.0)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first sample; sample i uses seed+i")
    parser.add_argument("--dev-set", help="the §A13 dev set (default: ../shared/dev-set.jsonl if present)")
    parser.add_argument("--dev-n", type=int, default=None, help="dev-set items to score for a13 (default all)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")


def _sample(lab: Any, prompt: list[int], matcher: Any, args: argparse.Namespace, seed: int,
            max_tokens: int) -> tuple[bytes | None, float]:
    from tutor.decoding.decoder import DecodeError

    t0 = time.perf_counter()
    try:
        gen = lab.decoder.generate(prompt, matcher, temperature=args.temperature, seed=seed,
                                   max_tokens=max_tokens)
    except DecodeError:
        return None, (time.perf_counter() - t0) * 1e3
    return gen.text, gen.total_ms


def run_workload(lab: Any, name: str, args: argparse.Namespace, sentences: list[str]) -> WorkloadResult:
    """Return the constrained and unconstrained results of one workload."""
    from tutor.lab.budget import BudgetedMatcher, completion_for
    from tutor.lab.families import load_family
    from tutor.lab.workloads import load_workloads

    workload = load_workloads()[1][name]
    family = load_family(workload.grammar, lab.vocab)
    completion = completion_for(family)
    prompts = lab.prompts(workload, args.n, sentences)
    result = WorkloadResult(name, family.kind, args.n)
    for i, prompt in enumerate(prompts):
        matcher = BudgetedMatcher(family.matcher(), completion, lab.vocab, workload.max_tokens)
        text, ms = _sample(lab, prompt, matcher, args, args.seed + i, workload.max_tokens)
        result.steered += matcher.interventions > 0
        result.constrained_ms.append(ms)
        if (i + 1) % 50 == 0:
            print(f"[compliance] {name}: {i + 1}/{args.n}", file=sys.stderr)
        if text is None:
            result.unfinished += 1
        elif family.judge(text):
            result.constrained_valid += 1
        elif len(result.invalid_examples) < 3:
            result.invalid_examples.append(text.decode("utf-8", "replace"))
        if i >= (args.n if args.unconstrained_n is None else args.unconstrained_n):
            continue
        text, ms = _sample(lab, prompt, None, args, args.seed + i, workload.max_tokens)
        result.unconstrained_n += 1
        result.unconstrained_ms.append(ms)
        if text is not None and family.judge(text.strip()):
            result.unconstrained_valid += 1
    return result


def _fields(text: bytes) -> dict[str, Any] | None:
    try:
        obj = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return obj if isinstance(obj, dict) else None


def dev_accuracy(lab: Any, items: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the a13 dev-set scores of greedy decoding with the schema mask and without it."""
    from tutor.decoding.decoder import DecodeError
    from tutor.lab.families import load_family
    from tutor.lab.workloads import load_workloads
    from tutor.scoring import score

    workload = load_workloads()[1]["a13"]
    family = load_family(workload.grammar, lab.vocab)
    out: dict[str, Any] = {"items": len(items)}
    for mode, make in (("constrained", family.matcher), ("unconstrained", lambda: None)):
        predictions: dict[str, Any] = {}  # an unparsable answer is left out: scored as wrong and invalid
        for item in items:
            prompt = lab.a13_prompt(item["original"])
            try:
                gen = lab.decoder.generate(prompt, make(), temperature=0.0, max_tokens=workload.max_tokens)
            except DecodeError:
                continue
            fields = _fields(gen.text.strip())
            if fields is not None:
                predictions[item["id"]] = fields
        scores = score(items, predictions)
        out[mode] = {"all_fields_correct": scores["all_fields_correct"], "schema_valid": scores["schema_valid"],
                     "fields": scores["fields"]}
    return out


def add_dev(result: WorkloadResult, lab: Any, args: argparse.Namespace, items: list[dict[str, Any]]) -> None:
    """Score the dev set for the a13 workload (when there is a dev set)."""
    if items:
        result.dev = dev_accuracy(lab, items[: args.dev_n] if args.dev_n else items)


def run(args: argparse.Namespace) -> int:
    """Load the model, run the workloads and print the report; return 0."""
    from tutor.lab.workloads import LabModel

    lab = LabModel.load(args.model)
    try:
        return report(lab, args)
    finally:
        lab.close()


def report(lab: Any, args: argparse.Namespace) -> int:
    """Run the workloads on a loaded model and print a markdown table (and JSON with --json); return 0."""
    from tutor.lab.workloads import a13_sentences, find_dev_set, load_dev_items, load_workloads

    names = args.workload or list(load_workloads()[1])
    items = load_dev_items(find_dev_set(args.dev_set))
    results = []
    for name in names:
        print(f"[compliance] {name}: {args.n} samples with and without the mask…", file=sys.stderr)
        result = run_workload(lab, name, args, a13_sentences(items))
        if name == "a13":
            add_dev(result, lab, args, items)
        results.append(result)
    print_report(results, args)
    return 0


def _rate(k: int, n: int) -> str:
    return f"{k}/{n} ({100 * k / n:.1f} %)" if n else "–"


def print_report(results: list[WorkloadResult], args: argparse.Namespace) -> None:
    """Print the markdown table, the a13 dev-set scores and, with --json, the JSON line."""
    print(f"Samples at temperature {args.temperature}, seeds {args.seed}…{args.seed + args.n - 1}.\n")
    print("| workload | family | n | valid with mask | valid without mask | p50 ms with mask | p50 ms without"
          " | out of budget | steered to finish |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        p50u = float(np.percentile(r.unconstrained_ms, 50)) if r.unconstrained_ms else 0.0
        print(f"| {r.name} | {r.kind} | {r.n} | {_rate(r.constrained_valid, r.n)} |"
              f" {_rate(r.unconstrained_valid, r.unconstrained_n)} | {r.p50_ms:.1f} | {p50u:.1f} | {r.unfinished} |"
              f" {r.steered} |")
    for r in results:
        if r.invalid_examples:
            print(f"\n{r.name}: invalid constrained outputs, e.g. {r.invalid_examples!r}")
        if r.dev:
            c, u = r.dev["constrained"], r.dev["unconstrained"]
            print(f"\na13 dev set ({r.dev['items']} items, greedy): all fields correct {c['all_fields_correct']:.3f}"
                  f" with the mask, {u['all_fields_correct']:.3f} without; schema-valid {c['schema_valid']:.3f}"
                  f" with, {u['schema_valid']:.3f} without.")
            for label, s in (("with the mask", c), ("without", u)):
                fields = ", ".join(f"{k} {v:.3f}" for k, v in s["fields"].items())
                print(f"  per field {label}: {fields}")
    if args.json:
        out = {}
        for r in results:
            out[r.name] = {"n": r.n, "constrained_valid": r.constrained_valid,
                           "unconstrained_valid": r.unconstrained_valid, "p50_ms": round(r.p50_ms, 3)}
            if r.unconstrained_n != r.n:  # only with --unconstrained-n: the count the rate is out of
                out[r.name]["unconstrained_n"] = r.unconstrained_n
        print(json.dumps(out))
