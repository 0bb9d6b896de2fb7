"""Read a learner sentence: find the forms of the 20 verbs, the slot each stands in, its subject.

Only facts of the sentence and of §A13 §5 are decided here: the slot after have / will / to, the
person of a subject, the verb a written form belongs to. What the sentence leaves open (present or
past with no time word in the clause, a word that may be a noun, several doubtful words) becomes
several options with a prior, for the model to choose between.

The pipeline of one sentence: words (`tutor.a13.words`) → misspellings read as forms of the 20
(`tutor.a13.spelling`) → a dependency parse (`tutor.a13.syntax`) → for every verb word, the proposers
of the registry (`data/a13/rules.json`, `tutor.a13.rules`) in order → the parser's frame checked
against what they propose (`tutor.a13.frames`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tutor.a13.cues import is_auxiliary, is_do_support, is_noun_after_determiner
from tutor.a13.frames import read_frame
from tutor.a13.lexicon import Reading, lexicon, out_of_scope_errors
from tutor.a13.options import Option
from tutor.a13.registry import registry
from tutor.a13.rules import Site
from tutor.a13.sentence import Sentence
from tutor.a13.syntax import Frame, asides, parse
from tutor.a13.time_cues import past_cue_starts, time_levels
from tutor.a13.words import Word, tokenize, word_lists
from tutor.scope import load_scope

__all__ = ["Analysis", "Option", "analyse", "is_auxiliary_at", "tokenize"]


@dataclass
class Analysis:
    """What the analyser found in one sentence."""

    sentence: str
    words: list[Word]
    options: list[Option] = field(default_factory=list)
    in_scope_words: int = 0
    out_of_scope_error: str | None = None
    verb_words: list[tuple[Word, tuple[Reading, ...]]] = field(default_factory=list)
    frames: dict[int, Frame | None] = field(default_factory=dict)  # verb word start -> the parser's reading
    plural_verbs: list[Word] = field(default_factory=list)  # verb words left alone: their subject is plural
    # nouns whose number is likelier the error than the verb's (§A13 §5): (start, end, bare: no determiner)
    unclear_nouns: list[tuple[int, int, bool]] = field(default_factory=list)

    @property
    def abstain(self) -> bool:
        """Return True when the tutor should abstain (no form of the 20 verbs, or only an outside error)."""
        if self.in_scope_words == 0 or not (self.options or self.verb_words):
            return True  # no form of the 20, or only do-support ('Do you know if the museum open …?')
        return self.out_of_scope_error is not None and not any(o.is_error for o in self.options)


def analyse(sentence: str) -> Analysis:
    """Return the options (candidate answers) for one sentence."""
    scope = load_scope()
    lex = lexicon()
    lists = word_lists()
    words = tokenize(sentence)
    words, misspelled = _normalise_misspellings(words, lex, lists)
    s = Sentence(words)
    analysis = Analysis(sentence, words)
    aside = asides(sentence)  # parsed without ', for example,' between a subject and its verb
    cues = past_cue_starts(words, lists)
    parsed = parse(sentence, aside, cues)
    frames = {w.start: parsed.frame(w.start) for w in words}
    # a misspelled verb, or a form that is not English (*camed*, *studys*), is parsed as the form it stands for,
    # and its frame read from that parse ('my dog whent crazy', 'my uncle camed home')
    as_form = {i: _as_written_case(words[i].norm, written) for i, written in misspelled.items()}
    as_form.update({i: _as_written_case(form, words[i].text) for i, form in _bad_forms(words, lex, scope).items()})
    if as_form:
        as_forms = parse(sentence, aside + [(words[i].start, words[i].end, form) for i, form in as_form.items()], cues)
        for i in as_form:  # kept unless the written form's parse reads a subject the other parse lost
            read, written = as_forms.frame(words[i].start), frames[words[i].start]
            if read is None or written is None or read.subject.number != "none" or written.subject.number == "none":
                frames[words[i].start] = read
    past_levels, future_ctx = time_levels(words, lists)
    oos = out_of_scope_errors()
    for i, w in enumerate(words):
        prev = s.prev_index(i)
        if w.norm in oos or (s.norm(prev) in lists["will_aux"] and w.norm.endswith("ed") and w.norm not in lex):
            analysis.out_of_scope_error = analysis.out_of_scope_error or w.norm
    for i, w in enumerate(words):
        readings = lex.get(w.norm)
        if not readings or (w.norm in ("am", "pm") and s.norm(i - 1)[:1].isdigit()):  # 'at 2 am'
            continue
        analysis.in_scope_words += 1
        frame = analysis.frames[w.start] = frames[w.start]
        if all(r.kind == "ing" for r in readings):
            options = _propose(Site(i, w, readings[0].verb, frozenset(), readings, s, scope, past_levels[i],
                                    future_ctx, frame), "ing")
            analysis.options.extend(read_frame(options, frame, i, s, misspelled, frames))
            continue
        if all(r.verb == "do" for r in readings) and is_do_support(i, s):
            continue  # an auxiliary, not a verb the learner could have got wrong under §A13
        if is_noun_after_determiner(i, s):
            continue  # 'the talk was boring', 'a new watch', 'a good start': a noun
        analysis.verb_words.append((w, readings))
        options = []
        for verb in dict.fromkeys(r.verb for r in readings):  # a form may belong to two verbs ('saw')
            kinds = frozenset(r.kind for r in readings if r.verb == verb)
            options += _propose(Site(i, w, verb, kinds, readings, s, scope, past_levels[i], future_ctx, frame), "verb")
        if i in misspelled:
            options = [_as_misspelling(o, words[i], misspelled[i]) for o in options]
        kept = read_frame(options, frame, i, s, misspelled, frames)
        noun = (*frame.noun, frame.bare_noun) if frame is not None and frame.noun is not None else None
        # a bare noun with a singular verb (*school starts*) may be right: no note then
        if noun is not None and noun not in analysis.unclear_nouns and not (noun[2] and _singular_form(readings)):
            analysis.unclear_nouns.append(noun)
        if not kept and frame is not None and frame.verbal and frame.subject.number in (
                "plural", "coordinated", "collective", "unclear"):
            analysis.plural_verbs.append(w)
        analysis.options.extend(kept)
    return analysis


def _bad_forms(words: list[Word], lex, scope) -> dict[int, str]:
    """Return the words whose only readings are forms English does not have (*camed*, *studys*), each with the form
    it stands for (*came*, *studies*)."""
    out = {}
    for i, w in enumerate(words):
        readings = lex.get(w.norm, ())
        if readings and all(r.kind in ("bad_past", "bad_3sg") for r in readings):
            r = readings[0]
            tense = "past simple" if r.kind == "bad_past" else "present simple"
            out[i] = scope.cell(r.verb, tense, "3rd singular").correct_form
    return out


def _singular_form(readings: tuple[Reading, ...]) -> bool:
    """Return True for a finite form that agrees with a 3rd-singular subject (*has*, *was*, *goes*)."""
    return any(r.kind in ("present", "past") and "3rd singular" in r.persons for r in readings) and not any(
        r.kind == "base" for r in readings)


def _as_written_case(form: str, written: str) -> str:
    """Return the form with the written word's first capital ('Whent' -> 'Went')."""
    return form[:1].upper() + form[1:] if written[:1].isupper() else form


