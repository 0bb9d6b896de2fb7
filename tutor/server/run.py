"""Running the class server with uvicorn: in the foreground (`serve`) or on a background thread (tests)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import uvicorn

from tutor.errors import TutorError
from tutor.server.connections import (
    HEAD_TIMEOUT_S,
    KEEP_ALIVE_S,
    MAX_HEAD_BYTES,
    accept_batch,
    descriptor_budget,
    guarded_protocol,
    quiet_accept_errors,
)


def is_loopback(host: str) -> bool:
    """Return True when `host` only listens on this machine (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """Return a listening socket on host:port (port 0 picks a free one); raise TutorError if it is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise TutorError(f"cannot listen on {host}:{port} ({exc.strerror or exc}); choose another --port, "
                         "or stop the program that uses it") from exc
    sock.listen(2048)
    return sock


def url_of(sock: socket.socket) -> str:
    """Return the http:// URL a client uses to reach the listening socket."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _config(app: Any, *, head_timeout: float = HEAD_TIMEOUT_S, max_connections: int | None = None,
            keep_alive: int = KEEP_ALIVE_S) -> uvicorn.Config:
    # One event loop; the model runs in the pool's worker processes, so more uvicorn workers would
    # only load more models. Idle and slow connections are closed (tutor.server.connections).
    cap = descriptor_budget() if max_connections is None else max_connections
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", loop="asyncio",
                          http=guarded_protocol(head_timeout, cap), timeout_keep_alive=keep_alive,
                          h11_max_incomplete_event_size=MAX_HEAD_BYTES, backlog=accept_batch(cap))


class _Server(uvicorn.Server):
    async def serve(self, sockets: list[socket.socket] | None = None) -> None:
        quiet_accept_errors(asyncio.get_running_loop())
        await super().serve(sockets)


def serve_forever(app: Any, sock: socket.socket) -> None:
    """Serve `app` on `sock` until interrupted (Ctrl+C, SIGTERM)."""
    _Server(_config(app)).run(sockets=[sock])


class _ThreadServer(_Server):
    def install_signal_handlers(self) -> None:  # only the main thread may; the test process keeps its own
        return None


@dataclass
class Running:
    """A server running on a background thread: its URL, and stop()."""

    url: str
    server: _ThreadServer
    thread: threading.Thread

    def stop(self) -> None:
        """Ask uvicorn to finish open requests and stop; wait for the thread."""
        self.server.should_exit = True
        self.thread.join(30)


@contextlib.contextmanager
def in_thread(app: Any, host: str = "127.0.0.1", port: int = 0, **limits: Any) -> Iterator[Running]:
    """Run `app` on a background thread on host:port (0 = a free port) for the block; yield its URL.

    `limits` (head_timeout, max_connections, keep_alive) override the connection limits, for tests.
    """
    sock = bind(host, port)
    server = _ThreadServer(_config(app, **limits))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="class-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise TutorError("the class server did not start")
        time.sleep(0.01)
    running = Running(url_of(sock), server, thread)
    try:
        yield running
    finally:
        running.stop()
        sock.close()
