"""`grammar-tutor bench startup`: how long the tutor takes to be ready, against the floor any llama.cpp program pays.

In one run, each in a fresh process, best of `--repeat` (3) interleaved rounds, with its peak memory (the child's
ru_maxrss, from wait4):

- floor: import llama_cpp, load the model's GGUF file and evaluate one short sentence, nothing else;
- one-shot correct: `grammar-tutor correct SENTENCE --no-save`, start to exit;
- Tutor.load: importing tutor.api and `Tutor.load()` (the process's start is not counted);
- window: the app's MainWindow (offscreen) from the process's start to its first paint and to the moment a check is
  possible (the model loaded: app.startup_probe).

`--json` prints one object: each measure's best seconds and peak MB, and the ratios of the targets (issue 33):
correct_over_floor and correct_mb_above_floor, first_check_over_floor.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SENTENCE = "She go to school every day."
TIMEOUT_S = 600

FLOOR = """
import sys
import llama_cpp
llm = llama_cpp.Llama(sys.argv[1], n_ctx=2048, n_threads=int(sys.argv[2]), n_threads_batch=int(sys.argv[2]),
                      verbose=False)
llm.eval(llm.tokenize(sys.argv[3].encode()))
"""

LOAD = """
import json, time
t0 = time.perf_counter()
from tutor.api import Tutor
tutor = Tutor.load(None if len(__import__("sys").argv) < 2 else __import__("sys").argv[1])
print(json.dumps({"seconds": time.perf_counter() - t0}), flush=True)
tutor.close()
"""


@dataclass(frozen=True)
class Run:
    """One child process: its wall time from start to exit, its peak memory and the JSON it printed last."""

    seconds: float
    peak_mb: float
    report: dict


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each figure is the best (default 3)")
    parser.add_argument("--no-window", action="store_true", help="leave out the window (no Qt here)")
    parser.add_argument("--json", action="store_true", help="print one JSON object with the figures")


def child(argv: list[str], env: dict[str, str]) -> Run:
    """Run one child to its end; return its times and peak memory (raise RuntimeError when it fails)."""
    start = time.time()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL,
                                env={**env, "GRAMMAR_TUTOR_PROBE_T0": repr(start)})
        timer = threading.Timer(TIMEOUT_S, proc.kill)  # a hung child is ended, and reported as failed
        timer.start()
        try:
            out = proc.stdout.read() if proc.stdout else b""
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.time() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(argv[:4])}… exited {proc.returncode}: "
                               f"{err.read().decode(errors='replace')[-1500:]}")
    lines = [x for x in out.decode(errors="replace").splitlines() if x.startswith("{")]
    return Run(seconds, usage.ru_maxrss / 1024, json.loads(lines[-1]) if lines else {})


def run(args: argparse.Namespace) -> int:
    """Measure each start `--repeat` times, interleaved; print the best of each."""
    from tutor.catalogue import resolve

    model = resolve(args.model)
    threads = max(1, min(4, os.cpu_count() or 1))  # as tutor.decoding.llm.LoadedModel
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="grammar-tutor-bench-") as tmp:
        env = {**os.environ, "GRAMMAR_TUTOR_DB": str(Path(tmp) / "bench.db")}
        model_arg = [] if args.model is None else ["--model", args.model]
        commands = {
            "floor": [py, "-c", FLOOR, str(model.path), str(threads), SENTENCE],
            "correct": [py, "-m", "app.launch", "correct", SENTENCE, "--no-save", *model_arg],
            "load": [py, "-c", LOAD, *([] if args.model is None else [args.model])],
        }
        if not args.no_window:
            commands["window"] = [py, "-m", "app.startup_probe"]
        runs: dict[str, list[Run]] = {name: [] for name in commands}
        for _ in range(max(1, args.repeat)):
            for name, argv in commands.items():
                runs[name].append(child(argv, env))
    figures = summarise(runs)
    if args.json:
        print(json.dumps(figures))
    else:
        print(table(figures, max(1, args.repeat)))
    return 0


def summarise(runs: dict[str, list[Run]]) -> dict[str, float]:
    """Return the best figures of each measure and the issue's ratios."""
    out: dict[str, float] = {}
    for name, rs in runs.items():
        if name == "load":
            out["load_s"] = min(r.report["seconds"] for r in rs)
        elif name == "window":
            out["first_paint_s"] = min(r.report["first_paint_s"] for r in rs)
            out["first_check_s"] = min(r.report["first_check_s"] for r in rs)
        else:
            out[f"{name}_s"] = min(r.seconds for r in rs)
        out[f"{name}_peak_mb"] = min(r.peak_mb for r in rs)
    out["correct_over_floor"] = out["correct_s"] / out["floor_s"]
    out["correct_mb_above_floor"] = out["correct_peak_mb"] - out["floor_peak_mb"]
    if "first_check_s" in out:
        out["first_check_over_floor"] = out["first_check_s"] / out["floor_s"]
    return {k: round(v, 3) for k, v in out.items()}


def table(f: dict[str, float], repeat: int) -> str:
    """Return the figures as a Markdown table."""
    rows = [
        ("floor: import llama_cpp, load the GGUF, evaluate one sentence", f"{f['floor_s']:.2f} s",
         f"{f['floor_peak_mb']:.0f} MB"),
        ("one-shot `correct`", f"{f['correct_s']:.2f} s ({f['correct_over_floor']:.1f}× the floor)",
         f"{f['correct_peak_mb']:.0f} MB (+{f['correct_mb_above_floor']:.0f})"),
        ("`Tutor.load` (with its imports)", f"{f['load_s']:.2f} s", f"{f['load_peak_mb']:.0f} MB"),
    ]
    if "first_paint_s" in f:
        rows.append(("window: first paint / first check possible",
                     f"{f['first_paint_s']:.2f} / {f['first_check_s']:.2f} s "
                     f"({f['first_check_over_floor']:.1f}× the floor)", f"{f['window_peak_mb']:.0f} MB"))
    lines = [f"best of {repeat}, each in a fresh process", "", "| measure | time | peak memory |",
             "| --- | --- | --- |"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)
