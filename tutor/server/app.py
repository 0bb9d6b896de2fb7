"""The class server's HTTP face (FastAPI): check, correct, learners, history and offline uploads.

Every /v1 route needs `Authorization: Bearer TOKEN` (compared in constant time); bodies over
16 kB are refused with 413 before any route sees them. Model work goes through the pool's bounded
queue; store work runs in the thread pool, so the event loop never blocks.
"""

from __future__ import annotations

import asyncio
import hmac
import time
import uuid
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator
from starlette.concurrency import run_in_threadpool

from tutor import __version__
from tutor.errors import InputError, StoreError, TutorError
from tutor.result import CorrectionResult
from tutor.server import practice_routes, records
from tutor.server.pool import Busy, ModelPool, WorkerFailed
from tutor.store.bundle import check_bundle, import_bundle

if TYPE_CHECKING:
    from tutor.store import Store

MAX_BODY_BYTES = 16 * 1024
MAX_NAME_CHARS = 100


class _Body(BaseModel):
    learner: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    learner_uuid: str | None = None  # the app sends its learner's UUID, so learners match across machines
    id: str | None = None  # a request UUID: row UUIDs derive from it, so a retry stores nothing twice

    @field_validator("learner_uuid", "id")
    @classmethod
    def _uuid(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                return str(uuid.UUID(value))
            except ValueError:
                raise ValueError(f"{value!r} is not a UUID") from None
        return value


class CheckBody(_Body):
    """POST /v1/check: a learner's text."""

    text: str


class CorrectBody(_Body):
    """POST /v1/correct: one sentence."""

    sentence: str


class BodyLimit:
    """ASGI middleware: answer 413 to a body over `limit` bytes, by Content-Length or by what arrives."""

    def __init__(self, app: Any, limit: int = MAX_BODY_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._too_large(send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._too_large(send)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, send: Any) -> None:
        response = JSONResponse(
            {"error": f"the request body is over {self.limit // 1024} kB; send a shorter text"},
            status_code=413, headers={"Connection": "close"})
        await response({"type": "http"}, None, send)


def create_app(store: Store, pool: ModelPool, token: str) -> FastAPI:
    """Return the ASGI app serving `pool`'s model and saving into `store`, guarded by `token`."""
    if not token:
        raise ValueError("the class server needs a token")
    expected = token.encode("utf-8")

    def require_token(request: Request) -> None:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode("utf-8"), expected):
            raise HTTPException(401, "a valid class code is needed: send Authorization: Bearer TOKEN",
                                headers={"WWW-Authenticate": "Bearer"})

    app = FastAPI(title="grammar-tutor class server", version=__version__)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    v1 = APIRouter(prefix="/v1", dependencies=[Depends(require_token)])

    async def run_model(kind: str, text: str) -> tuple[Any, float]:
        t0 = time.perf_counter()
        value = await asyncio.wrap_future(pool.submit(kind, text))
        return value, (time.perf_counter() - t0) * 1000

    async def save(body: _Body, results: list[CorrectionResult]) -> list[str]:
        ids = records.row_ids(body.id, len(results))

        def write() -> None:
            learner = records.learner_id(store, body.learner, body.learner_uuid)
            records.save(store, learner, list(zip(ids, results, strict=True)))

        await run_in_threadpool(write)
        return ids

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "model": pool.info.name, "model_sha256": pool.info.sha256,
                "workers": pool.workers, "queued": pool.queued(), "version": __version__}

    @v1.post("/correct")
    async def correct(body: CorrectBody, detail: bool = False) -> JSONResponse:
        result, _ = await run_model("correct", body.sentence)
        [row_id] = await save(body, [result])
        headers = {"X-Correction-Id": row_id}
        if not detail:
            return JSONResponse(result.output, headers=headers)
        return JSONResponse(records.detail(result, row_id), headers=headers)

    @v1.post("/check")
    async def check(body: CheckBody) -> dict[str, Any]:
        checked, _ = await run_model("check", body.text)
        ids = await save(body, records.finding_results(checked, pool.info))
        out = checked.to_dict()
        for finding, row_id in zip(out["findings"], ids, strict=True):
            finding["id"] = row_id
        return out

    @v1.get("/learners")
    async def learners() -> list[dict[str, Any]]:
        return await run_in_threadpool(records.learners, store)

    @v1.get("/learners/{name}/history")
    async def history(name: str, limit: int = Query(100, ge=1, le=1000)) -> dict[str, Any]:
        found = await run_in_threadpool(store.find_learner, name)
        if found is None:
            raise HTTPException(404, f"no learner {name!r} on this server; GET /v1/learners lists them")
        rows = await run_in_threadpool(lambda: store.history(found["id"], limit=limit))
        return {"learner": found["name"], "corrections": rows}

    @v1.post("/upload")
    async def upload(request: Request) -> dict[str, Any]:
        try:
            value = await request.json()
        except ValueError:
            raise HTTPException(422, "the upload is not JSON; send a grammar-tutor bundle") from None
        try:
            bundle = check_bundle(value, "the upload")
        except StoreError as exc:
            raise HTTPException(422, str(exc)) from None
        summary = await run_in_threadpool(import_bundle, store, bundle, source="upload")
        return {"learner": summary.learner, "new": summary.new, "present": summary.present,
                "conflicts": summary.conflicts}

    practice_routes.add_routes(v1, store)  # the learners' practice state (tutor.practice)
    app.include_router(v1)

    @app.exception_handler(InputError)
    async def _input(_: Request, exc: InputError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=422)

    @app.exception_handler(Busy)
    async def _busy(_: Request, exc: Busy) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(WorkerFailed)
    async def _failed(_: Request, exc: WorkerFailed) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=500)

    @app.exception_handler(StoreError)
    async def _store(_: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=500)

    @app.exception_handler(TutorError)
    async def _tutor(_: Request, exc: TutorError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    return app
