"""`grammar-tutor eval FILE`: run the tutor on labelled sentences and print the §A13 §8 scores."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tutor.commands.common import add_model_options, load_tutor
from tutor.errors import InputError, TutorError
from tutor.jsontext import BadJSON, loads


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `eval` subcommand."""
    p = sub.add_parser("eval", help="score the tutor on a labelled JSON Lines file (A13 §8)")
    p.add_argument("file", help="labelled items, as shared/dev-set.jsonl (FILE:odd / FILE:even: half of them)")
    p.add_argument("--by", action="append", choices=["error_type", "tense", "person", "verb"], default=[],
                   help="also print the breakdown by this key (repeatable)")
    p.add_argument("--predictions", help="score this predictions file instead of running the model")
    p.add_argument("--save-predictions", help="write the predictions (JSON Lines) here")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object (last line)")
    p.add_argument("--show-errors", action="store_true", help="print every item that is not all-correct")
    add_model_options(p)
    p.set_defaults(handler=run)


def _read(path: str) -> list[dict]:
    """Read JSON Lines; `FILE:odd` / `FILE:even` keeps the items whose id number is odd / even."""
    part = ""
    if path.endswith((":odd", ":even")) and not Path(path).is_file():
        path, _, part = path.rpartition(":")
    p = Path(path)
    if not p.is_file():
        raise InputError(f"no such file: {path}")
    items = []
    for lineno, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                items.append(loads(line))  # strict JSON, nested at most 32 deep (no RecursionError)
            except BadJSON as exc:
                raise InputError(f"{path} is not JSON Lines (line {lineno}: {exc})") from None
    if part:
        from tutor.judge.fit import split_half

        items = split_half(items, part)
    return items


def run(args: argparse.Namespace) -> int:
    """Run the command; return the exit code."""
    from tutor.lab.ablations import ablated  # eval runs the plain paths kept for comparison (--no-facts, …)
    from tutor.scoring import extract, score

    items = _read(args.file)
    if items and "text" in items[0] and "original" not in items[0]:
        from tutor.text.evaluate import run_text_eval

        if args.predictions:
            saved = {row["id"]: row for row in _read(args.predictions) if isinstance(row, dict) and "id" in row}
            return run_text_eval(items, args, saved=saved)
        return run_text_eval(items, args, ablated(load_tutor(args)))
    seconds: dict[str, float] = {}
    if args.predictions:
        preds = {line["id"]: extract(line) for line in _read(args.predictions)}
    else:
        tutor = ablated(load_tutor(args))
        preds = {}
        out = open(args.save_predictions, "w", encoding="utf-8") if args.save_predictions else None  # noqa: SIM115
        for it in items:
            t0 = time.perf_counter()
            extra: dict = {}
            try:
                res = tutor.correct(it["original"])
                preds[it["id"]] = res.output
                # whether the answer is a change, and the veto model's score of it (veto-fit reads these)
                extra = {"is_correct": res.is_correct, **({"veto": res.veto.to_dict()} if res.veto else {})}
            except TutorError as exc:
                print(f"{it['id']}: {exc}", file=sys.stderr)
                preds[it["id"]] = None
            seconds[it["id"]] = time.perf_counter() - t0
            if out:
                out.write(json.dumps({"id": it["id"], "output": preds[it["id"]], **extra}, ensure_ascii=False)
                          + "\n")
        if out:
            out.close()
    result = score(items, preds, seconds or None)
    _print(result, args.by)
    if args.show_errors:
        by_id = {it["id"]: it for it in items}
        for row in result["items"]:
            if not row["all_fields_correct"]:
                it = by_id[row["id"]]
                print(f"  ✗ {row['id']} [{it.get('error_type')}] {it['original']}\n"
                      f"      gold {json.dumps(it.get('gold'), ensure_ascii=False)}\n"
                      f"      pred {json.dumps(preds.get(row['id']), ensure_ascii=False)}")
    if args.json:
        slim = {k: v for k, v in result.items() if k != "items"}
        print(json.dumps(slim, ensure_ascii=False))
    return 0


def _print(r: dict, by: list[str]) -> None:
    print(f"items: {r['n']} ({r['n_in_scope']} in scope)")
    print("| measure | value |\n| --- | --- |")
    for f, v in r["fields"].items():
        print(f"| {f} right | {v:.3f} |")
    print(f"| all fields right | {r['all_fields_correct']:.3f} |")
    print(f"| schema-valid | {r['schema_valid']:.3f} |")
    print(f"| consistent | {r['consistency']:.3f} |")
    for k, v in r["also"].items():
        print(f"| ({k}) | {v:.3f} |")
    if "seconds_p50" in r:
        print(f"| seconds per sentence p50 / p90 / max | {r['seconds_p50']:.2f} / {r['seconds_p90']:.2f}"
              f" / {r['seconds_max']:.2f} |")
    c = r.get("confidence")
    if c:
        def fmt(x):
            return "–" if x is None else f"{x:.3f}"

        print(f"\nconfidence: AUROC right-vs-wrong {fmt(c['auroc'])}; accuracy when ≥ 0.5"
              f" {fmt(c['accuracy_when_sure'])} ({c['share_sure']:.0%} of answers), when < 0.5"
              f" {fmt(c['accuracy_when_not_sure'])}; mean confidence right {fmt(c['mean_right'])},"
              f" wrong {fmt(c['mean_wrong'])}")
        print(f"expected calibration error (ECE): {c['ece']:.3f}")
        print("| confidence | n | mean confidence | accuracy |\n| --- | --- | --- | --- |")
        for b in c["reliability"]:
            print(f"| {b['from']:.2f}–{b['to']:.2f} | {b['n']} | {b['mean_confidence']:.3f} | {b['accuracy']:.3f} |")
    for key in by:
        print(f"\nby {key}:\n| {key} | n | all fields right | verb | tense | person | form | spanish |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for value, row in r["by"][key].items():
            cells = " | ".join("–" if v is None else f"{v:.2f}" for v in row["fields"].values())
            print(f"| {value} | {row['n']} | {row['rate']:.3f} | {cells} |")
