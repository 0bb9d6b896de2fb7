"""The output contract: a pydantic model of the §A13 object, and a check by jsonschema and pydantic.

Every output the tutor returns passes `validate_output`; an error names the field that is wrong.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tutor.limits import MAX_SENTENCE_CHARS
from tutor.resources import grammar_path
from tutor.scope import load_scope

MAX_CONFIDENCE = 0.9999  # the highest confidence an output reports: a probability, never 1 by rounding


def reported_confidence(probability: float) -> float:
    """Return a probability as an output's `confidence`: four decimals, at most MAX_CONFIDENCE."""
    return min(round(probability, 4), MAX_CONFIDENCE)


class OutputError(ValueError):
    """An output object breaks the §A13 contract; the message names the field."""


class Correction(BaseModel):
    """One §A13 correction (the six keys, in order; `confidence` is an extra the tutor adds)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    original: str = Field(min_length=1, max_length=MAX_SENTENCE_CHARS)
    verb: str
    tense: str
    person: str
    correct_form: str = Field(min_length=1, max_length=30)
    spanish: str = Field(min_length=1, max_length=30)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)

    @field_validator("verb")
    @classmethod
    def _verb_in_scope(cls, value: str) -> str:
        if value not in load_scope().verbs:
            raise ValueError(f"{value!r} is not one of the 20 §A13 verbs")
        return value

    @field_validator("tense")
    @classmethod
    def _tense_in_scope(cls, value: str) -> str:
        if value not in load_scope().tenses:
            raise ValueError(f"{value!r} is not one of the 5 §A13 tense names")
        return value

    @field_validator("person")
    @classmethod
    def _person_in_scope(cls, value: str) -> str:
        if value not in load_scope().persons:
            raise ValueError(f"{value!r} is not one of the 3 §A13 person names")
        return value


class Abstention(BaseModel):
    """The out-of-scope object: the sentence and `out_of_scope: true`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    original: str = Field(max_length=MAX_SENTENCE_CHARS)
    out_of_scope: Literal[True]


@cache
def _validator(name: str):
    import jsonschema

    schema = json.loads(grammar_path(name).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def validate_output(obj: dict[str, Any]) -> Correction | Abstention:
    """Return the output as a pydantic model, or raise OutputError naming the wrong field."""
    if not isinstance(obj, dict):
        raise OutputError(f"the output must be a JSON object, not {type(obj).__name__}")
    abstains = obj.get("out_of_scope") is True
    body = {k: v for k, v in obj.items() if k != "confidence"}
    schema = "a13-abstain.schema.json" if abstains else "a13.schema.json"
    errors = sorted(_validator(schema).iter_errors(body), key=lambda e: list(e.path))
    if errors:
        first = errors[0]
        field = "/".join(str(p) for p in first.path) or (
            first.message.split("'")[1] if "'" in first.message else "(object)")
        raise OutputError(f"field '{field}': {first.message}")
    try:
        return Abstention.model_validate(body) if abstains else Correction.model_validate(obj)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(object)"
        raise OutputError(f"field '{field}': {err['msg']}") from None
