"""`grammar-tutor judge-fit`: refit the judge's weights (data/judge/weights.json) on labelled sets.

Run from a checkout: `grammar-tutor judge-fit` fits the default model on the development sets and
reports the fit on the held-out sets, which are never fitted on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Development sets (fitted on) and held-out sets (only checked). Precision items are split by id:
# odd ids are fitted on, even ids held out.
TRAIN = ["../shared/dev-set.jsonl", "tests/data/heldout.jsonl", "tests/data/heldout_real.jsonl",
         "tests/data/blind.jsonl", "tests/data/real_dev.jsonl", "tests/data/precision.jsonl:odd",
         "tests/data/texts.jsonl:odd", "tests/data/essays.jsonl:odd", "tests/data/messy_sentences.jsonl:odd",
         "tests/data/messy_clean.jsonl:odd", "tests/data/messy_essays_a.jsonl:odd",
         "tests/data/messy_essays_b.jsonl:odd", "tests/data/messy_essays_c.jsonl:odd",
         "tests/data/messy_essays_d.jsonl:odd", "tests/data/messy_essays_e.jsonl:odd",
         "tests/data/real_density_f.jsonl:odd", "tests/data/real_density_g.jsonl:odd",
         "tests/data/real_density_h.jsonl:odd",
         "tests/data/traps_clean.jsonl:odd", "tests/data/one_error.jsonl:odd"]
HELD_OUT = ["tests/data/real_test.jsonl", "tests/data/precision.jsonl:even", "tests/data/texts.jsonl:even",
            "tests/data/essays.jsonl:even", "tests/data/messy_sentences.jsonl:even",
            "tests/data/messy_clean.jsonl:even", "tests/data/messy_essays_a.jsonl:even",
            "tests/data/messy_essays_b.jsonl:even", "tests/data/messy_essays_c.jsonl:even",
            "tests/data/messy_essays_d.jsonl:even", "tests/data/messy_essays_e.jsonl:even",
            "tests/data/real_density_f.jsonl:even", "tests/data/real_density_g.jsonl:even",
            "tests/data/real_density_h.jsonl:even",
            "tests/data/traps_clean.jsonl:even", "tests/data/one_error.jsonl:even"]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `judge-fit` subcommand."""
    p = sub.add_parser("judge-fit", help="refit the judge's weights on labelled sets (data/judge/weights.json)")
    p.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    p.add_argument("--train", nargs="*", default=None, help="training sets (FILE or FILE:odd / FILE:even)")
    p.add_argument("--held-out", nargs="*", default=None, help="sets only checked, never fitted on")
    p.add_argument("--l2", type=float, default=1.0, help="L2 penalty (default 1.0)")
    p.add_argument("--out", default=str(ROOT / "data" / "judge" / "weights.json"), help="weights file to update")
    p.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    p.set_defaults(handler=run)


def _load(spec: str) -> tuple[str, list[dict]]:
    from tutor.judge.fit import read_items, split_half

    path, _, part = spec.partition(":")
    p = (ROOT / path) if not Path(path).is_absolute() else Path(path)
    if not p.is_file():
        return spec, []
    return spec, split_half(read_items(p), part)


def _cases(judged, gold_of, source: str):
    """Return (cases, misses) for one judged sentence; gold_of(slot) is the gold index or None."""
    from tutor.judge.fit import Case
    from tutor.judge.scores import candidate_features

    cases, misses = [], 0
    for verdict in judged.verdicts:
        slot = verdict.slot
        gold = gold_of(slot)
        if gold is None:
            misses += 1
            continue
        cases.append(Case([candidate_features(c, judged.lm) for c in slot.candidates], gold, source))
    return cases, misses


def cases_for(tutor, items: list[dict], source: str):
    """Return (cases, recall misses) for the items of one set, judged exactly as Tutor.correct / check do."""
    from tutor.a13.analysis import analyse
    from tutor.api import check_sentence
    from tutor.errors import InputError
    from tutor.judge.fit import gold_index

    cases, misses = [], 0
    for it in items:
        if "errors" in it:  # a whole text: each sentence with the one before it as context
            more, missed = _text_cases(tutor, it, source)
        else:
            try:
                sentence = check_sentence(it.get("original") or it.get("text") or "")
            except InputError:
                continue
            analysis = analyse(sentence)
            if analysis.abstain:
                continue
            judged = tutor.judged(sentence, analysis)
            more, missed = _cases(judged, lambda slot, s=sentence, i=it: gold_index(slot, i, s), source)
        cases += more
        misses += missed
    return cases, misses


