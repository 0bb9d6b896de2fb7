"""Rows in and out: a CorrectionResult as a `corrections` row, and a row as the dict the queries return."""

from __future__ import annotations

import json
import sys
import uuid
from array import array
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from tutor.result import CorrectionResult, Timings

Learner = str | int  # a learner's name or id

# Fixed width, so text order is time order and range filters can use the index.
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"

# Columns returned by the history queries, in display/export order.
HISTORY_COLUMNS: tuple[str, ...] = (
    "id",
    "learner",
    "created",
    "original",
    "verb",
    "tense",
    "person",
    "correct_form",
    "spanish",
    "out_of_scope",
    "is_correct",
    "confidence",
    "error_span",
    "error_start",
    "error_end",
    "explanation_en",
    "explanation_es",
    "model_name",
    "model_sha256",
    "settings",
    "prompt_ms",
    "forward_ms",
    "mask_p50_us",
    "mask_p99_us",
    "mask_max_us",
    "tokens_sampled",
    "tokens_forced",
    "total_ms",
    "kind",
    "source_text",
    "not_sure",
    "noted",
    "output",
)
_BOOLS = ("out_of_scope", "is_correct", "not_sure", "noted")
# Columns correction_row() fills (everything but the rowid `seq`).
CORRECTION_COLUMNS: tuple[str, ...] = (
    "id", "learner_id", "created", "original", "verb", "tense", "person", "correct_form", "spanish",
    "out_of_scope", "is_correct", "confidence", "error_span", "error_start", "error_end",
    "explanation_en", "explanation_es", "model_name", "model_sha256", "settings", "output_json",
    "prompt_ms", "forward_ms", "mask_p50_us", "mask_p99_us", "mask_max_us", "tokens_sampled",
    "tokens_forced", "total_ms", "kind", "source_text", "not_sure", "noted",
)


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
    out = result.output
    timings = result.timings
    return {
        "id": str(uuid.uuid4()),
        "learner_id": learner_id,
        "created": utc_stamp(created),
        "original": result.original,
        "verb": out.get("verb"),
        "tense": out.get("tense"),
        "person": out.get("person"),
        "correct_form": out.get("correct_form"),
        "spanish": out.get("spanish"),
        "out_of_scope": int(bool(result.out_of_scope)),
        "is_correct": int(bool(result.is_correct) and not result.noted),  # a noted error is never "correct"
        "confidence": float(result.confidence),
        "error_span": result.error_span,
        "error_start": result.error_start,
        "error_end": result.error_end,
        "explanation_en": result.explanation_en,
        "explanation_es": result.explanation_es,
        "model_name": model_name if model_name is not None else result.model_name,
        "model_sha256": model_sha256 if model_sha256 is not None else result.model_sha256,
        "settings": json.dumps(settings if settings is not None else result.settings, sort_keys=True),
        "output_json": json.dumps(out, ensure_ascii=False),
        "prompt_ms": timings.prompt_ms,
        "forward_ms": timings.forward_ms,
        "mask_p50_us": timings.mask_p50_us,
        "mask_p99_us": timings.mask_p99_us,
        "mask_max_us": timings.mask_max_us,
        "tokens_sampled": timings.tokens_sampled,
        "tokens_forced": timings.tokens_forced,
        "total_ms": timings.total_ms,
        "kind": result.kind,
        "source_text": result.source_text,
        "not_sure": int(bool(result.not_sure)),
        "noted": int(bool(result.noted)),
    }


def check_results(check: Any, *, model_sha256: str = "", settings: dict[str, Any] | None = None
                  ) -> list[CorrectionResult]:
    """Return each finding of a text check (tutor.text.check.CheckResult) as the correction row kept for it:
    kind 'check', the whole text as `source_text`, `not_sure` below the threshold, the time shared out."""
    per = check.total_ms / max(len(check.findings), 1)
    rows = []
    for f in check.findings:
        output = {"original": f.original, "verb": f.verb, "tense": f.tense, "person": f.person,
                  "correct_form": f.correct_form, "spanish": f.spanish, "confidence": round(f.confidence, 4)}
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
    """Return a query row as the public history dict: flags as bools, settings and output parsed."""
    out = {key: row.get(key) for key in HISTORY_COLUMNS if key != "output"}
    for key in _BOOLS:
        out[key] = bool(out[key])
    out["settings"] = json.loads(row["settings"]) if row.get("settings") else {}
    out["output"] = json.loads(row["output_json"])
    return out
