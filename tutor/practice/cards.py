"""Practice cards built from one saved mistake: the learner's own sentence with the verb gapped, and variants
from the neighbouring cells of the §A13 table (same verb, another person; same tense, another verb).

Every card comes from the table and the sentence, never from the model: the gap is the span the correction
replaced, the answer is the table's form for the cell as it fits the gap, and the variants use the frame
sentences of data/practice/frames.json. A card never shows its answer: the hint in brackets is the verb's
base form, or, when the answer *is* the base form, the form the learner wrote ("You should ___ (you wrote came)").
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from tutor.a13.explain import explain_cell
from tutor.a13.lexicon import IRREGULAR
from tutor.practice.error_types import error_type
from tutor.practice.frames import GAP, frame
from tutor.scope import Cell, load_scope
from tutor.scoring import norm
from tutor.store.practice_rows import CARD_ORIGINS, HINT_KINDS

# Card UUIDs derive from the learner's UUID and the card's text (uuid5 in this namespace).
CARD_NAMESPACE = uuid.UUID("5f0c6f3e-9a8e-4d0b-9a55-2b1f0e4a7c21")
MISTAKE, OTHER_PERSON, OTHER_VERB = ORIGINS = CARD_ORIGINS
BASE, WRITTEN = HINT_KINDS  # what the hint in brackets shows
# The explanation template (data/explanations/a13.json) for a variant's cell, by tense.
_RULE_BY_TENSE = {"present simple": "present agreement", "past simple": "past agreement",
                  "past participle": "after have", "simple future": "after will", "infinitive": "missing to"}
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


@dataclass(frozen=True)
class Card:
    """One exercise: a sentence with a gap, the hint in brackets, the accepted answers and the explanation."""

    id: str
    origin: str  # MISTAKE (the learner's own sentence), OTHER_PERSON or OTHER_VERB (a frame sentence)
    verb: str
    tense: str
    person: str
    before: str
    after: str
    hint: str
    hint_kind: str  # BASE: the base form; WRITTEN: what the learner wrote, when the answer is the base form
    answer: str
    accepted: tuple[str, ...]
    explanation_en: str
    explanation_es: str
    error_type: str
    source_id: str | None = None  # the correction it was built from
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def prompt(self) -> str:
        """Return the sentence with the gap and its hint: 'Yesterday he ___ (go) to school.'"""
        hint = self.hint if self.hint_kind == BASE else f"you wrote {self.hint}"
        return f"{self.before}{GAP} ({hint}){self.after}"

    @property
    def cell(self) -> dict[str, str]:
        """Return {"verb", "tense", "person"}."""
        return {"verb": self.verb, "tense": self.tense, "person": self.person}

    def accepts(self, given: str) -> bool:
        """Return True when `given` is an accepted answer, compared as §A13 §8 compares (case, quotes, spaces)."""
        return norm(given) in {norm(a) for a in self.accepted}


def card_id(learner_uuid: str, before: str, hint: str, after: str, answer: str) -> str:
    """Return the card's UUID: the same learner and text give the same card on every machine."""
    return str(uuid.uuid5(CARD_NAMESPACE, "\x1f".join((learner_uuid, before, hint, after, norm(answer)))))


def shows_answer(card: Card) -> bool:
    """Return True when the card's prompt contains its answer as a word or phrase (it must not)."""
    words = " ".join(w.lower() for w in _WORD.findall(card.prompt.replace("’", "'")))
    return any(re.search(rf"(?<!\S){re.escape(norm(a))}(?!\S)", words) for a in card.accepted)


Fix = tuple[int, int, str]  # (start, end, replacement) in a sentence: another mistake of it, corrected


def cards_for(row: dict[str, Any], learner_uuid: str, fixes: tuple[Fix, ...] = ()) -> list[Card]:
    """Return the cards of one saved mistake (a history row): its own sentence first, then the variants.

    `fixes` are the sentence's other corrected mistakes (`sentence_fixes`): the card shows them corrected, so
    a prompt never quotes another of the learner's errors as if it were English. A row that names no §A13
    cell, or whose verb span cannot be found in its sentence, gives no card.
    """
    mistake = mistake_card(row, learner_uuid, fixes)
    if mistake is None:
        return []
    out = [mistake]
    for variant in (other_person(mistake, learner_uuid), other_verb(mistake, learner_uuid)):
        if variant is not None and variant.id not in {c.id for c in out}:
            out.append(variant)
    return out


def sentence_fixes(rows: list[dict[str, Any]]) -> dict[Any, tuple[Fix, ...]]:
    """Return, for each row's id, the corrections of the other rows in the same sentence (same `original` and
    `source_text`), in that sentence's offsets, as the rows' own fills (*goed* -> *went*)."""
    groups: dict[tuple[str, str], list[tuple[Any, Fix]]] = {}
    for row in rows:
        cell, gap = _cell(row), gap_of(row)
        if cell is None or gap is None:
            continue
        sentence, start, end = gap
        form = fill(cell, row.get("correct_form") or cell.correct_form, sentence[start:end])
        if form is not None:
            key = (sentence, row.get("source_text") or "")
            groups.setdefault(key, []).append((row.get("id"), (start, end, form)))
    out: dict[Any, tuple[Fix, ...]] = {}
    for members in groups.values():
        for row_id, own in members:
            out[row_id] = tuple(fix for other, fix in members if other != row_id and fix != own)
    return out


def _fixed(text: str, offset: int, fixes: tuple[Fix, ...]) -> str:
    """Return `text` (which starts at `offset` in its sentence) with the fixes that lie wholly inside it applied."""
    for start, end, form in sorted(fixes, reverse=True):
        a, b = start - offset, end - offset
        if 0 <= a <= b <= len(text):
            if text[a:b][:1].isupper() and form[:1].islower():
                form = form[:1].upper() + form[1:]
            text = text[:a] + form + text[b:]
    return text


