"""What the class server stores: each request's corrections under row UUIDs, exactly once.

A client may send a request UUID; the rows' UUIDs are then derived from it (uuid5), so a request
retried after a lost answer stores nothing twice; an id reused for a different request is refused.
Which learner a request writes for is tutor.server.access's business.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from tutor.errors import ConflictError, TutorError
from tutor.record import FIELDS
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


# What a correction carries in a detail answer besides the timings: the record's fields the result holds.
_CARRIED: tuple[str, ...] = tuple(f.name for f in FIELDS if f.source == "result")


def detail(result: CorrectionResult, row_id: str) -> dict[str, Any]:
    """Return what the app's card needs besides the §A13 object (POST /v1/correct?detail=true)."""
    return {"id": row_id, **{name: getattr(result, name) for name in _CARRIED},
            "timings": result.timings.to_dict(), "out_of_scope_reason": result.out_of_scope_reason}


def from_detail(value: dict[str, Any]) -> CorrectionResult:
    """Return the CorrectionResult that detail() described (the app keeps it in its local store); a field an
    older server does not send keeps the result's default."""
    known = {name: value[name] for name in _CARRIED if name in value}
    known["original"] = value["output"]["original"]
    return CorrectionResult(**known, timings=Timings(**value["timings"]),
                            out_of_scope_reason=str(value.get("out_of_scope_reason") or ""))


def learners(store: Store) -> list[dict[str, Any]]:
    """Return every learner as {"name", "uuid", "created", "corrections"}, by name."""
    return [{key: row[key] for key in ("name", "uuid", "created", "corrections")} for row in store.learners()]
