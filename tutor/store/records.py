"""Rows in and out: a CorrectionResult as a `corrections` row, and a row as the dict the queries return."""

from __future__ import annotations

import sys
import uuid
from array import array
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from tutor.output_contract import reported_confidence
from tutor.record import BY_NAME, FIELDS, HISTORY_KEYS, STORED_COLUMNS, Field
from tutor.result import CorrectionResult, Timings

Learner = str | int  # a learner's name or id

# Fixed width, so text order is time order and range filters can use the index.
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"

# Columns returned by the history queries, in display/export order (the record's fields).
HISTORY_COLUMNS: tuple[str, ...] = HISTORY_KEYS
# Columns correction_row() fills (everything but the rowid `seq`).
CORRECTION_COLUMNS: tuple[str, ...] = STORED_COLUMNS


def utc_stamp(moment: datetime | None = None) -> str:
    """Return `moment` (default: now) as the store's UTC timestamp text; a naive datetime counts as UTC."""
    if moment is None:
        moment = datetime.now(UTC)
    elif moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime(TIMESTAMP_FORMAT)


def bound(value: datetime | date | str, *, upper: bool) -> str:
    """Return a date-range bound as timestamp text; an upper `date` includes that whole day."""
    if isinstance(value, datetime):
        return utc_stamp(value)
    if isinstance(value, date):
        day = value + timedelta(days=1) if upper else value
        return utc_stamp(datetime.combine(day, time.min, tzinfo=UTC))
    text = value.strip()
    try:
        parsed_date = date.fromisoformat(text)
    except ValueError:
        pass
    else:
        return bound(parsed_date, upper=upper)
    try:
        return utc_stamp(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        raise ValueError(
            f"date {value!r} is not ISO 8601; write it like 2025-03-01 or 2025-03-01T14:30"
        ) from None


def correction_row(
    result: CorrectionResult,
    *,
    learner_id: int,
    model_name: str | None,
    model_sha256: str | None,
    settings: dict[str, Any] | None,
    created: datetime | None = None,
) -> dict[str, Any]:
    """Return the `corrections` row for one result (a new UUID in `id`)."""
    row = {f.stored_as: f.to_column(_value(f, result)) for f in FIELDS if f.source in ("result", "output", "timings")}
    row["id"] = str(uuid.uuid4())
    row["learner_id"] = learner_id
    row["created"] = utc_stamp(created)
    row["is_correct"] = int(bool(result.is_correct) and not result.noted)  # a noted error is never "correct"
    row["model_name"] = model_name if model_name is not None else result.model_name
    row["model_sha256"] = model_sha256 if model_sha256 is not None else result.model_sha256
    if settings is not None:
        row["settings"] = BY_NAME["settings"].to_column(settings)
    return row


def _value(f: Field, result: CorrectionResult) -> Any:
    """Return the value a new row takes for `f` from the result, its §A13 output or its timings."""
    if f.source == "output":
        return result.output.get(f.name)
    return getattr(result.timings if f.source == "timings" else result, f.name)


def check_results(check: Any, *, model_sha256: str = "", settings: dict[str, Any] | None = None
                  ) -> list[CorrectionResult]:
    """Return each finding of a text check (tutor.text.check.CheckResult) as the correction row kept for it:
    kind 'check', the whole text as `source_text`, `not_sure` below the threshold, the time shared out."""
    per = check.total_ms / max(len(check.findings), 1)
    rows = []
    for f in check.findings:
        output = {"original": f.original, "verb": f.verb, "tense": f.tense, "person": f.person,
                  "correct_form": f.correct_form, "spanish": f.spanish, "confidence": reported_confidence(f.confidence)}
        rows.append(CorrectionResult(
            original=f.original, output=output, out_of_scope=False, is_correct=False, confidence=f.confidence,
            error_span=f.written, error_start=f.start, error_end=f.end, explanation_en=f.explanation_en,
            explanation_es=f.explanation_es, timings=Timings(total_ms=per), model_name=check.model_name,
            model_sha256=model_sha256, settings=dict(settings or {}), kind="check", source_text=check.text,
            not_sure=not f.sure))
    return rows


def pack_us(values: tuple[float, ...] | list[float]) -> bytes:
    """Return per-token mask timings as a compact float32 little-endian blob."""
    arr = array("f", values)
    if sys.byteorder != "little":
        arr.byteswap()
    return arr.tobytes()


def unpack_us(blob: bytes) -> list[float]:
    """Return the per-token mask timings stored by pack_us()."""
    arr = array("f")
    arr.frombytes(blob)
    if sys.byteorder != "little":
        arr.byteswap()
    return arr.tolist()


def history_row(row: dict[str, Any]) -> dict[str, Any]:
    """Return a query row as the public history dict: flags as bools, settings and output parsed.

    The query joins the learner's name in as `learner` (the table keeps their id)."""
    return {f.name: f.from_column(row.get(f.name if f.source == "learner" else f.stored_as)) for f in FIELDS}
