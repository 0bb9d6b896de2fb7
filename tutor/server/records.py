"""What the class server stores: each request's corrections under row UUIDs, exactly once.

A client may send a request UUID; the rows' UUIDs are then derived from it (uuid5), so a request
retried after a lost answer stores nothing twice; an id reused for a different request is refused.
Which learner a request writes for is tutor.server.access's business.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from tutor.errors import ConflictError, TutorError
from tutor.result import CorrectionResult, Timings
from tutor.store.records import check_results

if TYPE_CHECKING:
    from tutor.server.pool import ModelInfo
    from tutor.store import Store


def row_ids(request_id: str | None, count: int) -> list[str]:
    """Return `count` row UUIDs: derived from the request's UUID when given, else random."""
    if request_id is None:
        return [str(uuid.uuid4()) for _ in range(count)]
    base = uuid.UUID(request_id)
    return [str(uuid.uuid5(base, str(n))) for n in range(count)]


class ReusedRequest(TutorError):
    """A request UUID came back with another learner or another text: a new request reusing an old id (HTTP 409)."""


def save(store: Store, learner: int, items: list[tuple[str, CorrectionResult]], *,
         replacing_text: str | None = None) -> int:
    """Store (row UUID, result) pairs in one transaction, skipping UUIDs already there; return rows added.

    A UUID already there is a retry only when it holds the same learner's same sentence; anything else means
    the request id was reused for a different request, and ReusedRequest refuses it whole (nothing stored)
    instead of dropping the new correction silently. `replacing_text`: a text checked again replaces the
    findings of its earlier checks (Store.save_once).
    """
    try:
        return store.save_once(learner, items, replacing_text=replacing_text)
    except ConflictError:
        raise ReusedRequest("this request id was already used for a different request; send a new id "
                            "(a fresh UUID) with every new request. Nothing was stored") from None


def finding_results(checked: Any, info: ModelInfo) -> list[CorrectionResult]:
    """Return the findings of a `Tutor.check` result as the rows Store.save_check keeps, with the workers'
    model sha256 and settings."""
    return check_results(checked, model_sha256=info.sha256, settings=info.settings)


def detail(result: CorrectionResult, row_id: str) -> dict[str, Any]:
    """Return what the app's card needs besides the §A13 object (POST /v1/correct?detail=true)."""
    return {"id": row_id, "output": result.output, "out_of_scope": result.out_of_scope,
            "is_correct": result.is_correct, "confidence": result.confidence, "error_span": result.error_span,
            "error_start": result.error_start, "error_end": result.error_end,
            "explanation_en": result.explanation_en, "explanation_es": result.explanation_es,
            "timings": result.timings.to_dict(), "model_name": result.model_name,
            "model_sha256": result.model_sha256, "settings": result.settings,
            "out_of_scope_reason": result.out_of_scope_reason, "not_sure": result.not_sure, "noted": result.noted}


def from_detail(value: dict[str, Any]) -> CorrectionResult:
    """Return the CorrectionResult that detail() described (the app keeps it in its local store)."""
    return CorrectionResult(
        original=value["output"]["original"], output=value["output"], out_of_scope=value["out_of_scope"],
        is_correct=value["is_correct"], confidence=value["confidence"], error_span=value["error_span"],
        error_start=value["error_start"], error_end=value["error_end"],
        explanation_en=value["explanation_en"], explanation_es=value["explanation_es"],
        timings=Timings(**value["timings"]), model_name=value["model_name"],
        model_sha256=value["model_sha256"], settings=value["settings"],
        out_of_scope_reason=str(value.get("out_of_scope_reason") or ""),  # a server before issue 20 sends none
        not_sure=bool(value.get("not_sure")), noted=bool(value.get("noted")))  # nor before issue 31


def learners(store: Store) -> list[dict[str, Any]]:
    """Return every learner as {"name", "uuid", "created", "corrections"}, by name."""
    return [{key: row[key] for key in ("name", "uuid", "created", "corrections")} for row in store.learners()]
