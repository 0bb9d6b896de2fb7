"""Read a learner sentence: find the forms of the 20 verbs, the slot each stands in, its subject.

Only facts of the sentence and of §A13 §5 are decided here (the slot after have / will / to, the
person of a subject pronoun, the verb a written form belongs to). What the sentence leaves open
(present or past with no time word, which of two doubtful words is wrong) becomes a set of
options with a prior for the model to choose from.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache

from tutor.a13.lexicon import Reading, lexicon, out_of_scope_errors
from tutor.resources import data_path
from tutor.scope import Cell, load_scope

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+|[^\w\s]", re.UNICODE)
_CONTRACTIONS = (("n't", "n't"), ("'ll", "'ll"), ("'ve", "'ve"), ("'re", "'re"), ("'m", "'m"), ("'d", "'d"),
                 ("'s", "'s"))
_NEG_STEMS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "be"}


@cache
def _lists() -> dict:
    raw = json.loads(data_path("a13", "analysis.json").read_text(encoding="utf-8"))
    out = {k: (set(v) if isinstance(v, list) else v) for k, v in raw.items() if not k.startswith("_")}
    return out


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
    strength: int  # 2 = the sentence's own words say so; 1 = doubtful (noun-like word, weak cue)
    prior: float  # log-weight from the sentence's evidence; the model adds its own score
    error_type: str
    rule: str


@dataclass
class Analysis:
    """What the analyser found in one sentence."""

    sentence: str
    words: list[Word]
    options: list[Option] = field(default_factory=list)
    in_scope_words: int = 0
    out_of_scope_error: str | None = None
    verb_words: list[tuple[Word, tuple[Reading, ...]]] = field(default_factory=list)

    @property
    def abstain(self) -> bool:
        """Return True when the tutor should abstain (no form of the 20 verbs, or only an outside error)."""
        if self.in_scope_words == 0:
            return True
        return self.out_of_scope_error is not None and not any(o.is_error for o in self.options)


def tokenize(sentence: str) -> list[Word]:
    """Split a sentence into words and punctuation, splitting English contractions."""
    words: list[Word] = []
    for m in _WORD.finditer(sentence):
        text = m.group(0)
        norm = unicodedata.normalize("NFC", text).lower().replace("’", "'")
        start = m.start()
        for suffix, label in _CONTRACTIONS:
            if norm.endswith(suffix) and len(norm) > len(suffix):
                stem = norm[: -len(suffix)]
                stem = _NEG_STEMS.get(stem, stem) if suffix == "n't" else stem
                cut = len(text) - len(suffix)
                words.append(Word(text[:cut], stem, start, start + cut))
                words.append(Word(text[cut:], label, start + cut, m.end()))
                break
        else:
            words.append(Word(text, norm, start, m.end()))
    return words


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
        return True
    return n.isdigit() and len(n) == 4 and 1900 <= int(n) < lists["past_years_before"]


def _time_levels(words: list[Word], lists: dict) -> tuple[list[int], bool]:
    """Return, per word, 2 when a past time word is in its clause, 1 when only in another clause
    and its own clause has no present or future time word, else 0; and whether a future word occurs."""
    norms = [w.norm for w in words]
    clause = _clauses(words, lists)
    past: set[int] = set()
    now: set[int] = set()
    for i, n in enumerate(norms):
        if _is_past_cue(norms, i, lists):
            past.add(clause[i])
        if n in lists["time_present"] or n in lists["time_future"]:
            now.add(clause[i])
    joined = " ".join(norms)
    for phrase in lists["time_past_phrases"]:
        at = joined.find(phrase)
        if at >= 0:
            past.add(clause[joined[:at].count(" ")])
    levels = [2 if clause[i] in past else (1 if past and clause[i] not in now else 0) for i in range(len(words))]
    return levels, any(n in lists["time_future"] for n in norms)


class _Sentence:
    """Positional helpers over the word list."""

    def __init__(self, words: list[Word]) -> None:
        self.words = words
        self.lists = _lists()

    def prev_index(self, i: int, *, skip_adverbs: bool = True) -> int:
        j = i - 1
        while j >= 0 and skip_adverbs and self.words[j].norm in self.lists["adverbs_between"]:
            j -= 1
        return j

    def norm(self, j: int) -> str:
        return self.words[j].norm if 0 <= j < len(self.words) else ""

    def subject_person(self, i: int) -> tuple[str | None, bool]:
        """Return (person, is_pronoun) of the subject of the clause holding word i.

        None when the subject is plural (outside §A13) or there is none (an imperative).
        """
        lists = self.lists
        pronouns = lists["subject_pronouns"]
        inverted = self._inverted_subject(i)
        if inverted is not None:
            return inverted
        saw_noun = False
        for j in range(i - 1, -1, -1):
            n = self.words[j].norm
            if n in pronouns:
                # 'this'/'that' before a noun are determiners: the noun is the subject (3rd singular)
                return pronouns[n], n not in ("this", "that", "who")
            if n in lists["plural_pronouns"]:
                return None, True
            if n in lists["clause_breaks"]:
                if not saw_noun and n in ("and", "but", "or"):
                    continue  # 'she explains … and write': coordinated verbs share the subject
                break
            if n.isalpha() and n not in lists["adverbs_between"] and n not in lists["determiners"] \
                    and n not in lists["non_subject_words"] and n not in _AUX_WORDS:
                saw_noun = True
        return ("3rd singular", False) if saw_noun else (None, False)

    def _inverted_subject(self, i: int) -> tuple[str, bool] | None:
        """Return the subject after an auxiliary in a question ('Have you …', 'What did she …')."""
        if self.norm(i) not in _AUX_WORDS:
            return None
        for j in range(i - 1, -1, -1):  # a subject before the auxiliary: no inversion
            n = self.words[j].norm
            if n in self.lists["subject_pronouns"] or n in self.lists["plural_pronouns"]:
                return None
            if n in self.lists["clause_breaks"]:
                break
        k = i + 1
        if self.norm(k) == "n't":
            k += 1
        nxt = self.norm(k)
        if nxt not in self.lists["subject_pronouns"] or nxt in ("that", "this", "who"):
            return None
        before = self.norm(i - 1)
        question = self.words[-1].norm == "?" if self.words else False
        if before in ("", ",", ";", ":", "what", "where", "when", "why", "how", "who", "which") or question:
            return self.lists["subject_pronouns"][nxt], True
        return None


_AUX_WORDS = {"have", "has", "had", "do", "does", "did", "is", "are", "am", "was", "were", "will", "can",
              "could", "should", "would", "must", "may", "might", "'s", "'re", "'m", "'ve", "'ll", "'d"}


def _strength_for_nounlike(word: Word, lists: dict) -> int:
    return 1 if word.norm in lists["noun_like_verbs"] else 2


def analyse(sentence: str) -> Analysis:
    """Return the options (candidate answers) for one sentence."""
    scope = load_scope()
    lex = lexicon()
    lists = _lists()
    words = tokenize(sentence)
    s = _Sentence(words)
    analysis = Analysis(sentence, words)
    past_levels, future_ctx = _time_levels(words, lists)
    oos = out_of_scope_errors()
    for i, w in enumerate(words):
        if w.norm in oos:
            analysis.out_of_scope_error = oos[w.norm]
        prev = s.prev_index(i)
        if w.norm in oos or (s.norm(prev) in lists["will_aux"] and w.norm.endswith("ed") and w.norm not in lex):
            analysis.out_of_scope_error = analysis.out_of_scope_error or w.norm
    options: list[Option] = []
    for i, w in enumerate(words):
        readings = lex.get(w.norm)
        if not readings or w.norm.startswith("'"):
            if readings:
                analysis.in_scope_words += 1
            continue
        analysis.in_scope_words += 1
        if all(r.kind == "ing" for r in readings):
            continue
        analysis.verb_words.append((w, readings))
        options.extend(_options_for(i, w, readings, s, scope, past_levels[i], future_ctx))
    analysis.options = options
    return analysis


def _cell_option(scope, verb: str, tense: str, person: str, w: Word, start: int, written: str,
                 is_error: bool, strength: int, prior: float, error_type: str, rule: str) -> Option:
    return Option(scope.cell(verb, tense, person), written, start, w.end, is_error, strength, prior,
                  error_type, rule)


def _options_for(i: int, w: Word, readings: tuple[Reading, ...], s: _Sentence, scope, past_ctx: int,
                 future_ctx: bool) -> list[Option]:
    lists = s.lists
    words = s.words
    verbs = list(dict.fromkeys(r.verb for r in readings))
    prev = s.prev_index(i)
    pn = s.norm(prev)
    out: list[Option] = []
    person, _pronoun = s.subject_person(i)
    if person is None:  # plural subject: outside §A13's labels
        return out
    written_text = w.text

    for verb in verbs:
        vk = {r.kind for r in readings if r.verb == verb}
        # --- will (+ to) + verb: simple future ---------------------------------------------------
        will_j = prev if pn in lists["will_aux"] else None
        if will_j is None and pn == "to" and s.norm(s.prev_index(prev)) in lists["will_aux"]:
            will_j = s.prev_index(prev)
        inverted = False
        if will_j is None and pn in lists["subject_pronouns"] and s.norm(prev - 1) in lists["will_aux"]:
            will_j, inverted = prev - 1, True  # a question: Will she come?
        if will_j is not None:
            ok = "base" in vk and pn != "to"
            adjacent = not inverted and words[will_j].norm == "will"
            start = words[will_j].start if adjacent else w.start
            written = w.text if start == w.start else _span_text(words, will_j, i)
            out.append(_cell_option(scope, verb, "simple future", person, w, start, written, not ok, 2,
                                    0.0, "correct" if ok else "wrong_future", "after will"))
            continue
        # --- have/has/had (+ subject in a question) + verb: past participle ---------------------
        have_j = _have_aux_before(i, s)
        if have_j is not None:
            ok = "participle" in vk
            strength = 2
            if not ok and ("base" in vk or "present" in vk) and w.norm in lists["mass_noun_verbs"] \
                    and prev == i - 1 and s.norm(prev) in ("have", "has", "had"):
                strength = 1  # 'I have work tomorrow': a noun with no article may follow have
            out.append(_cell_option(scope, verb, "past participle", person, w, w.start, written_text,
                                    not ok, strength, 0.0, "correct" if ok else "wrong_participle",
                                    "after have"))
            continue
        # --- to / for + verb: infinitive ----------------------------------------------------------
        if pn in ("to", "for"):
            verbal = pn == "to" or _verbal_after_for(i, s, verb)
            doubtful_for = pn == "for" and not verbal and "base" in vk  # 'for study.': noun or verb?
            if verbal or doubtful_for:
                ok = pn == "to" and "base" in vk
                noun_like = w.norm in lists["noun_like_verbs"]
                # after 'want to' / 'need to' a noun reading ('to studies') is impossible
                governed = pn == "to" and s.norm(s.prev_index(prev)) in lists["catenatives"]
                strength = 1 if (pn == "to" and not ok and noun_like and not governed) or doubtful_for else 2
                written = _span_text(words, prev, i)
                out.append(_cell_option(scope, verb, "infinitive", person, w, words[prev].start, written,
                                        not ok, strength, 0.0, "correct" if ok else "infinitive_form",
                                        f"after {pn}"))
                continue
        # --- catenative verb + bare verb: missing 'to' -------------------------------------------
        if prev == i - 1 and _is_catenative(prev, s) and ("base" in vk or "present" in vk):
            strength = 2 if w.norm not in lists["noun_like_verbs"] or _verbal_after_for(i, s, verb) else 1
            out.append(_cell_option(scope, verb, "infinitive", person, w, w.start, written_text, True,
                                    strength, 0.0, "infinitive_form", "missing to"))
            continue
        # --- modal / do + verb: bare infinitive, correct as written -------------------------------
        if _after_modal_or_do(i, s):
            continue
        # --- be + verb: passive (participle) -----------------------------------------------------
        if pn in lists["be_forms"] and verb in _PASSIVE_VERBS and vk & {"base", "past", "bad_past", "participle"} \
                and not (vk & {"present"} and verb == "be"):
            ok = "participle" in vk
            out.append(_cell_option(scope, verb, "past participle", person, w, w.start, written_text,
                                    not ok, 2, 0.0,
                                    "correct" if ok else "wrong_participle", "passive"))
            continue
        # --- finite verb: present or past by the subject and the time --------------------------
        out.extend(_finite_options(verb, vk, readings, w, person, s, scope, past_ctx, future_ctx, i))
    return out


def _is_auxiliary(i: int, s: _Sentence, verb: str) -> bool:
    """Return True when have/be/do here is an auxiliary: its tense is read from the verb after it."""
    if verb not in ("have", "be", "do"):
        return False
    j = i + 1
    while j < len(s.words) and s.words[j].norm in s.lists["adverbs_between"]:
        j += 1
    nxt = s.norm(j)
    if verb == "do":
        return s.norm(i + 1) == "n't" or nxt in s.lists["subject_pronouns"]
    return nxt in lexicon() or nxt.endswith(("ed", "en", "ing"))


_PASSIVE_VERBS = {"finish", "write", "eat", "see", "do", "watch", "play", "start", "study", "want", "like", "have"}


def _span_text(words: list[Word], a: int, b: int) -> str:
    return " ".join(w.text for w in words[a: b + 1])


def _have_aux_before(i: int, s: _Sentence) -> int | None:
    lists = s.lists
    j = s.prev_index(i)
    if s.norm(j) in lists["have_aux"]:
        if s.norm(j) == "'d" and s.norm(i) in lexicon() and \
                not any(r.kind in ("participle", "bad_past", "past") for r in lexicon()[s.norm(i)]):
            return None  # I'd like / I'd go: 'd is would
        return j
    # a question: Have you wrote / Has anybody seed / What have you did
    if s.norm(j) in lists["subject_pronouns"] or s.norm(j) in lists["plural_pronouns"]:
        k = s.prev_index(j)
        if s.norm(k) in ("have", "has", "had", "haven't", "hasn't") or (
            s.norm(k) == "n't" and s.norm(k - 1) in ("have", "has", "had")
        ):
            return k
    return None


def _verbal_after_for(i: int, s: _Sentence, verb: str) -> bool:
    """Return True when 'for X' uses X as a verb (a transfer of Spanish 'para'), not a noun."""
    lists = s.lists
    w = s.words[i]
    readings = lexicon().get(w.norm, ())
    if not any(r.kind in ("base", "present") for r in readings):
        return False
    if w.norm not in lists["noun_like_verbs"]:
        return True
    nxt = s.norm(i + 1)
    return nxt in lists["determiners"] or nxt in ("me", "him", "her", "us", "them", "it", "you") or (
        nxt.isalpha() and nxt not in lists["clause_breaks"] and nxt not in ("at", "in", "on", "with", "from")
    )


def _is_catenative(j: int, s: _Sentence) -> bool:
    n = s.norm(j)
    verb_caten = {x for x in s.lists["catenatives"] if " " not in x} - {
        "have", "has", "had", "going", "used", "allowed", "able", "ready", "happy", "glad", "sad", "hard",
        "easy", "difficult", "important", "nice", "time"}
    if n not in verb_caten:
        return False
    # 'like' is also a preposition ('looks like rain'): only a verb after a subject
    before = s.norm(j - 1)
    return n not in ("like", "likes", "liked") or before in s.lists["subject_pronouns"] or before in (
        "'d", "would", "n't", "really", "also")


def _after_modal_or_do(i: int, s: _Sentence) -> bool:
    lists = s.lists
    j = s.prev_index(i)
    n = s.norm(j)
    if n in lists["modals"] or n in lists["do_aux"] or n in lists["bare_infinitive_triggers"] - {"watch", "see", "saw"}:
        return True
    if n == "'d":
        return True
    # questions: Do you / Did she / Can you + verb
    if n in lists["subject_pronouns"] or n in lists["plural_pronouns"]:
        k = s.prev_index(j)
        if s.norm(k) in lists["modals"] or s.norm(k) in lists["do_aux"] or s.norm(k) == "n't":
            return True
    return False


def _finite_options(verb: str, vk: set[str], readings, w: Word, person: str, s: _Sentence, scope,
                    past_ctx: int, future_ctx: bool, i: int) -> list[Option]:
    out: list[Option] = []
    mine = [r for r in readings if r.verb == verb]
    present_ok = any(r.kind == "present" and person in r.persons for r in mine)
    past_ok = any(r.kind == "past" and person in r.persons for r in mine)
    written = w.text
    # a noun reading ('my studies', 'at work') is impossible right after a subject pronoun
    noun_like = w.norm in s.lists["noun_like_verbs"] and s.norm(s.prev_index(i)) not in s.lists["subject_pronouns"]

    def add(tense: str, person_: str, is_error: bool, strength: int, prior: float, etype: str, rule: str) -> None:
        out.append(_cell_option(scope, verb, tense, person_, w, w.start, written, is_error, strength, prior,
                                etype, rule))

    if vk & {"bad_past"}:
        add("past simple", person, True, 2, 0.0, "overregularised_past", "wrong past form")
        return out
    if vk & {"bad_3sg"}:
        add("present simple", "3rd singular", True, 2, 0.0, "wrong_3sg", "misspelled -s form")
        return out
    if past_ok and not present_ok:
        add("past simple", person, False, 2, 0.0, "correct", "past form agrees")
        return out
    is_be = verb == "be"
    if any(r.kind == "past" for r in mine) and not past_ok and not present_ok:
        # was/were with the wrong person: keep the past
        add("past simple", person, True, 2, 0.0, "wrong_be" if is_be else "base_for_past", "past agreement")
        return out
    wrote_present = any(r.kind in ("present", "base") for r in mine)
    if not wrote_present:
        # a participle alone ('I seen', 'she gone'): the past simple is the one finite reading
        if "participle" in vk:
            add("past simple", person, True, 1, 0.0, "base_for_past", "participle without have")
        return out
    etype_agree = "wrong_be" if is_be else ("wrong_have" if verb == "have" else
                                           ("missing_3sg_s" if person == "3rd singular" else "wrong_3sg"))
    if past_ctx and not _is_auxiliary(i, s, verb):
        strong = past_ctx == 2
        add("past simple", person, True, 2 if strong else 1, 0.0, "wrong_be" if is_be else "base_for_past",
            "past time word")
        if present_ok:
            add("present simple", person, False, 1, -3.0 if strong else -1.0, "correct", "present agrees")
        elif not strong:
            add("present simple", person, True, 1, -1.0, etype_agree, "present agreement")
        return out
    if present_ok:
        add("present simple", person, False, 1 if noun_like else 2, 0.0, "correct", "present agrees")
        return out
    # a present form that does not agree with its subject: present by default; past is possible
    add("present simple", person, True, 1 if noun_like else 2, 0.0, etype_agree, "present agreement")
    if person == "3rd singular" and not future_ctx and not is_be and verb != "have":
        add("past simple", person, True, 1, -2.0, "base_for_past", "past reading")
    return out
