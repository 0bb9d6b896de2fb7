"""The analyser's proposers: one function per construction that decides a verb's slot.

Each proposer looks at one verb word (a `Site`) and either leaves it to the next proposer (returns
None) or claims it, returning the options it proposes (an empty list: the verb is right as written,
or §A13 does not label it). The order in which they are tried, the rules each may emit, their
families, explanations, examples and counter-examples are data: `data/a13/rules.json`, read by
`tutor.a13.registry`. A new construction is a function here and an entry there, with its examples.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from tutor.a13.cues import (
    after_causative_object,
    after_modal_or_do,
    is_auxiliary,
    is_catenative,
    is_do_support,
    is_subjunctive_were,
    is_would,
)
from tutor.a13.lexicon import Reading
from tutor.a13.options import Option, option, span_text
from tutor.a13.sentence import Sentence, verbal_after
from tutor.a13.syntax import Frame, Subject
from tutor.a13.time_cues import finished_time, perfect_cue
from tutor.a13.words import Word
from tutor.scope import Scope


@dataclass(frozen=True)
class Site:
    """One verb word as a proposer sees it: the word, the verb it is read as, and its sentence."""

    i: int
    w: Word
    verb: str
    kinds: frozenset[str]  # the reading kinds of the word for this verb (base, present, past, …)
    readings: tuple[Reading, ...]
    s: Sentence
    scope: Scope
    past_level: int  # 2: a past time word in the clause; 1: elsewhere in the sentence; -1: a present one
    future_ctx: bool
    frame: Frame | None

    @property
    def prev(self) -> int:
        """Return the index of the word before, skipping adverbs (never, already, not …)."""
        return self.s.prev_index(self.i)

    @property
    def pn(self) -> str:
        """Return the normal form of the word before (adverbs skipped)."""
        return self.s.norm(self.prev)

    def option(self, tense: str, person: str, start: int, written: str, is_error: bool, strength: int,
               error_type: str, rule: str, prior: float = 0.0) -> Option:
        """Return an option of this verb in (tense, person) for the span starting at `start`."""
        return option(self.scope, self.verb, tense, person, self.w, start, written, is_error, strength, prior,
                      error_type, rule)


Proposer = Callable[[Site], "list[Option] | None"]
PROPOSERS: dict[str, Proposer] = {}


def proposer(fn: Proposer) -> Proposer:
    """Register a proposer under its function name (the name data/a13/rules.json refers to)."""
    PROPOSERS[fn.__name__] = fn
    return fn


# --- words that are not a verb of §A13 here -----------------------------------------------------

@proposer
def do_support(site: Site) -> list[Option] | None:
    """do / does / did as an auxiliary (negation, question, emphasis): outside §A13's labels."""
    return [] if site.verb == "do" and is_do_support(site.i, site.s) else None


@proposer
def like_preposition(site: Site) -> list[Option] | None:
    """*like* after a verb of seeming or a noun (*looks like rain*, *sounds like you*): a preposition."""
    s, i = site.s, site.i
    after = s.lists["like_preposition_after"]
    if site.verb == "like" and (s.norm(i - 1) in after or (s.is_nominal(i - 1) and s.norm(i - 2) in after)):
        return []
    return None


@proposer
def no_finite_slot(site: Site) -> list[Option] | None:
    """A verb where the slot takes no finite verb and no §A13 form: a noun after a possessive *'s*, right after a
    preposition (*before go*,
    *thanks for help me*: an -ing form), a base form after a form of *be* that is no passive (*my hobby is play
    chess*, *she is always watch TV*, *the best part was be there*: an -ing form, or one verb too many), or a
    verb right after a reflexive object (*I consider myself be lucky*)."""
    s, i, lists, pn, prev = site.s, site.i, site.s.lists, site.pn, site.prev
    if pn == "'s" and prev == i - 1 and s.is_nominal(prev - 1) and s.norm(i) in lists["noun_like_verbs"]:
        return []  # a possessive: 'my grandfather's watch', 'my mother's work' is a noun
    if "base" in site.kinds and pn in lists["be_forms"] and site.verb != "be" and (
            site.verb not in lists["passive_verbs"] or _object_after(i, s)):
        return []  # 'my hobby is play chess', 'the best thing was walk by the sea': an -ing form, not a finite verb
    if not site.kinds & {"base", "present"} or prev != i - 1:
        return None
    if pn in lists["gerund_prepositions"]:
        return []
    if pn == "for" and s.norm(prev - 1) in lists["for_gerund_heads"]:
        return []
    if site.verb == "be" and "base" in site.kinds and pn in lists["be_forms"]:
        return []
    return [] if pn in lists["reflexive_pronouns"] else None


