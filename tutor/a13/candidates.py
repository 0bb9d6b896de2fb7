"""Turn the analyser's options into the answer set the model chooses from."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.a13.analysis import Analysis, Option
from tutor.scope import load_scope


@dataclass(frozen=True, slots=True)
class Answer:
    """One complete answer the decoder may produce: an option and one accepted Spanish form."""

    option: Option
    spanish: str
    prior: float

    def fields(self, private: bool = True) -> dict[str, str]:
        """Return the answer's fields in output order (with the private 'written' first)."""
        cell = self.option.cell
        out = {"written": self.option.written} if private else {}
        out.update(verb=cell.verb, tense=cell.tense, person=cell.person, correct_form=cell.correct_form,
                   spanish=self.spanish)
        return out


def select_options(analysis: Analysis, *, use_facts: bool = True) -> list[Option]:
    """Return the options the model may choose between.

    Words the sentence marks as wrong for sure come first; then doubtful ones (a noun-like word);
    a sentence with no wrong verb keeps its verbs as written.
    """
    options = analysis.options
    if not options or not use_facts:
        return all_cell_options(analysis)
    for strength in (2, 1):
        wrong_words = {o.start for o in options if o.is_error and o.strength >= strength}
        if wrong_words:
            chosen = [o for o in options if o.start in wrong_words and o.is_error]
            if strength == 1:
                chosen += [o for o in options if not o.is_error]
            return chosen
    return [o for o in options if not o.is_error]


def answers_for(options: list[Option], *, spanish_choice: bool = True) -> list[Answer]:
    """Expand options into answers, one per accepted Spanish form (canonical first)."""
    out: list[Answer] = []
    for o in options:
        forms = o.cell.spanish if spanish_choice else o.cell.spanish[:1]
        for k, sp in enumerate(forms):
            out.append(Answer(o, sp, o.prior - (0.0 if k == 0 else 0.5)))
    return out


def all_cell_options(analysis: Analysis) -> list[Option]:
    """Return every cell of every verb word in the sentence: the model alone decides (no facts)."""
    scope = load_scope()
    out: list[Option] = []
    for word, readings in analysis.verb_words:
        for verb in dict.fromkeys(r.verb for r in readings):
            for (v, _t, _p), cell in scope.cells.items():
                if v == verb:
                    wrong = word.norm not in {f.lower() for f in cell.english}
                    out.append(Option(cell, word.text, word.start, word.end, wrong, 0, 0.0,
                                      "unknown", "model only"))
    return out
