"""User-facing errors of the core. Each message names the input, what was wrong and what to do."""

from __future__ import annotations


class TutorError(Exception):
    """Base class: an error whose message a person can act on (shown as-is by the CLI and the app)."""


class InputError(TutorError):
    """The learner's sentence cannot be corrected as given (empty, too long, not text)."""


class ModelError(TutorError):
    """The model file is missing, corrupt, fails its sha256 check or cannot be loaded."""


class StoreError(TutorError):
    """The SQLite store cannot be opened or written (corrupt file, read-only place, full disk)."""


class ConflictError(TutorError):
    """A UUID is already in the store for something else (a request id reused for another request)."""


class StoreUnavailable(StoreError):
    """The database cannot be reached right now (a PostgreSQL server down or restarting); trying later may work."""
