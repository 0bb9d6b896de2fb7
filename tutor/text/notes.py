"""Neutral notes for what the checker recognises but §A13 does not label (data/notes/patterns.json).

A tutor must not praise *I am agree* or "correct" *She have 25 years* to *has*: such sentences get
a note saying what the pattern is, and no finding.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from tutor.resources import data_path


@dataclass(frozen=True)
class Note:
    """One note: the span it is about (offsets into the text), its kind and its message."""

    start: int
    end: int
    written: str
    kind: str
    message_en: str
    message_es: str

    def to_dict(self) -> dict:
        """Return the note as a plain dict (one entry of `notes` in `check --jsonl`)."""
        return asdict(self)


@dataclass(frozen=True)
class Pattern:
    """One pattern from the data file, compiled."""

    id: str
    regex: re.Pattern[str]
    en: str
    es: str
    examples: tuple[str, ...]
    counter_examples: tuple[str, ...]


@cache
def _data() -> dict:
    return json.loads(data_path("notes", "patterns.json").read_text(encoding="utf-8"))


@cache
def patterns() -> tuple[Pattern, ...]:
    """Return the compiled patterns."""
    return tuple(Pattern(p["id"], re.compile(p["pattern"], re.IGNORECASE), p["en"], p["es"],
                         tuple(p.get("examples", ())), tuple(p.get("counter_examples", ())))
                 for p in _data()["patterns"])


def notes_for(sentence: str, offset: int = 0) -> list[Note]:
    """Return the notes for one sentence; offsets are shifted by `offset` (its place in the text)."""
    from tutor.a13.analysis import tokenize
    from tutor.a13.lexicon import lexicon, out_of_scope_errors

    text = sentence.replace("’", "'")
    out: list[Note] = []
    for p in patterns():
        for m in p.regex.finditer(text):
            written = sentence[m.start():m.end()]
            out.append(Note(offset + m.start(), offset + m.end(), written, p.id, p.en.format(written),
                            p.es.format(written)))
    words = tokenize(sentence)
    lex = lexicon()
    data = _data()
    oos = out_of_scope_errors()
    for k, w in enumerate(words):
        if w.norm in oos:
            forms = irregular_past(oos[w.norm])
            entry = data["outside_verb"] if forms else data["outside_verb_unknown"]
            out.append(Note(offset + w.start, offset + w.end, w.text, "outside_verb",
                            entry["en"].format(w.text, oos[w.norm], *(forms or ())),
                            entry["es"].format(w.text, oos[w.norm], *(forms or ()))))
        if w.norm in ("do", "does", "did"):
            j = k + 1
            while j < len(words) and words[j].norm in ("n't", "not", "never", "really", "you", "he", "she", "it",
                                                       "i", "we", "they"):
                j += 1
            if j < len(words) and j > k + 1:
                readings = lex.get(words[j].norm, ())
                if readings and not any(r.kind == "base" for r in readings) and any(
                        r.kind in ("present", "past", "bad_past", "bad_3sg", "participle") for r in readings):
                    span = sentence[w.start:words[j].end]
                    out.append(Note(offset + w.start, offset + words[j].end, span, "do_support",
                                    data["do_support"]["en"].format(span), data["do_support"]["es"].format(span)))
    return sorted(out, key=lambda n: n.start)


def irregular_past(verb: str) -> tuple[str, str] | None:
    """Return (past simple, past participle) of an irregular verb outside the 20 from the English inflection
    tables (lemminflect): *forget* -> (*forgot*, *forgotten*), the first form the tables give that is not a learner's
    regularised form (*woke*, *woken*, never *waked*); None where the tables do not know the verb or give only a
    regular -ed form (then a note must not claim one)."""
    from tutor.a13.lexicon import out_of_scope_errors
    from tutor.a13.parser_import import import_lemminflect

    getInflection = import_lemminflect().getInflection

    wrong = out_of_scope_errors()
    past = [f for f in getInflection(verb, "VBD") if f not in wrong]
    participle = [f for f in getInflection(verb, "VBN") if f not in wrong]
    if not past or not participle or (past[0].endswith("ed") and past[0].startswith(verb.rstrip("e"))):
        return None
    return past[0], participle[0]


def analysis_notes(analysis: Any, offset: int = 0) -> list[Note]:
    """Return the notes the analyser's reading gives: a noun likelier wrong than its verb (`noun_notes`), and a
    verb left alone because its subject is plural while the form as written is singular or not a word (*the
    people in the village was*, *we goed*): §A13 labels singular persons only, so a note, never a finding."""
    from tutor.a13.explain import plural_counterpart

    data = _data()
    out = noun_notes(analysis, offset)
    for w in getattr(analysis, "plural_verbs", ()):
        frame = analysis.frames.get(w.start)
        if frame is None or frame.subject.number not in ("plural", "coordinated") or frame.relative:
            continue  # a relative clause's subject is its antecedent, which the parse may not have found
        subject = frame.subject
        if subject.start < 0 or subject.end > w.start:
            continue
        words = analysis.sentence[subject.start:w.start]
        between = analysis.sentence[subject.end:w.start]
        if "," in words or ";" in words or _CONJUNCTION.search(between):
            continue  # the subject was read across a clause (*we stayed in Lima, is a big city*, *they break
            # everything and is hard*: a missing *it* is as likely as a wrong verb)
        first = words.split()[0].lower()
        if first in data["either_number_heads"]:
            continue  # *any of them was*, *none of them were*: English takes either
        if first in _singular_determiners():
            continue  # *every lessons has*: the noun is the error, not the verb
        if subject.number == "coordinated" and re.search(r"\b(?:or|nor)\b", words, re.IGNORECASE):
            continue  # *walking or cycling is*: the verb agrees with the nearer part
        if subject.number == "coordinated" and _holds_a_verb(analysis, subject.start, w.start):
            continue  # *some students play jazz and the ambient is*: two clauses read as one noun phrase
        plural = plural_counterpart(w.norm)
        if plural == w.norm:
            continue  # a form a plural subject takes as written: nothing to say
        if _amount(words, data):
            continue  # *forty minutes is not enough*: one amount, a singular verb is right
        uncountable = _uncountable_plural(words)
        if uncountable is not None:  # *the informations was*: the noun is the error, not the verb
            start = subject.start + uncountable[0]
            written = analysis.sentence[start:start + len(uncountable[1])]
            entry = data["uncountable_plural"]
            out.append(Note(offset + start, offset + start + len(written), written, "uncountable_plural",
                            entry["en"].format(written, uncountable[2]), entry["es"].format(written, uncountable[2])))
            continue
        kind = "plural_subject"
        out.append(Note(offset + w.start, offset + w.end, w.text, kind, data[kind]["en"].format(w.text, plural),
                        data[kind]["es"].format(w.text, plural)))
    return sorted(out, key=lambda n: n.start)


def _amount(subject: str, data: dict) -> bool:
    """Return True when `subject` is a number of units (*forty minutes*, *10 euros*): one amount, singular."""
    words = re.findall(r"[\w']+", subject.lower())
    numbers = _NUMBER_WORDS
    return len(words) >= 2 and (words[0].isdigit() or words[0] in numbers) and words[1] in data["measure_units"]


_CONJUNCTION = re.compile(r"\b(?:and|but|or|so)\b", re.IGNORECASE)
_NUMBER_WORDS = frozenset({"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                           "fifteen", "twenty", "thirty", "forty", "fifty", "sixty", "hundred", "several"})


def _holds_a_verb(analysis: Any, start: int, end: int) -> bool:
    """Return True when a word after the first in sentence[start:end] is a form of the 20 verbs not led by a
    determiner (*play* in *students play jazz and the ambient*, not in *the play*): a clause, not a noun phrase."""
    from tutor.a13.lexicon import lexicon

    lex = lexicon()
    inside = [w for w in analysis.words if start <= w.start < end]
    return any(lex.get(word.norm) and before.norm not in _DETERMINERS for before, word in itertools.pairwise(inside))


_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our",
                          "their", "some", "any", "no", "every", "each"})


@cache
def _singular_determiners() -> frozenset[str]:
    from tutor.a13.syntax import lists

    return frozenset(lists()["singular_determiners"])


def _uncountable_plural(subject: str) -> tuple[int, str, str] | None:
    """Return (offset, word, singular) of an uncountable noun given a plural -s in `subject` (*informations*,
    *furnitures*, *homeworks*), or None: such a noun has no plural, so its singular verb is right."""
    from tutor.a13.syntax import lists

    uncountable = lists()["uncountable_nouns"]
    for m in re.finditer(r"[A-Za-z]+", subject):
        low = m.group().lower()
        if low.endswith("s") and low[:-1] in uncountable:
            return m.start(), m.group(), low[:-1]
    return None


def noun_notes(analysis: Any, offset: int = 0) -> list[Note]:
    """Return a note on each noun the analyser found likelier wrong than its verb (tutor.a13.analysis: a plural
    cue before a singular count noun, or a bare one), with the plural a well-kept inflection table gives."""
    from tutor.a13.parser_import import import_lemminflect

    getInflection = import_lemminflect().getInflection
    data = _data()
    out = []
    for start, end, bare in getattr(analysis, "unclear_nouns", ()):
        written = analysis.sentence[start:end]
        plural = next(iter(getInflection(written.lower(), "NNS")), written + "s")
        kind = "bare_noun" if bare else "noun_number"
        out.append(Note(offset + start, offset + end, written, kind,
                        data[kind]["en"].format(written, plural, written.lower()),
                        data[kind]["es"].format(written, plural, written.lower())))
    return out


_LATER_PLURAL = re.compile(r"\b(?:they|them|themselves)\b", re.IGNORECASE)
_LATER_SINGULAR = re.compile(r"\b(?:he|she|it|him|her|his|its)\b", re.IGNORECASE)
_CLEAR_SINGULAR_DETERMINERS = frozenset({"a", "an", "this", "that", "each", "every", "my", "your", "his", "her", "its",
                                         "our", "their", "one"})


def _plural_noun_in(text: str) -> bool:
    """Return True when `text` holds a plural noun (one the English inflection tables give as a plural)."""
    from tutor.a13.parser_import import import_lemminflect
    from tutor.a13.syntax import noun_plurals

    getLemma = import_lemminflect().getLemma

    for word in re.findall(r"[A-Za-z]+", text):
        low = word.lower()
        if low in _irregular_plurals():
            return True
        lemma = next(iter(getLemma(low, upos="NOUN")), low)
        if low.endswith("s") and lemma != low and low in noun_plurals(lemma):
            return True
    return False


@cache
def _irregular_plurals() -> frozenset[str]:
    from tutor.a13.syntax import lists

    return frozenset(lists()["irregular_plurals"])


def plural_reference_notes(judged: Any, following: str, offset: int = 0) -> list[Note]:
    """Return a note on each finding that would make a count noun subject's verb singular (*are* → *is*) while a
    *they* or *them* comes later in the sentence or in the next one with no other plural noun before it (*the small
    shop in the old town are … three of them*): the noun is likelier meant plural (§A13 §5, which word is wrong), so
    the note covers the verb and the finding is not shown."""
    data = _data()
    out = []
    for _, best in judged.finding_choices():
        cell = best.cell
        if cell.person != "3rd singular" or best.error_type not in ("missing_3sg_s", "wrong_be", "wrong_have"):
            continue
        frame = judged.analysis.frames.get(best.start)
        sub = frame.subject if frame is not None else None
        if sub is None or sub.start < 0 or sub.end > best.start:
            continue
        first = judged.sentence[sub.start:sub.end].split()[0].lower() if sub.end > sub.start else ""
        if first in _CLEAR_SINGULAR_DETERMINERS:
            continue  # 'my brother', 'this shop', 'a friend': a clear singular (§A13 §5); only 'the' or none is weak
        if not sub.countable or best.existential:
            continue  # a pronoun's, a name's or a mass noun's number is clear; existential there agrees with the noun
        later = judged.sentence[best.end:] + " " + following
        found = _LATER_PLURAL.search(later)
        if not found or _plural_noun_in(later[:found.start()]) or _LATER_SINGULAR.search(later[:found.start()]):
            continue  # no they / them, or a plural noun (or a he / she / it) nearer to it that it may stand for
        kind = "plural_reference"
        subject = judged.sentence[sub.start:sub.end]
        out.append(Note(offset + best.start, offset + best.end, best.written, kind,
                        data[kind]["en"].format(subject, best.written), data[kind]["es"].format(subject, best.written)))
    return out



