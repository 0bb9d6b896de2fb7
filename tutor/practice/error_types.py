"""The §A13 §6 error type of a stored correction, read from its cell and the words the learner wrote.

The store keeps each correction's cell and written span but not the analyser's error type (rows from
older versions, imports and the class server have none), so the type is derived again here from the
§A13 table and the lexicon of right and wrong forms, with §6's precedence.
"""

from __future__ import annotations

from enum import StrEnum

from tutor.a13.lexicon import lexicon
from tutor.scoring import norm


class ErrorType(StrEnum):
    """The error types of §A13 §6 that a correction (an error, in scope) can have."""

    OVERREGULARISED_PAST = "overregularised_past"
    MISSING_3SG_S = "missing_3sg_s"
    WRONG_3SG = "wrong_3sg"
    WRONG_BE = "wrong_be"
    WRONG_HAVE = "wrong_have"
    WRONG_PARTICIPLE = "wrong_participle"
    WRONG_FUTURE = "wrong_future"
    INFINITIVE_FORM = "infinitive_form"
    BASE_FOR_PAST = "base_for_past"
    WRONG_TENSE = "wrong_tense"
    WRONG_INFLECTION = "wrong_inflection"


_HAVE = {"have", "has", "had", "'ve", "'s", "'d", "haven't", "hasn't"}
_AUXILIARIES = _HAVE | {"will", "'ll", "won't", "to", "for", "shall"}


def error_type(verb: str, tense: str, person: str, written: str | None) -> ErrorType:
    """Return the §A13 §6 error type of a correction to (verb, tense, person) of what the learner wrote."""
    words = norm(written or "").replace("’", "'").split()
    last = words[-1] if words else ""
    readings = [r for r in lexicon().get(last, ()) if r.verb == verb]
    kinds = {r.kind for r in readings}
    if last and not lexicon().get(last) and last not in _AUXILIARIES:
        return ErrorType.WRONG_INFLECTION  # finised, wached, wirte: not a form of any of the 20
    if tense == "past participle":
        return ErrorType.WRONG_PARTICIPLE
    if tense == "simple future":
        return ErrorType.WRONG_FUTURE
    if tense == "infinitive":
        return ErrorType.INFINITIVE_FORM
    if verb == "be":
        return ErrorType.WRONG_BE
    if tense == "present simple":
        if verb == "have":
            return ErrorType.WRONG_HAVE
        if "bad_3sg" in kinds or person != "3rd singular":
            return ErrorType.WRONG_3SG
        return ErrorType.MISSING_3SG_S
    # past simple
    if len(words) > 1 and words[0] in _HAVE:
        return ErrorType.WRONG_TENSE  # have seen ... ago
    if "bad_past" in kinds:
        return ErrorType.OVERREGULARISED_PAST
    return ErrorType.BASE_FOR_PAST
