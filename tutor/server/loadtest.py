"""A class at once against `grammar-tutor serve`: latency, throughput, and every row stored exactly once.

By default it starts `grammar-tutor serve` on a free loopback port with a fresh database, then
N simulated learners (threads, one keep-alive connection each) start together and each sends its
requests one after another. It prints p50/p99 latency and requests per second, then checks the
server's database: exactly the returned row UUIDs, each once, under the right learner; and that a
request without the class code gets 401 and an oversized one 413.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tutor.resources import data_path

TEXTS = ("class", "load_texts.json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the load test's options."""
    parser.add_argument("--learners", type=int, default=30, help="simulated learners at once (default: 30)")
    parser.add_argument("--requests", type=int, default=10, help="requests per learner (default: 10)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes of the started server (default: 1)")
    parser.add_argument("--endpoint", choices=("check", "correct"), default="check",
                        help="POST /v1/check with the whole text (default) or /v1/correct with it as one sentence")
    parser.add_argument("--texts", type=Path, default=None,
                        help="JSON file of texts (default: data/class/load_texts.json)")
    parser.add_argument("--url", help="drive this running server instead of starting one (needs --token, --db)")
    parser.add_argument("--token", help="class code of the --url server")
    parser.add_argument("--db", dest="load_db", type=Path, help="the --url server's database, for the check")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line at the end")


@dataclass
class Load:
    """What the simulated class did: per-request seconds, failures, and the row UUIDs per learner."""

    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    rows: dict[str, list[str]] = field(default_factory=dict)
    seconds: float = 0.0

    def figures(self) -> dict[str, Any]:
        """Return requests, failures, p50/p99/max latency (s) and requests per second."""
        lat = np.array(self.latencies) if self.latencies else np.zeros(1)
        done = len(self.latencies)
        return {"requests": done + len(self.failures), "failures": len(self.failures),
                "p50_s": round(float(np.percentile(lat, 50)), 4), "p99_s": round(float(np.percentile(lat, 99)), 4),
                "max_s": round(float(lat.max()), 4),
                "requests_per_s": round(done / self.seconds, 2) if self.seconds else 0,
                "rows": sum(len(v) for v in self.rows.values())}


def load_texts(path: Path | None = None) -> list[str]:
    """Return the load test's learner texts."""
    source = path or data_path(*TEXTS)
    return json.loads(Path(source).read_text(encoding="utf-8"))["texts"]


