"""Read a learner sentence: find the forms of the 20 verbs, the slot each stands in, its subject.

Only facts of the sentence and of §A13 §5 are decided here: the slot after have / will / to, the
person of a subject, the verb a written form belongs to. What the sentence leaves open (present or
past with no time word in the clause, a word that may be a noun, several doubtful words) becomes
several options with a prior, for the model to choose between.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cache

from tutor.a13.lexicon import Reading, lexicon, out_of_scope_errors
from tutor.a13.syntax import Frame, parse
from tutor.resources import data_path
from tutor.scope import Cell, load_scope

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+(?::\d+)?|[^\w\s]", re.UNICODE)
_CONTRACTIONS = ("n't", "'ll", "'ve", "'re", "'m", "'d", "'s")
_NEG_STEMS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "be"}
_SENTENCE_END = {".", "!", "?"}
_AUX_WORDS = {"have", "has", "had", "do", "does", "did", "is", "are", "am", "was", "were", "will", "can",
              "could", "should", "would", "must", "may", "might", "'s", "'re", "'m", "'ve", "'ll", "'d"}
_PASSIVE_VERBS = {"finish", "write", "eat", "see", "do", "watch", "play", "start", "study", "want", "like"}


@cache
def _lists() -> dict:
    raw = json.loads(data_path("a13", "analysis.json").read_text(encoding="utf-8"))
    return {k: (set(v) if isinstance(v, list) else v) for k, v in raw.items() if not k.startswith("_")}


@dataclass(frozen=True, slots=True)
class Word:
    """One token of the sentence: its text, lower-case normal form and character span."""

    text: str
    norm: str
    start: int
    end: int


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

    @property
    def abstain(self) -> bool:
        """Return True when the tutor should abstain (no form of the 20 verbs, or only an outside error)."""
        if self.in_scope_words == 0 or not (self.options or self.verb_words):
            return True  # no form of the 20, or only do-support ('Do you know if the museum open …?')
        return self.out_of_scope_error is not None and not any(o.is_error for o in self.options)


def tokenize(sentence: str) -> list[Word]:
    """Split a sentence into words and punctuation, splitting English contractions."""
    words: list[Word] = []
    for m in _WORD.finditer(sentence):
        text = m.group(0)
        norm = unicodedata.normalize("NFC", text).lower().replace("’", "'")
        start = m.start()
        for suffix in _CONTRACTIONS:
            if norm.endswith(suffix) and len(norm) > len(suffix):
                stem = norm[: -len(suffix)]
                stem = _NEG_STEMS.get(stem, stem) if suffix == "n't" else stem
                cut = len(text) - len(suffix)
                words.append(Word(text[:cut], stem, start, start + cut))
                words.append(Word(text[cut:], suffix, start + cut, m.end()))
                break
        else:
            split = _lists()["contractions_without_apostrophe"].get(norm)
            if split:  # 'dont', 'im': learners often drop the apostrophe
                stem, suffix = split
                cut = len(norm) - (len(suffix) - 1)
                words.append(Word(text[:cut], stem, start, start + cut))
                words.append(Word(text[cut:], suffix, start + cut, m.end()))
            else:
                words.append(Word(text, norm, start, m.end()))
    return words


class _Sentence:
    """The word list with the positional questions the rules ask of it."""

    def __init__(self, words: list[Word]) -> None:
        self.words = words
        self.norms = [w.norm for w in words]
        self.lists = _lists()
        self.lex = lexicon()

    def norm(self, j: int) -> str:
        return self.norms[j] if 0 <= j < len(self.norms) else ""

    def prev_index(self, i: int) -> int:
        """Return the index of the word before i, skipping adverbs such as never / already / not."""
        j = i - 1
        while j >= 0 and self.norms[j] in self.lists["adverbs_between"]:
            j -= 1
        return j

    def next_index(self, i: int) -> int:
        j = i + 1
        while j < len(self.norms) and self.norms[j] in self.lists["adverbs_between"]:
            j += 1
        return j

    def is_verbish(self, j: int) -> bool:
        n = self.norm(j)
        return (n in self.lex and not n.endswith("ing")) or n in _AUX_WORDS or n in self.lists["modals"] or (
            n in self.lists["catenatives"]) or (len(n) > 4 and n.endswith("ed"))

    def is_nominal(self, j: int) -> bool:
        """Return True for a word that can head a noun subject (not a function word or a verb)."""
        n = self.norm(j)
        lists = self.lists
        if not n.isalpha() or n in self.lex or n in _AUX_WORDS or n in out_of_scope_errors():
            return False
        return not (n in lists["determiners"] or n in lists["adverbs_between"] or n in lists["prepositions"]
                    or n in lists["discourse_markers"] or n in lists["non_subject_words"]
                    or n in lists["clause_breaks"] or n in lists["modals"] or n in lists["wh_words"]
                    or n in lists["subject_pronouns"] or n in lists["plural_pronouns"])

    def _skippable_segment(self, comma: int) -> int | None:
        """For ', who lives in Quito,' or ', Martina,' ending at `comma`, return the comma before it."""
        k = comma - 1
        while k >= 0 and self.norms[k] != "," and self.norms[k] not in _SENTENCE_END:
            k -= 1
        if k < 0 or self.norms[k] != ",":
            return None
        segment = self.norms[k + 1: comma]
        if not segment:
            return None
        first = segment[0]
        opens = first in self.lists["relatives"] or first in self.lists["prepositions"] or segment[:2] == ["the", "one"]
        # an appositive with no verb: ', Martina,' / ', almost 90 years old,'
        short_name = len(segment) <= 6 and not any(self.is_verbish(k + 1 + x) for x in range(len(segment)))
        return k if opens or short_name else None

    def subject(self, p: int) -> str | None:
        """Return the person of the subject of the verb (group) at p; None if plural or absent."""
        inverted = self.inverted_subject(p)
        if inverted is not None:
            return inverted
        lists = self.lists
        pronouns = lists["subject_pronouns"]
        j = p - 1
        while j >= 0:
            n = self.norms[j]
            if n in pronouns:
                if n in ("who", "that") and j > 0 and self.is_nominal(j - 1):
                    return None if self.is_plural_noun(j - 1) or self.norm(j - 1) in lists["irregular_plurals"] \
                        else "3rd singular"  # a relative pronoun takes its antecedent's number
                return None if self._coordinated(j) else pronouns[n]
            if n in lists["plural_pronouns"]:
                return None
            if self.is_nominal(j) and n in lists["time_nouns"] and self.norm(j - 1) in lists["time_determiners"]:
                j -= 2  # 'every day', 'last week': a time adverbial, not the subject
                continue
            if self.is_nominal(j):
                head = self._head_before_phrase(j)
                if head is not None:
                    j = head
                    continue
                if self.is_plural_noun(j) or self._coordinated(j):
                    return None
                return "3rd singular"
            if n in _SENTENCE_END or n == ":":
                return None
            if n == ",":
                before = self._skippable_segment(j)
                if before is None:
                    return None  # ', be careful': an imperative, or no subject of its own
                j = before - 1
                continue
            if n in ("and", "or", "but"):
                # coordinated verbs share the subject of the verb before them
                k = j - 1
                while k >= 0 and not self.is_verbish(k) and self.norms[k] not in _SENTENCE_END:
                    k -= 1
                # a verb outside the lexicon ('she explains … and write'): the nearest pronoun decides
                return self.subject(k) if k >= 0 and self.is_verbish(k) else self.actor(j)
            if n in lists["clause_breaks"]:
                return None
            j -= 1
        return None

    def _np_start(self, j: int) -> int:
        """Return the first word of the noun phrase ending at j (determiner and modifiers included)."""
        k = j
        while k - 1 >= 0 and (self.is_nominal(k - 1) or self.norms[k - 1] in self.lists["determiners"]) \
                and j - k < 4:
            k -= 1
        return k

    def _coordinated(self, j: int) -> bool:
        """Return True when the subject word at j is joined to another subject by 'and' ('my brother and
        I are'); 'in the morning and I go' joins two clauses, so 'I' stands alone."""
        k = self._np_start(j)
        if self.norm(k - 1) != "and" or k - 2 < 0:
            return False
        prev = self.norm(k - 2)
        if not (self.is_nominal(k - 2) or prev in self.lists["subject_pronouns"] or prev in ("me", "him", "her")):
            return False
        first = self._np_start(k - 2)
        before = self.norm(first - 1)
        return first == 0 or before in _SENTENCE_END or before in (",", ";", ":") or (
            before in self.lists["clause_breaks"] and before not in ("and", "or"))

    def _head_before_phrase(self, j: int) -> int | None:
        """For 'the students in my class are', return the index to search on from: before 'in'."""
        k = self._np_start(j)
        prep = self.norm(k - 1)
        if prep in self.lists["prepositions"] and prep not in ("like", "than", "as") and k - 2 >= 0 and (
                self.is_nominal(k - 2)):
            return k - 2
        return None

    def inverted_subject(self, i: int) -> str | None:
        """Return the subject after an auxiliary in a question ('Have you …', 'What did she …')."""
        if self.norm(i) not in _AUX_WORDS:
            return None
        k = i + 2 if self.norm(i + 1) == "n't" else i + 1
        nxt = self.norm(k)
        end = next((self.norms[j] for j in range(i, len(self.norms)) if self.norms[j] in _SENTENCE_END), "")
        wh_question = end == "?" and nxt in self.lists["subject_pronouns"]  # 'which city are you from?'
        for j in range(i - 1, -1, -1):  # a subject before the auxiliary: no inversion
            n = self.norms[j]
            if n in self.lists["subject_pronouns"] or n in self.lists["plural_pronouns"]:
                return None
            if self.is_nominal(j) and not wh_question:
                return None
            if n in self.lists["clause_breaks"] or n in _SENTENCE_END:
                break
        if nxt in self.lists["subject_pronouns"] and nxt not in ("that", "this", "who"):
            return self.lists["subject_pronouns"][nxt]
        if nxt in self.lists["plural_pronouns"]:
            return None
        if nxt in self.lists["determiners"] or self.is_nominal(k):
            return "3rd singular"  # Has your brother …? / Will the bus …?
        return None

    def actor(self, j: int) -> str | None:
        """Return the person of whoever does the action of an infinitive at j ('He needs to do')."""
        saw_noun = False
        for k in range(j - 1, -1, -1):
            n = self.norms[k]
            if n in _SENTENCE_END:
                break
            if n in self.lists["subject_pronouns"] and n not in ("this", "that", "who"):
                return self.lists["subject_pronouns"][n]
            if n in self.lists["plural_pronouns"]:
                return None
            if self.is_nominal(k):
                saw_noun = True
        return "3rd singular" if saw_noun else None

    def question_aux_before(self, i: int, auxes: set[str]) -> int | None:
        """Return the auxiliary that opens a question before i ('Has your brother came …')."""
        k = i - 1
        steps = 0
        while k >= 0 and steps < 6:
            n = self.norms[k]
            if n in auxes:
                start = k == 0 or self.norm(k - 1) in _SENTENCE_END | {",", ":"} or self.norm(k - 1) in (
                    self.lists["wh_words"] | self.lists["discourse_markers"])
                return k if start else None
            if not (self.is_nominal(k) or n in self.lists["determiners"] or n in self.lists["adverbs_between"]
                    or n in self.lists["subject_pronouns"] or n == "n't"):
                return None
            k -= 1
            steps += 1
        return None

    def doubtful_noun(self, i: int, *, after_verb: bool = False) -> bool:
        """Return True when word i may be a noun here ('the walk', 'at work', 'I want work.').

        After a determiner or a preposition it is a noun; after a verb or a noun subject only a word
        that can stand bare (a mass noun, a plural) with no object after it.
        """
        n = self.norm(i)
        lists = self.lists
        if n not in lists["noun_like_verbs"]:
            return False
        before = self.norm(i - 1)
        if before in lists["subject_pronouns"]:
            return False
        if not after_verb and (before in lists["determiners"] or before in lists["prepositions"]):
            return True
        bare = n in lists["mass_noun_verbs"] or (n.endswith("s") and n not in ("is", "has", "does", "goes"))
        return bare and not _verbal_after(i, self)

    def is_plural_noun(self, j: int) -> bool:
        """Return True for a plural noun head after a determiner ('the streets', 'my parents')."""
        n = self.norm(j)
        if n in self.lists["irregular_plurals"]:
            return True
        if not (n.endswith("s") and not n.endswith(("ss", "us", "is"))):
            return False
        k = j - 1
        while k >= 0 and self.is_nominal(k) and j - k < 3:
            k -= 1
        return self.norm(k) in self.lists["determiners"] | {"these", "those", "many", "all", "both", "two", "three"}


def _sentence_ids(words: list[Word]) -> list[int]:
    out, k = [], 0
    for w in words:
        out.append(k)
        if w.norm in _SENTENCE_END:
            k += 1
    return out


def _clauses(words: list[Word], lists: dict) -> list[int]:
    """Return a clause number for every word (clauses end at punctuation and conjunctions)."""
    out, k = [], 0
    for w in words:
        if w.norm in lists["clause_breaks"]:
            k += 1
        out.append(k)
    return out


def _is_past_cue(norms: list[str], i: int, lists: dict) -> bool:
    n = norms[i]
    if n in ("yesterday", "ago"):
        return True
    if n == "last" and i + 1 < len(norms) and norms[i + 1] not in ("time", "one", "minute", "chance"):
        return i == 0 or norms[i - 1] not in lists["determiners"]  # 'the last season' is not a time
    return n.isdigit() and len(n) == 4 and 1900 <= int(n) < lists["past_years_before"] and (
        i == 0 or norms[i - 1] not in ("since", "until", "till"))  # 'since 2015' reaches up to now


def _time_levels(words: list[Word], lists: dict) -> tuple[list[int], bool]:
    """Return, per word, 2 when a past time word is in its clause, 1 when it is only in another clause
    of the same sentence and its own clause has no present or future time word, -1 when its clause
    has only a present or future time word ('every day', 'now'), else 0; and whether
    a future time word occurs."""
    norms = [w.norm for w in words]
    clause = _clauses(words, lists)
    sent = _sentence_ids(words)
    past: set[int] = set()
    past_sentences: set[int] = set()
    now: set[int] = set()
    for i, n in enumerate(norms):
        if _is_past_cue(norms, i, lists):
            past.add(clause[i])
            past_sentences.add(sent[i])
        if n in lists["time_present"] or n in lists["time_future"]:
            now.add(clause[i])
    joined = " ".join(norms)
    for phrase in lists["time_past_phrases"]:
        at = joined.find(phrase)
        if at >= 0:
            idx = joined[:at].count(" ")
            past.add(clause[idx])
            past_sentences.add(sent[idx])
    levels = []
    for i in range(len(words)):
        if clause[i] in past:
            levels.append(2)
        elif sent[i] in past_sentences and clause[i] not in now:
            levels.append(1)
        else:
            levels.append(-1 if clause[i] in now else 0)
    return levels, any(n in lists["time_future"] for n in norms)


def analyse(sentence: str) -> Analysis:
    """Return the options (candidate answers) for one sentence."""
    scope = load_scope()
    lex = lexicon()
    lists = _lists()
    words = tokenize(sentence)
    words, misspelled = _normalise_misspellings(words, lex, lists)
    s = _Sentence(words)
    analysis = Analysis(sentence, words)
    parsed = parse(sentence)
    frames = {w.start: parsed.frame(w.start) for w in words}
    past_levels, future_ctx = _time_levels(words, lists)
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
            analysis.options.extend(_read_frame(_ing_options(i, w, readings, s, scope), frame, i, s, misspelled,
                                                 frames))
            continue
        if all(r.verb == "do" for r in readings) and _is_do_support(i, s):
            continue  # an auxiliary, not a verb the learner could have got wrong under §A13
        if _is_noun_after_determiner(i, s):
            continue  # 'the talk was boring', 'a new watch', 'a good start': a noun
        analysis.verb_words.append((w, readings))
        options = _options_for(i, w, readings, s, scope, past_levels[i], future_ctx, frame)
        if i in misspelled:
            options = [_as_misspelling(o, words[i], misspelled[i]) for o in options]
        kept = _read_frame(options, frame, i, s, misspelled, frames)
        if not kept and frame is not None and frame.verbal and frame.subject.number in (
                "plural", "coordinated", "collective"):
            analysis.plural_verbs.append(w)
        analysis.options.extend(kept)
    return analysis


# Rules whose person is whoever does an infinitive's action (not the clause's subject).
_ACTOR_RULES = {"after to", "after for", "missing to", "gerund after a to-verb"}


def _read_frame(options: list[Option], frame: Frame | None, i: int, s: _Sentence,
                misspelled: dict[int, str], frames: dict[int, Frame | None] | None = None) -> list[Option]:
    """Keep the options whose frame the parser reads as the hand rules do; drop the rest.

    §A13 labels singular subjects only: a subject the parser finds plural, coordinated or
    collective (*the prices of the hotel were*, *both the food and the music were*, *the staff
    were*) gets no correction. A finite verb with no subject (*when were nine years old*), a person
    the two readings disagree on, or a word beside a non-word (*woubl be*) is a frame the tutor
    cannot read: it abstains rather than guess.
    """
    if not options or _garbled(i, s, misspelled):
        return []
    if i in misspelled and (frame is None or not frame.verbal):
        return []  # a non-word the parser reads as a noun ('the other waitres') is no misspelled verb
    if frame is None:
        return options  # the two tokenisations differ here: the hand rules decide
    if not frame.verbal:  # the parser has no verb here ('like' read as a preposition): the hand rules decide,
        # unless whoever would do the action is plural ('students only have ten minutes for eat')
        return [o for o in options if frame.actor.number not in ("plural", "coordinated", "collective")]
    sub = frame.subject
    if sub.number == "none" and i > 0 and frames is not None:
        j = s.prev_index(i)
        while j > 0 and s.norm(j) == "to":
            j = s.prev_index(j)
        aux = frames.get(s.words[j].start) if j >= 0 else None  # 'will to study': the auxiliary's subject
        if aux is not None and aux.verbal:
            sub = aux.subject
    out = []
    for o in options:
        if o.rule in _ACTOR_RULES:  # the person of whoever does the infinitive's action
            actor = frame.actor
            if actor.number in ("plural", "coordinated", "collective") or (
                    actor.labelled and actor.person != o.cell.person):
                continue
            out.append(o)
            continue
        if sub.number in ("plural", "coordinated", "collective"):
            continue  # §A13 has no plural persons: nothing to say about this verb
        unreadable = sub.number == "none" or (sub.labelled and sub.person != o.cell.person)
        if o.is_error and unreadable:
            continue  # an unreadable frame: no correction, though the verb is still described as written
        if not o.is_error and (unreadable or frame.reported or frame.relative):
            # an agreeing present in a reported or relative clause is right in a past narrative too
            # ('she told me that she wants to move', 'a friend who lives in Lima')
            o = replace(o, tense_open=False)
        out.append(o)
    return out


def _garbled(i: int, s: _Sentence, misspelled: dict[int, str]) -> bool:
    """Return True when the frame around word i is unreadable: the word before it is a non-word (it may
    be the auxiliary or the subject: *woubl be*), or a misspelled form follows *be*, where a participle
    and an -ing form both fit (*I am writen to you*)."""
    from tutor.a13.spelling import is_non_word

    j = i - 1
    if j >= 0 and j not in misspelled and is_non_word(s.words[j].text):
        return True
    return i in misspelled and s.norm(s.prev_index(i)) in s.lists["be_forms"]


def _normalise_misspellings(words: list[Word], lex, lists) -> tuple[list[Word], dict[int, str]]:
    """Read a non-word within a small edit distance of a form of the 20 as that form ('finised').

    A word counts as a misspelling only when an English word list does not know it and exactly
    one form of the 20 is nearest (Damerau-Levenshtein distance 1, or 2 for words of 7+ letters).
    """
    from tutor.a13.spelling import nearest_form

    out, found = [], {}
    for i, w in enumerate(words):
        form = nearest_form(w.norm) if w.norm not in lex and w.norm not in out_of_scope_errors() else None
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


def _is_noun_after_determiner(i: int, s: _Sentence) -> bool:
    """Return True for a noun-like verb form right after a determiner, or after a determiner and a
    common adjective ('the talk', 'a new watch', 'a good start'); 'my friend Carlos start' is a verb."""
    lists = s.lists
    if s.norm(i) not in lists["noun_like_verbs"]:
        return False
    j = i - 1
    if s.norm(j) in lists["common_adjectives"]:
        j -= 1
    n = s.norm(j)
    if n == "her":  # 'her work' is a noun, 'made her work' a bare infinitive
        return s.norm(j - 1) not in lists["causative_triggers"]
    return n in lists["determiners"] and n not in ("this", "that", "these", "those")


def _ing_options(i: int, w: Word, readings, s: _Sentence, scope) -> list[Option]:
    """Options for an -ing form: a gerund after a verb that takes 'to' ('I decided studying'), or
    'will' + -ing ('I will watching')."""
    lists = s.lists
    out: list[Option] = []
    verb = readings[0].verb
    prev = s.prev_index(i)
    pn = s.norm(prev)
    if pn in lists["will_aux"]:
        person = s.subject(prev)
        if person is not None:
            start = s.words[prev].start if pn == "will" else w.start
            out.append(_option(scope, verb, "simple future", person, w, start,
                               _span_text(s.words, prev, i) if pn == "will" else w.text, True, 2, 0.0,
                               "wrong_future", "will + -ing"))
        return out
    two = f"{s.norm(prev - 1)} {pn}" if prev > 0 else pn
    if pn in lists["to_infinitive_verbs"] or two in lists["to_infinitive_verbs"]:
        person = s.actor(prev)
        if person is not None:
            out.append(_option(scope, verb, "infinitive", person, w, w.start, w.text, True, 2, 0.0,
                               "infinitive_form", "gerund after a to-verb"))
    return out


def _option(scope, verb: str, tense: str, person: str, w: Word, start: int, written: str, is_error: bool,
            strength: int, prior: float, error_type: str, rule: str) -> Option:
    return Option(scope.cell(verb, tense, person), written, start, w.end, is_error, strength, prior,
                  error_type, rule)


def _span_text(words: list[Word], a: int, b: int) -> str:
    return " ".join(w.text for w in words[a: b + 1])


def _options_for(i: int, w: Word, readings: tuple[Reading, ...], s: _Sentence, scope, past_level: int,
                 future_ctx: bool, frame: Frame | None = None) -> list[Option]:
    lists = s.lists
    words = s.words
    prev = s.prev_index(i)
    pn = s.norm(prev)
    out: list[Option] = []
    for verb in dict.fromkeys(r.verb for r in readings):
        vk = {r.kind for r in readings if r.verb == verb}
        if verb == "do" and _is_do_support(i, s):
            continue  # do-support is outside §A13's labels
        if verb == "like" and (s.norm(i - 1) in lists["like_preposition_after"] or (
                s.is_nominal(i - 1) and s.norm(i - 2) in lists["like_preposition_after"])):
            continue  # 'looks like a zombie', 'sound like you': a preposition
        # --- will (+ to) + verb, or Will + subject + verb: simple future ----------------------
        will_j, span_from = None, None
        if pn in lists["will_aux"]:
            will_j = span_from = prev
        elif pn == "to" and s.norm(s.prev_index(prev)) in lists["will_aux"]:
            will_j = span_from = s.prev_index(prev)
        else:
            will_j = s.question_aux_before(i, lists["will_aux"])
        if will_j is not None:
            person = s.subject(will_j)
            if person is None:
                continue
            ok = "base" in vk and pn != "to"
            start = words[span_from].start if span_from is not None and words[span_from].norm == "will" else w.start
            written = w.text if start == w.start else _span_text(words, span_from, i)
            out.append(_option(scope, verb, "simple future", person, w, start, written, not ok, 2, 0.0,
                               "correct" if ok else "wrong_future", "after will"))
            continue
        # --- have/has/had (+ subject in a question) + verb: past participle ------------------
        have_j = prev if pn in lists["have_aux"] and not _is_would(prev, i, s) else \
            s.question_aux_before(i, {"have", "has", "had"})
        if have_j is not None:
            person = s.subject(have_j)
            if person is None:
                continue
            ok = "participle" in vk
            strength = 2
            if not ok and ("base" in vk or "present" in vk) and w.norm in lists["mass_noun_verbs"] \
                    and have_j == i - 1 and not _perfect_cue(i, s):
                strength = 1  # 'I have work tomorrow': a noun with no article may follow have
            out.append(_option(scope, verb, "past participle", person, w, w.start, w.text, not ok, strength, 0.0,
                               "correct" if ok else "wrong_participle", "after have"))
            if s.norm(have_j) in ("have", "has", "'ve") and _finished_time(have_j, s):
                # a present perfect with a finished time in its clause ('I have seen it two days ago',
                # 'when I was a child I have studied …' -> saw, studied); without one, a duration
                # ('I haven't written to you for a long time') keeps the perfect right
                out.append(_option(scope, verb, "past simple", person, w, words[have_j].start,
                                   _span_text(words, have_j, i), True, 2, 0.0, "wrong_tense",
                                   "perfect with a finished time"))
            continue
        # --- going to + verb: a 'going to' future, which §A13 does not label ------------------
        if pn == "to" and s.norm(s.prev_index(prev)) == "going":
            continue
        # --- to / for + verb: infinitive ------------------------------------------------------
        if pn in ("to", "for") and not (pn == "for" and "base" not in vk and "present" not in vk):
            verbal = pn == "to" or _verbal_after(i, s)
            if verbal or "base" in vk:
                person = s.actor(prev)
                if person is None:
                    continue
                ok = pn == "to" and "base" in vk
                governed = s.norm(s.prev_index(prev)) in lists["catenatives"]
                doubtful = (not verbal) or (pn == "to" and not ok and not governed and s.doubtful_noun(i))
                out.append(_option(scope, verb, "infinitive", person, w, words[prev].start,
                                   _span_text(words, prev, i), not ok, 1 if doubtful else 2, 0.0,
                                   "correct" if ok else "infinitive_form", f"after {pn}"))
                continue
        # --- make / let / have / see + object + bare infinitive: right as written ------------
        if _after_causative_object(i, s):
            continue
        # --- catenative verb + bare verb: missing 'to' --------------------------------------
        if prev == i - 1 and _is_catenative(prev, s) and ("base" in vk or "present" in vk):
            person = s.actor(prev)
            if person is None:
                continue
            doubtful = s.doubtful_noun(i, after_verb=True)
            out.append(_option(scope, verb, "infinitive", person, w, w.start, w.text, True, 1 if doubtful else 2,
                               0.0, "infinitive_form", "missing to"))
            continue
        # --- modal + an inflected form: the bare infinitive ('you should came' -> come) -------
        if pn in lists["modals"] and not (vk & {"base"}) and vk & {"past", "participle", "bad_past", "present",
                                                                    "bad_3sg"}:
            person = s.subject(prev)
            if person is not None:
                out.append(_option(scope, verb, "infinitive", person, w, w.start, w.text, True, 2, 0.0,
                                   "infinitive_form", "after modal"))
            continue
        # --- modal / do + verb: a bare infinitive, right as written --------------------------
        if _after_modal_or_do(i, s):
            continue
        # --- be + verb: passive (participle) ---------------------------------------------------
        if pn in lists["be_forms"] and verb in _PASSIVE_VERBS and vk & {"base", "past", "bad_past", "participle"}:
            person = s.subject(prev)
            if person is None:
                continue
            ok = "participle" in vk
            out.append(_option(scope, verb, "past participle", person, w, w.start, w.text, not ok, 2, 0.0,
                               "correct" if ok else "wrong_participle", "passive"))
            continue
        # --- finite verb: present or past by the subject and the time ------------------------
        if verb == "be" and (s.norm(i - 1) == "there" or s.norm(i + 1) == "there"):
            # existential there: be agrees with what follows; §A13 labels a singular or uncountable
            # noun (3rd singular, Spanish 'haber'), a plural one gets a note
            if frame is None or frame.existential != "singular":
                continue
            out.extend(replace(o, cell=scope.existential(o.cell), existential=True) for o in _finite_options(
                verb, vk, readings, w, "3rd singular", s, scope, past_level, future_ctx, i))
            continue
        person = s.subject(i)
        if person is None:
            continue
        if frame is not None and (frame.reported or frame.relative) and past_level == 1:
            past_level = 0  # a past time word in the main clause does not date a reported or relative clause
        out.extend(_finite_options(verb, vk, readings, w, person, s, scope, past_level, future_ctx, i))
    return out


def _after_causative_object(i: int, s: _Sentence) -> bool:
    """Return True for a verb after make / let / have / help / see + an object ('she had me write')."""
    lists = s.lists
    j = i - 1
    if s.norm(j) in lists["object_pronouns"]:
        return s.norm(j - 1) in lists["causative_triggers"]
    steps = 0
    while j >= 0 and steps < 3 and s.is_nominal(j):
        j -= 1
        steps += 1
    if steps == 0:
        return False
    if s.norm(j) in lists["determiners"]:
        j -= 1
    return s.norm(j) in lists["causative_triggers"]


def _is_subjunctive_were(i: int, s: _Sentence) -> bool:
    """Return True for 'were' in a counterfactual clause ('I wish I were', 'if she were', 'as if')."""
    if s.norm(i) != "were":
        return False
    for j in range(i - 1, max(-1, i - 6), -1):
        n = s.norm(j)
        if n in s.lists["subjunctive_triggers"]:
            return True
        if n in _SENTENCE_END or n in (",", ";"):
            return False
    return False


def is_auxiliary_at(analysis: Analysis, start: int) -> bool:
    """Return True when the word starting at `start` is have / be used as an auxiliary."""
    words = analysis.words
    s = _Sentence(words)
    for i, w in enumerate(words):
        if w.start == start:
            readings = s.lex.get(w.norm, ())
            verbs = {r.verb for r in readings}
            return bool(verbs & {"have", "be"}) and _is_auxiliary(i, s, "have" if "have" in verbs else "be")
    return False


def _is_would(j: int, i: int, s: _Sentence) -> bool:
    """'d is would before a base form (I'd like, I'd go) and had before a participle."""
    if s.norm(j) != "'d":
        return False
    return not any(r.kind in ("participle", "bad_past", "past") for r in s.lex.get(s.norm(i), ()))


def _finished_time(j: int, s: _Sentence) -> bool:
    """Return True when the clause of word j names a finished time: *ago*, *yesterday*, *last week*,
    *in 2019*, *on Tuesday*, *when I was a child* (data/a13/analysis.json: finished_time_words)."""
    lists = s.lists
    words = lists["finished_time_words"]
    lo = j
    while lo > 0 and s.norm(lo - 1) not in lists["clause_breaks"]:
        lo -= 1
    if s.norm(lo - 1) == "when":
        lo -= 1  # 'When I was a child I have studied …'
    hi = j
    while hi + 1 < len(s.norms) and s.norm(hi + 1) not in lists["clause_breaks"] - {"when"}:
        hi += 1
    for k in range(lo, hi + 1):
        n, nxt = s.norm(k), s.norm(k + 1)
        if n in ("ago", "yesterday") and n in words:
            return True
        if n == "last" and n in words and nxt in lists["time_nouns"]:
            return True
        if n in ("in", "on") and n in words and (
                (nxt.isdigit() and len(nxt) == 4 and int(nxt) < lists["past_years_before"])
                or (n == "on" and nxt in lists["weekdays"]) or (n == "in" and nxt in lists["months"])):
            return True
        if n == "when" and n in words and any(_is_past_form(s.norm(x), s) for x in range(k + 1, k + 4)):
            return True  # 'when I was a child', 'when we visited it'
    return False


def _is_past_form(n: str, s: _Sentence) -> bool:
    """Return True for a form that is only a past tense (was, were, went, visited)."""
    kinds = {r.kind for r in s.lex.get(n, ())}
    if kinds:
        return "past" in kinds and not kinds & {"base", "present"}
    return len(n) > 4 and n.endswith("ed")


def _perfect_cue(i: int, s: _Sentence) -> bool:
    """Return True when the clause has a duration ('for twenty years', 'since 2019') after word i."""
    for j in range(i + 1, min(len(s.norms), i + 10)):
        n = s.norms[j]
        if n == "ago" or n in _SENTENCE_END:
            break  # 'two weeks ago' is a finished time, not a duration
        if n == "since" or (n == "for" and (s.norm(j + 1).isdigit() or s.norm(j + 1) in s.lists["duration_starts"])):
            return True
        if n in ("years", "months", "weeks") and s.norm(j + 1) != "ago":
            return True
    return False


def _is_do_support(i: int, s: _Sentence) -> bool:
    """Return True when do/does/did is an auxiliary (negation, question, emphasis)."""
    nxt = s.norm(i + 1)
    if nxt == "n't" or nxt == "not":
        return True
    if nxt in s.lists["subject_pronouns"] or nxt in s.lists["plural_pronouns"] or nxt in s.lists["determiners"]:
        return s.norm(i - 1) in _SENTENCE_END | {"", ",", ":"} or s.norm(i - 1) in s.lists["wh_words"]
    return any(r.kind == "base" for r in s.lex.get(nxt, ())) and nxt not in ("do",)


def _verbal_after(i: int, s: _Sentence) -> bool:
    """Return True when a noun-like word is used as a verb: an object or a complement follows it."""
    lists = s.lists
    readings = s.lex.get(s.norm(i), ())
    if not any(r.kind in ("base", "present") for r in readings):
        return False
    if s.norm(i) not in lists["noun_like_verbs"]:
        return True
    nxt = s.norm(i + 1)
    return nxt in lists["determiners"] or nxt in ("me", "him", "her", "us", "them", "it", "you") or (
        nxt.isalpha() and nxt not in lists["clause_breaks"] and nxt not in ("at", "in", "on", "with", "from"))


def _is_catenative(j: int, s: _Sentence) -> bool:
    n = s.norm(j)
    verb_caten = {x for x in s.lists["catenatives"] if " " not in x} - {
        "have", "has", "had", "going", "used", "allowed", "able", "ready", "happy", "glad", "sad", "hard",
        "easy", "difficult", "important", "nice", "time"}
    if n not in verb_caten:
        return False
    # bare 'like' is also a preposition ('looks like rain'): only a verb after a subject pronoun
    before = s.norm(j - 1)
    return n != "like" or before in s.lists["subject_pronouns"] or before in (
        "'d", "would", "n't", "really", "also")


def _after_modal_or_do(i: int, s: _Sentence) -> bool:
    lists = s.lists
    j = s.prev_index(i)
    n = s.norm(j)
    if n in lists["modals"] or n in lists["do_aux"] or n in lists["bare_infinitive_triggers"] - {"watch", "see", "saw"}:
        return True
    if n == "'d":
        return True
    if n in lists["subject_pronouns"] or n in lists["plural_pronouns"]:  # Do you / Can she + verb
        k = s.prev_index(j)
        if s.norm(k) in lists["modals"] or s.norm(k) in lists["do_aux"] or s.norm(k) == "n't":
            return True
    return False


def _is_auxiliary(i: int, s: _Sentence, verb: str) -> bool:
    """Return True when have/be here is an auxiliary: its tense is read from the verb after it."""
    if verb not in ("have", "be"):
        return False
    j = s.next_index(i)
    if s.norm(j) in s.lists["subject_pronouns"]:  # Have you … / Is she …
        j = s.next_index(j)
    nxt = s.norm(j)
    return nxt in s.lex or nxt.endswith(("ed", "en", "ing"))


def _finite_options(verb: str, vk: set[str], readings, w: Word, person: str, s: _Sentence, scope,
                    past_level: int, future_ctx: bool, i: int) -> list[Option]:
    out: list[Option] = []
    if _is_subjunctive_were(i, s):
        return out
    mine = [r for r in readings if r.verb == verb]
    present_ok = any(r.kind == "present" and person in r.persons for r in mine)
    past_ok = any(r.kind == "past" and person in r.persons for r in mine)
    is_be = verb == "be"
    doubtful = s.doubtful_noun(i)

    def add(tense: str, is_error: bool, strength: int, prior: float, etype: str, rule: str) -> None:
        out.append(_option(scope, verb, tense, person, w, w.start, w.text, is_error, strength, prior, etype, rule))

    if "bad_past" in vk:
        add("past simple", True, 2, 0.0, "overregularised_past", "wrong past form")
        return out
    if "bad_3sg" in vk:
        # studys / watchs: the -s form of the subject's person (§A13 §5: person 3rd singular)
        add("present simple", True, 2, 0.0, "wrong_3sg", "misspelled -s form")
        return out
    if past_ok and not present_ok:
        add("past simple", False, 2, 0.0, "correct", "past form agrees")
        return out
    if any(r.kind == "past" for r in mine) and not past_ok and not present_ok:
        add("past simple", True, 2, 0.0, "wrong_be" if is_be else "base_for_past", "past agreement")
        return out
    if not any(r.kind in ("present", "base") for r in mine):
        if "participle" in vk:  # 'I seen', 'she gone': the past simple is the one finite reading
            add("past simple", True, 1, 0.0, "base_for_past", "participle without have")
        return out
    agree_type = "wrong_be" if is_be else ("wrong_have" if verb == "have" else
                                          ("missing_3sg_s" if person == "3rd singular" else "wrong_3sg"))
    if past_level > 0 and not _is_auxiliary(i, s, verb):
        strong = past_level == 2
        add("past simple", True, 2 if strong or not present_ok else 1, 0.0,
            "wrong_be" if is_be else "base_for_past", "past time word")
        if present_ok:
            add("present simple", False, 1, -3.0 if strong else -1.0, "correct", "present agrees")
        elif not strong:
            add("present simple", True, 2, 0.5, agree_type, "present agreement")
        return out
    if present_ok:
        add("present simple", False, 1 if doubtful else 2, 0.0, "correct", "present agrees")
        if verb in s.lists["stative_verbs"] and past_level <= 0:
            # a state in the present ('the hotel is near the beach') may still hold in a past story:
            # only a past time word in the sentence makes it wrong
            out[-1] = replace(out[-1], tense_open=False)
        return out
    # a present form that does not agree with its subject: present by default; past is possible
    add("present simple", True, 1 if doubtful else 2, 0.0, agree_type, "present agreement")
    if person == "3rd singular" and past_level == 0 and not future_ctx and not is_be and verb != "have":
        add("past simple", True, 1, -2.0, "base_for_past", "past reading")
    return out
