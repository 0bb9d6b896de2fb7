"""Several `grammar-tutor serve` processes on one database, on this machine: what `bench serve --servers N` and
the district tests start. Each is an ordinary class server (its own model, its own port); the database is the
only thing they share.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

START_TIMEOUT_S = 300.0  # loading the model in each worker; a slow, shared CI machine


@dataclass
class Server:
    """One started server: its process, URL and port."""

    proc: subprocess.Popen
    url: str
    port: int

    def alive(self) -> bool:
        """Return True while the process runs."""
        return self.proc.poll() is None

    def kill(self) -> None:
        """Kill the process at once (SIGKILL: no clean shutdown, as when a machine loses power)."""
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self, timeout: float = 60.0) -> None:
        """Stop the process (SIGTERM, then SIGKILL after `timeout`)."""
        if not self.alive():
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()


def _free_port() -> int:
    from tutor.server.run import bind

    probe = bind("127.0.0.1", 0)
    try:
        return int(probe.getsockname()[1])
    finally:
        probe.close()


def launch(db: str | Path, token: str, *, workers: int = 1, port: int | None = None,
           log: Path | None = None) -> Server:
    """Start `grammar-tutor serve --db DB` on a free loopback port (or `port`); return at once (see wait_ready)."""
    port = port or _free_port()
    env = dict(os.environ, GRAMMAR_TUTOR_TOKEN=token)
    out = open(log, "ab") if log is not None else None  # noqa: SIM115 - the child keeps it
    try:
        proc = subprocess.Popen([sys.executable, "-m", "tutor.cli", "serve", "--port", str(port), "--db", str(db),
                                 "--workers", str(workers)], env=env, stdout=out, stderr=out)
    finally:
        if out is not None:
            out.close()
    return Server(proc, f"http://127.0.0.1:{port}", port)


def wait_ready(servers: list[Server], token: str, timeout: float = START_TIMEOUT_S) -> None:
    """Wait until every server answers /health; stop them all and raise RuntimeError if one does not."""
    from tutor.server.client import ClassClient, Unreachable

    deadline = time.monotonic() + timeout
    for server in servers:
        client = ClassClient(server.url, token, timeout=5)
        while True:
            try:
                client.health()
                break
            except Unreachable:
                if not server.alive() or time.monotonic() > deadline:
                    for other in servers:
                        other.stop(10)
                    why = "exited" if not server.alive() else f"did not answer within {timeout:.0f} s"
                    raise RuntimeError(f"grammar-tutor serve on port {server.port} {why}; run it by hand to see why"
                                       ) from None
                time.sleep(0.2)
        client.close()


@contextmanager
def servers(db: str | Path, token: str, n: int, *, workers: int = 1, log_dir: Path | None = None
            ) -> Iterator[list[Server]]:
    """Run `n` servers on one database (started together, so their models load at once); stop them after."""
    started = [launch(db, token, workers=workers, log=None if log_dir is None else log_dir / f"server-{i}.log")
               for i in range(n)]
    try:
        wait_ready(started, token)
        yield started
    finally:
        for server in started:
            server.stop()
