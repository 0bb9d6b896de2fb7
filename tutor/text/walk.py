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

from tutor.analyser import Analyser
from tutor.judge.in_turn import judge_in_turn
from tutor.judge.judge import Judge
from tutor.judge.result import Judged
from tutor.judge.scores import SlotVerdict
from tutor.judge.slots import Candidate, Proposal
from tutor.judge.veto import Veto
from tutor.text.notes import Note, analysis_notes, notes_for, plural_reference_notes


@dataclass(frozen=True)
class JudgedSentence:
    """One sentence of a text: where it starts, its notes, and the judge's verdicts on it."""

    index: int
    start: int
    notes: list[Note]
    judged: Judged

    @property
    def sentence(self) -> str:
        """Return the sentence as written."""
        return self.judged.sentence

    @property
    def analysis(self):
        """Return the analyser's reading of the sentence (tutor.a13.analysis.Analysis)."""
        return self.judged.analysis

    @property
    def verdicts(self) -> list[SlotVerdict]:
        """Return the judge's verdict per slot (none when the analyser abstains)."""
        return self.judged.verdicts

    @property
    def lm(self) -> dict:
        """Return the model's scores of the change candidates, by id(candidate)."""
        return self.judged.lm

    def finding_choices(self) -> list[tuple[SlotVerdict, Candidate]]:
        """Return the (verdict, correction) pairs that become findings: the Judge's rule for a text, less the
        slots a note covers (a pattern outside §A13's labels)."""
        return self.judged.finding_choices(self.notes, self.start)

    def corrected(self) -> str:
        """Return the sentence with its findings applied (right to left, so offsets hold)."""
        text = self.sentence
        for _, c in sorted(self.finding_choices(), key=lambda vc: -vc[1].start):
            text = c.apply(text)
        return text


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


def walk_text(analyser: Analyser, judge: Judge, text: str, spans: list[tuple[int, int]],
              progress: Callable[[int, int], None] | None = None, *,
              lm_context_mode: str = "sentence", veto: Veto | None = None) -> Iterator[JudgedSentence]:
    """Yield each sentence of `text` judged, in order, with the corrected previous sentence as context.

    Sentences the analyser abstains on are yielded with no verdicts (they still count as context).
    `lm_context_mode` is what the model reads first (LM_CONTEXTS; see lm_context). A `veto` model reads each
    sentence's findings (with the same context) before the sentence counts as corrected.
    """
    corrected: list[str] = []
    paragraph = 0  # index of the current paragraph's first sentence
    # each sentence's (past, present) finite forms: as written ahead, as corrected behind
    tenses = [analyser.tenses(text[a:b]) for a, b in spans]
    for k, (a, b) in enumerate(spans):
        if progress:
            progress(k, len(spans))
        sentence = text[a:b]
        notes = notes_for(sentence, a)
        if k and "\n" in text[spans[k - 1][1]:a]:
            paragraph = k
        context = lm_context(corrected, paragraph, lm_context_mode)
        rest = (sum(t[0] for t in tenses) - tenses[k][0], sum(t[1] for t in tenses) - tenses[k][1])
        tense_text = " ".join(corrected[-2:])

        def propose(s: str, tense_text: str = tense_text, rest: tuple[int, int] = rest) -> Proposal:
            return analyser.propose(s, tense_text=tense_text, text_tenses=rest)

        verdicts = judge_in_turn(judge, propose, sentence, context=context, kind="text")
        following = text[b: spans[k + 1][1]] if k + 1 < len(spans) else ""
        more = [n for n in analysis_notes(verdicts.analysis, a) + plural_reference_notes(verdicts, following, a)
                if not any(m.start < n.end and n.start < m.end for m in notes)]  # one note per span
        notes = sorted(notes + more, key=lambda n: n.start)
        if veto is not None:
            verdicts = veto.review(verdicts, notes, a, context)
        judged = JudgedSentence(k, a, notes, verdicts)
        corrected.append(judged.corrected())
        if corrected[-1] != sentence:
            tenses[k] = analyser.tenses(corrected[-1])
        yield judged
    if progress:
        progress(len(spans), len(spans))
