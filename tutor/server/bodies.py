"""The fields every class-server request that names a learner carries, checked once for every route.

A learner name must be one the store would take (tutor.store.names.clean_name: visible characters, at most 60)
and a UUID a real UUID, written canonically, so that no route creates a learner another route would refuse.
"""

from __future__ import annotations

from pydantic import BaseModel, field_validator

from tutor.errors import StoreError
from tutor.store.bundle_rows import canonical_uuid
from tutor.store.names import clean_name


def checked_name(value: str) -> str:
    """Return the learner name as the store keeps it; ValueError (422) when the store would refuse it."""
    try:
        return clean_name(value)
    except StoreError as exc:
        raise ValueError(str(exc)) from None


def checked_uuid(value: str | None) -> str | None:
    """Return the UUID in canonical form (None stays None); ValueError (422) when it is not a UUID."""
    if value is None:
        return None
    found = canonical_uuid(value)
    if found is None:
        raise ValueError(f"{value[:60]!r} is not a UUID")
    return found


class LearnerBody(BaseModel):
    """A request body naming a learner (and, from the app, their UUID)."""

    learner: str
    learner_uuid: str | None = None  # the app sends its learner's UUID, so learners match across machines

    @field_validator("learner")
    @classmethod
    def _name(cls, value: str) -> str:
        return checked_name(value)  # refused here (422), before the model runs, as the store would refuse it

    @field_validator("learner_uuid")
    @classmethod
    def _uuid(cls, value: str | None) -> str | None:
        return checked_uuid(value)
