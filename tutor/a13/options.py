"""One candidate answer of the analyser: a §A13 cell for a written word or span, with its evidence."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.a13.words import Word
from tutor.scope import Cell


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate answer: the word(s) it corrects and the §A13 cell it fills."""

    cell: Cell
    written: str
    start: int
    end: int
    is_error: bool
    strength: int  # 2: the sentence's own words say so; 1: doubtful (maybe a noun, a time word elsewhere)
    prior: float  # log-weight from the sentence's evidence; the model adds its own score
    error_type: str
    rule: str
    existential: bool = False  # be after existential 'there': Spanish 'haber' (hay, había, habrá)
    tense_open: bool = True  # a finite verb as written whose tense the judge may still change (present <-> past)


def option(scope, verb: str, tense: str, person: str, w: Word, start: int, written: str, is_error: bool,
            strength: int, prior: float, error_type: str, rule: str) -> Option:
    return Option(scope.cell(verb, tense, person), written, start, w.end, is_error, strength, prior,
                  error_type, rule)


def span_text(words: list[Word], a: int, b: int) -> str:
    return " ".join(w.text for w in words[a: b + 1])
