"""Shared fixtures: the real bundled model, loaded once per test session."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import tutor  # noqa: F401  # importing tutor sets llama.cpp's OpenMP waits (tutor/threads.py) before llama_cpp loads

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

SHARED = Path(__file__).resolve().parents[2] / "shared"
DEV_SET = SHARED / "dev-set.jsonl"


@pytest.fixture(scope="session")
def dev_set_path() -> Path:
    """Return shared/dev-set.jsonl, or skip when the checkout has no shared/ folder beside it."""
    if not DEV_SET.exists():
        pytest.skip("shared/dev-set.jsonl is not next to the checkout")
    return DEV_SET


@pytest.fixture(scope="session")
def tutor_engine():
    """Return a Tutor on the bundled default model (real llama-cpp-python, real GGUF)."""
    from tutor.api import Tutor

    engine = Tutor.load()
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def default_model_path() -> Path:
    """Return the path of the bundled default GGUF."""
    from tutor.catalogue import resolve

    return resolve().path


@pytest.fixture(scope="session")
def broken_template_model(tmp_path_factory, default_model_path) -> Path:
    """Return a copy of the bundled GGUF whose chat template does not parse ('{% endfor %}' misspelled)."""
    data = default_model_path.read_bytes()
    at = data.find(b"tokenizer.chat_template")
    end = data.find(b"endfor", at)
    assert at > 0 and end > at
    path = tmp_path_factory.mktemp("broken") / "broken-template.gguf"
    path.write_bytes(data[:end] + b"endfxr" + data[end + 6:])
    return path


@pytest.fixture
def kill_after() -> Iterator[Callable[[subprocess.Popen, float], None]]:
    """Return arm(proc, seconds): kill the child if it still runs after `seconds`.

    A test that reads a child's pipe line by line has no timeout of its own; this turns a child that hangs
    into a failed test instead of a hung suite.
    """
    timers: list[threading.Timer] = []

    def arm(proc: subprocess.Popen, seconds: float) -> None:
        timer = threading.Timer(seconds, proc.kill)
        timer.daemon = True
        timer.start()
        timers.append(timer)

    yield arm
    for timer in timers:
        timer.cancel()


# -- a real PostgreSQL 15, started by the tests ---------------------------------------------------------------

PG_BIN = Path(os.environ.get("GRAMMAR_TUTOR_PG_BIN", "/usr/lib/postgresql/15/bin"))
REQUIRE_POSTGRES_ENV = "GRAMMAR_TUTOR_REQUIRE_POSTGRES"
PG_PASSWORD_USER = "tutor_pw"  # a role that must log in with a password (pg_hba: scram-sha-256)
PG_PASSWORD = "right-horse-battery"


class PostgresServer:
    """A PostgreSQL cluster in a temporary folder on a free loopback port, trust auth (but PG_PASSWORD_USER)."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.data, self.sockets, self.log = root / "data", root / "sockets", root / "server.log"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self._count = 0
        self.password_user, self.password = PG_PASSWORD_USER, PG_PASSWORD

    def url(self, db: str = "postgres", user: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{db}"

    def run(self, tool: str, *args: str, timeout: float = 120) -> None:
        subprocess.run([*self.as_postgres, str(PG_BIN / tool), *args], check=True, capture_output=True,
                       timeout=timeout, cwd=self.root)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "-t", "60", "start")

    def restart(self) -> None:
        """`pg_ctl restart -m fast`, as an administrator restarts it (open connections are cut)."""
        options = f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.log), "-m", "fast", "-w", "-t", "60",
                 "restart")

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")

    def new_database(self, template: str | None = None) -> str:
        """Create a database (empty, or a copy of the database `template`) and return its URL."""
        import psycopg

        self._count += 1
        name = f"test_{self._count}"
        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return self.url(name)

    def store_database(self) -> str:
        """Return the URL of a new database with the store's latest schema (a copy of one migrated once)."""
        if not getattr(self, "_template", None):
            from tutor.store import postgres

            url = self.new_database()
            postgres.migrate(url)
            self._template = url.rsplit("/", 1)[1]
        return self.new_database(self._template)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """Start a PostgreSQL cluster for the session (as the `postgres` user when the tests run as root)."""
    import shutil
    import tempfile

    if not (PG_BIN / "initdb").exists():
        if os.environ.get(REQUIRE_POSTGRES_ENV):  # .ci/run: the PostgreSQL tests must run, never be skipped
            pytest.fail(f"${REQUIRE_POSTGRES_ENV} is set but PostgreSQL is not installed in {PG_BIN}")
        pytest.skip(f"PostgreSQL binaries are not installed in {PG_BIN} (apt install postgresql, "
                    "or set GRAMMAR_TUTOR_PG_BIN)")
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install -e '.[test]'")
    root = Path(tempfile.mkdtemp(prefix="grammar-tutor-pg-"))  # not under pytest's 0700 tmp: postgres reads it
    server = PostgresServer(root, _free_port())
    server.sockets.mkdir()
    if server.as_postgres:
        shutil.chown(root, "postgres")
        shutil.chown(server.sockets, "postgres")
    server.run("initdb", "-D", str(server.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C",
               "--no-sync")
    hba = server.data / "pg_hba.conf"
    hba.write_text(f"host all {PG_PASSWORD_USER} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    server.start()
    try:
        import psycopg

        with psycopg.connect(server.url(), autocommit=True, connect_timeout=10) as conn:
            conn.execute(f"CREATE ROLE {PG_PASSWORD_USER} LOGIN PASSWORD '{PG_PASSWORD}'")
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """Return the URL of a new, empty PostgreSQL database."""
    return postgres_server.new_database()


@pytest.fixture
def postgres_store_url(postgres_server: PostgresServer) -> str:
    """Return the URL of a new PostgreSQL database that has the store's latest schema."""
    return postgres_server.store_database()
