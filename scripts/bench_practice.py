"""Rough timings of the practice store at scale: 20 learners with 1,000 corrections each, half of them mistakes.

    python scripts/bench_practice.py

Prints the time to build one learner's cards, to list the due ones, to grade an answer, and to summarise the
progress of one learner and of the class. Upper bounds on a busy machine; run twice and take the lower.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.practice import Practice, progress
from tutor.result import CorrectionResult
from tutor.store import Store

CORRECT = CorrectionResult(original="I like tea with my friends.", output={}, out_of_scope=False, is_correct=True,
                           confidence=0.9)


def mistake(n: int) -> CorrectionResult:
    """Return the n-th saved mistake: a base form for the past."""
    sentence = f"Yesterday he go to school number {n}."
    start = sentence.index(" go ") + 1
    output = {"original": sentence, "verb": "go", "tense": "past simple", "person": "3rd singular",
              "correct_form": "went"}
    return CorrectionResult(original=sentence, output=output, out_of_scope=False, is_correct=False, confidence=0.9,
                            error_span="go", error_start=start, error_end=start + 2)


def timed(step: Callable[[], Any]) -> tuple[Any, float]:
    """Return (what step() returned, milliseconds it took)."""
    start = time.perf_counter()
    value = step()
    return value, (time.perf_counter() - start) * 1000


def main() -> int:
    """Fill a throwaway store, time each step, print one line; return 0."""
    with Store.open(Path(tempfile.mkdtemp()) / "bench.db", synchronous="NORMAL") as store:
        for learner in range(20):
            store.save_corrections([mistake(n) if n % 2 else CORRECT for n in range(1000)], learner=f"L{learner}")
        practice = Practice(store)
        added, build_ms = timed(lambda: practice.build("L0"))
        due, due_ms = timed(lambda: practice.due("L0", limit=20))
        _, answer_ms = timed(lambda: practice.answer("L0", due[0]["id"], "went"))
        _, one_ms = timed(lambda: progress(store, "L0"))
        _, class_ms = timed(lambda: progress(store))
    print(f"build: {added} cards from 500 mistakes in {build_ms:.0f} ms · due(20): {due_ms:.1f} ms · "
          f"answer: {answer_ms:.1f} ms · progress, one learner (1,000 rows): {one_ms:.0f} ms · "
          f"progress, the class (20,000 rows): {class_ms:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
