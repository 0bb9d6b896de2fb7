"""Every written form of the 20 verbs, right or wrong, with what it can be read as.

Right forms come from the §A13 table; wrong forms (goed, wented, studys, watchs) are generated
by the regular learner-error rules of §A13 §6, never listed per sentence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from tutor.resources import data_path
from tutor.scope import PERSONS, load_scope

ALL_PERSONS = frozenset(PERSONS)
IRREGULAR = ("be", "have", "do", "go", "come", "see", "eat", "write")


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a written word: verb + kind, and for finite forms the persons it agrees with.

    kind is one of: base, present, past, participle, bad_past (overregularised or double-marked
    past), bad_3sg (misspelled third-singular), ing.
    """

    verb: str
    kind: str
    persons: frozenset[str] = ALL_PERSONS


def _ed(word: str) -> str:
    return word + "d" if word.endswith("e") else word + "ed"


def _wrong_forms(verb: str, entry: dict) -> dict[str, str]:
    """Return wrong form -> kind for one verb, from general error rules."""
    out: dict[str, str] = {}
    base, past, part, third = verb, entry["past"][0], entry["participle"], entry["present"][2]
    if verb in IRREGULAR and verb != "be":
        out[_ed(base)] = "bad_past"  # goed, comed, seed, eated, writed, doed, haved
        out[base + "ed"] = "bad_past"  # eated / comeed spelling variants
        if base[-1] not in "aeiouy" and len(base) <= 4:
            out[base + base[-1] + "ed"] = "bad_past"  # writted-style doubling (eatted)
        out[_ed(past)] = "bad_past"  # wented, camed, wroted, sawed, ated, dided
        out[past + "ed"] = "bad_past"
    if base.endswith("y") and base[-2] not in "aeiou":
        out[base + "ed"] = "bad_past"  # studyed
        out[base + "es"] = "bad_3sg"
    for wrong in (base + "s", base + "es"):
        if wrong != third:
            out[wrong] = "bad_3sg"  # studys, watchs, finishs, gos, dos, haves
    if verb == "be":
        for wrong in ("beed", "wased", "wered", "bes"):
            out[wrong] = "bad_past" if wrong != "bes" else "bad_3sg"
    if verb in IRREGULAR and part != past:
        out.setdefault(_ed(part), "bad_past")  # goned, doned
    return out


def _ing(verb: str) -> str:
    if verb == "be":
        return "being"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and verb not in ("be", "see"):
        return verb[:-1] + "ing"
    return verb + "ing"


@cache
def lexicon() -> dict[str, tuple[Reading, ...]]:
    """Return lower-case word -> readings, for every right and wrong form of the 20 verbs."""
    scope = load_scope()
    raw = json.loads(data_path("a13", "verbs.json").read_text(encoding="utf-8"))["verbs"]
    table: dict[str, list[Reading]] = {}

    def add(word: str, reading: Reading) -> None:
        bucket = table.setdefault(word, [])
        if reading not in bucket:
            bucket.append(reading)

    for verb in scope.verbs:
        entry = raw[verb]
        add(verb, Reading(verb, "base"))
        for idx, form in enumerate(entry["present"]):
            persons = frozenset(p for i, p in enumerate(PERSONS) if entry["present"][i] == form)
            add(form, Reading(verb, "present", persons))
            del idx
        for form in dict.fromkeys(entry["past"]):
            persons = frozenset(p for i, p in enumerate(PERSONS) if entry["past"][i] == form)
            add(form, Reading(verb, "past", persons))
        add(entry["participle"], Reading(verb, "participle"))
        add(_ing(verb), Reading(verb, "ing"))
        for wrong, kind in _wrong_forms(verb, entry).items():
            if wrong not in table:  # never shadow a right form (e.g. 'does', 'goes')
                add(wrong, Reading(verb, kind))
    return {word: tuple(readings) for word, readings in table.items()}


@cache
def out_of_scope_errors() -> dict[str, str]:
    """Return wrong regularised forms of common irregular verbs outside §A13 -> their verb."""
    raw = json.loads(data_path("a13", "analysis.json").read_text(encoding="utf-8"))["irregular_out_of_scope"]
    return {form: verb for verb, forms in raw.items() if not verb.startswith("_") for form in forms}
