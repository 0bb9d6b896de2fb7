"""Translated display names for the §A13 tense and person names (the stored values stay in English)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("Labels", text)


def tense_label(tense: str) -> str:
    """Return the display name of a §A13 tense in the UI language."""
    labels = {
        "infinitive": _tr("infinitive"),
        "present simple": _tr("present simple"),
        "past simple": _tr("past simple"),
        "past participle": _tr("past participle"),
        "simple future": _tr("simple future"),
    }
    return labels.get(tense, tense)


def person_label(person: str) -> str:
    """Return the display name of a §A13 person in the UI language."""
    labels = {
        "1st singular": _tr("1st singular (I)"),
        "2nd singular": _tr("2nd singular (you)"),
        "3rd singular": _tr("3rd singular (he, she, it)"),
    }
    return labels.get(person, person)
