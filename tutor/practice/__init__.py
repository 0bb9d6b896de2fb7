"""Practise your own mistakes: cards from the learner's saved errors, scheduled by FSRS, and progress over time.

    from tutor.practice import Practice, progress
    practice = Practice(store)
    practice.due("Ana")                      # the due cards, built from Ana's mistakes
    practice.answer("Ana", card_id, "went")  # graded against the §A13 table, rescheduled
    progress(store, "Ana")                   # errors per 100 words by week, by cell and error type, mastered
"""

from tutor.practice.cards import Card, cards_for
from tutor.practice.error_types import ErrorType, error_type
from tutor.practice.practice import Practice
from tutor.practice.progress import progress

__all__ = ["Card", "ErrorType", "Practice", "cards_for", "error_type", "progress"]
