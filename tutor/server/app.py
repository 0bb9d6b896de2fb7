"""The class server's HTTP face (FastAPI): check, correct, learners, history and offline uploads.

Every /v1 route needs `Authorization: Bearer TOKEN` (compared in constant time); who may write a learner's
rows or read history is tutor.server.access's business (docs/access.md). Bodies over 16 kB are refused with
413, bodies that arrive too slowly with 408, and bodies that are not strict JSON nested at most
tutor.jsontext.MAX_DEPTH deep with 422, before any route sees them. Model work goes through the pool's
bounded queue; store work runs in the thread pool, so the event loop never blocks. No API documentation is
served (/docs would load Swagger from a CDN; the product is offline): docs/scale.md describes the API.
"""

from __future__ import annotations

import asyncio
import hmac
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import field_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from tutor import __version__
from tutor.api import check_sentence, check_text
from tutor.errors import InputError, StoreError, StoreUnavailable, TutorError
from tutor.jsontext import BadJSON, loads
from tutor.limits import MAX_BODY_BYTES
from tutor.result import CorrectionResult
from tutor.server import practice_routes, records
from tutor.server.access import LEARNER_KEY_HEADER, TEACHER_HEADER, Access, Forbidden, Writer
from tutor.server.bodies import LearnerBody, checked_uuid
from tutor.server.pool import Busy, ModelPool, WorkerFailed
from tutor.store.bundle import check_bundle, import_bundle
from tutor.store.lock import Throttled

if TYPE_CHECKING:
    from tutor.store import Store

BODY_TIMEOUT_S = 15.0  # the whole body must arrive within this; a client dribbling bytes gets 408
STORE_RETRY_AFTER_S = 2  # a store that cannot be reached (a database restarting): try again after this


class _Body(LearnerBody):
    id: str | None = None  # a request UUID: row UUIDs derive from it, so a retry stores nothing twice

    @field_validator("id")
    @classmethod
    def _id(cls, value: str | None) -> str | None:
        return checked_uuid(value)


class CheckBody(_Body):
    """POST /v1/check: a learner's text."""

    text: str

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        try:
            return check_text(value)
        except InputError as exc:
            raise ValueError(str(exc)) from None


class CorrectBody(_Body):
    """POST /v1/correct: one sentence."""

    sentence: str

    @field_validator("sentence")
    @classmethod
    def _sentence(cls, value: str) -> str:
        try:
            check_sentence(value)
        except InputError as exc:
            raise ValueError(str(exc)) from None
        return value


class BodyLimit:
    """ASGI middleware: read each body whole before a route sees it, and refuse it with 413 when it is over
    `limit` bytes (by Content-Length or by what arrives), 408 when it does not arrive within `timeout`
    seconds, and 422 when it is not strict JSON nested at most tutor.jsontext.MAX_DEPTH deep."""

    def __init__(self, app: Any, limit: int = MAX_BODY_BYTES, timeout: float = BODY_TIMEOUT_S) -> None:
        self.app, self.limit, self.timeout = app, limit, timeout

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send, 413, f"the request body is over {self.limit // 1024} kB; send a shorter text")
            return
        body = bytearray()
        deadline = asyncio.get_running_loop().time() + self.timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except TimeoutError:
                await self._refuse(send, 408, f"the request body did not arrive within {self.timeout:g} s")
                return
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(send, 413, f"the request body is over {self.limit // 1024} kB; send a shorter text")
                return
            if not message.get("more_body", False):
                break
        if body:
            try:
                loads(bytes(body))
            except BadJSON as exc:
                await self._refuse(send, 422, f"the request body is not usable JSON: {exc}")
                return
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Any, status: int, message: str) -> None:
        response = JSONResponse({"error": message}, status_code=status, headers={"Connection": "close"})
        await response({"type": "http"}, None, send)


