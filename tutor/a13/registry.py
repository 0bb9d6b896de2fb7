"""The analyser's registry, read from data/a13/rules.json: the proposers in the order they are tried, and
every rule they may emit with its family, whose person labels it, its explanation and its examples."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from tutor.a13.rules import PROPOSERS, Proposer
from tutor.resources import data_path
from tutor.scope import ScopeError


@dataclass(frozen=True)
class Rule:
    """One kind of option the analyser proposes (an option's `rule`)."""

    id: str
    family: str  # the group whose trust the judge fits (feature fam_<family>)
    person: str  # 'subject' (the clause's subject) or 'actor' (whoever does an infinitive's action)
    explanation: str | None  # the key in data/explanations/a13.json; None for a rule that keeps a verb
    examples: tuple[dict[str, Any], ...] = ()
    counter_examples: tuple[str, ...] = ()
    keeps: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class ProposerEntry:
    """One proposer as the registry lists it."""

    name: str
    says: str
    forms: str  # 'verb' (finite and bare forms) or 'ing' (-ing forms)
    rules: tuple[str, ...]  # the ids of the rules it may emit
    examples: tuple[dict[str, Any], ...] = ()  # examples naming their rule (shared rules)
    leaves_alone: tuple[dict[str, Any], ...] = ()

    @property
    def function(self) -> Proposer:
        """Return the proposer's function (tutor/a13/rules.py)."""
        return PROPOSERS[self.name]


@dataclass(frozen=True)
class Registry:
    """The proposers in order and the rules by id."""

    proposers: tuple[ProposerEntry, ...]
    rules: dict[str, Rule]

    def in_order(self, forms: str) -> tuple[Proposer, ...]:
        """Return the functions of the proposers for `forms` ('verb' or 'ing'), in the order they are tried."""
        return tuple(p.function for p in self.proposers if p.forms == forms)


def _rule(raw: dict[str, Any]) -> Rule:
    return Rule(raw["id"], raw["family"], raw.get("person", "subject"), raw.get("explanation"),
                tuple(raw.get("examples", ())), tuple(raw.get("counter_examples", ())), tuple(raw.get("keeps", ())))


@cache
def registry() -> Registry:
    """Return data/a13/rules.json checked: every proposer has its function, every rule id is defined once,
    every explanation key exists in data/explanations/a13.json."""
    raw = json.loads(data_path("a13", "rules.json").read_text(encoding="utf-8"))
    explanations = json.loads(data_path("explanations", "a13.json").read_text(encoding="utf-8"))
    rules: dict[str, Rule] = {}
    entries, references = [], []
    for p in raw["proposers"]:
        if p["proposer"] not in PROPOSERS:
            raise ScopeError(f"data/a13/rules.json: proposer {p['proposer']!r} has no function in tutor/a13/rules.py")
        ids = []
        for r in p["rules"]:
            if isinstance(r, str):
                references.append((p["proposer"], r))
                ids.append(r)
                continue
            if r["id"] in rules:
                raise ScopeError(f"data/a13/rules.json: rule {r['id']!r} is defined twice")
            rules[r["id"]] = _rule(r)
            ids.append(r["id"])
        entries.append(ProposerEntry(p["proposer"], p["says"], p.get("forms", "verb"), tuple(ids),
                                     tuple(p.get("examples", ())), tuple(p.get("leaves_alone", ()))))
    for r in raw.get("other_rules", []):
        if r["id"] in rules:
            raise ScopeError(f"data/a13/rules.json: rule {r['id']!r} is defined twice")
        rules[r["id"]] = _rule(r)
    for name, ref in references:
        if ref not in rules:
            raise ScopeError(f"data/a13/rules.json: proposer {name!r} names rule {ref!r}, which is not defined")
    for rule in rules.values():
        if rule.explanation is not None and rule.explanation not in explanations:
            raise ScopeError(f"data/a13/rules.json: rule {rule.id!r} has no explanation {rule.explanation!r} "
                             "in data/explanations/a13.json")
    return Registry(tuple(entries), rules)


def family_of(rule_id: str) -> str:
    """Return the family of a rule (the judge fits each family's trust), 'other' for an unknown id."""
    rule = registry().rules.get(rule_id)
    return rule.family if rule is not None else "other"


@cache
def actor_rules() -> frozenset[str]:
    """Return the ids of the rules labelled by whoever does an infinitive's action, not the subject."""
    return frozenset(r.id for r in registry().rules.values() if r.person == "actor")


@cache
def finite_rules() -> frozenset[str]:
    """Return the ids of the rules about a finite verb's agreement and tense (family 'finite')."""
    return frozenset(r.id for r in registry().rules.values() if r.family == "finite" and r.id != "alternative tense")
