"""The one pattern for every slow job: `run_job(op, success=…, failure=…)`.

Modelled on Anki's QueryOp. `op(report)` runs on a background thread of a private, serial
QThreadPool; `success(value)`, `failure(exc)` and `progress(item)` run on the GUI thread, delivered
through queued signals. Be careful not to call any UI routine inside `op`: it may only call
`report(item)`, which hands `item` to the GUI thread.

Jobs run in two lanes, each a serial pool (one thread), so jobs of a lane finish in the order they
were started:
- ENGINE (the default): the model — loading it, correcting, checking, and the saves that follow;
  one job at a time, so the llama.cpp context needs no lock.
- STORE: reading the SQLite store for the window (history pages, learner lists, statistics, the
  passphrase checks), so a read never waits behind a ten-second text check and the GUI thread
  never runs a query. The Store is safe across threads (a connection per thread, WAL).
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from typing import Any, Literal

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from tutor.errors import TutorError

log = logging.getLogger(__name__)

Report = Callable[[Any], None]
Lane = Literal["engine", "store"]
ENGINE: Lane = "engine"
STORE: Lane = "store"
LANES: tuple[Lane, ...] = (ENGINE, STORE)


class Cancelled(Exception):
    """Raised by a cancelled job's `report()`: the job stops at its next step (see cancel_jobs)."""


class _Relay(QObject):
    """Lives on the GUI thread. The worker emits its signals; because they connect to this object's
    own slots, Qt queues each call to the GUI thread (a bare lambda would run on the worker)."""

    progressed = Signal(object)
    succeeded = Signal(object)
    failed = Signal(object)

    def __init__(self, job: Job) -> None:
        super().__init__()
        self.job = job
        self.progressed.connect(self._on_progress)
        self.succeeded.connect(self._on_success)
        self.failed.connect(self._on_failure)

    @Slot(object)
    def _on_progress(self, item: Any) -> None:
        self.job.deliver(self.job.progress, item, final=False)

    @Slot(object)
    def _on_success(self, value: Any) -> None:
        self.job.deliver(self.job.success, value, final=True)

    @Slot(object)
    def _on_failure(self, exc: Any) -> None:
        self.job.deliver(self.job.failure, exc, final=True)


class Job(QRunnable):
    """One background job. Keep it only to inspect it: the pool owns the run."""

    def __init__(
        self,
        op: Callable[[Report], Any],
        *,
        success: Callable[[Any], None],
        failure: Callable[[Exception], None],
        progress: Callable[[Any], None] | None,
        receiver: QObject | None,
        name: str,
        lane: Lane = ENGINE,
    ) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python keeps the reference until the result is delivered
        self.op = op
        self.success = success
        self.failure = failure
        self.progress = progress
        self.receiver = receiver
        self.name = name
        self.lane = lane
        self.traceback: str | None = None
        self.done = False
        self.started = False
        self.cancelled = False
        self.relay = _Relay(self)

    def report(self, item: Any) -> None:
        """Hand `item` to the GUI thread; raise Cancelled once the job has been cancelled."""
        if self.cancelled:
            raise Cancelled(self.name)
        self.relay.progressed.emit(item)

    def run(self) -> None:
        """Run `op` on the worker thread and emit its outcome; never let an exception escape."""
        self.started = True
        try:
            if self.cancelled:
                raise Cancelled(self.name)
            value = self.op(self.report)
        except Cancelled as exc:
            log.info("background job %r cancelled", self.name)
            self.relay.failed.emit(exc)
        except Exception as exc:
            self.traceback = traceback.format_exc()
            if isinstance(exc, TutorError):  # expected: the message says it all, the window shows it
                log.info("background job %r: %s", self.name, exc)
            else:  # a bug or an engine crash: keep the traceback for the log, never for the window
                log.warning("background job %r failed:\n%s", self.name, self.traceback)
            self.relay.failed.emit(exc)
        else:
            self.relay.succeeded.emit(value)

    def deliver(self, callback: Callable[[Any], None] | None, value: Any, *, final: bool) -> None:
        """Call `callback(value)` on the GUI thread unless the receiver has been destroyed."""
        if final:
            self.done = True
            _live.discard(self)
        if callback is None or self.cancelled or (self.receiver is not None and not shiboken6.isValid(self.receiver)):
            return
        callback(value)


_pools: dict[Lane, QThreadPool] = {}
_live: set[Job] = set()


def pool(lane: Lane = ENGINE) -> QThreadPool:
    """Return the serial thread pool of a lane (created on first use)."""
    found = _pools.get(lane)
    if found is None:
        if lane not in LANES:
            raise ValueError(f"no job lane {lane!r}; the lanes are {', '.join(LANES)}")
        found = _pools[lane] = QThreadPool()
        found.setObjectName(f"grammar-tutor-{lane}")
        found.setMaxThreadCount(1)
        found.setExpiryTimeout(2000)
    return found


def run_job(
    op: Callable[[Report], Any],
    *,
    success: Callable[[Any], None],
    failure: Callable[[Exception], None],
    progress: Callable[[Any], None] | None = None,
    receiver: QObject | None = None,
    name: str = "job",
    lane: Lane = ENGINE,
) -> Job:
    """Start `op(report)` in the background on `lane` and return its Job.

    `success(value)`, `failure(exception)` and `progress(item)` are called on the GUI thread, and
    not at all once `receiver` (usually the widget that asked) has been destroyed.
    """
    job = Job(op, success=success, failure=failure, progress=progress, receiver=receiver, name=name, lane=lane)
    _live.add(job)
    pool(lane).start(job)
    return job


def busy(lane: Lane | None = None) -> bool:
    """Return True while any job (of `lane`, or of any lane) is queued, running or waiting to deliver."""
    return any(lane is None or job.lane == lane for job in list(_live))


def running(lane: Lane = ENGINE) -> bool:
    """Return True while a job of `lane` has started on its thread and not yet delivered its result."""
    return any(job.lane == lane and job.started and not job.done for job in list(_live))


def cancel_jobs() -> None:
    """Cancel every job: queued ones never start; running ones stop at their next `report()` (an engine
    call in progress, e.g. one llama.cpp step, still finishes). No callback of theirs runs afterwards."""
    for lane in LANES:
        pool(lane).clear()
    for job in list(_live):
        job.cancelled = True
        if not job.started:  # taken off the queue by clear(): it will never run or deliver
            job.done = True
            _live.discard(job)


def wait_for_jobs(timeout_ms: int = 30000) -> bool:
    """Block until every job of every lane has run (results are still delivered later, by the event loop)."""
    deadline = time.monotonic() + timeout_ms / 1000
    done = True
    for lane in LANES:
        left = max(0, round((deadline - time.monotonic()) * 1000))
        done = pool(lane).waitForDone(left) and done
    return done