def create_app(store: Store, pool: ModelPool, token: str, *, body_timeout: float = BODY_TIMEOUT_S) -> FastAPI:
    """Return the ASGI app serving `pool`'s model and saving into `store`, guarded by `token` (bodies must
    arrive within `body_timeout` seconds)."""
    if not token:
        raise ValueError("the class server needs a token")
    expected = token.encode("utf-8")
    access = Access(store)

    def require_token(request: Request) -> None:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode("utf-8"), expected):
            raise HTTPException(401, "a valid class code is needed: send Authorization: Bearer TOKEN",
                                headers={"WWW-Authenticate": "Bearer"})

    app = FastAPI(title="grammar-tutor class server", version=__version__, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, timeout=body_timeout)
    v1 = APIRouter(prefix="/v1", dependencies=[Depends(require_token)])

    def credentials(request: Request) -> tuple[str | None, str | None]:
        return request.headers.get(LEARNER_KEY_HEADER), request.headers.get(TEACHER_HEADER)

    async def writer(request: Request, name: str, learner_uuid: str | None, request_id: str | None = None) -> Writer:
        key, passphrase = credentials(request)
        return await run_in_threadpool(access.writer, name, learner_uuid, key, passphrase, request_id)

    async def reader(request: Request, name: str) -> dict[str, Any]:
        key, passphrase = credentials(request)
        return await run_in_threadpool(access.reader, name, key, passphrase)

    async def run_model(kind: str, text: str, who: Writer) -> tuple[Any, float]:
        """Run the model for `who`; when it fails (busy, a worker died), a key issued to `who` by this very
        request still goes back with the error, so a new learner is never left without their key."""
        t0 = time.perf_counter()
        try:
            value = await asyncio.wrap_future(pool.submit(kind, text))
        except TutorError as exc:
            exc.key_headers = who.headers()  # type: ignore[attr-defined]
            raise
        return value, (time.perf_counter() - t0) * 1000

    async def save(body: _Body, who: Writer, results: list[CorrectionResult], replacing_text: str | None = None
                   ) -> list[str]:
        ids = records.row_ids(body.id, len(results))
        try:
            await run_in_threadpool(records.save, store, who.learner_id, list(zip(ids, results, strict=True)),
                                    replacing_text=replacing_text)
        except TutorError as exc:
            exc.key_headers = who.headers()  # type: ignore[attr-defined]
            raise
        return ids

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "model": pool.info.name, "model_sha256": pool.info.sha256,
                "workers": pool.workers, "queued": pool.queued(), "version": __version__}

    @v1.get("/ping")
    async def ping(request: Request) -> dict[str, Any]:
        """The class code is right (the app's "Test connection"); says whether a teacher passphrase was sent
        and is right, without reading anything."""
        _, passphrase = credentials(request)
        if passphrase:
            await run_in_threadpool(access.require_teacher, passphrase)
        return {"status": "ok", "teacher": bool(passphrase)}

    @v1.post("/correct")
    async def correct(request: Request, body: CorrectBody, detail: bool = False) -> JSONResponse:
        who = await writer(request, body.learner, body.learner_uuid, body.id)  # before the model: refusals cost nothing
        result, _ = await run_model("correct", body.sentence, who)
        [row_id] = await save(body, who, [result])
        headers = {"X-Correction-Id": row_id, **who.headers()}
        if not detail:
            return JSONResponse(result.output, headers=headers)
        return JSONResponse(records.detail(result, row_id), headers=headers)

    @v1.post("/check")
    async def check(request: Request, body: CheckBody) -> JSONResponse:
        who = await writer(request, body.learner, body.learner_uuid, body.id)
        checked, _ = await run_model("check", body.text, who)
        ids = await save(body, who, records.finding_results(checked, pool.info), replacing_text=body.text)
        out = checked.to_dict()
        for finding, row_id in zip(out["findings"], ids, strict=True):
            finding["id"] = row_id
        return JSONResponse(out, headers=who.headers())

    @v1.get("/learners")
    async def learners(request: Request) -> list[dict[str, Any]]:
        await run_in_threadpool(access.require_teacher, credentials(request)[1])
        return await run_in_threadpool(records.learners, store)

    @v1.get("/learners/{name}/history")
    async def history(request: Request, name: str, limit: int = Query(100, ge=1, le=1000)) -> dict[str, Any]:
        found = await reader(request, name)
        if not found:
            raise HTTPException(404, f"no learner {name!r} on this server; GET /v1/learners lists them")
        rows = await run_in_threadpool(lambda: store.history(found["id"], limit=limit))
        return {"learner": found["name"], "corrections": rows}

    @v1.post("/upload")
    async def upload(request: Request) -> JSONResponse:
        try:
            value = loads(await request.body())
        except BadJSON as exc:
            raise HTTPException(422, f"the upload is not a grammar-tutor bundle: {exc}") from None
        try:
            bundle = check_bundle(value, "the upload")
        except StoreError as exc:
            raise HTTPException(422, str(exc)) from None
        head = bundle["learner"]
        who = await writer(request, head["name"], head["uuid"])
        try:
            summary = await run_in_threadpool(
                lambda: import_bundle(store, bundle, source="upload", learner_id=who.learner_id))
        except TutorError as exc:
            exc.key_headers = who.headers()  # type: ignore[attr-defined]
            raise
        return JSONResponse({"learner": summary.learner, "new": summary.new, "present": summary.present,
                             "conflicts": summary.conflicts}, headers=who.headers())

    practice_routes.add_routes(v1, store, reader=reader, writer=writer)  # the learners' practice (tutor.practice)
    app.include_router(v1)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors()[:3]:
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            message = str(error.get("msg", "is not valid")).removeprefix("Value error, ")
            problems.append(f"{where}: {message}" if where else message)
        return JSONResponse({"error": "; ".join(problems) or "the request is not valid"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:  # every refusal says "error"
        return JSONResponse({"error": str(exc.detail), "detail": exc.detail}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(Forbidden)
    async def _forbidden(_: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

    @app.exception_handler(Throttled)
    async def _throttled(_: Request, exc: Throttled) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=429,
                            headers={"Retry-After": str(max(1, int(exc.retry_after + 0.999)))})

    @app.exception_handler(records.ReusedRequest)
    async def _reused(_: Request, exc: records.ReusedRequest) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=409)

    @app.exception_handler(InputError)
    async def _input(_: Request, exc: InputError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=422, headers=_issued(exc))

    @app.exception_handler(Busy)
    async def _busy(_: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "1", **_issued(exc)})

    @app.exception_handler(WorkerFailed)
    async def _failed(_: Request, exc: WorkerFailed) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=500, headers=_issued(exc))

    @app.exception_handler(StoreUnavailable)
    async def _store_down(_: Request, exc: StoreUnavailable) -> JSONResponse:  # a district's database restarting
        return JSONResponse({"error": str(exc)}, status_code=503,
                            headers={"Retry-After": str(STORE_RETRY_AFTER_S), **_issued(exc)})

    @app.exception_handler(StoreError)
    async def _store(_: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=500, headers=_issued(exc))

    @app.exception_handler(TutorError)
    async def _tutor(_: Request, exc: TutorError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400, headers=_issued(exc))

    return app


def _issued(exc: Exception) -> dict[str, str]:
    """Return the headers of a learner key issued by the request that then failed (see run_model)."""
    return dict(getattr(exc, "key_headers", None) or {})
