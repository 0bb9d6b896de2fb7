"""Real-world JSON Schemas (JSONSchemaBench's MaskBench): coverage, wrong accepts and wrong rejects.

`grammar-tutor bench schemas --suite DIR [--sample N] [--seed S] [--timeout SEC] [--json]`

DIR holds the suite's schema files (`maskbench/data/*.json` of github.com/guidance-ai/jsonschemabench:
`{"schema": …, "tests": [{"data": …, "valid": …}, …]}`); it is never part of this repository.
A random sample of N files (fixed seed) is compiled one by one to the byte DFA in a child process
(`tutor.engine.json_schema.schema_to_automaton`, its time limit set to --timeout, and the child
killed if it overruns). Every test instance of a compiled schema is then judged twice:

- valid or not by the `jsonschema` library (the validator the schema's `$schema` names, 2020-12
  if none; `format` is an annotation, as that library does by default);
- accepted or not by running its compact serialisation (`json.dumps(…, ensure_ascii=False,
  separators=(",", ":"))`, which every whitespace setting accepts) through the automaton.

A wrong accept is an instance jsonschema rejects and the automaton accepts (always a bug). A wrong
reject is a valid instance the automaton rejects; it is "asked" when the caller asked for the
narrowing that excludes it (`--property-order declared` and the instance is accepted once its
properties are put in declared order; `--strict` and the instance has a property the schema does
not declare), and "unasked" otherwise. Refusals are grouped by the compiler's message with JSON
pointers and numbers taken out.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

RESULT_KEYS = ("schemas", "compiled", "coverage", "instances", "wrong_accepts", "wrong_rejects_unasked",
               "wrong_rejects_asked", "timeouts", "refused", "judge_errors", "label_disagreements")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--suite", required=True, type=Path,
                        help="folder of MaskBench schema files (maskbench/data of guidance-ai/jsonschemabench)")
    parser.add_argument("--sample", type=int, default=1500, help="schemas drawn at random (1500; 0 = all)")
    parser.add_argument("--seed", type=int, default=15, help="seed of the sample (15)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds allowed per compilation (10)")
    parser.add_argument("--whitespace", type=int, default=0, help="the compiler's whitespace bytes per gap (0)")
    parser.add_argument("--property-order", choices=("any", "declared"), default=None,
                        help="ask the compiler for this property order (default: the compiler's own default)")
    parser.add_argument("--strict", action="store_true",
                        help="ask the compiler to close objects (no undeclared properties)")
    parser.add_argument("--free-depth", type=int, default=None,
                        help="ask for this nesting bound of free-form values (default: the compiler's, 2)")
    parser.add_argument("--show", type=int, default=12, help="refusal reasons and wrong answers to list (12)")
    parser.add_argument("--json", action="store_true", help="end the output with one JSON line of figures")


def suite_files(suite: Path) -> list[Path]:
    """Return the suite's schema files, sorted by name (DIR itself or DIR/maskbench/data)."""
    for folder in (suite, suite / "maskbench" / "data", suite / "data"):
        files = sorted(folder.glob("*.json"))
        if files:
            return files
    return []


def sample_files(files: list[Path], n: int, seed: int) -> list[Path]:
    """Return n of the files drawn with random.Random(seed) (all of them when n is 0 or too big)."""
    if n <= 0 or n >= len(files):
        return list(files)
    return random.Random(seed).sample(files, n)


