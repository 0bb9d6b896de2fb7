"""A real class server for the server tests: uvicorn on a free loopback port, one worker process, real model."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tutor.server.app import create_app
from tutor.server.pool import ModelPool
from tutor.server.run import in_thread
from tutor.store import Store
from tutor.store.lock import SecretLock

TEACHER_PASSPHRASE = "correct horse battery staple"


@dataclass
class LiveServer:
    """The running server: its URL and token, its store and database file, its worker pool, and the teacher
    passphrase set on its database."""

    url: str
    token: str
    store: Store
    db: Path
    pool: ModelPool
    teacher: str = TEACHER_PASSPHRASE


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Start one server per test module (loading the model costs seconds) and stop it afterwards."""
    db = tmp_path_factory.mktemp("class-server") / "class.db"
    token = secrets.token_urlsafe(16)
    store = Store.open(db)
    SecretLock(store).set_teacher(TEACHER_PASSPHRASE)
    pool = ModelPool(1, queue_size=8)
    try:
        with in_thread(create_app(store, pool, token)) as running:
            yield LiveServer(running.url, token, store, db, pool)
    finally:
        pool.close()
        store.close()
