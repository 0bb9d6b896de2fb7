"""Turning any exception a job raises into a sentence a learner can act on (never a traceback)."""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

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
        return _input_message(str(exc))
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


# The core's refusals of unusable input (tutor.api.check_sentence / check_text): the pattern of its English
# message, then what to show for a sentence and for a text ({0}, {1}: the pattern's groups).
_INPUT_MESSAGES = [
    (r"the (?:sentence|text) is empty: .*",
     QT_TRANSLATE_NOOP("Errors", "The sentence is empty: type one English sentence to correct."),
     QT_TRANSLATE_NOOP("Errors", "The text is empty: type or paste some English to check.")),
    (r"the (?:sentence|text) has no words: .*",
     QT_TRANSLATE_NOOP("Errors", "The sentence has no words: type one English sentence to correct."),
     QT_TRANSLATE_NOOP("Errors", "The text has no words: type or paste some English to check.")),
    (r"the sentence is ([\d,]+) characters long; the tutor corrects one sentence of at most ([\d,]+) characters\..*",
     QT_TRANSLATE_NOOP("Errors", "The sentence is {0} characters long; the tutor corrects one sentence of at most "
                                 "{1} characters. Shorten it or split it into several sentences."), None),
    (r"the text is ([\d,]+) characters long; the checker takes up to ([\d,]+) characters.*", None,
     QT_TRANSLATE_NOOP("Errors", "The text is {0} characters long; the checker takes up to {1} characters at a "
                                 "time. Split it into parts and check each one: nothing was cut.")),
    (r"the (?:sentence|text) contains a control or unassigned character \((U\+[0-9A-F]+)\);.*",
     QT_TRANSLATE_NOOP("Errors", "The sentence contains a control or unassigned character ({0}); remove it and "
                                 "try again."),
     QT_TRANSLATE_NOOP("Errors", "The text contains a control or unassigned character ({0}); remove it and try "
                                 "again.")),
    (r"the (?:sentence|text) contains an invisible character \((U\+[0-9A-F]+), [^)]*\) at position (\d+);.*",
     QT_TRANSLATE_NOOP("Errors", "The sentence contains an invisible character ({0}) at position {1}; it can hide "
                                 "or reorder letters. Remove it (retype the word) and try again."),
     QT_TRANSLATE_NOOP("Errors", "The text contains an invisible character ({0}) at position {1}; it can hide or "
                                 "reorder letters. Remove it (retype the word) and try again.")),
]


def _input_message(message: str) -> str:
    """Return the core's message about unusable input in the interface's language; a message the table does not
    know is shown as the core wrote it."""
    for pattern, for_sentence, for_text in _INPUT_MESSAGES:
        m = re.fullmatch(pattern, message, flags=re.S)
        template = for_sentence if message.startswith("the sentence") else for_text
        if m and template:
            return QCoreApplication.translate("Errors", template).format(*m.groups())
    return _sentence(message)
