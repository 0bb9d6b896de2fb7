"""A bounded request queue served by N worker processes, each owning one loaded model.

A llama.cpp context is not thread-safe, and most of a correction is Python (the analyser, the answer
set, the mask), which one process runs on one core at a time. So each worker is a process with its
own Tutor, fed by one dispatcher thread; requests wait in one bounded queue, and a full queue is
refused at once (the server answers 503) instead of piling up. A worker that dies while serving a request is
restarted and that request fails with a message; one that died while idle is restarted before the next request.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import threading
import time
import traceback
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from tutor.errors import TutorError
from tutor.threads import set_openmp_waits


class Busy(TutorError):
    """Every worker is busy and the queue is full; try again in a moment."""


class WorkerFailed(TutorError):
    """A worker process failed or died while serving a request."""


@dataclass(frozen=True)
class ModelInfo:
    """What the workers loaded: the model's name and sha256, and the tutor's settings."""

    name: str
    sha256: str
    settings: dict[str, Any]


def _worker_main(conn: Any, model: str | None, threads: int) -> None:
    """Worker process: load one Tutor, then answer ("correct"|"check", text) jobs until told to stop."""
    set_openmp_waits()
    try:
        import llama_cpp

        from tutor.api import Tutor

        tutor = Tutor.load(model)
        llama_cpp.llama_set_n_threads(tutor.llm.ctx, threads, threads)
        conn.send(("ready", ModelInfo(tutor.model.name, tutor.model.sha256, tutor.settings.to_dict())))
    except BaseException as exc:  # reported to the parent, which raises it
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        kind, text = job
        try:
            if kind == "correct":
                value: Any = tutor.correct(text)
            else:
                value = tutor.check(text)
            conn.send(("ok", value))
        except TutorError as exc:
            conn.send(("error", exc))
        except Exception as exc:  # the request fails, the worker lives on
            conn.send(("crash", f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}"))


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, ctx: Any, model: str | None, threads: int) -> None:
        self.ctx, self.model, self.threads = ctx, model, threads
        self.info: ModelInfo | None = None
        self.start()

    def start(self) -> None:
        parent, child = self.ctx.Pipe()
        self.conn = parent
        self.process = self.ctx.Process(target=_worker_main, args=(child, self.model, self.threads), daemon=True)
        self.process.start()
        child.close()

    def wait_ready(self) -> ModelInfo:
        try:
            status, value = self.conn.recv()
        except EOFError:
            raise WorkerFailed(f"a worker process exited while loading the model (exit code "
                               f"{self.process.exitcode}); run `grammar-tutor correct \"He go\"` to see why") from None
        if status != "ready":
            raise WorkerFailed(f"a worker could not load the model: {value}")
        self.info = value
        return value

    def run(self, job: tuple[str, str]) -> Any:
        if not self.process.is_alive():  # it died while idle: start a new one before this request, not after
            self.restart()
        try:
            self.conn.send(job)
            status, value = self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            code = self.process.exitcode
            self.restart()
            raise WorkerFailed(f"the worker serving this request died (exit code {code}); it was restarted, "
                               "try again") from None
        if status == "ok":
            return value
        if status == "error":
            raise value
        raise WorkerFailed(f"the worker failed on this request: {value}")

    def restart(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
            self.process.join(5)
        self.start()
        self.wait_ready()

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(10)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


class ModelPool:
    """N worker processes behind one bounded queue; submit() returns a Future or raises Busy."""

    def __init__(self, workers: int = 1, *, model: str | None = None, queue_size: int = 64,
                 threads: int | None = None) -> None:
        """Start `workers` processes (each loads the model) and wait until all are ready."""
        if workers < 1:
            raise ValueError("workers must be at least 1")
        cores = os.cpu_count() or 1
        per_worker = threads or max(1, cores // workers)
        ctx = multiprocessing.get_context("spawn")  # never fork a process that holds llama.cpp threads
        self._jobs: queue.Queue[tuple[tuple[str, str], Future] | None] = queue.Queue(maxsize=queue_size)
        self._workers = [_Worker(ctx, model, per_worker) for _ in range(workers)]
        try:
            infos = [w.wait_ready() for w in self._workers]
        except BaseException:
            for w in self._workers:
                w.stop()
            raise
        self.info: ModelInfo = infos[0]
        self.queue_size = queue_size
        self.busy_seconds = [0.0] * workers
        self._threads = [threading.Thread(target=self._dispatch, args=(i,), name=f"tutor-worker-{i}", daemon=True)
                         for i in range(workers)]
        for t in self._threads:
            t.start()

    @property
    def workers(self) -> int:
        """Return how many worker processes serve the queue."""
        return len(self._workers)

    def queued(self) -> int:
        """Return how many requests wait for a worker."""
        return self._jobs.qsize()

    def submit(self, kind: str, text: str) -> Future:
        """Queue a "correct" or "check" job; return its Future, or raise Busy when the queue is full."""
        if kind not in ("correct", "check"):
            raise ValueError(f"unknown job kind {kind!r}")
        future: Future = Future()
        try:
            self._jobs.put_nowait(((kind, text), future))
        except queue.Full:
            raise Busy(f"the class server is busy ({self.queue_size} requests waiting); try again in a moment") \
                from None
        return future

    def _dispatch(self, index: int) -> None:
        worker = self._workers[index]
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, future = item
            if not future.set_running_or_notify_cancel():
                continue
            t0 = time.perf_counter()
            try:
                future.set_result(worker.run(job))
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)
            finally:
                self.busy_seconds[index] += time.perf_counter() - t0

    def close(self) -> None:
        """Stop the dispatchers and the worker processes (requests still queued are cancelled)."""
        while True:
            try:
                item = self._jobs.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[1].cancel()
        for _ in self._threads:
            self._jobs.put(None)
        for t in self._threads:
            t.join(30)
        for w in self._workers:
            w.stop()
