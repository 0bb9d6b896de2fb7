"""`python -m tutor.commands.veto_fit`: fit the veto model's margin (data/judge/veto.json) on saved predictions.

First save each development half's findings with every veto score recorded and nothing vetoed:

    grammar-tutor eval tests/data/traps_clean.jsonl:odd --veto-model qwen2.5-coder-1.5b --veto-margin=-inf \\
        --save-predictions dev_traps_clean.jsonl

    python -m tutor.commands.veto_fit --model qwen2.5-coder-1.5b \
        tests/data/traps_clean.jsonl:odd=dev_traps_clean.jsonl …

picks, for each measure (tutor.judge.veto.MEASURES), the margin that maximises F0.5 of the findings kept over
all the sets given (pooled), and writes the better one. A text set's finding is real when it is on a labelled error
with its correction; a sentence set's answer is a finding when it is a change, and real when its verb, tense,
person and correct form are the gold ones (an answer whose written word fills no §A13 cell is no finding the
veto reads, and counts as kept). Nothing runs a model: the scores are those the eval saved.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def build_parser() -> argparse.ArgumentParser:
    """Return the command's parser (a module of its own, not a `grammar-tutor` subcommand: a developer's tool)."""
    p = argparse.ArgumentParser(prog="python -m tutor.commands.veto_fit",
                                description="fit the veto model's margin on saved predictions (data/judge/veto.json)")
    p.add_argument("pairs", nargs="+", metavar="SET=PREDICTIONS",
                   help="a labelled set (FILE or FILE:odd / FILE:even) and the predictions `eval --veto-margin=-inf"
                        " --save-predictions` wrote for it")
    p.add_argument("--model", required=True, help="the veto model's catalogue name the scores came from")
    p.add_argument("--out", default=str(ROOT / "data" / "judge" / "veto.json"), help="file to update")
    p.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    return p


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and fit; a bad input is one line on stderr and exit code 2."""
    from tutor.errors import TutorError

    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except TutorError as exc:
        print(f"veto-fit: {exc}", file=sys.stderr)
        return 2


def set_cases(items: list[dict[str, Any]], saved: dict[str, dict[str, Any]]) -> tuple[list, int]:
    """Return one set's (VetoCase per finding, labelled errors); raise InputError when a finding has no score."""
    from tutor.errors import InputError
    from tutor.judge.veto import VetoCase, VetoScore

    cases, labelled = [], 0
    for it in items:
        row = saved.get(it["id"])
        if row is None:
            raise InputError(f"the predictions have no line for {it['id']}: save them for the same set and half")
        if "original" in it:  # a sentence: its answer is the one finding, when it is a change
            labelled += bool(it.get("gold"))
            out = row.get("output") or {}
            if out.get("out_of_scope") or row.get("is_correct", True):
                continue
            # an answer the veto did not read is no finding: its written word fills no §A13 cell, so nothing
            # else could be answered (Judged.answer); it is kept at every margin
            unread = {"delta": math.inf, "per_token": math.inf}
            findings = [(row.get("veto") or unread, _sentence_real(it, out))]
        else:
            labelled += len(it.get("errors", []))
            findings = [(f.get("veto"), _text_real(it, f)) for f in row.get("findings") or []]
        for score, real in findings:
            if not score:
                raise InputError(f"{it['id']}: a finding has no veto score; save the predictions with"
                                 " --veto-model NAME --veto-margin=-inf")
            cases.append(VetoCase(VetoScore(float(score["delta"]), float(score["per_token"])), real))
    return cases, labelled


def _sentence_real(item: dict[str, Any], out: dict[str, Any]) -> bool:
    from tutor.scoring import norm

    gold = item.get("gold")
    if not gold:
        return False
    return (all(norm(out.get(k, "")) == norm(gold[k]) for k in ("verb", "tense", "person"))
            and norm(out.get("correct_form", "")) in {norm(x) for x in item.get("correct_form_accepted", [])})


def _text_real(item: dict[str, Any], finding: dict[str, Any]) -> bool:
    from tutor.text.evaluate import score_texts

    return score_texts([item], {item["id"]: {"findings": [finding]}})["real"] == 1.0


def _read(path: str) -> list[dict[str, Any]]:
    """Return the lines of a JSON Lines file; raise InputError for a missing or malformed one."""
    from tutor.errors import InputError
    from tutor.jsontext import BadJSON, loads

    p = Path(path)
    if not p.is_file():
        raise InputError(f"no such file: {path}")
    try:
        return [loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    except BadJSON as exc:
        raise InputError(f"{path} is not JSON Lines ({exc})") from None


def run(args: argparse.Namespace) -> int:
    """Fit, print per set and pooled, and write the chosen measure and margin for the model."""
    from tutor.errors import InputError
    from tutor.judge.fit import split_half
    from tutor.judge.veto import DEFAULT_PREFIX, MEASURES, choose_margin, counts, f_beta

    per_set, pooled, labelled = [], [], 0
    for pair in args.pairs:
        spec, sep, preds = pair.partition("=")
        if not sep:
            raise InputError(f"{pair!r}: give SET=PREDICTIONS")
        saved = {r["id"]: r for r in _read(preds) if isinstance(r, dict) and "id" in r}
        path, _, part = spec.rpartition(":") if spec.endswith((":odd", ":even")) else (spec, "", "")
        cases, n = set_cases(split_half(_read(path), part), saved)
        per_set.append((spec, cases, n))
        pooled += cases
        labelled += n
    fits = [choose_margin(pooled, labelled, m) for m in MEASURES]
    best = max(fits, key=lambda f: f.f05)
    for fit in fits:
        print(f"\n{fit.measure}: best margin {fit.min_margin:.3f}, F0.5 {fit.f05:.4f}"
              f" (kept {fit.kept}, real {fit.real_kept}, of {fit.labelled} labelled errors)")
        for line in fit.lines:
            print("  " + line)
    kept0, real0 = counts(pooled, best.measure, float("-inf"))
    print(f"\nchosen: {best.measure} ≥ {best.min_margin:.3f}; pooled F0.5 {f_beta(kept0, real0, labelled):.4f}"
          f" without the veto, {best.f05:.4f} with it")
    print("| set | findings | real | labelled | kept | real kept |\n| --- | --- | --- | --- | --- | --- |")
    for spec, cases, n in per_set:
        k, r = counts(cases, best.measure, best.min_margin)
        print(f"| {spec} | {len(cases)} | {sum(c.real for c in cases)} | {n} | {k} | {r} |")
    if args.dry_run:
        return 0
    if best.min_margin == float("-inf"):
        print("no margin beats keeping every finding on these sets: nothing written")
        return 0
    out = Path(args.out)
    raw = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    raw.setdefault("_comment", "The veto model's rule (tutor/judge/veto.py), written by"
                   " `python -m tutor.commands.veto_fit`: the instruction it reads before each sentence, and per"
                   " model the measure and the least margin (nats) by which it must prefer a finding's"
                   " correction for the finding to be shown.")
    raw.setdefault("prefix", DEFAULT_PREFIX)
    raw.setdefault("models", {})[args.model] = {
        "measure": best.measure, "min_margin": round(best.min_margin, 4),
        "fitted_on": [p.partition("=")[0] for p in args.pairs],
        "dev_f05": {"without": round(f_beta(kept0, real0, labelled), 4), "with": round(best.f05, 4)}}
    out.write_text(json.dumps(raw, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