def _object_after(i: int, s: Sentence) -> bool:
    """Return True when a direct object follows word i (*play chess*, *watch a film*, *study it*), so a base form
    after *be* is no passive (*the match was play in the rain* is one); a time phrase is no object (*last week*)."""
    j = s.next_index(i)
    n = s.norm(j)
    times = s.lists["time_nouns"]
    if n in s.lists["time_determiners"] or n in times:
        return False
    k = j + 1 if n not in ("a", "an") else j + 2  # 'two weeks before', 'a few days late': a time phrase
    if s.norm(k) in times or s.norm(k).removesuffix("s") in times:
        return False
    return n in s.lists["determiners"] or n in s.lists["object_pronouns"] or s.is_nominal(j)


@proposer
def there_mistyped(site: Site) -> list[Option] | None:
    """*be* right after *the* or *their* (*I think the are many reasons*): the learner meant *there*, and the
    verb agrees with what follows; the mistyped word is the error, not the verb."""
    return [] if site.verb == "be" and site.prev == site.i - 1 and site.pn in site.s.lists["there_typos"] else None


# --- slots an auxiliary or a marker fixes ------------------------------------------------------

@proposer
def after_will(site: Site) -> list[Option] | None:
    """will (+ to) + verb, or Will + subject + verb: the simple future."""
    s, i, words, lists = site.s, site.i, site.s.words, site.s.lists
    pn, prev = site.pn, site.prev
    span_from = None
    if pn in lists["will_aux"]:
        will_j = span_from = prev
    elif pn == "to" and s.norm(s.prev_index(prev)) in lists["will_aux"]:
        will_j = span_from = s.prev_index(prev)
    else:
        will_j = s.question_aux_before(i, lists["will_aux"])
    if will_j is None:
        return None
    person = s.subject(will_j)
    if person is None:
        return []
    ok = "base" in site.kinds and pn != "to"
    w = site.w
    start = words[span_from].start if span_from is not None and words[span_from].norm == "will" else w.start
    written = w.text if start == w.start else span_text(words, span_from, i)
    return [site.option("simple future", person, start, written, not ok, 2,
                        "correct" if ok else "wrong_future", "after will")]


@proposer
def after_have(site: Site) -> list[Option] | None:
    """have / has / had (+ subject in a question) + verb: the past participle; a present perfect with a
    finished time in its clause: the past simple."""
    s, i, lists, w = site.s, site.i, site.s.lists, site.w
    pn, prev = site.pn, site.prev
    have_j = prev if pn in lists["have_aux"] and not is_would(prev, i, s) else \
        s.question_aux_before(i, {"have", "has", "had"})
    if have_j is None:
        return None
    person = s.subject(have_j)
    if person is None:
        return []
    vk = site.kinds
    ok = "participle" in vk
    strength = 2
    if not ok and ("base" in vk or "present" in vk) and w.norm in lists["mass_noun_verbs"] \
            and have_j == i - 1 and not perfect_cue(i, s):
        strength = 1  # 'I have work tomorrow': a noun with no article may follow have
    out = [site.option("past participle", person, w.start, w.text, not ok, strength,
                       "correct" if ok else "wrong_participle", "after have")]
    if s.norm(have_j) in ("have", "has", "'ve") and finished_time(have_j, s):
        # a present perfect with a finished time in its clause ('I have seen it two days ago',
        # 'when I was a child I have studied …' -> saw, studied); without one, a duration
        # ('I haven't written to you for a long time') keeps the perfect right
        out.append(site.option("past simple", person, s.words[have_j].start, span_text(s.words, have_j, i),
                               True, 2, "wrong_tense", "perfect with a finished time"))
    return out


