"""The analyser proposes: every verb word of the 20 becomes a slot of candidate corrections.

A slot is one written word (or span, such as *will goes* or *have seen*) with its candidates:
"no change" always first, then every change the sentence allows. What the sentence fixes for
certain (after *has* comes a participle) decides which cells a change may fill; what it only
suggests (a time word elsewhere, the other verbs' tense) becomes evidence, as features, for the
judge to weigh against the model's reading of the corrected sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tutor.a13.analysis import Analysis, Option, is_auxiliary_at
from tutor.a13.registry import family_of, finite_rules
from tutor.scope import Cell, load_scope


@dataclass(frozen=True)
class Candidate:
    """One possible reading of a slot: the sentence as written, or one correction."""

    start: int
    end: int
    written: str
    replacement: str  # the text that replaces sentence[start:end] (== written for no change)
    cell: Cell | None  # the §A13 cell it fills (None: no change, and the written word has no cell)
    change: bool
    correct_form: str = ""  # the §A13 correct_form (an accepted form of `cell`)
    error_type: str = "correct"
    rule: str = ""
    features: dict[str, float] = field(default_factory=dict)
    existential: bool = False  # be after existential 'there' (Spanish 'haber')

    def apply(self, sentence: str) -> str:
        """Return the sentence with this candidate's replacement."""
        return sentence[: self.start] + self.replacement + sentence[self.end:]


@dataclass
class Slot:
    """One written verb word and its candidates (candidates[0] is 'no change')."""

    start: int
    end: int
    written: str
    candidates: list[Candidate]


@dataclass(frozen=True)
class Proposal:
    """What the analyser proposes for one sentence (tutor.analyser.Analyser): its analysis, and the slots the
    Judge ranks."""

    sentence: str
    analysis: Analysis
    slots: list[Slot] = field(default_factory=list)

    @property
    def abstain(self) -> bool:
        """Return True when the sentence has nothing §A13 can answer (no slot is built then)."""
        return self.analysis.abstain


def _replacement(option: Option, cell: Cell, sentence: str) -> tuple[str, str]:
    """Return (replacement text, output correct_form) for a change option."""
    form = cell.correct_form
    span = sentence[option.start: option.end].lower()
    if cell.tense == "simple future" and not span.startswith(("will", "won't", "shall")):
        return form.removeprefix("will "), form  # "I'll came" -> "I'll come"
    if option.rule == "after modal":
        base = cell.english[-1] if cell.tense == "infinitive" else form
        return base, base  # "should came" -> "come", the bare infinitive §A13 accepts
    return form, form


def tense_counts(words, skip_start: int = -1) -> tuple[int, int]:
    """Return (past, present) counts of finite verb forms among `words` (analyser Words), skipping one."""
    from tutor.a13.lexicon import lexicon

    lex = lexicon()
    past = present = 0
    for w in words:
        if w.start == skip_start:
            continue
        readings = lex.get(w.norm)
        kinds = {r.kind for r in readings} if readings else set()
        if kinds & {"past", "bad_past"} and not kinds & {"base", "present"}:
            past += 1
        elif "present" in kinds and not kinds & {"base", "past", "participle"}:
            present += 1  # goes, has, is, does: forms that are present and nothing else
        elif not readings and len(w.norm) > 4 and w.norm.endswith("ed"):
            past += 1
    return past, present


