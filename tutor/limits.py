"""Limits and constants shared across the tutor, each named once here and imported where it is used."""

from __future__ import annotations

MAX_SENTENCE_CHARS = 1000  # the longest sentence `correct` takes (and an output's `original` may have)
MAX_TEXT_CHARS = 2000  # the longest text `check` takes
MAX_BODY_BYTES = 16 * 1024  # the largest request body the class server reads
MAX_UPLOAD_BYTES = MAX_BODY_BYTES - 1024  # an upload's rows: under the body limit, with room for the bundle's head
