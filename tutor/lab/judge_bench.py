"""`grammar-tutor bench judge`: latency of the judged pipeline, and what composing the masks costs.

- per sentence: `Tutor.correct` wall time over a labelled set (default tests/data/real_test.jsonl),
  p50 / p95, with the model and with `--no-model`, in one run;
- per text: `Tutor.check` wall time over tests/data/texts.jsonl, p50 / p95 and the 2,000-character
  worst case;
- composition: on the same sentences, the model chooses among all of a slot's candidates by
  decoding (the narrowing is every candidate's JSON, with the judge's log-probabilities as priors);
  the mask step is timed per sampled token with the narrowing alone and with the precompiled a13
  FSM intersected, on the same forward passes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import time
from pathlib import Path

from tutor.lab.stats import percentile as _pct

ROOT = Path(__file__).resolve().parents[2]  # the checkout: tests/data


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    parser.add_argument("--sentences", default=str(ROOT / "tests" / "data" / "real_test.jsonl"))
    parser.add_argument("--texts", default=str(ROOT / "tests" / "data" / "texts.jsonl"))
    parser.add_argument("--n", type=int, default=120, help="sentences to time (default 120)")
    parser.add_argument("--n-texts", type=int, default=40, help="texts to time (default 40)")
    parser.add_argument("--compare-walk", action="store_true",
                        help="also time each text with its variants walked one by one (one KV sequence)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _read(path: str) -> list[dict]:
    p = Path(path)
    return [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x.strip()] if p.is_file() else []


@contextlib.contextmanager
def _walking(tutor):
    """Within the block the judge walks a sentence's variants one by one over one KV sequence."""
    llm = tutor.llm
    llm.token_logprobs = lambda prompt, variants, skip=None: llm.walk_logprobs(prompt, variants)
    try:
        yield
    finally:
        del llm.token_logprobs


def _composition(tutor, sentences: list[str]) -> dict[str, float]:
    """Time the mask per sampled token: narrowing alone vs a13 FSM ∩ narrowing, same forward passes."""
    from tutor.a13.prompt import answer_json
    from tutor.answer import answer_fields
    from tutor.decoding.compose import IntersectionMatcher

    answers = tutor.answer_decoder
    alone, composed, forward = [], [], []
    for sentence in sentences:
        judged = tutor.judged(sentence)
        for v in judged.verdicts:
            cands = [(c, p) for c, p in v.ranked if c.cell is not None]
            if len(cands) < 2:
                continue
            strings = [answer_json(sentence, answer_fields(c), private=False).encode("utf-8") for c, _ in cands]
            priors = [math.log(max(p, 1e-9)) for _, p in cands]
            tokens = answers.prompt(sentence)
            for use_fsm, sink in ((False, alone), (True, composed)):
                inner = answers.compiler.compile_choices(strings, priors).matcher()
                matcher = IntersectionMatcher(answers.schema_grammar().matcher(), inner) if use_fsm else inner
                gen = answers.decoder.generate(tokens, matcher, max_tokens=max(len(s) for s in strings) + 16)
                sink.extend(ns / 1000 for ns in gen.mask_ns)
                if use_fsm and gen.n_sampled:
                    forward.append(gen.forward_ms * 1000 / gen.n_sampled)
    return {"tokens": len(composed), "mask_alone_p50_us": _pct(alone, 50), "mask_alone_p99_us": _pct(alone, 99),
            "mask_composed_p50_us": _pct(composed, 50), "mask_composed_p99_us": _pct(composed, 99),
            "forward_per_token_p50_us": _pct(forward, 50)}


