"""The connections the class server keeps open: idle and slow clients are closed, and their number is capped.

uvicorn closes a keep-alive connection that stays idle after a response, but a connection that never
sends a request, or sends its header one byte at a time, stays open for ever; a few hundred such
sockets use up the process's file descriptors and `/health` stops answering. So:

- a request's head (request line and headers) must arrive within `head_timeout` seconds of the
  connection opening or of the previous response, else the connection is closed;
- a request's body must arrive within tutor.server.app.BODY_TIMEOUT_S (the app answers 408);
- at most `max_connections` are open: a new one beyond that closes the connection that has waited longest
  since it last sent anything, among those the server is not answering (between requests, or still sending
  a body), or itself when every connection is being answered; so connections that dribble a body cannot
  shut the class out;
- the head may be at most MAX_HEAD_BYTES, whether it comes in pieces (h11's limit) or in one write (counted
  here); more gets 400 and the connection is closed;
- at most `accept_batch` connections are accepted per turn of the event loop, so the excess ones are
  closed before more are accepted, and the process never runs out of descriptors in one burst. Should
  it run out all the same, asyncio's accept loop logs one traceback per pending connection and retries
  each one (up to the listen backlog, on every turn): `quiet_accept_errors` makes that one line a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 15  # idle time between a learner's requests before the server closes the connection
MAX_CONNECTIONS = 256
MAX_HEAD_BYTES = 16 * 1024


def descriptor_budget() -> int:
    """Return how many connections this process can afford: a quarter of its open-file limit (the store's
    per-thread SQLite files, the workers' pipes and the listening socket need the rest), at most MAX_CONNECTIONS."""
    try:
        import resource
    except ImportError:  # Windows: no per-process descriptor limit to speak of
        return MAX_CONNECTIONS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        wanted = 4096 if hard == resource.RLIM_INFINITY else min(hard, 4096)
        if wanted > soft:
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
                soft = wanted
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft // 4))


def accept_batch(max_connections: int) -> int:
    """Return how many connections to accept per turn of the event loop (the listen backlog) for a cap."""
    return max(8, min(64, max_connections))


_ACCEPT_TROUBLE = "socket.accept() out of system resource"
_log = logging.getLogger("grammar-tutor.server")


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, every_s: float = 60.0) -> None:
    """Make the event loop report running out of descriptors in one line per `every_s` seconds, not a
    traceback per pending connection; every other error goes to the default handler as before."""
    last = [-every_s]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == _ACCEPT_TROUBLE:
            now = time.monotonic()
            if now - last[0] >= every_s:
                last[0] = now
                _log.warning("the class server has no file descriptors left for new connections (%s); "
                             "they wait until idle ones are closed", context.get("exception"))
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def guarded_protocol(head_timeout: float = HEAD_TIMEOUT_S, max_connections: int = MAX_CONNECTIONS) -> type:
    """Return uvicorn's h11 protocol with the head timeout and the connection cap (uvicorn.Config(http=…))."""

    class GuardedH11(H11Protocol):
        """uvicorn's h11 protocol, closing connections whose request head does not come in time."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._head_timer: asyncio.TimerHandle | None = None
            self._head_for: Any = None
            self._last_active = time.monotonic()
            self._arm_head_timer()
            if len(self.connections) > max_connections:
                self._make_room()

        def data_received(self, data: bytes) -> None:
            self._last_active = time.monotonic()
            between = self.cycle is None or self.cycle.response_complete
            if between:
                if self._head_timer is None or self._head_for is not self.cycle:
                    self._arm_head_timer()  # the next request's head starts arriving: it has head_timeout to finish
                end = data.find(b"\r\n\r\n")  # h11 limits only a head still incomplete: count it whole here
                self._head_bytes += len(data) if end < 0 else end + 4
                if self._head_bytes > MAX_HEAD_BYTES:
                    self._refuse_head()
                    return
            super().data_received(data)

        def _refuse_head(self) -> None:
            body = (b'{"error": "the request head (request line and headers) is over %d kB"}'
                    % (MAX_HEAD_BYTES // 1024))
            self.transport.write(b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                                 b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_head_timer()
            super().connection_lost(exc)

        def idle(self) -> bool:
            """Return True between requests (nothing is being answered on this connection)."""
            return self.cycle is None or self.cycle.response_complete

        def waiting(self) -> bool:
            """Return True while nothing is being answered: between requests, or while a body is still coming in
            (a client sending a head and a byte of its body holds nothing the server works on)."""
            if self.idle():
                return True
            return bool(getattr(self.cycle, "more_body", False)) and not self.cycle.response_started

        def _arm_head_timer(self) -> None:
            self._cancel_head_timer()
            self._head_bytes = 0  # of the head now awaited
            self._head_for = self.cycle
            self._head_timer = self.loop.call_later(head_timeout, self._head_timed_out, self.cycle)

        def _cancel_head_timer(self) -> None:
            timer = getattr(self, "_head_timer", None)
            if timer is not None:
                timer.cancel()
            self._head_timer = None

        def _head_timed_out(self, waited_for: Any) -> None:
            self._head_timer = None
            if self.cycle is waited_for and not self.transport.is_closing():  # no request began in time
                self.transport.close()

        def _make_room(self) -> None:
            idle = [c for c in self.connections if c is not self and getattr(c, "waiting", lambda: False)()]
            victim = min(idle, key=lambda c: c._last_active) if idle else self
            victim.transport.close()

    return GuardedH11
