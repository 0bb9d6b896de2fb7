"""Scores for whole-text sets: found and real findings (texts), or false alarms (correct sentences)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split()).strip(".,;:!?\"")


def score_texts(items: list[dict[str, Any]], results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Return found (labelled errors matched by a finding with an accepted form) and real (findings that
    match a labelled error) rates, and false alarms on items without labelled errors."""
    labelled = found = findings = real = 0
    clean_items = clean_ok = 0
    examiner = untouched = words = 0
    by_type: dict[str, list[int]] = {}
    misses, alarms = [], []
    for it in items:
        res = results.get(it["id"]) or {"findings": []}
        errors = it.get("errors", [])
        got = res.get("findings", [])
        used = set()
        for e in errors:
            labelled += 1
            hit = None
            for k, f in enumerate(got):
                if k in used or not (f["start"] < e["end"] and e["start"] < f["end"]):
                    continue
                ok = (f["verb"] == e["verb"] and f["tense"] == e["tense"] and f["person"] == e["person"]
                      and _norm(f["correct_form"]) in {_norm(x) for x in e["correct_form_accepted"]})
                if ok:
                    hit = k
                    break
            row = by_type.setdefault(e.get("error_type", "?"), [0, 0])
            row[1] += 1
            if hit is not None:
                used.add(hit)
                found += 1
                row[0] += 1
            else:
                misses.append((it["id"], e["written"], e["correct_form"]))
        words += len(it.get("text", "").split())
        for k, f in enumerate(got):
            findings += 1
            verdict = _examiner_verdict(f, it)
            examiner += verdict == "same"
            untouched += verdict == "untouched"
            if k in used:
                real += 1
            else:
                alarms.append((it["id"], f["written"], f["correct_form"]))
        if not errors:
            clean_items += 1
            clean_ok += not got
    precision = real / findings if findings else None
    recall = found / labelled if labelled else None
    f05 = None
    if precision is not None and recall is not None and precision + recall > 0:
        f05 = 1.25 * precision * recall / (0.25 * precision + recall)
    return {"texts": len(items), "labelled_errors": labelled, "findings": findings,
            "found": recall, "real": precision, "f05": f05,
            "examiner_same": examiner / findings if findings else None,
            "untouched_per_1000_words": 1000 * untouched / words if words else None,
            "wrong_per_1000_words": 1000 * (findings - real) / words if words else None,
            "words": words,
            "items_without_errors": clean_items,
            "no_false_alarm": clean_ok / clean_items if clean_items else None,
            "by_error_type": {k: {"found": v[0] / v[1], "n": v[1]} for k, v in sorted(by_type.items())},
            "misses": misses, "false_alarms": alarms}


def _examiner_verdict(f: dict[str, Any], item: dict[str, Any]) -> str:
    """Return 'same' when a labelled correction (in-scope, out-of-scope or other) at the finding's span
    is the finding's own correction, 'other' when the span was corrected differently, 'untouched'
    when nothing was corrected there (as an examiner's annotation of the text would tell)."""
    spans = []
    for e in item.get("errors", []):
        spans.append((e["start"], e["end"], e.get("correct_form_accepted") or [e.get("correct_form", "")]))
    for key in ("out_of_scope", "other"):
        for e in item.get(key, []):
            if "start" in e and "end" in e:
                spans.append((e["start"], e["end"], [e.get("correction", "")]))
    touched = False
    for a, b, accepted in spans:
        if f["start"] < b and a < f["end"]:
            touched = True
            if _norm(f["correct_form"]) in {_norm(x) for x in accepted if x}:
                return "same"
    return "other" if touched else "untouched"