def compact(value: Any) -> bytes:
    """Return the compact JSON text of an instance, as the automaton is asked to accept it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", errors="surrogatepass")


def reason_of(message: str) -> str:
    """Return a refusal message with its JSON pointers, quoted names and numbers taken out."""
    text = re.sub(r"\bat (the root|/\S*)", "at …", message)
    text = re.sub(r"(?<=\s)/\S+", "…", text)
    text = re.sub(r"'\$ref' '[^']*'|\$ref '[^']*'", "$ref …", text)
    text = re.sub(r"\d[\d,.]*", "N", text)
    return text.split(";")[0].strip()


def accepts(automaton: Any, data: bytes) -> bool:
    """Return True when the compiled automaton (a JsonAutomaton) accepts exactly `data`."""
    dfa = automaton.automaton
    table, byte_class, state = dfa.table, dfa.byte_class, 0
    for b in data:
        state = int(table[state, byte_class[b]])
        if state < 0:
            return False
    return bool(dfa.accepting[state])


def _validator(schema: Any) -> Any:
    import jsonschema

    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema)


def declared_order(value: Any, schema: Any, root: Any, depth: int = 0) -> Any:
    """Return `value` with each object's keys put in the order its (sub)schema declares them."""
    if depth > 40 or not isinstance(schema, dict):
        return value
    schema = _deref(schema, root)
    if isinstance(value, dict):
        order: list[str] = []
        for sub in _branches(schema, root):
            for key in sub.get("properties", {}) if isinstance(sub.get("properties"), dict) else ():
                if key not in order:
                    order.append(key)
        keys = [k for k in order if k in value] + [k for k in value if k not in order]
        props = {}
        for sub in _branches(schema, root):
            if isinstance(sub.get("properties"), dict):
                for k, s in sub["properties"].items():
                    props.setdefault(k, s)
        return {k: declared_order(value[k], props.get(k, {}), root, depth + 1) for k in keys}
    if isinstance(value, list):
        subs = [s for s in _branches(schema, root) if isinstance(s.get("items"), dict)]
        item = subs[0]["items"] if subs else {}
        return [declared_order(v, item, root, depth + 1) for v in value]
    return value


def _deref(schema: Any, root: Any) -> Any:
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#") \
            and seen < 20:
        node = root
        for token in schema["$ref"][1:].split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            node = node.get(token) if isinstance(node, dict) else None
        if node is None:
            break
        schema, seen = node, seen + 1
    return schema


def _branches(schema: Any, root: Any) -> list[dict]:
    """Return the schema and the subschemas of its anyOf/oneOf/allOf (one level of each, dereferenced)."""
    out = [schema] if isinstance(schema, dict) else []
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []) if isinstance(schema, dict) else []:
            sub = _deref(sub, root)
            if isinstance(sub, dict):
                out.extend(_branches(sub, root))
    return out