def _propose(site: Site, forms: str) -> list[Option]:
    """Return the options of the first proposer of the registry that claims the site."""
    for fn in registry().in_order(forms):
        got = fn(site)
        if got is not None:
            return got
    return []


def _normalise_misspellings(words: list[Word], lex, lists) -> tuple[list[Word], dict[int, str]]:
    """Read a non-word within a small edit distance of a form of the 20 as that form ('finised').

    A word counts as a misspelling only when an English word list does not know it and exactly
    one form of the 20 is nearest (Damerau-Levenshtein distance 1, or 2 for words of 7+ letters).
    A capitalised word after the sentence's first is a name (*a band called Arde*, *we met Sera*),
    never a misspelled verb.
    """
    from tutor.a13.spelling import nearest_form

    out, found = [], {}
    for i, w in enumerate(words):
        name = i > 0 and w.text[:1].isupper()
        form = nearest_form(w.norm) if not name and w.norm not in lex and w.norm not in out_of_scope_errors() \
            else None
        if form is not None:
            out.append(Word(w.text, form, w.start, w.end))
            found[i] = w.text
        else:
            out.append(w)
    return out, found


def _as_misspelling(o: Option, w: Word, written: str) -> Option:
    """Turn an option read from a misspelled word into a correction of that word."""

    if o.is_error:
        return replace(o, written=o.written.replace(w.norm, written) if w.norm in o.written else o.written)
    return replace(o, written=written if o.start == w.start else o.written, is_error=True,
                   error_type="wrong_inflection", rule="misspelling")


def is_auxiliary_at(analysis: Analysis, start: int) -> bool:
    """Return True when the word starting at `start` is have / be used as an auxiliary."""
    words = analysis.words
    s = Sentence(words)
    for i, w in enumerate(words):
        if w.start == start:
            readings = s.lex.get(w.norm, ())
            verbs = {r.verb for r in readings}
            return bool(verbs & {"have", "be"}) and is_auxiliary(i, s, "have" if "have" in verbs else "be")
    return False