def run_text_eval(items: list[dict[str, Any]], args: argparse.Namespace, tutor: Any = None,
                  saved: dict[str, dict[str, Any]] | None = None) -> int:
    """Run `tutor.check` (a Tutor) on every text, or score `saved` (predictions by id, as `--save-predictions`
    wrote them) instead, and print the scores."""
    from tutor.errors import InputError, TutorError

    results: dict[str, dict[str, Any]] = {}
    seconds: list[float] = []
    veto_seconds: list[float] = []  # of each text's time, the veto model's (when one is loaded)
    items_to_run = items
    if saved is not None:
        missing = [it["id"] for it in items if it["id"] not in saved]
        if missing:
            raise InputError(f"{args.predictions} has no prediction for {len(missing)} of the {len(items)} texts "
                             f"(first: {missing[0]}); score it against the set it was saved for")
        results = {it["id"]: {"findings": saved[it["id"]].get("findings") or []} for it in items}
        items_to_run = []
    out = open(args.save_predictions, "w", encoding="utf-8") if args.save_predictions else None  # noqa: SIM115
    for it in items_to_run:
        t0 = time.perf_counter()
        try:
            checked = tutor.check(it["text"])
            results[it["id"]] = checked.to_dict()
            if getattr(tutor, "veto", None) is not None:
                results[it["id"]]["veto_ms"] = round(checked.veto_ms, 1)
                veto_seconds.append(checked.veto_ms / 1000)
        except TutorError as exc:
            print(f"{it['id']}: {exc}", file=sys.stderr)
            results[it["id"]] = {"findings": []}
        seconds.append(time.perf_counter() - t0)
        if out:
            out.write(json.dumps({"id": it["id"], **results[it["id"]]}, ensure_ascii=False) + "\n")
    if out:
        out.close()
    r = score_texts(items, results)
    seconds.sort()
    if seconds:
        r["seconds_p50"] = seconds[len(seconds) // 2]
        r["seconds_p95"] = seconds[min(len(seconds) - 1, int(len(seconds) * 0.95))]
    veto_seconds.sort()
    if veto_seconds:
        r["veto_seconds_p50"] = veto_seconds[len(veto_seconds) // 2]
        r["veto_seconds_p95"] = veto_seconds[min(len(veto_seconds) - 1, int(len(veto_seconds) * 0.95))]

    def fmt(x):
        return "–" if x is None else f"{x:.3f}"

    print(f"texts: {r['texts']}, labelled errors: {r['labelled_errors']}, findings: {r['findings']}")
    print("| measure | value |\n| --- | --- |")
    print(f"| errors found with the right form | {fmt(r['found'])} |")
    print(f"| findings that are real | {fmt(r['real'])} |")
    print(f"| F0.5 (precision counted twice) | {fmt(r['f05'])} |")
    if any("other" in it or "out_of_scope" in it for it in items):
        print(f"| findings whose correction an annotated correction also makes | {fmt(r['examiner_same'])} |")
        print(f"| findings on words nobody corrected, per 1,000 words | {fmt(r['untouched_per_1000_words'])} |")
    if r["words"]:
        print(f"| wrong findings (no labelled error there), per 1,000 words | {fmt(r['wrong_per_1000_words'])} |")
    print(f"| items with no error and no finding | {fmt(r['no_false_alarm'])} (of {r['items_without_errors']}) |")
    if seconds:
        print(f"| seconds per text p50 / p95 | {r['seconds_p50']:.2f} / {r['seconds_p95']:.2f} |")
    if veto_seconds:
        print(f"| of which the veto model, p50 / p95 | {r['veto_seconds_p50']:.2f} / {r['veto_seconds_p95']:.2f} |")
    if r["by_error_type"]:
        print("\n| error type | n | found |\n| --- | --- | --- |")
        for k, v in r["by_error_type"].items():
            print(f"| {k} | {v['n']} | {v['found']:.3f} |")
    if args.show_errors:
        for m in r["misses"]:
            print(f"  missed {m[0]}: {m[1]!r} -> {m[2]!r}")
        for a in r["false_alarms"]:
            print(f"  false alarm {a[0]}: {a[1]!r} -> {a[2]!r}")
    if args.json:
        print(json.dumps({k: v for k, v in r.items() if k not in ("misses", "false_alarms")}))
    return 0
