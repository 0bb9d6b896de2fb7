"""Talking to a class server: the HTTP client.

`ClassClient` speaks the server's /v1 API over one keep-alive connection (standard library only, so
the app needs nothing new). It keeps the learner keys the server issues (tutor.server.access) and sends
each back with that learner's requests; a teacher passphrase, when given, goes with the history reads.
The remote use case over it (the local model and the outbox when the server is away) is
tutor.server.remote.ClassTutor.
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from typing import Any

from tutor.errors import TutorError
from tutor.jsontext import BadJSON, loads
from tutor.result import CorrectionResult
from tutor.server import records
from tutor.server.access import LEARNER_KEY_HEADER, LEARNER_UUID_HEADER, TEACHER_HEADER
from tutor.server.keys import KeyRing


class ServerError(TutorError):
    """The class server answered with an error (a wrong class code, a refused request)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Unreachable(TutorError):
    """The class server cannot be reached (no network, server stopped, busy or failing)."""


class ClassClient:
    """One keep-alive HTTP connection to a class server; not shared between threads."""

    def __init__(self, url: str, token: str, *, timeout: float = 30.0, keys: KeyRing | None = None,
                 teacher: str | None = None) -> None:
        """Prepare a client for `url` (http://host:port) sending `token` as the class code; `keys` keeps the
        learner keys (default: in memory), `teacher` is the teacher passphrase for the history reads."""
        parts = urllib.parse.urlsplit(url.rstrip("/"))
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise TutorError(f"the class server address {url!r} is not an http:// URL; write it like "
                             "http://192.168.1.20:8765")
        self.url = url.rstrip("/")
        self._https = parts.scheme == "https"
        self._host, self._port = parts.hostname, parts.port or (443 if self._https else 80)
        self._base = parts.path
        self._token = token
        self.timeout = timeout
        self.keys = keys if keys is not None else KeyRing()
        self.teacher = teacher
        self._conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        """Close the connection (it reopens on the next request)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(self, method: str, path: str, body: Any = None, *, token: bool = True,
                extra: dict[str, str] | None = None) -> tuple[int, dict, Any]:
        """Send one request; return (status, headers, parsed JSON). Raise Unreachable when no answer came."""
        data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers = {"Accept": "application/json", **(extra or {})}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {self._token}"
        for attempt in (1, 2):  # a keep-alive connection the server closed is retried once on a new one
            try:
                conn = self._connection()
                conn.request(method, self._base + path, body=data, headers=headers)
                response = conn.getresponse()
                raw = response.read()
                break
            except (TimeoutError, http.client.HTTPException, OSError) as exc:
                self.close()
                if attempt == 2 or isinstance(exc, TimeoutError):
                    raise Unreachable(f"the class server {self.url} cannot be reached ({exc or type(exc).__name__})"
                                      ) from exc
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        try:
            value = loads(raw) if raw else None
        except BadJSON:
            value = {"error": raw.decode("utf-8", "replace")[:200]}
        return response.status, {k.lower(): v for k, v in response.getheaders()}, value

    def call(self, method: str, path: str, body: Any = None, *, learner: tuple[str, str | None] | None = None,
             teacher: bool = False) -> tuple[dict, Any]:
        """Send one /v1 request and return (headers, JSON); raise ServerError or Unreachable on failure.

        `learner` (name, UUID) sends that learner's key when one is kept, and keeps a key the server issues;
        `teacher` sends the teacher passphrase, when this client was given one (the teacher reads any history
        and may write for any learner).
        """
        extra: dict[str, str] = {}
        if learner is not None and (key := self.keys.get(*learner)):
            extra[LEARNER_KEY_HEADER] = key
        if teacher and self.teacher:
            extra[TEACHER_HEADER] = self.teacher
        status, headers, value = self.request(method, path, body, extra=extra)
        issued = headers.get(LEARNER_KEY_HEADER.lower())
        if learner is not None and issued:  # kept even from an error: the learner exists now, and this is their key
            self.keys.put(learner[0], headers.get(LEARNER_UUID_HEADER.lower()) or learner[1], issued)
        if status in (500, 502, 503, 504):
            raise Unreachable(f"the class server {self.url} could not answer ({status}: {_message(value)})")
        if status == 401:
            raise ServerError(f"the class server {self.url} refused the class code; check it in Settings", status)
        if status in (403, 429):
            raise ServerError(f"the class server refused: {_message(value)}", status)
        if status >= 400:
            raise ServerError(f"the class server refused the request ({status}): {_message(value)}", status)
        return headers, value

    def health(self) -> dict[str, Any]:
        """Return GET /health ({"status": "ok", "model": …})."""
        status, _, value = self.request("GET", "/health", token=False)
        if status != 200:
            raise Unreachable(f"the class server {self.url} is not healthy ({status})")
        return value

    def ping(self) -> dict[str, Any]:
        """Return GET /v1/ping: the class code is right (and the teacher passphrase, when one is given)."""
        return self.call("GET", "/v1/ping", teacher=True)[1]

    def check(self, learner: str, text: str, *, learner_uuid: str | None = None,
              request_id: str | None = None) -> dict[str, Any]:
        """Return POST /v1/check: {"findings": [… each with "id"], "sentences": […], "notes": […]}."""
        return self.call("POST", "/v1/check", _body(learner, learner_uuid, request_id, text=text),
                         learner=(learner, learner_uuid), teacher=True)[1]

    def correct(self, learner: str, sentence: str, *, learner_uuid: str | None = None,
                request_id: str | None = None) -> tuple[dict[str, Any], str]:
        """Return POST /v1/correct: (the §A13 object, the stored row's UUID)."""
        headers, value = self.call("POST", "/v1/correct", _body(learner, learner_uuid, request_id, sentence=sentence),
                                   learner=(learner, learner_uuid), teacher=True)
        return value, headers.get("x-correction-id", "")

    def correct_detail(self, learner: str, sentence: str, *, learner_uuid: str | None = None,
                       request_id: str | None = None) -> tuple[CorrectionResult, str]:
        """Return the server's full correction (explanations, timings) and its row UUID."""
        _, value = self.call("POST", "/v1/correct?detail=true",
                             _body(learner, learner_uuid, request_id, sentence=sentence),
                             learner=(learner, learner_uuid), teacher=True)
        return records.from_detail(value), value["id"]

    def learners(self) -> list[dict[str, Any]]:
        """Return GET /v1/learners (the teacher's: needs the teacher passphrase)."""
        return self.call("GET", "/v1/learners", teacher=True)[1]

    def history(self, name: str, limit: int = 100) -> dict[str, Any]:
        """Return GET /v1/learners/{name}/history?limit=N: {"learner", "corrections": [newest first]}; any
        learner's with the teacher passphrase, else the learner's own with their key."""
        quoted = urllib.parse.quote(name, safe="")
        return self.call("GET", f"/v1/learners/{quoted}/history?limit={int(limit)}", learner=(name, None),
                         teacher=True)[1]

    def upload(self, bundle: dict[str, Any]) -> dict[str, Any]:
        """POST a bundle to /v1/upload with its learner's key; return {"learner", "new", "present", "conflicts"}."""
        head = bundle.get("learner") or {}
        return self.call("POST", "/v1/upload", bundle, learner=(head.get("name"), head.get("uuid")), teacher=True)[1]

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = kind(self._host, self._port, timeout=self.timeout)
        return self._conn


def _body(learner: str, learner_uuid: str | None, request_id: str | None, **fields: str) -> dict[str, Any]:
    body: dict[str, Any] = {"learner": learner, **fields}
    if learner_uuid:
        body["learner_uuid"] = learner_uuid
    if request_id:
        body["id"] = request_id
    return body


def _message(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("error") or value.get("detail") or value)
    return str(value)
