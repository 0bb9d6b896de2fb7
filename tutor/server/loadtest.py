"""A class at once against `grammar-tutor serve`: latency, throughput, and every row stored exactly once.

By default it starts `grammar-tutor serve` on a free loopback port with a fresh database (with `--servers N
--db postgresql://…`, N servers on one PostgreSQL database; `--servers 1,3` runs each in turn), then
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
    parser.add_argument("--servers", default="1",
                        help="servers to start on one database, or a list such as 1,3 to run each in turn on the "
                             "same database (default: 1); learners are spread over them")
    parser.add_argument("--url", help="drive this running server instead of starting one (needs --token, --db)")
    parser.add_argument("--token", help="class code of the --url server")
    parser.add_argument("--db", dest="load_db",
                        help="the database: a SQLite file or postgresql:// URL the started servers share (default: a "
                             "fresh SQLite file), or the --url server's, for the check")
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


def drive(url: str | list[str], token: str, texts: list[str], *, learners: int, requests: int,
          endpoint: str = "check") -> Load:
    """Run `learners` threads at once, each sending `requests` requests (learner i to server i mod the number of
    servers, when `url` is a list of them); return what happened."""
    from tutor.server.client import ClassClient

    load = Load()
    lock = threading.Lock()
    start = threading.Barrier(learners + 1)
    run = uuid.uuid4().hex[:6]  # each run's learners are new ones: each gets its learner key on its first request

    def learner(index: int) -> None:
        name = f"learner-{run}-{index:02d}"
        urls = [url] if isinstance(url, str) else url
        client = ClassClient(urls[index % len(urls)], token, timeout=300)
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


def verify(db: Path | str, load: Load, *, whole: bool = True) -> list[str]:
    """Return what is wrong in the server's database: a row missing, stored twice, extra, or misfiled. `whole`:
    the database held nothing before this run, so every row in it must be one the run was given; otherwise
    (a shared database) the rows of this run's learners are checked."""
    from tutor.store import Store

    problems: list[str] = []
    with Store.open(db) as store:
        if whole:
            stored = [(row["id"], row["learner"]) for row in store.history(limit=max(store.count_history(), 1))]
        else:
            stored = [(row["id"], row["learner"]) for name in load.rows
                      for row in store.history(name, limit=max(store.count_history(name), 1))]
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


def _server_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise SystemExit(f"--servers {text!r}: give a number of servers, or a list such as 1,3")
    return counts


def _one_run(args: argparse.Namespace, texts: list[str], db: Path | str, n: int, *, whole: bool) -> dict[str, Any]:
    """Start `n` servers on `db`, drive the class through them, stop them; print and return the figures."""
    from tutor.server.district import servers

    token = secrets.token_urlsafe(16)
    t0 = time.perf_counter()
    with servers(db, token, n, workers=args.workers) as started:
        print(f"{n} server(s) with {args.workers} worker(s) each ready in {time.perf_counter() - t0:.1f} s",
              flush=True)
        urls = [server.url for server in started]
        load = drive(urls, token, texts, learners=args.learners, requests=args.requests, endpoint=args.endpoint)
        codes = refusals(urls[-1], token)
    return _report(args, load, codes, verify(db, load, whole=whole), servers=n)


def _report(args: argparse.Namespace, load: Load, codes: dict[str, int], problems: list[str], *,
            servers: int | None) -> dict[str, Any]:
    figures = load.figures()
    figures.update(learners=args.learners, per_learner=args.requests, servers=servers,
                   workers=None if servers is None else args.workers, endpoint=args.endpoint, cores=os.cpu_count(),
                   refusals=codes, db_problems=len(problems))
    print(f"{figures['requests']} requests ({args.learners} learners × {args.requests}, /v1/{args.endpoint}"
          + (f", {servers} server(s)" if servers else "") + f"), {figures['failures']} failed")
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
    figures["ok"] = not load.failures and not problems and codes["no_token"] == 401 and codes["oversized"] == 413
    return figures


def run(args: argparse.Namespace) -> int:
    """Run the load test and print its figures; return 1 if any request failed or a row is wrong."""
    texts = load_texts(args.texts)
    if args.url:
        if not (args.token and args.load_db):
            raise SystemExit("--url needs --token and --db (the server's database) for the check")
        load = drive(args.url, args.token, texts, learners=args.learners, requests=args.requests,
                     endpoint=args.endpoint)
        codes = refusals(args.url, args.token)
        return 0 if _report(args, load, codes, verify(args.load_db, load, whole=False), servers=None)["ok"] else 1
    counts = _server_counts(args.servers)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        db: Path | str = args.load_db or Path(tmp) / "class.db"
        for index, n in enumerate(counts):  # a given database may hold other rows; so does a fresh one after run 1
            results.append(_one_run(args, texts, db, n, whole=args.load_db is None and index == 0))
    if len(results) > 1:
        print("servers  p50 s   p99 s   requests/s")
        for figures in results:
            print(f"{figures['servers']:>7}  {figures['p50_s']:.3f}  {figures['p99_s']:.3f}  "
                  f"{figures['requests_per_s']:.2f}")
    return 0 if all(figures["ok"] for figures in results) else 1