def _text_cases(tutor, item: dict, source: str):
    """Return (cases, misses) for a labelled text: gold from the labelled errors' offsets."""
    from tutor.text.sentences import split_sentences
    from tutor.text.walk import walk_text

    text = item["text"]
    cases, misses = [], 0
    for js in walk_text(tutor.analyser, tutor.judge, text, split_sentences(text)):
        if not js.verdicts:
            continue

        def gold_of(slot, a=js.start):
            lo, hi = a + slot.start, a + slot.end
            for e in item["errors"]:
                if e["start"] < hi and lo < e["end"]:
                    key = (e["verb"], e["tense"], e["person"])
                    return next((j for j, c in enumerate(slot.candidates)
                                 if c.change and c.cell is not None and c.cell.key == key), None)
            return 0

        more, missed = _cases(js, gold_of, source)
        cases += more
        misses += missed
    return cases, misses


def run(args: argparse.Namespace) -> int:
    """Fit and report; write the weights unless --dry-run."""
    from tutor.api import Tutor
    from tutor.judge.fit import fit, log_likelihood
    from tutor.judge.thresholds import not_sure_threshold, real_density_weights, report_counts, report_threshold

    tutor = Tutor.load(args.model)
    train_specs = args.train if args.train is not None else TRAIN
    held_specs = args.held_out if args.held_out is not None else HELD_OUT
    t0 = time.perf_counter()
    train, held, report_sets = [], {}, []
    text_cases = []  # slots of whole texts: their own report threshold (errors are rarer in a text)
    density: dict[str, float] = {}  # a text set's in-scope errors per 1,000 words
    for spec in train_specs:
        name, items = _load(spec)
        cases, misses = cases_for(tutor, items, name)
        train += cases
        if items and "errors" in items[0]:
            text_cases += cases
            words = sum(len(it["text"].split()) for it in items)
            density[name] = 1000 * sum(len(it["errors"]) for it in items) / words if words else 0.0
        report_sets.append({"set": name, "items": len(items), "slots": len(cases), "gold_not_a_candidate": misses})
        print(f"train {name}: {len(items)} items, {len(cases)} slots, {misses} gold corrections not among the"
              " candidates", file=sys.stderr)
    text_names = set()
    for spec in held_specs:
        name, items = _load(spec)
        held[name] = cases_for(tutor, items, name)[0]
        if items and "errors" in items[0]:
            text_names.add(name)
    fitted = {}
    for key, use_model in (("with_model", True), ("without_model", False)):
        w = fit(train, use_model=use_model, l2=args.l2)
        fitted[key] = w
        ll, acc = log_likelihood(train, w)
        print(f"{key}: train slots {len(train)}, mean log-lik {ll:.3f}, slot accuracy {acc:.3f}")
        for name, cases in held.items():
            ll, acc = log_likelihood(cases, w)
            print(f"{key}: held-out {name}: slots {len(cases)}, mean log-lik {ll:.3f}, slot accuracy {acc:.3f}")
    print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    if args.dry_run:
        print(json.dumps(fitted, indent=1))
        return 0
    threshold = not_sure_threshold(train, fitted["with_model"])
    print(f"not sure below {threshold:.2f} (the lowest confidence from which slots are right ≥ 80 % of the time)")
    in_texts = {id(c) for c in text_cases}
    sentence_cases = [c for c in train if id(c) not in in_texts]
    report_below, lines = report_threshold(sentence_cases, fitted["with_model"])
    print("\n".join(lines))
    print(f"sentences: report a change when no change is below {report_below:.2f} (F0.5 on the sentence slots)")
    at_real_density = real_density_weights(density)
    report_below_text, lines = report_threshold(text_cases or train, fitted["with_model"], at_real_density)
    print("\n".join(lines))
    print(f"texts: report a change when no change is below {report_below_text:.2f} (F0.5 on the text slots, each"
          " set's errors weighted down to the real density)")
    for name, cases in held.items():
        below = report_below_text if name in text_names else report_below
        right, wrong, gold = report_counts(cases, fitted["with_model"], below)
        print(f"held-out {name} at {below:.2f}: {right} right findings, {wrong} wrong, {gold} gold changes")
    out = Path(args.out)
    data = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    data["not_sure_below"] = threshold
    data["report_below"] = report_below
    data["report_below_text"] = report_below_text
    data["_comment"] = ("Weights of the judge (tutor/judge/judge.py), fitted by `grammar-tutor judge-fit"
                        " [--model NAME]` on the sets under 'fitted_on'; never edit by hand.")
    data.setdefault("default_model", tutor.model.name)
    data.setdefault("models", {})[tutor.model.name] = {
        "with_model": fitted["with_model"], "without_model": fitted["without_model"],
        "fitted_on": report_sets, "held_out": held_specs, "l2": args.l2, "model_sha256": tutor.model.sha256,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)
    return 0
