"""Store benchmark: inserts per second, and history/statistics query times at 100,000 corrections."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HISTORY_TARGET_MS = 20.0
STATISTICS_TARGET_MS = 100.0
_SUBJECTS = (("I", 0), ("You", 1), ("She", 2), ("He", 2), ("My friend", 2), ("Tom", 2))
_TAILS = ("to school", "every day", "yesterday", "with my sister", "at home", "in the morning", "a lot")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--rows", type=int, default=100_000, help="corrections in the store (default 100000)")
    parser.add_argument("--inserts", type=int, default=1000,
                        help="single-transaction inserts timed for inserts/s (default 1000)")
    parser.add_argument("--repeat", type=int, default=15, help="runs per query; the median is reported")
    parser.add_argument("--learners", type=int, default=20, help="learners the rows are spread over")
    parser.add_argument("--keep", metavar="PATH", help="build the store at PATH and keep it (default: temp)")
    parser.add_argument("--json", action="store_true", help="print one JSON object as the last line")


def synthetic_results(n: int, seed: int = 13) -> Iterator[tuple[Any, datetime]]:
    """Yield n (CorrectionResult, created) pairs spread over a year, from the §A13 table."""
    from tutor.result import CorrectionResult, Timings
    from tutor.scope import load_scope

    scope = load_scope()
    cells = list(scope.cells.values())
    rng = random.Random(seed)
    start = datetime(2025, 1, 6, tzinfo=UTC)
    for i in range(n):
        cell = rng.choice(cells)
        subject, _ = rng.choice(_SUBJECTS)
        roll = rng.random()
        out_of_scope = roll < 0.05
        is_correct = not out_of_scope and roll < 0.45
        sentence = f"{subject} {cell.verb if not is_correct else cell.correct_form} {rng.choice(_TAILS)}"
        if out_of_scope:
            output: dict[str, Any] = {"original": sentence, "out_of_scope": True}
        else:
            output = {"original": sentence, "verb": cell.verb, "tense": cell.tense, "person": cell.person,
                      "correct_form": cell.correct_form, "spanish": cell.spanish[0]}
        p50 = rng.lognormvariate(1.0, 0.5)
        timings = Timings(
            prompt_ms=rng.uniform(20, 80), forward_ms=rng.uniform(100, 400), mask_p50_us=p50,
            mask_p99_us=p50 * rng.uniform(2, 6), mask_max_us=p50 * rng.uniform(6, 20),
            tokens_sampled=rng.randint(3, 9), tokens_forced=rng.randint(5, 20),
            total_ms=rng.uniform(150, 600),
        )
        result = CorrectionResult(
            original=sentence, output=output, out_of_scope=out_of_scope, is_correct=is_correct,
            confidence=rng.random(), timings=timings,
            model_name="smollm2-135m" if i % 3 else "qwen2.5-0.5b", model_sha256="0" * 64,
            settings={"temperature": 0.0},
        )
        yield result, start + timedelta(seconds=i * 365 * 86400 / max(n, 1))


def _learner_of(i: int, learners: list[str]) -> str:
    """Return who wrote row i: the first learner half of all rows (the heavy user), the rest in turn."""
    if i % 2 == 0 or len(learners) == 1:
        return learners[0]
    return learners[1 + (i // 2) % (len(learners) - 1)]


def _median_ms(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Return (median, max) wall time of fn() in ms over `repeat` runs after one warm-up."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - t0) / 1e6)
    return statistics.median(times), max(times)


def run(args: argparse.Namespace) -> int:
    """Build a store of --rows corrections, time inserts and the queries, print a table (and JSON)."""
    from tutor.errors import StoreError
    from tutor.store import Store

    tmp = None
    if args.keep:
        path = Path(args.keep)
        if path.exists():
            raise StoreError(f"--keep {path} already exists; remove it or name a new file")
    else:
        tmp = tempfile.TemporaryDirectory(prefix="grammar-tutor-bench-")
        path = Path(tmp.name) / "bench.db"
    learners = [f"learner{i:02d}" for i in range(max(1, args.learners))]
    inserts = min(args.inserts, args.rows)
    results = synthetic_results(args.rows)
    try:
        with Store.open(path) as store:
            t0 = time.perf_counter()
            for i in range(inserts):
                result, created = next(results)
                store.save_correction(result, learner=_learner_of(i, learners), created=created)
            insert_s = time.perf_counter() - t0
            t0 = time.perf_counter()
            filled = inserts
            while filled < args.rows:
                by_learner: dict[str, list[tuple[Any, datetime]]] = {}
                for i in range(filled, min(filled + 5000, args.rows)):
                    by_learner.setdefault(_learner_of(i, learners), []).append(next(results))
                for learner, items in by_learner.items():
                    store.save_dated(items, learner=learner)
                    filled += len(items)
            fill_s = time.perf_counter() - t0
            figures = _measure(store, learners[0], args.repeat, args.rows)
        t0 = time.perf_counter()
        Store.open(path).close()
        open_ms = (time.perf_counter() - t0) * 1000
        size_mb = path.stat().st_size / 1e6
    finally:
        if tmp is not None:
            tmp.cleanup()
    inserts_per_s = inserts / insert_s if insert_s else float("inf")
    batch_per_s = (args.rows - inserts) / fill_s if fill_s and args.rows > inserts else None
    _print(figures, inserts_per_s, batch_per_s, args.rows)
    print(f"  open with quick_check: {open_ms:.0f} ms; file {size_mb:.1f} MB")
    if args.json:
        print(json.dumps({
            "rows": args.rows, "inserts_per_s": round(inserts_per_s, 1), "open_ms": round(open_ms, 1),
            "file_mb": round(size_mb, 1),
            "batch_inserts_per_s": round(batch_per_s, 1) if batch_per_s else None,
            "queries_ms": {name: round(median, 3) for name, (_kind, median, _mx) in figures.items()},
            "history_target_ms": HISTORY_TARGET_MS, "statistics_target_ms": STATISTICS_TARGET_MS,
            "all_within_target": all(_ok(kind, median) for kind, median, _mx in figures.values()),
        }))
    return 0


def _measure(store: Any, learner: str, repeat: int, rows: int) -> dict[str, tuple[str, float, float]]:
    """Return {query name: (kind, median ms, max ms)} for the history and statistics queries."""
    month = {"since": "2025-06-01", "until": "2025-06-30"}
    queries: list[tuple[str, str, Callable[[], Any]]] = [
        ("history page, everyone", "history", lambda: store.history(limit=100)),
        ("history page, one learner", "history", lambda: store.history(learner, limit=100)),
        ("history page, learner+verb+tense", "history",
         lambda: store.history(learner, verb="go", tense="past simple", limit=100)),
        ("history page, one month", "history", lambda: store.history(limit=100, **month)),
        ("history page, search 'yesterday'", "history", lambda: store.history(search="yesterday", limit=100)),
        ("history page, learner, search 'go'", "history",
         lambda: store.history(learner, search="go", limit=100)),
        ("history page 51, everyone", "history", lambda: store.history(limit=100, offset=5000)),
        ("history last page, everyone", "history", lambda: store.history(limit=100, offset=max(0, rows - 100))),
        ("history page 41, verb 'go'", "history", lambda: store.history(verb="go", limit=100, offset=4000)),
        ("history count, everyone", "history", lambda: store.count_history()),
        ("history count, learner+verb", "history", lambda: store.count_history(learner, verb="go")),
        ("history count, search 'go'", "history", lambda: store.count_history(search="go")),
        ("mistakes, one learner", "history", lambda: store.mistakes(learner, limit=100)),
        ("error counts, everyone", "statistics", lambda: store.error_counts()),
        ("error counts, one learner", "statistics", lambda: store.error_counts(learner)),
        ("progress by week, everyone", "statistics", lambda: store.progress_by_week()),
        ("progress by week, one learner", "statistics", lambda: store.progress_by_week(learner)),
        ("latency summary", "statistics", lambda: store.latency_summary()),
    ]
    out = {}
    for name, kind, fn in queries:
        median, mx = _median_ms(fn, repeat)
        out[name] = (kind, median, mx)
    return out


def _ok(kind: str, median: float) -> bool:
    return median <= (HISTORY_TARGET_MS if kind == "history" else STATISTICS_TARGET_MS)


def _print(figures: dict[str, tuple[str, float, float]], inserts_per_s: float, batch_per_s: float | None,
           rows: int) -> None:
    print(f"store benchmark at {rows:,} corrections (SQLite WAL, synchronous=FULL;"
          " 'one learner' owns half the rows)")
    print(f"  inserts, one transaction each: {inserts_per_s:,.0f}/s")
    if batch_per_s:
        print(f"  inserts, batched:              {batch_per_s:,.0f}/s")
    print(f"  {'query':38} {'median ms':>10} {'max ms':>8} {'target':>8}  ok")
    for name, (kind, median, mx) in figures.items():
        target = HISTORY_TARGET_MS if kind == "history" else STATISTICS_TARGET_MS
        print(f"  {name:38} {median:10.2f} {mx:8.2f} {target:8.0f}  {'yes' if _ok(kind, median) else 'NO'}")
