"""Bilingual one-line explanations from data/explanations/a13.json, filled from the §A13 table."""

from __future__ import annotations

import json
from functools import cache

from tutor.a13.analysis import Option
from tutor.resources import data_path

_SUBJECT = {"1st singular": "I", "2nd singular": "you", "3rd singular": "he / she / it"}


@cache
def _templates() -> dict[str, dict[str, str]]:
    raw = json.loads(data_path("explanations", "a13.json").read_text(encoding="utf-8"))
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def explain(option: Option | None) -> tuple[str, str]:
    """Return (english, spanish) explanations for the chosen option (None: out of scope)."""
    if option is None:
        return _render(None, "", "", "")
    return _render(option.cell, option.rule if option.is_error else "correct", option.written, option.cell.correct_form)


def explain_candidate(candidate) -> tuple[str, str]:
    """Return (english, spanish) explanations for a judged candidate (tutor.judge.slots.Candidate)."""
    cell = candidate.cell
    if cell is None:
        return _render(None, "", "", "")
    key = candidate.rule if candidate.change else "correct"
    if key == "alternative tense":
        key = "past reading" if cell.tense == "past simple" else "present agreement"
    if candidate.existential and key in ("present agreement", "past agreement"):
        key = "there agreement"
    return _render(cell, key, candidate.written, candidate.correct_form or cell.correct_form)


def explain_abstention(analysis) -> tuple[str, str]:
    """Return (english, spanish) for a sentence the tutor gives no §A13 answer: a plural subject (*My brothers
    is students*: plural subjects take *are*), a subject whose number is unclear (*all the shop were*: the noun
    may be the error), or no verb of the 20 at all. A plural form is named only where it follows from the form
    as written (*is* → *are*, *went* stays *went*), never a tense the sentence may not want."""
    t = _templates()
    plural = getattr(analysis, "plural_verbs", [])
    if not plural:
        entry = t["out of scope"]
        return entry["en"], entry["es"]
    word = plural[0]
    frame = getattr(analysis, "frames", {}).get(word.start)
    number = frame.subject.number if frame is not None else "plural"
    counterpart = plural_counterpart(word.norm)
    if number == "unclear":
        key = "unclear subject"
    elif counterpart != word.norm:
        key = "plural subject"
    else:
        key = "plural subject as written"
    values = {"written": word.text, "plural": counterpart}
    entry = t[key]
    return entry["en"].format(**values), entry["es"].format(**values)


# The forms of *be* that a plural subject (and *you*) takes as written; every other verb's plural present is its base.
_PLURAL_FORMS = frozenset({"are", "'re", "were"})


def plural_counterpart(norm: str) -> str:
    """Return the form a plural subject takes, in the same tense, where a learner wrote `norm` (is -> are,
    has -> have, goes -> go); `norm` itself when a plural subject takes it as written (eat, went)."""
    from tutor.a13.lexicon import lexicon
    from tutor.scope import load_scope

    special = {"is": "are", "'s": "are", "am": "are", "'m": "are", "was": "were", "has": "have", "does": "do"}
    if norm in special:
        return special[norm]
    if norm in _PLURAL_FORMS:
        return norm  # are, were, 're: already the plural's form
    readings = lexicon().get(norm, ())
    scope = load_scope()
    for r in readings:
        if r.kind in ("present", "bad_3sg") and not any(x.kind == "base" for x in readings):
            return r.verb  # goes -> they go, watchs -> they watch
        if r.kind == "bad_past":
            return scope.cell(r.verb, "past simple", "2nd singular").correct_form  # goed -> they went
    return norm  # a base or a past form a plural subject already takes as written


def explain_cell(cell, rule: str, form: str, written: str = "") -> tuple[str, str]:
    """Return (english, spanish) explanations of `form` in a §A13 cell by a rule of data/explanations/a13.json
    ('after have', 'past agreement', 'present agreement', …), filled from the table."""
    return _render(cell, rule, written, form)


def _third_person_key(verb: str, form: str) -> str:
    """Return the template that says how the 3rd-singular present is spelled: -s (works), -es (goes, watches),
    -ies (studies), or irregular (has), read off the form itself, never claiming an -s a form does not add."""
    if form == verb + "s":
        return "present agreement 3rd"
    if form == verb + "es":
        return "present agreement 3rd -es"
    if verb.endswith("y") and form == verb[:-1] + "ies":
        return "present agreement 3rd -ies"
    return "present agreement 3rd irregular"


def _render(cell, key: str, written: str, form: str) -> tuple[str, str]:
    """Fill the template for `key` (the slot rule, or 'correct') from the cell and the written word."""
    t = _templates()
    if cell is None:
        entry = t["out of scope"]
        return entry["en"], entry["es"]
    if key in ("present agreement", "present agrees"):
        key = "present agreement be" if cell.verb == "be" else (
            _third_person_key(cell.verb, form) if cell.person == "3rd singular" else "present agreement")
    if key == "wrong past form" and cell.verb not in ("be", "have", "do", "go", "come", "see", "eat", "write"):
        key = "wrong past form regular"
    entry = t[key]  # every rule has its template (a test checks it): never a silent "Correct!"
    aux = written.split()[0] if " " in written else ""
    if key == "after have":
        aux = "have / has / had"
    if key == "passive":
        aux = "be"
    values = {"form": form, "written": written, "verb": cell.verb, "aux": aux, "subject": _SUBJECT[cell.person],
              "spanish": " / ".join(cell.spanish)}
    return entry["en"].format(**values), entry["es"].format(**values)
