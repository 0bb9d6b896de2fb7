"""Limits and constants shared across the tutor, each named once here and imported where it is used."""

from __future__ import annotations

MAX_TEXT_CHARS = 2000  # the longest text `check` takes (a sentence is at most 1,000 characters)