@proposer
def going_to(site: Site) -> list[Option] | None:
    """going to + verb: a *going to* future, which §A13 does not label."""
    s = site.s
    return [] if site.pn == "to" and s.norm(s.prev_index(site.prev)) == "going" else None


@proposer
def after_to_or_for(site: Site) -> list[Option] | None:
    """to + verb, or a wrong *for* + verb (Spanish *para*): the infinitive."""
    s, i, lists, pn, prev, vk = site.s, site.i, site.s.lists, site.pn, site.prev, site.kinds
    if pn not in ("to", "for") or (pn == "for" and "base" not in vk and "present" not in vk):
        return None
    verbal = pn == "to" or verbal_after(i, s)
    if not (verbal or "base" in vk):
        return None
    person = s.actor(prev)
    if person is None:
        return []
    ok = pn == "to" and "base" in vk
    governed = s.norm(s.prev_index(prev)) in lists["catenatives"]
    doubtful = (not verbal) or (pn == "to" and not ok and not governed and s.doubtful_noun(i))
    return [site.option("infinitive", person, s.words[prev].start, span_text(s.words, prev, i), not ok,
                        1 if doubtful else 2, "correct" if ok else "infinitive_form", f"after {pn}")]


@proposer
def causative_object(site: Site) -> list[Option] | None:
    """make / let / have / see + an object + a bare infinitive (*she made me write*): right as written."""
    return [] if after_causative_object(site.i, site.s) else None


@proposer
def missing_to(site: Site) -> list[Option] | None:
    """A verb that takes *to* + a bare verb (*I hope finish*): the infinitive with *to*."""
    s, i = site.s, site.i
    if not (site.prev == i - 1 and is_catenative(site.prev, s) and ("base" in site.kinds or "present" in site.kinds)):
        return None
    person = s.actor(site.prev)
    if person is None:
        return []
    doubtful = s.doubtful_noun(i, after_verb=True)
    return [site.option("infinitive", person, site.w.start, site.w.text, True, 1 if doubtful else 2,
                        "infinitive_form", "missing to")]


@proposer
def after_modal(site: Site) -> list[Option] | None:
    """A modal + an inflected form (*you should came*): the bare infinitive."""
    vk = site.kinds
    if site.pn not in site.s.lists["modals"] or "base" in vk or not vk & {
            "past", "participle", "bad_past", "present", "bad_3sg"}:
        return None
    person = site.s.subject(site.prev)
    if person is None:
        return []
    return [site.option("infinitive", person, site.w.start, site.w.text, True, 2, "infinitive_form",
                        "after modal")]


@proposer
def bare_after_modal_or_do(site: Site) -> list[Option] | None:
    """A modal or do + a bare infinitive (*she can swim*, *did you see*): right as written."""
    return [] if after_modal_or_do(site.i, site.s) else None


@proposer
def passive(site: Site) -> list[Option] | None:
    """be + a form of a verb that takes the passive (*the bridge was finish*): the past participle."""
    s, vk = site.s, site.kinds
    if not (site.pn in s.lists["be_forms"] and site.verb in s.lists["passive_verbs"]
            and vk & {"base", "past", "bad_past", "participle"}):
        return None
    person = s.subject(site.prev)
    if person is None:
        return []
    ok = "participle" in vk
    return [site.option("past participle", person, site.w.start, site.w.text, not ok, 2,
                        "correct" if ok else "wrong_participle", "passive")]


@proposer
def redundant_auxiliary(site: Site) -> list[Option] | None:
    """A form of *be* with another finite or participle form after it (*she is always been kind*, *we was
    went*): one verb should go, so neither word gets a §A13 swap."""
    s, i, lists = site.s, site.i, site.s.lists
    nxt = s.next_index(i)
    if site.verb == "be" and site.w.norm in lists["be_forms"] and _past_only(nxt, s):
        return []
    if site.pn in lists["be_forms"] - {"be", "being"} and site.kinds & {"past", "participle"} \
            and not site.kinds & {"base", "present"} and (site.verb == "be" or site.verb not in lists["passive_verbs"]):
        return []
    return None


