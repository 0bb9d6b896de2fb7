"""Learner names: what is kept of a typed name, and the key two spellings of one name share.

A name is stored in NFC with control characters, bidi overrides and zero-width characters removed
and runs of whitespace collapsed, at most MAX_NAME_LENGTH characters. Names match by `name_key`:
NFC plus full Unicode case folding, so "ÁNGEL" finds "ángel" and "Straße" finds "STRASSE".
"""

from __future__ import annotations

import unicodedata

from tutor.errors import StoreError

MAX_NAME_LENGTH = 60
# Cc: control characters (ESC, newlines, …); Cf: format characters (U+202E and the other bidi
# controls, zero-width space / joiners, the BOM); Cs: lone surrogates (bad bytes from argv).
_DROPPED = frozenset({"Cc", "Cf", "Cs"})


def visible_text(text: str) -> str:
    """Return `text` in NFC without control, format (bidi, zero-width) or surrogate characters.

    Whitespace controls (tab, newline, …) become spaces; runs of whitespace collapse to one space.
    """
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        if unicodedata.category(ch) in _DROPPED:
            if ch.isspace():
                kept.append(" ")
            continue
        kept.append(ch)
    return " ".join("".join(kept).split())


def clean_name(name: str) -> str:
    """Return the name as it is stored; StoreError if nothing visible is left or it is too long."""
    if not isinstance(name, str):
        raise StoreError(f"a learner name must be text, not {type(name).__name__}")
    clean = visible_text(name)
    if not clean:
        raise StoreError("a learner needs a name with at least one visible character; give one with --learner NAME")
    if len(clean) > MAX_NAME_LENGTH:
        raise StoreError(
            f"the learner name {clean[:20]!r}… has {len(clean)} characters; use at most {MAX_NAME_LENGTH}"
        )
    return clean


def name_key(name: str) -> str:
    """Return the key names are matched by: the visible text, case-folded, in NFC."""
    return unicodedata.normalize("NFC", visible_text(name).casefold())
