"""The parser's reading of a verb's frame checked against the hand rules' options (tutor.a13.syntax)."""

from __future__ import annotations

from dataclasses import replace

from tutor.a13.options import Option
from tutor.a13.registry import actor_rules
from tutor.a13.sentence import Sentence
from tutor.a13.syntax import Frame, Subject


def read_frame(options: list[Option], frame: Frame | None, i: int, s: Sentence,
                misspelled: dict[int, str], frames: dict[int, Frame | None] | None = None) -> list[Option]:
    """Keep the options whose frame the parser reads as the hand rules do; drop the rest.

    §A13 labels singular subjects only: a subject the parser finds plural or coordinated (*the prices
    of the hotel were*, *both the food and the music were*) gets no correction, nor does a collective
    one where number decides the form (*the staff were* and *was* are both right); a collective
    subject's past or participle is corrected as 3rd singular (*my whole family camed* -> *came*).
    A finite verb with no subject (*when were nine years old*), a person the two readings disagree on,
    or a word beside a non-word (*woubl be*) is a frame the tutor cannot read: it abstains rather than
    guess.
    """
    if not options or garbled(i, s, misspelled):
        return []
    if i in misspelled and (frame is None or not frame.verbal):
        return []  # a non-word the parser reads as a noun ('the other waitres') is no misspelled verb
    if frame is None:
        return options  # the two tokenisations differ here: the hand rules decide
    if not frame.verbal:  # the parser has no verb here ('like' read as a preposition): the hand rules decide,
        # unless whoever would do the action is plural ('students only have ten minutes for eat'), or the noun
        # phrase before the word says plural or an unclear number ('only a few student like', §A13 §5)
        if frame.before.number in ("plural", "unclear"):
            return []
        return [o for o in options if frame.actor.number not in ("plural", "coordinated", "collective", "unclear")]
    sub = frame.subject
    if sub.number == "none" and i > 0 and frames is not None:
        j = s.prev_index(i)
        while j > 0 and s.norm(j) == "to":
            j = s.prev_index(j)
        aux = frames.get(s.words[j].start) if j >= 0 else None  # 'will to study': the auxiliary's subject
        if aux is not None and aux.verbal:
            sub = aux.subject
    # a collective subject: 'the staff were kind' and 'was' are both right, so a word read as a number-dependent
    # form gets no correction at all; a past or a participle is corrected as either number ('my family camed')
    # §A13 has no plural persons: nothing to say; an unclear number ('all the shop were', 'computer have'):
    # the noun is as likely the error as the verb, so the verb is left as written (§A13 §5, which word is wrong)
    leave_alone = sub.number in ("plural", "coordinated", "unclear")
    if sub.number == "collective":
        leave_alone = any(agrees(p) for p in options if p.rule not in actor_rules())
        sub = Subject("singular", "3rd singular")
    out = []
    for o in options:
        if o.rule in actor_rules():  # the person of whoever does the infinitive's action
            actor = frame.actor
            if actor.number in ("plural", "coordinated", "unclear") or (actor.number == "collective" and agrees(o)) or (
                    actor.labelled and actor.person != o.cell.person):
                continue
            out.append(o)
            continue
        if leave_alone:
            continue
        unreadable = sub.number == "none" or (sub.labelled and sub.person != o.cell.person)
        if o.is_error and unreadable:
            continue  # an unreadable frame: no correction, though the verb is still described as written
        if not o.is_error and (unreadable or frame.reported or frame.relative):
            # an agreeing present in a reported or relative clause is right in a past narrative too
            # ('she told me that she wants to move', 'a friend who lives in Lima')
            o = replace(o, tense_open=False)
        out.append(o)
    return out


def agrees(o: Option) -> bool:
    """Return True when the option's form depends on the subject's number: the present simple, and *be* in
    the past (*is / are*, *was / were*); a past, a participle, an infinitive or a future does not."""
    return o.cell.tense == "present simple" or (o.cell.tense == "past simple" and o.cell.verb == "be")


def garbled(i: int, s: Sentence, misspelled: dict[int, str]) -> bool:
    """Return True when the frame around word i is unreadable: the word before it is a non-word (it may
    be the auxiliary or the subject, whose number nothing tells: *woubl be*, *the beoples is*), or a misspelled
    form follows *be*, where a participle and an -ing form both fit (*I am writen to you*)."""
    from tutor.a13.spelling import is_non_word

    j = i - 1
    if j >= 0 and j not in misspelled and is_non_word(s.words[j].text) and not (
            s.norm(j) in s.lists["subject_pronouns"] or s.norm(j) in s.lists["plural_pronouns"]):
        return True  # (a subject pronoun the learner wrote in Spanish, *yo*, *ella*, is read as its English one)
    return i in misspelled and s.norm(s.prev_index(i)) in s.lists["be_forms"]
