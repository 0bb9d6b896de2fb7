"""Turning any exception a job raises into a sentence a learner can act on (never a traceback)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tutor.errors import InputError, ModelError, StoreError, TutorError


def describe(exc: BaseException, doing: str = "") -> str:
    """Return a one-paragraph message for `exc`; `doing` is a translated phrase ('loading the model')."""
    if isinstance(exc, ModelError):
        return QCoreApplication.translate(
            "Errors", "The model could not be loaded: {0} Open Settings to choose another model."
        ).format(_sentence(str(exc)))
    if isinstance(exc, StoreError):
        return QCoreApplication.translate("Errors", "The history database has a problem: {0}").format(
            _sentence(str(exc))
        )
    if isinstance(exc, InputError):
        return _sentence(str(exc))
    if isinstance(exc, TutorError):
        return _sentence(str(exc))
    what = doing or QCoreApplication.translate("Errors", "working")
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return QCoreApplication.translate(
        "Errors",
        "Something went wrong while {0} ({1}). Nothing was lost: try again, and if it keeps happening "
        "choose another model in Settings.",
    ).format(what, detail)


def _sentence(text: str) -> str:
    """Return text with a capital first letter and a final full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
