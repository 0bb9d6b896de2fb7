"""Accuracy and latency with each idea of the pipeline switched off, on labelled files, in one run.

    python scripts/ablation.py [--model NAME] FILE [FILE ...]

Prints one markdown table per file (rows: the full pipeline, then one idea off at a time) and the
per-model row. The model is loaded once; every row runs the same sentences.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROWS = [
    ("full pipeline (default: the model judges)", {}),
    ("− the model's score (--no-model: the analyser's evidence alone)", {"use_model": False}),
    ("− facts (the model samples among all cells of the verbs present)", {"facts": False}),
    ("− table (plain JSON Schema FSM, `original` pinned)", {"table": False}),
    ("− jump-forward", {"jump_forward": False}),
]


def main() -> int:
    """Run the ablation; return the exit code."""
    from tutor.api import Tutor
    from tutor.errors import TutorError
    from tutor.lab.ablations import ablated
    from tutor.scoring import score

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--model", default=None)
    parser.add_argument("--rows", default="all", help="comma-separated row numbers (0 = full pipeline)")
    args = parser.parse_args()
    tutor = Tutor.load(args.model)
    wanted = range(len(ROWS)) if args.rows == "all" else [int(x) for x in args.rows.split(",")]
    for path in args.files:
        items = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
        print(f"\n{path} ({len(items)} items), model {tutor.model.name}\n")
        print("| idea | all fields right | verb | tense | person | form | spanish | consistent | p50 s | p90 s |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for k in wanted:
            label, changes = ROWS[k]
            variant = ablated(tutor.with_settings(**changes))
            preds, secs = {}, {}
            for it in items:
                t0 = time.perf_counter()
                try:
                    preds[it["id"]] = variant.correct(it["original"]).output
                except (TutorError, ValueError, KeyError) as exc:
                    print(f"  {it['id']}: {exc}", file=sys.stderr)
                    preds[it["id"]] = None
                secs[it["id"]] = time.perf_counter() - t0
            r = score(items, preds, secs)
            f = r["fields"]
            print(f"| {label} | {r['all_fields_correct']:.3f} | {f['verb']:.3f} | {f['tense']:.3f} | "
                  f"{f['person']:.3f} | {f['correct_form']:.3f} | {f['spanish']:.3f} | {r['consistency']:.3f} | "
                  f"{r['seconds_p50']:.2f} | {r['seconds_p90']:.2f} |", flush=True)
            if k == 0:
                by = r["by"]["error_type"]
                worst = sorted(by.items(), key=lambda kv: kv[1]["rate"])[:3]
                conf = r.get("confidence") or {}
                weakest = ", ".join(f"{t} {v['rate']:.2f}" for t, v in worst)
                auroc = conf.get("auroc")
                auroc_text = f"{auroc:.2f}" if auroc is not None else "n/a (no wrong answers)"
                print(f"|   ↳ weakest error types: {weakest}; confidence AUROC {auroc_text}"
                      " | | | | | | | | | |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
