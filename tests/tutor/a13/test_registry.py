"""Every example of the analyser's registry (data/a13/rules.json) fires with its correction, every
counter-example does not, and every rule has an explanation in English and Spanish."""

from __future__ import annotations

import json

import pytest

from tutor.a13.analysis import analyse
from tutor.a13.registry import registry
from tutor.a13.rules import PROPOSERS
from tutor.resources import data_path

REG = registry()
TEMPLATES = json.loads(data_path("explanations", "a13.json").read_text(encoding="utf-8"))


def _cases(kind: str):
    out = []
    for rule in REG.rules.values():
        for item in getattr(rule, kind):
            label = item if isinstance(item, str) else item["sentence"]
            out.append(pytest.param(rule.id, item, id=f"{rule.id}: {label}"))
    for p in REG.proposers:
        if kind == "examples":
            for item in p.examples:
                out.append(pytest.param(item["rule"], item, id=f"{p.name}: {item['sentence']}"))
    return out


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


@pytest.mark.parametrize(("rule_id", "example"), _cases("examples"))
def test_an_example_fires_with_its_correction(rule_id, example):
    options = [o for o in analyse(example["sentence"]).options if o.is_error and o.rule == rule_id]
    assert options, f"{rule_id!r} proposes nothing for {example['sentence']!r}"
    hit = [o for o in options if _norm(o.written) == _norm(example["written"])]
    assert hit, f"{rule_id!r} fires on {[o.written for o in options]}, not on {example['written']!r}"
    forms = {_norm(f) for o in hit for f in o.cell.english}
    assert _norm(example["correction"]) in forms
    if "spanish" in example:
        assert hit[0].cell.spanish[0] == example["spanish"]


@pytest.mark.parametrize(("rule_id", "sentence"), _cases("counter_examples"))
def test_a_counter_example_does_not_fire(rule_id, sentence):
    fired = [o.written for o in analyse(sentence).options if o.is_error and o.rule == rule_id]
    assert not fired, f"{rule_id!r} fires on {fired} in {sentence!r}"


@pytest.mark.parametrize(("rule_id", "keep"), _cases("keeps"))
def test_a_keep_rule_describes_the_verb_as_written(rule_id, keep):
    options = [o for o in analyse(keep["sentence"]).options if not o.is_error and o.rule == rule_id]
    assert [o.written for o in options] == [keep["written"]]


@pytest.mark.parametrize(("proposer", "item"), [
    pytest.param(p.name, item, id=f"{p.name}: {item['sentence']}") for p in REG.proposers for item in p.leaves_alone])
def test_a_proposer_leaves_its_words_alone(proposer, item):
    analysis = analyse(item["sentence"])
    word = next(w for w in analysis.words if w.text == item["written"])
    assert not [o for o in analysis.options if o.start <= word.start < o.end], \
        f"{proposer}: {item['written']!r} in {item['sentence']!r} should get no option"


@pytest.mark.parametrize("rule", [r for r in REG.rules.values() if r.explanation is not None], ids=lambda r: r.id)
def test_every_rule_has_an_explanation_in_both_languages(rule):
    entry = TEMPLATES[rule.explanation]
    assert entry["en"].strip() and entry["es"].strip()


def test_every_proposer_is_in_the_registry_once_and_every_rule_has_examples_or_says_why_not():
    names = [p.name for p in REG.proposers]
    assert sorted(names) == sorted(PROPOSERS), "a proposer function is missing from data/a13/rules.json"
    assert len(names) == len(set(names))
    for p in REG.proposers:
        assert p.rules or p.leaves_alone, f"{p.name} neither emits a rule nor shows what it leaves alone"
    for rule in REG.rules.values():
        if rule.explanation is not None and rule.id not in ("past reading", "alternative tense", "model only"):
            has_example = rule.examples or any(e.get("rule") == rule.id for p in REG.proposers for e in p.examples)
            assert has_example, f"rule {rule.id!r} has no example"
