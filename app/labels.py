"""Translated display names for the §A13 tense and person names (the stored values stay in English)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def tense_label(tense: str) -> str:
    """Return the display name of a §A13 tense in the UI language."""
    labels = {
        "infinitive": QCoreApplication.translate("Labels", "infinitive"),
        "present simple": QCoreApplication.translate("Labels", "present simple"),
        "past simple": QCoreApplication.translate("Labels", "past simple"),
        "past participle": QCoreApplication.translate("Labels", "past participle"),
        "simple future": QCoreApplication.translate("Labels", "simple future"),
    }
    return labels.get(tense, tense)


def person_label(person: str) -> str:
    """Return the display name of a §A13 person in the UI language."""
    labels = {
        "1st singular": QCoreApplication.translate("Labels", "1st singular (I)"),
        "2nd singular": QCoreApplication.translate("Labels", "2nd singular (you)"),
        "3rd singular": QCoreApplication.translate("Labels", "3rd singular (he, she, it)"),
    }
    return labels.get(person, person)
