"""Threads: the GUI writes from worker threads; each thread gets its own connection and nothing is lost."""

from __future__ import annotations

import gc
import threading
from pathlib import Path

from tutor.store import Store

from .conftest import make_result

WRITERS = 4
PER_WRITER = 40


def test_concurrent_writers_and_readers(store: Store) -> None:
    errors: list[BaseException] = []
    ids: list[list[str]] = [[] for _ in range(WRITERS)]
    counts: list[list[int]] = [[], []]
    done = threading.Event()
    connections: set[int] = set()
    start = threading.Barrier(WRITERS + 2)

    def write(n: int) -> None:
        try:
            start.wait(timeout=60)
            connections.add(id(store._conns.get()))
            for i in range(PER_WRITER):
                ids[n].append(store.save_correction(make_result(f"She go {n}-{i}"), learner=f"L{n % 2}"))
        except BaseException as exc:
            errors.append(exc)

    def read(n: int) -> None:
        try:
            start.wait(timeout=60)
            while not done.is_set():
                counts[n].append(store.count_history())
                page = store.history(limit=20)
                assert all(row["output"]["verb"] == "go" for row in page)
                store.error_counts()
                store.progress_by_week("L1")
        except BaseException as exc:
            errors.append(exc)

    writers = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
    readers = [threading.Thread(target=read, args=(n,)) for n in range(2)]
    for t in writers + readers:
        t.start()
    for t in writers:
        t.join(timeout=120)
    done.set()
    for t in readers:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in writers + readers), "a writer or reader did not finish in time"

    assert errors == []
    all_ids = [uid for chunk in ids for uid in chunk]
    assert len(all_ids) == len(set(all_ids)) == WRITERS * PER_WRITER
    assert store.count_history() == WRITERS * PER_WRITER
    assert {row["id"] for row in store.history(limit=1000)} == set(all_ids)
    for seen in counts:  # each reader sees a consistent, growing count
        assert seen and seen == sorted(seen)
    assert len(connections) == WRITERS  # one connection per thread
    assert {row["name"]: row["corrections"] for row in store.learners()} == {"L0": 80, "L1": 80}


def test_two_stores_on_one_file(db_path: Path) -> None:
    """Two programs (here two Store objects) share a file: each sees the other's commits."""
    with Store.open(db_path) as first, Store.open(db_path) as second:
        a = first.save_correction(make_result(), learner="Ana")
        b = second.save_correction(make_result(), learner="ana")
        assert {r["id"] for r in first.history()} == {a, b}
        assert second.get(a) is not None
        assert len(second.learners()) == 1


def test_a_finished_thread_gives_its_connection_back(store: Store) -> None:
    """A GUI that starts a thread per job must not pile up open files."""

    def job(i: int) -> None:
        store.save_correction(make_result(f"She go {i}"), learner="Ana")

    for i in range(30):
        thread = threading.Thread(target=job, args=(i,))
        thread.start()
        thread.join(timeout=60)
        assert not thread.is_alive()
    gc.collect()
    assert store._conns.open_count() <= 2  # the fixture's own thread, at most one straggler
    assert store.count_history() == 30