def has_undeclared(value: Any, schema: Any, root: Any, depth: int = 0) -> bool:
    """Return True when some object in `value` has a key its (sub)schema does not list in 'properties'."""
    if depth > 40 or not isinstance(schema, dict):
        return False
    branches = _branches(_deref(schema, root), root)
    if isinstance(value, dict):
        props: dict[str, Any] = {}
        for sub in branches:
            if isinstance(sub.get("properties"), dict):
                for k, s in sub["properties"].items():
                    props.setdefault(k, s)
        if any(k not in props for k in value):
            return True
        return any(has_undeclared(v, props[k], root, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        subs = [s for s in branches if isinstance(s.get("items"), dict)]
        return bool(subs) and any(has_undeclared(v, subs[0]["items"], root, depth + 1) for v in value)
    return False


def _check_one(path: str, options: dict[str, Any], timeout: float, conn: Any) -> None:
    """Compile one schema file and judge its tests; send two messages on `conn` (compile, then tests)."""
    from tutor.engine.json_schema import schema_to_automaton
    from tutor.engine.limits import LimitExceeded, Limits
    from tutor.engine.matcher import GrammarError

    doc = json.loads(Path(path).read_text(encoding="utf-8"))
    schema = doc.get("schema")
    t0 = time.perf_counter()
    automaton = None
    try:
        automaton = schema_to_automaton(schema, limits=Limits(max_seconds=timeout), **options)
        status, reason = "compiled", ""
    except LimitExceeded as exc:
        # the clock ran out ("needs more than 10 s to compile"), or the compiler refused early (an estimate)
        status = "timeout" if "s to compile (limit max_seconds" in str(exc) and "needs more than" in str(exc) \
            else "refused"
        reason = str(exc)
    except GrammarError as exc:
        status, reason = "refused", str(exc)
    except RecursionError:
        status, reason = "crash", "RecursionError"
    except Exception as exc:  # a crash of the compiler is a finding, reported as such
        status, reason = "crash", f"{type(exc).__name__}: {exc}"
    conn.send({"status": status, "reason": reason, "seconds": time.perf_counter() - t0,
               "narrowings": list(getattr(automaton, "narrowings", ()))})
    results = []
    if automaton is not None:
        try:
            validator = _validator(schema)
        except Exception as exc:
            validator, error = None, f"{type(exc).__name__}: {exc}"
        deeper: dict[str, Any] = {}
        for i, test in enumerate(doc.get("tests", [])):
            data = test.get("data")
            row: dict[str, Any] = {"i": i, "label": test.get("valid")}
            try:
                if validator is None:
                    raise RuntimeError(error)
                row["valid"] = validator.is_valid(data)
            except Exception as exc:  # an unresolvable $ref, a bad pattern…
                row["judge_error"] = f"{type(exc).__name__}: {exc}"[:200]
                results.append(row)
                continue
            text = compact(data)
            row["accepted"] = accepts(automaton, text)
            if row["valid"] and not row["accepted"]:
                row["asked"] = _asked(data, schema, options, automaton, deeper)
                row["cause"] = row["asked"] or _cause(data, schema, options, automaton, deeper)
            results.append(row)
    conn.send(results)


def _asked(data: Any, schema: Any, options: dict[str, Any], automaton: Any, deeper: dict[str, Any]) -> str:
    """Return the asked-for narrowing that excludes a valid instance, or ''."""
    if options.get("strict") and has_undeclared(data, schema, schema):
        return "strict"
    if "free_depth" in options and _cause(data, schema, {k: v for k, v in options.items() if k != "free_depth"},
                                          automaton, deeper) == "free_depth":
        return "free_depth"
    if options.get("property_order") == "declared" and accepts(automaton, compact(declared_order(data, schema,
                                                                                                 schema))):
        return "property_order"
    return ""


def _cause(data: Any, schema: Any, options: dict[str, Any], automaton: Any,
           deeper: dict[str, Any] | None = None) -> str:
    """Return which default bound excludes a valid instance ('free_depth'), or '' when none explains it.

    The schema is compiled once more with free-form values allowed 4 deep (kept in `deeper`, one per schema).
    """
    from tutor.engine.json_schema import schema_to_automaton
    from tutor.engine.limits import Limits

    if not any("free-form" in n for n in getattr(automaton, "narrowings", ())):
        return ""
    deeper = deeper if deeper is not None else {}
    if "automaton" not in deeper:
        try:
            deeper["automaton"] = schema_to_automaton(schema, **{**options, "free_depth": 4},
                                                      limits=Limits(max_seconds=5.0))
        except Exception:  # a deeper bound may pass the limits: then the cause stays unknown
            deeper["automaton"] = None
    if deeper["automaton"] is None:
        return ""
    return "free_depth" if accepts(deeper["automaton"], compact(data)) else ""


def run_suite(files: list[Path], options: dict[str, Any], timeout: float,
              progress: Any = None) -> list[dict[str, Any]]:
    """Return one record per schema file: its compile status, reason, seconds and judged tests."""
    import tutor.engine.json_schema  # noqa: F401 - imported once, before the children fork

    ctx = multiprocessing.get_context("fork")
    records = []
    for n, path in enumerate(files):
        parent, child = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_check_one, args=(str(path), options, timeout, child), daemon=True)
        proc.start()
        child.close()
        record: dict[str, Any] = {"name": path.name}
        if parent.poll(timeout + 5):
            try:
                record.update(parent.recv())
            except EOFError:
                record.update(status="crash", reason="the compiler's process died", seconds=0.0)
        else:
            record.update(status="timeout", reason="killed after the time limit", seconds=timeout + 5)
        record["tests"] = []
        if record["status"] == "compiled":
            if parent.poll(max(60.0, 6 * timeout)):
                try:
                    record["tests"] = parent.recv()
                except EOFError:
                    record["tests_error"] = "the judging process died"
            else:
                record["tests_error"] = "judging timed out"
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
        records.append(record)
        if progress is not None:
            progress(n + 1, len(files), record)
    return records


def summarise(records: list[dict[str, Any]], show: int = 12) -> dict[str, Any]:
    """Return the figures of a run (see RESULT_KEYS) with the top refusal reasons and example failures."""
    compiled = [r for r in records if r["status"] == "compiled"]
    tests = [(r["name"], t) for r in compiled for t in r["tests"]]
    judged = [(n, t) for n, t in tests if "valid" in t]
    wrong_accepts = [(n, t["i"]) for n, t in judged if not t["valid"] and t["accepted"]]
    rejects = [(n, t) for n, t in judged if t["valid"] and not t["accepted"]]
    reasons = Counter(reason_of(r["reason"]) for r in records if r["status"] in ("refused", "crash"))
    figures: dict[str, Any] = {
        "schemas": len(records),
        "compiled": len(compiled),
        "coverage": round(len(compiled) / len(records), 4) if records else 0.0,
        "instances": len(judged),
        "valid_instances": sum(1 for _, t in judged if t["valid"]),
        "invalid_instances": sum(1 for _, t in judged if not t["valid"]),
        "wrong_accepts": len(wrong_accepts),
        "wrong_rejects_unasked": sum(1 for _, t in rejects if not t.get("asked")),
        "wrong_rejects_asked": sum(1 for _, t in rejects if t.get("asked")),
        "timeouts": sum(1 for r in records if r["status"] == "timeout"),
        "refused": sum(1 for r in records if r["status"] == "refused"),
        "crashes": sum(1 for r in records if r["status"] == "crash"),
        "judge_errors": sum(1 for _, t in tests if "judge_error" in t),
        "label_disagreements": sum(1 for _, t in judged if t.get("label") is not None and t["label"] != t["valid"]),
        "compile_seconds_p50": _median([r["seconds"] for r in compiled]),
        "top_refusals": reasons.most_common(show),
        "wrong_accept_examples": wrong_accepts[:show],
        "wrong_reject_examples": [(n, t["i"]) for n, t in rejects if not t.get("asked")][:show],
        "timeout_examples": [r["name"] for r in records if r["status"] == "timeout"][:show],
        "wrong_rejects_by_cause": Counter(t.get("cause") or "unexplained" for _, t in rejects).most_common(),
        "narrowings_used": Counter(n for r in compiled for n in r.get("narrowings", [])).most_common(),
    }
    return figures


def _median(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[len(ordered) // 2], 4)


def run(args: argparse.Namespace) -> int:
    """Run the sample and print its figures."""
    import sys

    from tutor.errors import InputError

    files = suite_files(args.suite)
    if not files:
        raise InputError(f"no schema files (*.json) in {args.suite} or {args.suite}/maskbench/data; fetch"
                         " github.com/guidance-ai/jsonschemabench and pass its maskbench/data folder")
    chosen = sample_files(files, args.sample, args.seed)
    options: dict[str, Any] = {}
    if args.whitespace:
        options["whitespace"] = args.whitespace
    if args.property_order is not None:
        options["property_order"] = args.property_order
    if args.strict:
        options["strict"] = True
    if args.free_depth is not None:
        options["free_depth"] = args.free_depth

    def progress(done: int, total: int, record: dict[str, Any]) -> None:
        if done % 100 == 0 or done == total:
            print(f"  {done}/{total} schemas", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    records = run_suite(chosen, options, args.timeout, progress)
    figures = summarise(records, args.show)
    figures["seconds"] = round(time.perf_counter() - t0, 1)
    figures["options"] = options
    figures["sample"], figures["seed"], figures["suite_files"] = len(chosen), args.seed, len(files)
    print(f"suite        {len(files)} schema files; sample {len(chosen)} (seed {args.seed}); timeout"
          f" {args.timeout:g} s; options {options or 'the defaults'}")
    print(f"compiled     {figures['compiled']} ({100 * figures['coverage']:.1f} %); refused {figures['refused']},"
          f" timeouts {figures['timeouts']}, crashes {figures['crashes']}")
    print(f"instances    {figures['instances']} judged by jsonschema ({figures['valid_instances']} valid,"
          f" {figures['invalid_instances']} invalid; {figures['judge_errors']} the validator could not judge;"
          f" {figures['label_disagreements']} disagree with the suite's label)")
    print(f"wrong accept {figures['wrong_accepts']} invalid instances accepted")
    print(f"wrong reject {figures['wrong_rejects_unasked']} valid instances rejected outside an asked-for"
          f" narrowing, {figures['wrong_rejects_asked']} inside one")
    print(f"  by cause   {dict(figures['wrong_rejects_by_cause'])}")
    print(f"narrowings   schemas whose automaton uses each: {dict(figures['narrowings_used'])}")
    print("top refusals")
    for reason, count in figures["top_refusals"]:
        print(f"  {count:5d}  {reason[:150]}")
    for key in ("wrong_accept_examples", "wrong_reject_examples", "timeout_examples"):
        if figures[key]:
            print(f"{key.replace('_', ' ')}: {figures[key]}")
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    return 0