def drive(url: str, token: str, texts: list[str], *, learners: int, requests: int,
          endpoint: str = "check") -> Load:
    """Run `learners` threads at once, each sending `requests` requests; return what happened."""
    from tutor.server.client import ClassClient

    load = Load()
    lock = threading.Lock()
    start = threading.Barrier(learners + 1)
    run = uuid.uuid4().hex[:6]  # each run's learners are new ones: each gets its learner key on its first request

    def learner(index: int) -> None:
        name = f"learner-{run}-{index:02d}"
        client = ClassClient(url, token, timeout=300)
        ids: list[str] = []
        start.wait()
        for n in range(requests):
            text = texts[(index * requests + n) % len(texts)]
            t0 = time.perf_counter()
            try:
                if endpoint == "check":
                    out = client.check(name, text, request_id=str(uuid.uuid4()))
                    got = [f["id"] for f in out["findings"]]
                else:
                    got = [client.correct(name, text, request_id=str(uuid.uuid4()))[1]]
            except Exception as exc:  # every failure is counted and reported, the class goes on
                with lock:
                    load.failures.append(f"{name} request {n + 1}: {type(exc).__name__}: {exc}")
                continue
            elapsed = time.perf_counter() - t0
            ids += got
            with lock:
                load.latencies.append(elapsed)
        client.close()
        with lock:
            load.rows[name] = ids

    threads = [threading.Thread(target=learner, args=(i,), daemon=True) for i in range(learners)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    load.seconds = time.perf_counter() - t0
    return load


def verify(db: Path, load: Load) -> list[str]:
    """Return what is wrong in the server's database: a row missing, stored twice, extra, or misfiled."""
    from tutor.store import Store

    problems: list[str] = []
    with Store.open(db) as store:
        stored = [(row["id"], row["learner"]) for row in store.history(limit=max(store.count_history(), 1))]
    where: dict[str, list[str]] = {}
    for row_id, name in stored:
        where.setdefault(row_id, []).append(name)
    returned = [(row_id, name) for name, ids in load.rows.items() for row_id in ids]
    if len({row_id for row_id, _ in returned}) != len(returned):
        problems.append("the server returned the same row UUID twice")
    for row_id, name in returned:
        if where.get(row_id) != [name]:
            problems.append(f"row {row_id} of {name} is stored as {where.get(row_id)}")
    extra = set(where) - {row_id for row_id, _ in returned}
    if extra:
        problems.append(f"{len(extra)} rows in the database that no request returned")
    return problems


def refusals(url: str, token: str) -> dict[str, int]:
    """Return the status codes of a request without the class code, with a wrong one, and of a 17 kB body."""
    from tutor.server.client import ClassClient

    out = {}
    anonymous = ClassClient(url, "")
    out["no_token"] = anonymous.request("POST", "/v1/check", {"learner": "x", "text": "He go"}, token=False)[0]
    out["wrong_token"] = ClassClient(url, token + "x").request("GET", "/v1/learners")[0]
    big = {"learner": "x", "text": "a" * 17 * 1024}
    out["oversized"] = ClassClient(url, token).request("POST", "/v1/check", big)[0]
    out["health"] = anonymous.request("GET", "/health", token=False)[0]
    return out


def _start_server(db: Path, token: str, workers: int) -> tuple[subprocess.Popen, str]:
    from tutor.server.run import bind, url_of

    probe = bind("127.0.0.1", 0)
    url, port = url_of(probe), probe.getsockname()[1]
    probe.close()
    env = dict(os.environ, GRAMMAR_TUTOR_TOKEN=token)
    proc = subprocess.Popen([sys.executable, "-m", "tutor.cli", "serve", "--port", str(port), "--db", str(db),
                             "--workers", str(workers)], env=env)
    from tutor.server.client import ClassClient, Unreachable

    client = ClassClient(url, token, timeout=5)
    deadline = time.monotonic() + 300
    while True:
        try:
            client.health()
            return proc, url
        except Unreachable:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("grammar-tutor serve did not start; run it by hand to see why") from None
            time.sleep(0.2)


def run(args: argparse.Namespace) -> int:
    """Run the load test and print its figures; return 1 if any request failed or a row is wrong."""
    texts = load_texts(args.texts)
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        if args.url:
            if not (args.token and args.load_db):
                raise SystemExit("--url needs --token and --db (the server's database) for the check")
            url, token, db = args.url, args.token, args.load_db
        else:
            token, db = secrets.token_urlsafe(16), Path(tmp) / "class.db"
            t0 = time.perf_counter()
            proc, url = _start_server(db, token, args.workers)
            print(f"server with {args.workers} worker(s) ready in {time.perf_counter() - t0:.1f} s", flush=True)
        try:
            load = drive(url, token, texts, learners=args.learners, requests=args.requests, endpoint=args.endpoint)
            codes = refusals(url, token)
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(60)
        problems = verify(db, load)
    figures = load.figures()
    figures.update(learners=args.learners, per_learner=args.requests, workers=None if args.url else args.workers,
                   endpoint=args.endpoint, cores=os.cpu_count(), refusals=codes, db_problems=len(problems))
    print(f"{figures['requests']} requests ({args.learners} learners × {args.requests}, /v1/{args.endpoint}), "
          f"{figures['failures']} failed")
    print(f"latency p50 {figures['p50_s']:.3f} s · p99 {figures['p99_s']:.3f} s · max {figures['max_s']:.3f} s · "
          f"{figures['requests_per_s']:.1f} requests/s")
    print(f"database: {figures['rows']} rows returned; "
          + ("every one stored exactly once" if not problems else f"{len(problems)} problems"))
    print(f"without the class code: {codes['no_token']} · wrong code: {codes['wrong_token']} · "
          f"17 kB body: {codes['oversized']}")
    for line in (load.failures + problems)[:10]:
        print("  " + line)
    if args.json:
        print(json.dumps(figures))
    ok = not load.failures and not problems and codes["no_token"] == 401 and codes["oversized"] == 413
    return 0 if ok else 1
