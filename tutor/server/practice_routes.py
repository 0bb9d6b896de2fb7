"""The class server's practice routes, and the client side that sends a learner's practice state to it.

    GET  /v1/learners/{name}/practice   {"learner", "count", "due": [card…], "progress": {…}}
    POST /v1/practice                   {"learner", "learner_uuid", "practice": section} → what was merged

A learner's practice section (tutor.practice.bundle) goes up in pieces under the server's body limit; each
piece merges exactly once, so sending it again adds nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from tutor.practice import bundle as practice_bundle
from tutor.server.bodies import LearnerBody
from tutor.store import practice_rows

if TYPE_CHECKING:
    from tutor.server.access import Writer
    from tutor.server.client import ClassClient
    from tutor.store import Store

Reader = Callable[[Request, str], Awaitable[dict[str, Any]]]
WriterOf = Callable[[Request, str, str | None], Awaitable["Writer"]]

MAX_PIECE_BYTES = 14 * 1024  # a piece's section, under the server's 16 kB body limit with room for the head


class PracticeBody(LearnerBody):
    """POST /v1/practice: a piece of one learner's practice state (name and UUID checked as every route does)."""

    learner_uuid: str  # type: ignore[assignment]  # required here: practice state belongs to one known learner
    practice: dict[str, Any]


def add_routes(v1: APIRouter, store: Store, *, reader: Reader, writer: WriterOf) -> None:
    """Add the practice routes to the server's /v1 router (which checks the class code). A learner's practice is
    read and written as their history is (docs/access.md): `reader` and `writer` check who asks."""

    @v1.get("/learners/{name}/practice")
    async def due(request: Request, name: str) -> dict[str, Any]:
        found = await reader(request, name)
        if not found:
            raise HTTPException(404, f"no learner {name!r} on this server; GET /v1/learners lists them")
        return await run_in_threadpool(_due, store, found["id"])

    @v1.post("/practice")
    async def upload(request: Request, body: PracticeBody) -> JSONResponse:
        trouble = practice_rows.section_problem(body.practice)
        if trouble:
            raise HTTPException(422, f"the practice upload is damaged: {trouble}; nothing was merged")
        who = await writer(request, body.learner, str(body.learner_uuid))
        merged = await run_in_threadpool(_merge, store, who.learner_id, body)
        return JSONResponse(merged, headers=who.headers())


def _due(store: Store, learner_id: int) -> dict[str, Any]:
    from tutor.practice import Practice, progress
    from tutor.practice.practice import public_card

    practice = Practice(store)
    cards = practice.due(learner_id, limit=100)
    return {"learner": practice.learner(learner_id)[1], "count": practice.count_due(learner_id),
            "due": [public_card(c) for c in cards], "progress": progress(store, learner_id)}


def _merge(store: Store, learner: int, body: PracticeBody) -> dict[str, Any]:
    summary = practice_rows.merge_section(store, learner, body.practice)
    return {"learner": body.learner, **summary.to_dict()}


def push(store: Store, client: ClassClient, learner: str) -> dict[str, int]:
    """Send the learner's whole practice state to the class server, piece by piece; return the totals merged."""
    from tutor.store.bundle import learner_info

    info = learner_info(store, learner)
    whole = practice_rows.section(store, info["id"])
    totals = {"cards_new": 0, "cards_updated": 0, "reviews_new": 0, "pieces": 0}
    for piece in practice_bundle.chunks(whole, MAX_PIECE_BYTES):
        answer = client.call("POST", "/v1/practice", {"learner": info["name"], "learner_uuid": info["uuid"],
                                                       "practice": piece}, learner=(info["name"], info["uuid"]))[1]
        for key in ("cards_new", "cards_updated", "reviews_new"):
            totals[key] += answer[key]
        totals["pieces"] += 1
    return totals

