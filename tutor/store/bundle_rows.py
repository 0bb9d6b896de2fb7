"""What a bundle may carry, row by row: the store's column types and the §A13 table, checked before anything
is written. A bundle is a file from another machine; its sha256 shows it was not damaged in transit, not
that its rows are sane, so every row is checked here the way the store and the statistics read it.

A row is refused (the whole bundle with it) when a column has the wrong type or range (`mask_p50_us:
"slow"`), a date is not a real UTC time or lies in the future (`9999-99-99…`), the §A13 fields are not a
cell of the table with one of its forms (`verb: "dranked"`, `correct_form: "HACKED"`), the output object
disagrees with the row's columns, or an error span falls outside its text.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, field_validator, model_validator

from tutor.errors import StoreError
from tutor.output_contract import OutputError, validate_output
from tutor.record import BUNDLE_KEYS, FIELDS, MAX_LABEL, REQUIRED
from tutor.record import Field as RecordField
from tutor.scope import load_scope
from tutor.store.names import clean_name
from tutor.store.records import TIMESTAMP_FORMAT

MAX_SETTINGS = 64  # keys in a row's decoder settings
FUTURE_SLACK = timedelta(days=1)  # clocks on learners' laptops may be a little ahead
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
_SHA256 = re.compile(r"^([0-9a-f]{64})?$")

_A13_KEYS = tuple(f.name for f in FIELDS if f.source == "output")  # the columns that repeat the §A13 object
SQLITE_MAX_INT = 2**63 - 1  # the largest integer SQLite keeps; a larger one would end the import in an OverflowError


class BundleRowError(ValueError):
    """A bundle's learner or row breaks the store's schema or the §A13 table; the message names the field."""


def canonical_uuid(value: Any) -> str | None:
    """Return a UUID written in any case as the store writes it (lower case, hyphens), or None if it is not one."""
    if not isinstance(value, str) or len(value) != 36:
        return None
    try:
        parsed = uuid.UUID(value)
    except ValueError:
        return None
    text = str(parsed)
    return text if text == value.lower() else None


def check_stamp(value: Any, what: str) -> str:
    """Return a store timestamp that is a real UTC time, not later than tomorrow; BundleRowError otherwise."""
    if not isinstance(value, str) or not _STAMP.match(value):
        raise BundleRowError(f"{what} {value!r} is not in the store's UTC format (2025-03-01T09:00:00.000000Z)")
    try:
        moment = datetime.strptime(value, TIMESTAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise BundleRowError(f"{what} {value!r} is not a real date and time") from None
    if moment > datetime.now(UTC) + FUTURE_SLACK:
        raise BundleRowError(f"{what} {value!r} lies in the future")
    return value


class _Checks(BaseModel):
    """What a bundle row must be beyond each field's type and limits (its fields come from tutor.record)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    @field_validator("id", check_fields=False)
    @classmethod
    def _row_uuid(cls, value: str) -> str:
        found = canonical_uuid(value)
        if found is None:
            raise ValueError(f"{value[:60]!r} is not a UUID")
        return found

    @field_validator("created", check_fields=False)
    @classmethod
    def _created(cls, value: str) -> str:
        return check_stamp(value, "the time")

    @field_validator("model_sha256", check_fields=False)
    @classmethod
    def _sha(cls, value: str | None) -> str | None:
        if value is not None and not _SHA256.match(value):
            raise ValueError("is not a sha256 (64 lower-case hex digits) or empty")
        return value

    @field_validator("settings", check_fields=False)
    @classmethod
    def _settings(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > MAX_SETTINGS:
            raise ValueError(f"has {len(value)} keys (at most {MAX_SETTINGS})")
        for key, item in value.items():
            if isinstance(item, int) and not -SQLITE_MAX_INT - 1 <= item <= SQLITE_MAX_INT:
                raise ValueError(f"{key[:40]!r} is a number beyond what the store keeps")
            if len(key) > MAX_LABEL or not (item is None or isinstance(item, bool | int | float)
                                             or (isinstance(item, str) and len(item) <= MAX_LABEL)):
                raise ValueError(f"{key[:40]!r} is not a plain setting (a short text, number, true/false or null)")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Any:
        """The output object is a §A13 answer for this sentence, and the columns say the same as it does."""
        try:
            validate_output(self.output)
        except OutputError as exc:
            raise ValueError(f"its output is not a §A13 answer ({exc})") from None
        if self.output["original"] != self.original:
            raise ValueError("its output's original is not the row's sentence")
        fields = tuple(getattr(self, key) for key in _A13_KEYS)
        if self.out_of_scope:
            if self.output.get("out_of_scope") is not True or any(f is not None for f in fields):
                raise ValueError("it is out of scope but carries §A13 fields")
        else:
            if self.output.get("out_of_scope") or tuple(self.output.get(k) for k in _A13_KEYS) != fields:
                raise ValueError("its verb, tense, person, correct_form or spanish differ from its output")
            cell = load_scope().cells.get((self.verb, self.tense, self.person))
            if cell is None or self.correct_form not in cell.english or self.spanish not in cell.spanish:
                raise ValueError(f"{self.verb!r}, {self.tense!r}, {self.person!r} → {self.correct_form!r} / "
                                 f"{self.spanish!r} is not a cell of the §A13 table with one of its forms")
        text = self.source_text if self.kind == "check" and self.source_text is not None else self.original
        start, end = self.error_start, self.error_end
        if (start is None) != (end is None) or (start is not None and not start <= end <= len(text)):
            raise ValueError(f"its error span {start}..{end} is not inside its text of {len(text)} characters")
        return self


def _field(f: RecordField) -> Any:
    """Return (type, pydantic Field) for one record field in a bundle row."""
    if f.default is REQUIRED:
        return f.annotation(), Field(**f.limits)
    return f.annotation(), Field(default=f.default, **f.limits)


# One bundle row as the store keeps it (strict types: no "slow" for a number, no 1 for true).
_Row = create_model("_Row", __base__=_Checks, **{f.name: _field(f) for f in FIELDS if f.bundled})


def check_row(row: Any) -> dict[str, Any]:
    """Return the row with its UUID in the store's spelling and its numbers as the store keeps them;
    BundleRowError naming the first field that is wrong."""
    if not isinstance(row, dict):
        raise BundleRowError("is not an object")
    unknown = [str(key)[:40] for key in row if key not in BUNDLE_KEYS]
    if unknown:
        raise BundleRowError(f"{unknown[0]!r} is not a field of a correction this grammar-tutor knows (a newer "
                             "grammar-tutor wrote the file, or it was changed by hand); update grammar-tutor")
    try:
        checked = _Row.model_validate(row)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        raise BundleRowError(f"{where}: {message}" if where else message) from None
    return checked.model_dump()


def check_learner(head: Any) -> dict[str, Any]:
    """Return the bundle's learner {"uuid", "name", "created"} cleaned as if made here; BundleRowError otherwise."""
    if not isinstance(head, dict):
        raise BundleRowError("the learner is not an object")
    found = canonical_uuid(head.get("uuid"))
    if found is None:
        raise BundleRowError("the learner has no valid UUID")
    if not isinstance(head.get("name"), str):
        raise BundleRowError("the learner has no name")
    try:
        name = clean_name(head["name"])
    except StoreError as exc:  # nothing visible, or too long
        raise BundleRowError(f"the learner's name is not usable ({exc})") from None
    created = head.get("created")
    if created is not None:
        created = check_stamp(created, "the learner's creation time")
    return {"uuid": found, "name": name, "created": created}
