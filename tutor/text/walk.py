"""A text judged sentence by sentence, in order, as `Tutor.check` and `judge-fit` both read it.

The model reads each sentence after the one before it (or, with `Settings.lm_context`, after the
paragraph or the whole text so far: each sentence is then read once, an experiment for speed whose
scores the judge's weights were not fitted on). It reads that sentence *as corrected so far*:
a learner's error left in the context (*he watch videos … I hope he listen*) makes the erroneous
pattern look likely again, so the previous sentence's findings are applied before it is read. The
narrative's tense counts come from the two previous sentences, corrected the same way, and from the
whole text but the sentence (the sentences ahead as written).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tutor.a13.analysis import Analysis, analyse
from tutor.judge.judge import SlotVerdict, report_threshold
from tutor.judge.slots import Candidate
from tutor.text.notes import Note, notes_for


@dataclass(frozen=True)
class JudgedSentence:
    """One sentence of a text: where it starts, its notes, its analysis and the judge's verdicts."""

    index: int
    start: int
    sentence: str
    notes: list[Note]
    analysis: Analysis
    verdicts: list[SlotVerdict]
    lm: dict

    def finding_choices(self) -> list[tuple[SlotVerdict, Candidate]]:
        """Return the (verdict, candidate) pairs that become findings (see `finding_choice`)."""
        out = []
        for v in self.verdicts:
            c = finding_choice(v, self.notes, self.start)
            if c is not None:
                out.append((v, c))
        return out

    def corrected(self) -> str:
        """Return the sentence with its findings applied (right to left, so offsets hold)."""
        text = self.sentence
        for _, c in sorted(self.finding_choices(), key=lambda vc: -vc[1].start):
            text = c.apply(text)
        return text


def finding_choice(v: SlotVerdict, notes: list[Note], offset: int) -> Candidate | None:
    """Return the slot's correction if it is one: the best reading is a change of a §A13 cell, no
    change is less likely than the fitted `report_below` (at most 0.5: the slot is more likely wrong
    than right), and no note (a pattern outside §A13's labels) covers it."""
    best = v.best
    if not best.change or best.cell is None or v.probability_of_no_change() >= report_threshold("text"):
        return None
    lo, hi = offset + best.start, offset + best.end
    if any(n.start < hi and lo < n.end for n in notes):
        return None
    return best


LM_CONTEXTS = ("sentence", "paragraph", "text")


def lm_context(corrected: list[str], paragraph_start: int, mode: str = "sentence") -> str:
    """Return what the model reads before the next sentence, given the sentences so far as corrected.

    "sentence": the previous one; "text": all of them; "paragraph": those of the current paragraph
    (from index `paragraph_start`), or the previous sentence when the next one starts a paragraph.
    """
    if mode not in LM_CONTEXTS:
        raise ValueError(f"lm_context must be one of {', '.join(LM_CONTEXTS)}, not {mode!r}")
    if not corrected:
        return ""
    if mode == "text":
        return " ".join(corrected)
    if mode == "paragraph" and paragraph_start < len(corrected):
        return " ".join(corrected[paragraph_start:])
    return corrected[-1]


def walk_text(tutor, text: str, spans: list[tuple[int, int]],
              progress: Callable[[int, int], None] | None = None) -> Iterator[JudgedSentence]:
    """Yield each sentence of `text` judged, in order, with the corrected previous sentence as context.

    Sentences the analyser abstains on are yielded with no verdicts (they still count as context).
    """
    from tutor.a13.analysis import tokenize
    from tutor.judge.slots import tense_counts

    corrected: list[str] = []
    mode = getattr(getattr(tutor, "settings", None), "lm_context", "sentence")
    paragraph = 0  # index of the current paragraph's first sentence
    # each sentence's (past, present) finite forms: as written ahead, as corrected behind
    tenses = [tense_counts(tokenize(text[a:b])) for a, b in spans]
    for k, (a, b) in enumerate(spans):
        if progress:
            progress(k, len(spans))
        sentence = text[a:b]
        notes = notes_for(sentence, a)
        analysis = analyse(sentence)
        if k and "\n" in text[spans[k - 1][1]:a]:
            paragraph = k
        context = lm_context(corrected, paragraph, mode)
        earlier = " ".join(corrected[-2:])
        if analysis.abstain:
            judged = JudgedSentence(k, a, sentence, notes, analysis, [], {})
        else:
            rest = (sum(t[0] for t in tenses) - tenses[k][0], sum(t[1] for t in tenses) - tenses[k][1])
            j = tutor.judge(sentence, analysis, context=context, tense_context=earlier, text_tenses=rest)
            judged = JudgedSentence(k, a, sentence, notes, analysis, list(j.verdicts), j.lm)
        corrected.append(judged.corrected())
        if corrected[-1] != sentence:
            tenses[k] = tense_counts(tokenize(corrected[-1]))
        yield judged
    if progress:
        progress(len(spans), len(spans))