def run(args: argparse.Namespace) -> int:
    """Time the pipeline and print the figures."""
    from tutor.api import Tutor

    tutor = Tutor.load(args.model)
    items = _read(args.sentences)[: args.n]
    sentences = [it.get("original") or it.get("text") for it in items]
    report: dict = {"model": tutor.model.name, "sentences": len(sentences)}
    sentence_walk: list[float] = []
    for label, t in (("default", tutor), ("no_model", tutor.with_settings(use_model=False))):
        times = []
        for s in sentences:
            t0 = time.perf_counter()
            t.correct(s)
            times.append(time.perf_counter() - t0)
            if args.compare_walk and label == "default":  # the same sentence, its variants walked one by one
                with _walking(tutor):
                    t0 = time.perf_counter()
                    t.correct(s)
                    sentence_walk.append(time.perf_counter() - t0)
        report[f"sentence_{label}_p50_s"] = _pct(times, 50)
        report[f"sentence_{label}_p95_s"] = _pct(times, 95)
    if sentence_walk:
        report.update(sentence_walk_p50_s=_pct(sentence_walk, 50), sentence_walk_p95_s=_pct(sentence_walk, 95))
    texts = [it["text"] for it in _read(args.texts)[: args.n_texts]]
    times, walk_times, longest, long_times = [], [], (0, 0.0), []
    for text in texts:
        t0 = time.perf_counter()
        tutor.check(text)
        dt = time.perf_counter() - t0
        times.append(dt)
        if len(text) > longest[0]:
            longest = (len(text), dt)
        if len(text) >= 1500:
            long_times.append(dt)
        if args.compare_walk:  # the same text, its variants walked one by one over one sequence
            with _walking(tutor):
                t0 = time.perf_counter()
                tutor.check(text)
                walk_times.append(time.perf_counter() - t0)
    report.update(texts=len(texts), text_p50_s=_pct(times, 50), text_p95_s=_pct(times, 95),
                  longest_text_chars=longest[0], longest_text_s=longest[1],
                  texts_1500_plus=len(long_times), text_1500_plus_p50_s=_pct(long_times, 50) if long_times else None,
                  text_1500_plus_max_s=max(long_times) if long_times else None)
    if walk_times:
        report.update(text_walk_p50_s=_pct(walk_times, 50), text_walk_p95_s=_pct(walk_times, 95))
    report["composition"] = _composition(tutor, sentences[:30])
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"model {report['model']}; {report['sentences']} sentences, {report['texts']} texts")
    print("| measure | p50 | p95 |\n| --- | --- | --- |")
    print(f"| Tutor.correct, default (s) | {report['sentence_default_p50_s']:.3f} | "
          f"{report['sentence_default_p95_s']:.3f} |")
    if sentence_walk:
        print(f"| Tutor.correct, variants walked one by one (s) | {report['sentence_walk_p50_s']:.3f} | "
              f"{report['sentence_walk_p95_s']:.3f} |")
    print(f"| Tutor.correct, --no-model (s) | {report['sentence_no_model_p50_s']:.3f} | "
          f"{report['sentence_no_model_p95_s']:.3f} |")
    print(f"| Tutor.check per text (s) | {report['text_p50_s']:.3f} | {report['text_p95_s']:.3f} |")
    if walk_times:
        print(f"| Tutor.check per text, variants walked one by one (s) | {report['text_walk_p50_s']:.3f} | "
              f"{report['text_walk_p95_s']:.3f} |")
    print(f"longest text: {report['longest_text_chars']} characters in {report['longest_text_s']:.2f} s")
    if long_times:
        print(f"texts of 1,500+ characters: {len(long_times)}, p50 {report['text_1500_plus_p50_s']:.2f} s,"
              f" max {report['text_1500_plus_max_s']:.2f} s")
    c = report["composition"]
    print(f"mask per sampled token over {c['tokens']} tokens: narrowing alone p50 {c['mask_alone_p50_us']:.1f} µs"
          f" (p99 {c['mask_alone_p99_us']:.1f}); a13 FSM ∩ narrowing p50 {c['mask_composed_p50_us']:.1f} µs"
          f" (p99 {c['mask_composed_p99_us']:.1f}); forward pass per token p50 {c['forward_per_token_p50_us']:.0f} µs")
    return 0