def _past_only(j: int, s: Sentence) -> bool:
    """Return True when word j is a past or a participle of the 20 and nothing else (*been*, *went*, *saw*)."""
    kinds = {r.kind for r in s.lex.get(s.norm(j), ())}
    return bool(kinds & {"past", "participle"}) and not kinds & {"base", "present", "ing"}


# --- finite verbs -------------------------------------------------------------------------------

@proposer
def existential_there(site: Site) -> list[Option] | None:
    """be after existential *there*: it agrees with what follows; §A13 labels a singular or uncountable
    noun (3rd singular, Spanish *haber*); a plural one gets a note, never a correction."""
    s, i = site.s, site.i
    if site.verb != "be" or not (s.norm(i - 1) == "there" or s.norm(i + 1) == "there"):
        return None
    frame = site.frame
    if frame is None or frame.existential != "singular":
        return []
    narrative = not (frame.reported or frame.relative) and _narrative(site)
    options = _finite_options(site, "3rd singular", 2, past_rule="past narrative") if narrative else \
        _finite_options(site, "3rd singular", site.past_level)
    return [replace(o, cell=site.scope.existential(o.cell), existential=True) for o in options]


@proposer
def finite(site: Site) -> list[Option] | None:
    """A finite verb: present or past by its subject and the time of its clause."""
    person = site.s.subject(site.i)
    frame = site.frame
    past_level = site.past_level
    if person is None and frame is not None and frame.verbal and frame.subject.labelled and (
            frame.past_neighbour or _subject_just_before(site)):
        # the hand rules lose the subject of a verb far down a chain ('I opened the door, turned on the
        # light and see'), after a relative clause ('the flat that we saw yesterday have') or after a
        # clause joined by 'and' ('she sings and he write'); the parse finds it
        person = frame.subject.person
    if person is None:
        return []
    if past_level == 2 and frame is not None and frame.verbal and not frame.past_neighbour \
            and _past_cue_only_in_subject(site, frame.subject):
        past_level = 0  # the time word dates the subject's relative clause ('the flat that we saw yesterday')
    if frame is not None and frame.verbal:
        # the parse says which verb a finished time governs: its own clause, or the clause whose subject it
        # shares ('yesterday she went to the park and eat'); one in another clause only colours the sentence
        governed = frame.past_marker or frame.past_neighbour == "temporal"  # or a past time clause attached to it
        past_level = 2 if governed else min(past_level, 1)
        if past_level == 1 and _is_state(site):
            past_level = 0  # a present state may still hold: only a finished time that governs it moves it
    if frame is not None and (frame.reported or frame.relative):
        if past_level == 1:
            past_level = 0  # a past time word in the main clause does not date a reported or relative clause
    elif frame is not None and _narrative(site):
        # the narrative dates it: 'I opened the door and see', 'when I arrived I see' -> saw
        return _finite_options(site, person, 2, past_rule="past narrative")
    return _finite_options(site, person, past_level)


def _subject_just_before(site: Site) -> bool:
    """Return True when the parser's subject of the verb ends right before it (at most one word between)."""
    sub, w = site.frame.subject, site.w
    if sub.end < 0 or sub.end > w.start:
        return False
    return sum(1 for x in site.s.words if sub.end <= x.start and x.end <= w.start) <= 1


def _past_cue_only_in_subject(site: Site, sub: Subject) -> bool:
    """Return True when the verb's subject holds a clause of its own (a relative word or a verb in it) and
    every past time word of the sentence stands inside it ('the house that my parents bought last year')."""
    from tutor.a13.time_cues import is_past_cue

    s = site.s
    if sub.start < 0 or sub.end > site.w.start:
        return False
    inside = [k for k, x in enumerate(s.words) if sub.start <= x.start and x.end <= sub.end]
    if not any(s.is_verbish(k) or s.norm(k) in s.lists["relatives"] for k in inside[1:]):
        return False
    cues = [k for k in range(len(s.words)) if is_past_cue(s.norms, k, s.lists)]
    return bool(cues) and all(k in inside for k in cues)


