"""The §A13 scope: 20 verbs x 5 tenses x 3 persons, each cell with its English and Spanish forms.

The table is data (`data/a13/*.json`); this module expands and validates it once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache

from tutor.resources import data_path

TENSES: tuple[str, ...] = (
    "infinitive",
    "present simple",
    "past simple",
    "past participle",
    "simple future",
)
PERSONS: tuple[str, ...] = ("1st singular", "2nd singular", "3rd singular")
_SPANISH_TENSE = {"present simple": "presente", "past simple": "indefinido", "simple future": "futuro"}


class ScopeError(ValueError):
    """The §A13 data files are missing a value or contradict the rules."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One (verb, tense, person) cell of §A13 with its accepted answers (canonical first)."""

    verb: str
    tense: str
    person: str
    english: tuple[str, ...]
    spanish: tuple[str, ...]

    @property
    def correct_form(self) -> str:
        """Return the canonical English form."""
        return self.english[0]

    @property
    def key(self) -> tuple[str, str, str]:
        """Return (verb, tense, person)."""
        return (self.verb, self.tense, self.person)


@dataclass(frozen=True)
class Scope:
    """The whole §A13 table: the verbs in declared order and the 300 cells."""

    verbs: tuple[str, ...]
    tenses: tuple[str, ...]
    persons: tuple[str, ...]
    cells: dict[tuple[str, str, str], Cell]
    lemmas: dict[str, tuple[str, ...]]
    existential_spanish: dict[str, tuple[str, ...]]  # tense -> Spanish 'haber' forms after existential there

    def existential(self, cell: Cell) -> Cell:
        """Return the *be* cell as existential *there* fills it: the same English, Spanish *haber* (hay)."""
        if cell.verb != "be" or cell.person != "3rd singular":
            raise KeyError(f"existential 'there' has no cell {cell.key!r}; only be in the 3rd singular")
        return replace(cell, spanish=self.existential_spanish[cell.tense])

    def cell(self, verb: str, tense: str, person: str) -> Cell:
        """Return the cell for (verb, tense, person); KeyError names the missing cell."""
        try:
            return self.cells[(verb, tense, person)]
        except KeyError:
            raise KeyError(f"no §A13 cell for verb={verb!r}, tense={tense!r}, person={person!r}") from None


def _spanish_forms(lemma_table: dict, gustar: dict, lemmas: list[str], tense: str, idx: int) -> tuple[str, ...]:
    out: list[str] = []
    for lemma in lemmas:
        if lemma == "gustar":
            if tense == "infinitive":
                forms = [gustar["infinitivo"]]
            elif tense == "past participle":
                forms = [gustar["participio"]]
            else:
                singular, plural = gustar[_SPANISH_TENSE[tense]]
                clitic = gustar["clitics"][idx]
                forms = [f"{clitic} {singular}", f"{clitic} {plural}", singular, plural]
        else:
            entry = lemma_table[lemma]
            if tense == "infinitive":
                forms = [lemma]
            elif tense == "past participle":
                forms = [entry["participio"]]
            else:
                forms = [entry[_SPANISH_TENSE[tense]][idx]]
        for form in forms:
            if form not in out:
                out.append(form)
    return tuple(out)


def _english_forms(entry: dict, verb: str, tense: str, idx: int) -> tuple[str, ...]:
    if tense == "infinitive":
        return (f"to {verb}", verb)
    if tense == "present simple":
        return (entry["present"][idx],)
    if tense == "past simple":
        return (entry["past"][idx],)
    if tense == "past participle":
        return (entry["participle"],)
    return (f"will {verb}",)


def _validate(raw_verbs: dict, lemma_table: dict) -> None:
    if tuple(raw_verbs["tenses"]) != TENSES or tuple(raw_verbs["persons"]) != PERSONS:
        raise ScopeError("data/a13/verbs.json: tenses or persons differ from §A13 §2")
    verbs = raw_verbs["verbs"]
    if len(verbs) != 20:
        raise ScopeError(f"data/a13/verbs.json: expected 20 verbs, found {len(verbs)}")
    for verb, entry in verbs.items():
        for key, size in (("present", 3), ("past", 3)):
            if len(entry.get(key, [])) != size or not all(entry[key]):
                raise ScopeError(f"data/a13/verbs.json: verb {verb!r} needs {size} non-empty {key!r} forms")
        if not entry.get("participle") or not entry.get("spanish"):
            raise ScopeError(f"data/a13/verbs.json: verb {verb!r} lacks 'participle' or 'spanish'")
        for lemma in entry["spanish"]:
            if lemma != "gustar" and lemma not in lemma_table:
                raise ScopeError(f"data/a13/spanish.json: lemma {lemma!r} (of {verb!r}) has no conjugation")
    for lemma, entry in lemma_table.items():
        for key in ("presente", "indefinido", "futuro"):
            if len(entry.get(key, [])) != 3 or not all(entry[key]):
                raise ScopeError(f"data/a13/spanish.json: lemma {lemma!r} needs 3 {key!r} forms")
        if not entry.get("participio"):
            raise ScopeError(f"data/a13/spanish.json: lemma {lemma!r} lacks 'participio'")


@cache
def load_scope() -> Scope:
    """Load, expand and validate the §A13 table from `data/a13/`."""
    raw_verbs = json.loads(data_path("a13", "verbs.json").read_text(encoding="utf-8"))
    spanish = json.loads(data_path("a13", "spanish.json").read_text(encoding="utf-8"))
    lemma_table = spanish["lemmas"]
    existential = {t: tuple(spanish["existential"][t]) for t in TENSES}
    gustar = json.loads(data_path("a13", "gustar.json").read_text(encoding="utf-8"))
    _validate(raw_verbs, lemma_table)
    cells: dict[tuple[str, str, str], Cell] = {}
    lemmas: dict[str, tuple[str, ...]] = {}
    for verb, entry in raw_verbs["verbs"].items():
        lemmas[verb] = tuple(entry["spanish"])
        for tense in TENSES:
            for idx, person in enumerate(PERSONS):
                cells[(verb, tense, person)] = Cell(
                    verb=verb,
                    tense=tense,
                    person=person,
                    english=_english_forms(entry, verb, tense, idx),
                    spanish=_spanish_forms(lemma_table, gustar, list(entry["spanish"]), tense, idx),
                )
    if len(cells) != 300:
        raise ScopeError(f"§A13 expands to {len(cells)} cells, expected 300")
    return Scope(
        verbs=tuple(raw_verbs["verbs"]),
        tenses=TENSES,
        persons=PERSONS,
        cells=cells,
        lemmas=lemmas,
        existential_spanish=existential,
    )
