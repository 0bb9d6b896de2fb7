"""The Analyser, the first stage: a sentence read by the registry's rules, and a slot of candidates per verb.

The registry (data/a13/rules.json, walked by tutor.a13.analysis) finds the forms of the 20 verbs and what
the sentence fixes or only suggests about each; tutor.judge.slots turns that into one slot per verb word,
"no change" always among its candidates, with the evidence as features. The tense of the text around the
sentence (the sentences before it, the rest of a text) is evidence too. The Judge ranks the candidates.
"""

from __future__ import annotations

from functools import lru_cache

from tutor.a13.analysis import Analysis, analyse, tokenize
from tutor.judge.slots import Proposal, build_slots, tense_counts


def prepare() -> None:
    """Load what the first analysis reads: spaCy's pipeline and the word tables (tutor.a13.tables); seconds,
    so `Tutor.load` runs this in a thread beside the model's load."""
    from tutor.a13.syntax import pipeline
    from tutor.a13.tables import tables

    pipeline()
    tables()


@lru_cache(maxsize=2048)
def analysed(sentence: str) -> Analysis:
    """Return `analyse(sentence)`, kept for the sentences read last: a re-check while typing reads every
    sentence of the text again, and most are unchanged (the parse was half of a re-check's time).

    An analysis depends on the sentence alone (and the registry's data, read once), and nothing changes
    it after it is made, so one object serves every caller and thread.
    """
    return analyse(sentence)


class Analyser:
    """Reads sentences with the registry; holds no state of its own (its analyses are kept by sentence,
    `analysed`), so one serves every thread."""

    def analyse(self, sentence: str) -> Analysis:
        """Return the registry's analysis of one sentence."""
        return analysed(sentence)

    def tenses(self, text: str) -> tuple[int, int]:
        """Return the (past, present) finite forms in `text` (a narrative's tense, as evidence)."""
        return tense_counts(tokenize(text)) if text else (0, 0)

    def propose(self, sentence: str, analysis: Analysis | None = None, *, tense_text: str = "",
                text_tenses: tuple[int, int] = (0, 0)) -> Proposal:
        """Return the slots of one sentence (analysed here unless `analysis` is given).

        `tense_text` is the text just before the sentence, whose verbs' tenses are evidence for the
        sentence's; `text_tenses` the (past, present) finite forms in the rest of a text, on both sides.
        """
        analysis = analysis if analysis is not None else analysed(sentence)
        if analysis.abstain:
            return Proposal(sentence, analysis)
        return Proposal(sentence, analysis, build_slots(analysis, self.tenses(tense_text), text_tenses))
