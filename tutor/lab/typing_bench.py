"""`grammar-tutor bench typing`: a full check of 2,000-character learner texts, and a re-check after a one-word edit.

In one run, on texts built from the repository's learner essays (consecutive essays joined until a
text reaches the length, cut at the last sentence that fits):

- a full check: `IncrementalChecker.check` with nothing kept (what `Tutor.check` costs), p50 / p95;
- a re-check after a one-word edit: a word of the text (chosen with a fixed seed) replaced by another
  word of the same text, then checked again with what the previous check kept, p50 / p95; each edit
  builds on the one before, as a learner's typing does;
- tokens evaluated per text token: the tokens the model evaluated over all full checks, divided by
  the tokens of the texts themselves.

`--json` prints exactly the keys full_check_p50_s, full_check_p95_s, edit_recheck_p50_s,
edit_recheck_p95_s and tokens_evaluated_per_text_token.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from pathlib import Path

from tutor.lab.stats import percentile

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("full_check_p50_s", "full_check_p95_s", "edit_recheck_p50_s", "edit_recheck_p95_s",
        "tokens_evaluated_per_text_token")
WORD = re.compile(r"[A-Za-z]{3,}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    parser.add_argument("--texts", default=None,
                        help="JSON Lines of learner texts ({'text': ...}) to build the long texts from (default: "
                             "the checkout's tests/data/essays.jsonl)")
    parser.add_argument("--chars", type=int, default=2000, help="length of each text (default 2,000)")
    parser.add_argument("--n", type=int, default=10, help="texts to check (default 10)")
    parser.add_argument("--edits", type=int, default=3, help="one-word edits per text (default 3)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--lm-context", choices=("sentence", "paragraph", "text"), default="sentence",
                        help="what the model reads before each sentence (tutor.api.Settings.lm_context)")
    parser.add_argument("--json", action="store_true", help="print one JSON object with the five figures")


def texts_file(given: str | None, root: Path = ROOT) -> Path:
    """Return the essays to build texts from: `given`, else the checkout's tests/data/essays.jsonl. InputError
    when it is not there (an installed copy carries no tests/) or is not a readable file."""
    from tutor.errors import InputError

    if given is None:
        path = root / "tests" / "data" / "essays.jsonl"
        if not path.is_file():
            raise InputError("`bench typing` builds its texts from the learner essays in a source checkout "
                             "(tests/data/essays.jsonl), which an installed copy does not carry; give a JSON Lines "
                             "file of {\"text\": ...} with --texts FILE")
        return path
    path = Path(given)
    if not path.is_file():
        raise InputError(f"no texts file {given}: give --texts a JSON Lines file of {{\"text\": ...}}")
    return path


def long_texts(path: str | Path, chars: int, n: int) -> list[str]:
    """Return `n` texts of at most `chars` characters (and more than 90 % of it), each from consecutive essays."""
    from tutor.text.sentences import split_sentences

    essays = [json.loads(x)["text"] for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]
    if not essays:
        raise SystemExit(f"no texts in {path}: give --texts a JSON Lines file of {{'text': ...}}")
    out: list[str] = []
    k = 0
    while len(out) < n and k < len(essays) * 3:
        text = ""
        while len(text) < chars:
            text += ("\n\n" if text else "") + essays[k % len(essays)]
            k += 1
        ends = [b for _, b in split_sentences(text) if b <= chars]
        if ends and max(ends) > 0.9 * chars:
            out.append(text[: max(ends)])
    return out


def one_word_edit(text: str, rng: random.Random) -> str:
    """Return `text` with one word (three letters or more) replaced by another word of the text."""
    words = list(WORD.finditer(text))
    target = rng.choice(words)
    others = [w.group() for w in words if w.group().lower() != target.group().lower()]
    new = rng.choice(others).lower()
    if target.group()[0].isupper():
        new = new[0].upper() + new[1:]
    return text[: target.start()] + new + text[target.end():]


def measure(tutor, texts: list[str], edits: int, seed: int) -> dict:
    """Return the five figures (and the raw timings) for `texts`, checked with `tutor` in one run."""
    from tutor.text.incremental import IncrementalChecker

    rng = random.Random(seed)
    checker = IncrementalChecker(tutor)
    full, again, evaluated, text_tokens, rescored = [], [], 0, 0, []
    for text in texts:
        checker.forget()  # a full check: nothing kept from the previous text
        t0 = time.perf_counter()
        result = checker.check(text)
        full.append(time.perf_counter() - t0)
        evaluated += result.tokens_evaluated
        text_tokens += len(tutor.llm.tokenize(text.encode("utf-8")))
        current = text
        for _ in range(edits):
            current = one_word_edit(current, rng)
            t0 = time.perf_counter()
            result = checker.check(current)
            again.append(time.perf_counter() - t0)
            rescored.append(len(result.rescored))
    return {"full_check_p50_s": round(percentile(full, 50), 3), "full_check_p95_s": round(percentile(full, 95), 3),
            "edit_recheck_p50_s": round(percentile(again, 50), 3),
            "edit_recheck_p95_s": round(percentile(again, 95), 3),
            "tokens_evaluated_per_text_token": round(evaluated / max(text_tokens, 1), 3),
            "_full": full, "_again": again, "_rescored": rescored, "_text_tokens": text_tokens,
            "_evaluated": evaluated}


def run(args: argparse.Namespace) -> int:
    """Time the checks and print the figures."""
    import os

    from tutor.api import Tutor

    source = texts_file(args.texts)  # before the model loads: a missing file costs nothing
    tutor = Tutor.load(args.model, lm_context=args.lm_context)
    texts = long_texts(source, args.chars, args.n)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    report = measure(tutor, texts, args.edits, args.seed)
    if args.json:
        print(json.dumps({k: report[k] for k in KEYS}))
        return 0
    print(f"model {tutor.model.name}, model context {args.lm_context}; {len(texts)}"
          f" texts of {min(map(len, texts)):,}–{max(map(len, texts)):,}"
          f" characters, {args.edits} one-word edits each; load average {load:.1f} at the start")
    print("| measure | p50 | p95 |\n| --- | --- | --- |")
    print(f"| full check (s) | {report['full_check_p50_s']:.2f} | {report['full_check_p95_s']:.2f} |")
    print(f"| re-check after a one-word edit (s) | {report['edit_recheck_p50_s']:.2f} |"
          f" {report['edit_recheck_p95_s']:.2f} |")
    ratio = report["edit_recheck_p95_s"] / max(report["full_check_p95_s"], 1e-9)
    print(f"re-check p95 / full check p95: {ratio:.3f} (target ≤ 0.15)")
    print(f"tokens evaluated per text token, full checks: {report['tokens_evaluated_per_text_token']:.2f}"
          f" ({report['_evaluated']:,} for {report['_text_tokens']:,}; target ≤ 1.5)")
    print(f"sentences the model read again per edit: p50 {percentile(report['_rescored'], 50):.0f},"
          f" max {max(report['_rescored'], default=0)}")
    return 0