def _is_state(site: Site) -> bool:
    """Return True for a verb that names a state here (*be*, *have*, *like*, *want*, *see*, *look*), not an
    action (*look at*)."""
    s = site.s
    return site.verb in s.lists["stative_verbs"] and s.norm(site.i + 1) not in s.lists["event_particles"].get(
        site.verb, ())


def _narrative(site: Site) -> bool:
    """Return True when the narrative dates the verb as past: a past when-clause (either way round), or
    for an event verb, coordination with a past verb; never with a present time word in its clause."""
    kind = site.frame.past_neighbour if site.frame is not None else None
    if kind is None or site.past_level < 0:
        return False
    s = site.s
    event = site.verb not in s.lists["stative_verbs"] or s.norm(site.i + 1) in s.lists["event_particles"].get(
        site.verb, ())  # 'look at' is an action, 'look tired' a state
    return kind == "temporal" or event


def _finite_options(site: Site, person: str, past_level: int, past_rule: str = "past time word") -> list[Option]:
    """Return the options of a finite verb with a known person: its agreement, its tense by the time."""
    s, i, w, verb, vk = site.s, site.i, site.w, site.verb, site.kinds
    out: list[Option] = []
    if is_subjunctive_were(i, s):
        return out
    mine = [r for r in site.readings if r.verb == verb]
    present_ok = any(r.kind == "present" and person in r.persons for r in mine)
    past_ok = any(r.kind == "past" and person in r.persons for r in mine)
    is_be = verb == "be"
    doubtful = s.doubtful_noun(i)

    def add(tense: str, is_error: bool, strength: int, prior: float, etype: str, rule: str) -> None:
        out.append(site.option(tense, person, w.start, w.text, is_error, strength, etype, rule, prior))

    if "bad_past" in vk:
        add("past simple", True, 2, 0.0, "overregularised_past", "wrong past form")
        return out
    if "bad_3sg" in vk:
        # studys / watchs: the -s form of the subject's person (§A13 §5: person 3rd singular)
        add("present simple", True, 2, 0.0, "wrong_3sg", "misspelled -s form")
        return out
    if past_ok and not present_ok:
        add("past simple", False, 2, 0.0, "correct", "past form agrees")
        if past_level >= 0:
            # a past form is moved to the present only by a present time word in its own clause, never because
            # the text around it is present ('I was happy to get your letter')
            out[-1] = replace(out[-1], tense_open=False)
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
    if past_level > 0 and not is_auxiliary(i, s, verb):
        strong = past_level == 2
        add("past simple", True, 2 if strong or not present_ok else 1, 0.0,
            "wrong_be" if is_be else "base_for_past", past_rule)
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
    if person == "3rd singular" and past_level == 0 and not site.future_ctx and not is_be and verb != "have":
        add("past simple", True, 1, -2.0, "base_for_past", "past reading")
    return out


# --- -ing forms ---------------------------------------------------------------------------------

@proposer
def will_ing(site: Site) -> list[Option] | None:
    """will + an -ing form (*I will watching*): the simple future."""
    s, pn, prev, w = site.s, site.pn, site.prev, site.w
    if pn not in s.lists["will_aux"]:
        return None
    person = s.subject(prev)
    if person is None:
        return []
    start = s.words[prev].start if pn == "will" else w.start
    written = span_text(s.words, prev, site.i) if pn == "will" else w.text
    return [site.option("simple future", person, start, written, True, 2, "wrong_future", "will + -ing")]


@proposer
def gerund_after_to_verb(site: Site) -> list[Option] | None:
    """A gerund after a verb that takes *to* (*I decided studying*): the infinitive."""
    s, pn, prev = site.s, site.pn, site.prev
    two = f"{s.norm(prev - 1)} {pn}" if prev > 0 else pn
    if not (pn in s.lists["to_infinitive_verbs"] or two in s.lists["to_infinitive_verbs"]):
        return None
    person = s.actor(prev)
    if person is None:
        return []
    return [site.option("infinitive", person, site.w.start, site.w.text, True, 2, "infinitive_form",
                        "gerund after a to-verb")]
