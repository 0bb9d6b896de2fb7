"""Score predictions against labelled items exactly as §A13 §8 defines it."""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from tutor.scope import load_scope

FIELDS = ("verb", "tense", "person", "correct_form", "spanish")
_WRAPPERS = ("output", "prediction", "pred", "response", "result")
_ABSTAIN_VERBS = {"", "none", "n/a", "out_of_scope"}
_IMPERFECTO_ENDINGS = ("aba", "abas", "ía", "ías")


def norm(value: Any) -> str:
    """Return a value normalised for comparison (NFC, straight quotes, lower case, trimmed)."""
    s = unicodedata.normalize("NFC", str(value)).replace("’", "'").replace("‘", "'")
    s = re.sub(r"\s+", " ", s.lower()).strip()
    s = s.strip('"').strip()
    return s.rstrip(".!?,;:").strip()


def _strip_accents(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", s) if unicodedata.category(c) != "Mn")


def extract(line: dict[str, Any]) -> Any:
    """Return the prediction object of one predictions-file line (None, dict or an unparsable marker)."""
    for key in _WRAPPERS:
        if key in line:
            value = line[key]
            break
    else:
        value = {k: v for k, v in line.items() if k != "id"}
    if isinstance(value, str):
        text = re.sub(r"^```(?:json)?\s*|\s*```$", "", value.strip())
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return _Unparsable()
    return value


class _Unparsable:
    pass


def abstains(pred: Any) -> bool:
    """Return True when a prediction abstains (§A13 §8)."""
    if pred is None or pred == {}:
        return True
    if not isinstance(pred, dict):
        return False
    if pred.get("out_of_scope") is True:
        return True
    verb = pred.get("verb")
    if verb is None or (isinstance(verb, str) and norm(verb) in _ABSTAIN_VERBS):
        return not any(pred.get(f) not in (None, "") for f in FIELDS if f != "verb")
    return False


def schema_valid(pred: Any) -> bool:
    """Return True when the prediction abstains or has the five fields with exact enum spellings."""
    if abstains(pred):
        return True
    if not isinstance(pred, dict):
        return False
    scope = load_scope()
    if not all(isinstance(pred.get(f), str) and pred[f].strip() for f in FIELDS):
        return False
    return pred["verb"] in scope.verbs and pred["tense"] in scope.tenses and pred["person"] in scope.persons


def _cell_of(pred: dict[str, Any]):
    scope = load_scope()
    return scope.cells.get((norm(pred.get("verb", "")), norm(pred.get("tense", "")), norm(pred.get("person", ""))))


def score(items: list[dict[str, Any]], predictions: dict[str, Any],
          seconds: dict[str, float] | None = None) -> dict[str, Any]:
    """Return every §A13 §8 figure, with breakdowns by error type, tense, person and verb."""
    n = len(items)
    in_scope = [it for it in items if it.get("gold")]
    field_hits = dict.fromkeys(FIELDS, 0)
    extra = {"correct_form_canonical": 0, "spanish_no_accents": 0, "spanish_with_imperfecto": 0}
    all_ok = valid = consistent = 0
    valid_nonabstain = consistent_nonabstain = spanish_consistent = 0
    # per group value: [all fields right, n, verb, tense, person, correct_form, spanish, n in scope]
    groups: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0] * 8))
    per_item = []
    for it in items:
        pred = predictions.get(it["id"], _Unparsable())
        missing = it["id"] not in predictions
        ok_valid = not missing and not isinstance(pred, _Unparsable) and schema_valid(pred)
        valid += ok_valid
        gold = it.get("gold")
        abst = not isinstance(pred, _Unparsable) and abstains(pred)
        if gold is None:
            item_ok = abst
            item_consistent = abst
        else:
            ok = dict.fromkeys(FIELDS, False)
            if isinstance(pred, dict) and not abst:
                ok["verb"] = norm(pred.get("verb", "")) == norm(gold["verb"])
                ok["tense"] = norm(pred.get("tense", "")) == norm(gold["tense"])
                ok["person"] = norm(pred.get("person", "")) == norm(gold["person"])
                cf = norm(pred.get("correct_form", ""))
                ok["correct_form"] = cf in {norm(x) for x in it["correct_form_accepted"]}
                sp = norm(pred.get("spanish", ""))
                accepted = {norm(x) for x in it["spanish_accepted"]}
                ok["spanish"] = sp in accepted
                extra["correct_form_canonical"] += cf == norm(gold["correct_form"])
                extra["spanish_no_accents"] += _strip_accents(sp) in {_strip_accents(x) for x in accepted}
                extra["spanish_with_imperfecto"] += ok["spanish"] or (
                    gold["tense"] == "past simple" and sp.endswith(_IMPERFECTO_ENDINGS))
            for f in FIELDS:
                field_hits[f] += ok[f]
            item_ok = all(ok.values())
            item_consistent = False
        if isinstance(pred, dict) and not abst:
            cell = _cell_of(pred)
            item_consistent = cell is not None and norm(pred.get("correct_form", "")) in {norm(x) for x in cell.english}
            if ok_valid:
                valid_nonabstain += 1
                consistent_nonabstain += item_consistent
                spanish_ok = cell is not None and norm(pred.get("spanish", "")) in {norm(x) for x in cell.spanish}
                spanish_consistent += spanish_ok
        consistent += item_consistent
        all_ok += item_ok
        g = gold or {}
        for key, value in (("error_type", it.get("error_type", "?")), ("tense", g.get("tense", "—")),
                           ("person", g.get("person", "—")), ("verb", g.get("verb", "—"))):
            row = groups[key][value]
            row[0] += item_ok
            row[1] += 1
            if gold is not None:
                row[7] += 1
                for k, f in enumerate(FIELDS):
                    row[2 + k] += ok[f]
        per_item.append({"id": it["id"], "all_fields_correct": item_ok, "consistent": item_consistent,
                         "schema_valid": ok_valid, "error_type": it.get("error_type")})
    m = len(in_scope) or 1
    result: dict[str, Any] = {
        "n": n,
        "n_in_scope": len(in_scope),
        "schema_valid": valid / n if n else 0.0,
        "all_fields_correct": all_ok / n if n else 0.0,
        "consistency": consistent / n if n else 0.0,
        "fields": {f: field_hits[f] / m for f in FIELDS},
        "also": {k: v / m for k, v in extra.items()},
        "consistency_valid_nonabstaining": consistent_nonabstain / valid_nonabstain if valid_nonabstain else 0.0,
        "spanish_consistency_valid_nonabstaining": spanish_consistent / valid_nonabstain if valid_nonabstain else 0.0,
        "by": {k: {v: {"correct": r[0], "n": r[1], "rate": r[0] / r[1],
                       "fields": {f: (r[2 + j] / r[7] if r[7] else None) for j, f in enumerate(FIELDS)}}
                   for v, r in sorted(d.items())}
               for k, d in groups.items()},
        "items": per_item,
    }
    conf = _confidence_report(items, predictions, per_item)
    if conf:
        result["confidence"] = conf
    if seconds:
        vals = sorted(seconds.values())
        result["seconds_p50"] = vals[len(vals) // 2]
        result["seconds_p90"] = vals[min(len(vals) - 1, int(len(vals) * 0.9))]
        result["seconds_max"] = vals[-1]
    return result


def load_jsonl(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Return the JSON objects of a JSON Lines text (blank lines skipped)."""
    return [json.loads(line) for line in lines if line.strip()]


def reliability(pairs: list[tuple[float, bool]], edges: tuple[float, ...] = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95,
                                                                               1.0001)) -> list[dict[str, Any]]:
    """Return the reliability table: per confidence bin, its count, mean confidence and accuracy."""
    out = []
    for lo, hi in itertools.pairwise(edges):
        inside = [(c, ok) for c, ok in pairs if lo <= c < hi]
        if inside:
            out.append({"from": lo, "to": min(hi, 1.0), "n": len(inside),
                        "mean_confidence": sum(c for c, _ in inside) / len(inside),
                        "accuracy": sum(ok for _, ok in inside) / len(inside)})
    return out


def _confidence_report(items: list[dict[str, Any]], predictions: dict[str, Any],
                       per_item: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return how well `confidence` separates right from wrong answers (in-scope, non-abstaining)."""
    pairs = []
    for it, row in zip(items, per_item, strict=True):
        pred = predictions.get(it["id"])
        if it.get("gold") and isinstance(pred, dict) and isinstance(pred.get("confidence"), int | float):
            pairs.append((float(pred["confidence"]), bool(row["all_fields_correct"])))
    if not pairs:
        return None
    right = [c for c, ok in pairs if ok]
    wrong = [c for c, ok in pairs if not ok]
    auroc = None
    if right and wrong:
        wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
        auroc = wins / (len(right) * len(wrong))
    sure = [ok for c, ok in pairs if c >= 0.5]
    unsure = [ok for c, ok in pairs if c < 0.5]
    bins = reliability(pairs)
    return {
        "reliability": bins,
        "ece": sum(b["n"] * abs(b["accuracy"] - b["mean_confidence"]) for b in bins) / len(pairs),
        "n": len(pairs),
        "auroc": auroc,
        "mean_right": sum(right) / len(right) if right else None,
        "mean_wrong": sum(wrong) / len(wrong) if wrong else None,
        "accuracy_when_sure": sum(sure) / len(sure) if sure else None,
        "share_sure": len(sure) / len(pairs),
        "accuracy_when_not_sure": sum(unsure) / len(unsure) if unsure else None,
    }