def mistake_card(row: dict[str, Any], learner_uuid: str, fixes: tuple[Fix, ...] = ()) -> Card | None:
    """Return the card of the learner's own sentence with the corrected span gapped, or None; `fixes` are
    applied to the words around the gap."""
    cell = _cell(row)
    gap = gap_of(row)
    if cell is None or gap is None:
        return None
    sentence, start, end = gap
    written = sentence[start:end]
    answer = fill(cell, row.get("correct_form") or cell.correct_form, written)
    if answer is None:
        return None
    if written[:1].isupper() and answer[:1].islower():
        answer = answer[:1].upper() + answer[1:]
    before, after = _fixed(sentence[:start], 0, fixes), _fixed(sentence[end:], end, fixes)
    hint, hint_kind = cell.verb, BASE
    if norm(answer) == norm(cell.verb):
        hint, hint_kind = written, WRITTEN  # the base form in brackets would give the answer away
    explanation = (row.get("explanation_en") or "", row.get("explanation_es") or "")
    if not all(explanation):
        explanation = explain_cell(cell, _RULE_BY_TENSE[cell.tense], answer, written)
    return Card(
        id=card_id(learner_uuid, before, hint, after, answer), origin=MISTAKE, verb=cell.verb, tense=cell.tense,
        person=cell.person, before=before, after=after, hint=hint, hint_kind=hint_kind, answer=answer,
        accepted=(answer,), explanation_en=explanation[0], explanation_es=explanation[1],
        error_type=str(error_type(cell.verb, cell.tense, cell.person, written)), source_id=row.get("id"))


def other_person(card: Card, learner_uuid: str) -> Card | None:
    """Return a frame card of the same verb and tense in another person, preferring a form that differs."""
    scope = load_scope()
    answer = norm(card.answer)
    choices = []
    for person in scope.persons:
        if person == card.person:
            continue
        form = scope.cell(card.verb, card.tense, person).correct_form
        if form != card.verb:  # a base-form answer would be its own hint
            choices.append((form == answer, person))
    if not choices:
        return None
    person = min(choices)[1]
    return _frame_card(scope.cell(card.verb, card.tense, person), OTHER_PERSON, card, learner_uuid)


def other_verb(card: Card, learner_uuid: str) -> Card | None:
    """Return a frame card of another verb in the same tense: the same kind (irregular or regular) when one
    fits, chosen by the card's UUID so that different mistakes practise different verbs."""
    scope = load_scope()
    persons = [card.person] + [p for p in reversed(scope.persons) if p != card.person]
    irregular = card.verb in IRREGULAR
    for person in persons:
        verbs = [v for v in scope.verbs if v != card.verb and frame(v, card.tense, person) is not None
                 and scope.cell(v, card.tense, person).correct_form != v]
        same_kind = [v for v in verbs if (v in IRREGULAR) == irregular] or verbs
        if same_kind:
            pick = int(hashlib.sha256(card.id.encode()).hexdigest(), 16) % len(same_kind)
            return _frame_card(scope.cell(same_kind[pick], card.tense, person), OTHER_VERB, card, learner_uuid)
    return None


def _frame_card(cell: Cell, origin: str, parent: Card, learner_uuid: str) -> Card | None:
    found = frame(cell.verb, cell.tense, cell.person)
    if found is None:
        return None
    answer = cell.correct_form  # the frames leave out 'will' and 'to', so the canonical form fits the gap
    en, es = explain_cell(cell, _RULE_BY_TENSE[cell.tense], answer)
    return Card(
        id=card_id(learner_uuid, found.before, cell.verb, found.after, answer), origin=origin, verb=cell.verb,
        tense=cell.tense, person=cell.person, before=found.before, after=found.after, hint=cell.verb,
        hint_kind=BASE, answer=answer, accepted=(answer,), explanation_en=en, explanation_es=es,
        error_type=parent.error_type, source_id=parent.source_id)


def fill(cell: Cell, correct_form: str, written: str) -> str | None:
    """Return the text that fills the gap of `written` in a sentence, one of the cell's accepted forms as
    it fits there ('I'll came' → 'come', 'will goes' → 'will go'); None when the form is not the cell's."""
    form = correct_form.strip()
    if form not in cell.english:
        return None
    low = norm(written)
    if cell.tense == "simple future" and not low.startswith(("will", "won't", "shall")):
        form = form.removeprefix("will ")
    return form


def gap_of(row: dict[str, Any]) -> tuple[str, int, int] | None:
    """Return (sentence, start, end) of the corrected span in the row's sentence, or None.

    A sentence correction's offsets are into its sentence; a text finding's are into the whole text
    (`source_text`), so they are moved into the sentence it stands in.
    """
    sentence = row.get("original") or ""
    start, end, span = row.get("error_start"), row.get("error_end"), row.get("error_span") or ""
    if not sentence or not span:
        return None
    text = row.get("source_text")
    if isinstance(start, int) and isinstance(end, int):
        if text:
            at = text.find(sentence)
            while at >= 0:
                if at <= start and end <= at + len(sentence) and text[start:end] == span:
                    return sentence, start - at, end - at
                at = text.find(sentence, at + 1)
        elif sentence[start:end] == span:
            return sentence, start, end
    at = sentence.find(span)
    if at >= 0 and sentence.find(span, at + 1) < 0:
        return sentence, at, at + len(span)
    return None


def _cell(row: dict[str, Any]) -> Cell | None:
    try:
        return load_scope().cell(row.get("verb") or "", row.get("tense") or "", row.get("person") or "")
    except KeyError:
        return None

