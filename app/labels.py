"""Translated display names for the §A13 tense, person and error-type names (the stored values stay in English)."""

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


def error_type_label(name: str) -> str:
    """Return the display name of a §A13 §6 error type in the UI language."""
    labels = {
        "base_for_past": QCoreApplication.translate("ErrorTypes", "base form for the past"),
        "overregularised_past": QCoreApplication.translate("ErrorTypes", "-ed on an irregular past"),
        "missing_3sg_s": QCoreApplication.translate("ErrorTypes", "missing -s (he, she, it)"),
        "wrong_3sg": QCoreApplication.translate("ErrorTypes", "wrong -s form"),
        "wrong_be": QCoreApplication.translate("ErrorTypes", "wrong form of be"),
        "wrong_have": QCoreApplication.translate("ErrorTypes", "have / has"),
        "wrong_participle": QCoreApplication.translate("ErrorTypes", "wrong participle"),
        "wrong_future": QCoreApplication.translate("ErrorTypes", "wrong future"),
        "infinitive_form": QCoreApplication.translate("ErrorTypes", "infinitive needed"),
        "wrong_tense": QCoreApplication.translate("ErrorTypes", "present perfect with a past time"),
        "wrong_inflection": QCoreApplication.translate("ErrorTypes", "misspelled form"),
    }
    return labels.get(name, name)


def week_label(monday: str) -> str:
    """Return a chart's label for the week that starts on `monday` (an ISO date): its day and month in the UI
    language ("30 Nov", "30 nov"), so a learner reads a date, not a bare "11-30" that looks like a day's."""
    from PySide6.QtCore import QDate, QLocale

    date = QDate.fromString(str(monday)[:10], "yyyy-MM-dd")
    return QLocale().toString(date, "d MMM").rstrip(".") if date.isValid() else str(monday)


def licence_label(model) -> str:
    """Return a model's licence line in the UI language (the catalogue's Spanish line when there is one)."""
    from app.translation import ui_is_spanish

    return (getattr(model, "licence_es", "") if ui_is_spanish() else "") or model.licence