def build_slots(analysis: Analysis, context: tuple[int, int] = (0, 0),
                text_tenses: tuple[int, int] = (0, 0)) -> list[Slot]:
    """Group the analyser's options by word and add the alternatives it leaves open.

    `context` is (past, present) finite forms in the sentences before this one (a text's narrative);
    `text_tenses` the same over the whole text but this sentence (the text's tense, both sides).
    """
    scope = load_scope()
    sentence = analysis.sentence
    groups: dict[int, list[Option]] = {}
    for o in analysis.options:
        groups.setdefault(o.end, []).append(o)
    slots: list[Slot] = []
    for end, options in sorted(groups.items()):
        first = min(options, key=lambda o: o.start)
        keep_options = [o for o in options if not o.is_error]
        keep = keep_options[0] if keep_options else None
        span_start = keep.start if keep else first.start
        written = sentence[span_start:end]
        feats: dict[str, float] = {}
        if keep is not None:
            feats["keep_sure" if keep.strength >= 2 else "keep_doubt"] = 1.0
        else:
            feats["keep_unknown"] = 1.0
        if options[0].rule == "misspelling" or any(o.error_type == "wrong_inflection" for o in options):
            feats["keep_nonword"] = 1.0
        no_change = Candidate(span_start, end, written, written, keep.cell if keep else None, False,
                              keep.cell.correct_form if keep else "", "correct", keep.rule if keep else "", feats,
                              existential=first.existential)
        cands = [no_change]
        seen: set[tuple[str, str, str]] = {keep.cell.key} if keep else set()
        for o in options:
            if not o.is_error or o.cell.key in seen:
                continue
            seen.add(o.cell.key)
            repl, form = _replacement(o, o.cell, sentence)
            f = {"change": 1.0, "rule_sure" if o.strength >= 2 else "rule_doubt": 1.0, "prior": o.prior,
                 f"fam_{family_of(o.rule)}": 1.0}
            cands.append(Candidate(o.start, o.end, sentence[o.start:o.end], repl, o.cell, True, form,
                                   o.error_type, o.rule, f, existential=o.existential))
        # Alternatives the rules leave open: a finite verb may be present or past whatever the time
        # words say; the model's reading of each corrected sentence is the evidence.
        finite = [o for o in options if o.rule in finite_rules()]
        # the sentence's other finite verbs, by tense (evidence for a narrative's tense)
        sent_past, sent_present = tense_counts(analysis.words, finite[0].start if finite else -1)
        tense_open = keep is None or keep.tense_open  # the analyser may fix the tense as written
        if finite and tense_open and not is_auxiliary_at(analysis, finite[0].start):
            o = finite[0]
            word_text = sentence[o.start:o.end]
            norm = word_text.lower()
            for tense in ("present simple", "past simple"):
                cell = scope.cell(o.cell.verb, tense, o.cell.person)
                if o.existential:
                    cell = scope.existential(cell)
                if cell.key in seen:
                    continue
                seen.add(cell.key)
                if norm in {e.lower() for e in cell.english}:
                    continue  # the word as written already fills this cell
                past = tense == "past simple"
                f = {"change": 1.0, "alt": 1.0, "fam_finite": 1.0,
                     "alt_past" if past else "alt_present": 1.0}
                if past:
                    f["alt_past_narrative"] = min(sent_past, 3) / 3
                etype = ("wrong_be" if o.cell.verb == "be" else "base_for_past") if past else (
                    "wrong_be" if o.cell.verb == "be" else "wrong_have" if o.cell.verb == "have"
                    else "missing_3sg_s" if o.cell.person == "3rd singular" else "wrong_3sg")
                cands.append(Candidate(o.start, o.end, word_text, cell.correct_form, cell, True,
                                       cell.correct_form, etype, "alternative tense", f, existential=o.existential))
        for c in cands:
            if c.change and c.cell is not None and c.cell.tense in ("past simple", "present simple"):
                key = "to_past" if c.cell.tense == "past simple" else "to_present"
                c.features[f"{key}_ctx_past"] = min(context[0], 3) / 3
                c.features[f"{key}_ctx_present"] = min(context[1], 3) / 3
                c.features[f"{key}_sent_past"] = min(sent_past, 3) / 3
                c.features[f"{key}_sent_present"] = min(sent_present, 3) / 3
                total = text_tenses[0] + text_tenses[1]
                if total >= 2:  # the share of the text's finite verbs in each tense
                    c.features[f"{key}_text_past"] = text_tenses[0] / total
                    c.features[f"{key}_text_present"] = text_tenses[1] / total
        slots.append(Slot(span_start, end, written, cands))
    return slots
