"""Every rule's explanation exists in English and Spanish, and a correction is never explained as correct."""

from __future__ import annotations

import json

import pytest

from tutor.a13.analysis import analyse
from tutor.a13.explain import explain, explain_abstention
from tutor.a13.registry import registry
from tutor.resources import data_path

TEMPLATES = json.loads(data_path("explanations", "a13.json").read_text(encoding="utf-8"))
ERROR_RULES = sorted(r.id for r in registry().rules.values() if r.explanation is not None)


@pytest.mark.parametrize("rule", ERROR_RULES)
def test_every_rule_has_an_explanation_in_both_languages(rule):
    keys = {rule}
    if rule in ("present agreement",):
        keys = {"present agreement", "present agreement 3rd", "present agreement 3rd -es", "present agreement 3rd -ies",
                "present agreement 3rd irregular", "present agreement be"}
    for key in keys:
        assert key in TEMPLATES, f"rule {rule!r} has no template {key!r} in data/explanations/a13.json"
        assert TEMPLATES[key]["en"].strip() and TEMPLATES[key]["es"].strip()


@pytest.mark.parametrize(("sentence", "rule", "form"), [
    ("You should came to the party.", "after modal", "come"),
    ("I decided studying medicine.", "gerund after a to-verb", "to study"),
    ("I will watching the film tonight.", "will + -ing", "will watch"),
    ("I have seen that film two days ago.", "perfect with a finished time", "saw"),
    ("There are a problem with my room.", "present agreement", "is"),
])
def test_a_correction_is_explained_by_its_rule_never_as_correct(sentence, rule, form):
    options = [o for o in analyse(sentence).options if o.is_error and o.rule == rule]
    assert options, f"the analyser proposes no {rule!r} correction for {sentence!r}"
    en, es = explain(options[0])
    assert "Correct" not in en and "Correcto" not in es
    assert form.split()[-1] in en and form.split()[-1] in es


def test_existential_there_is_explained_with_haber():
    option = next(o for o in analyse("There were a lot of traffic.").options if o.is_error)
    assert option.existential and option.cell.spanish[0] == "había"


def test_a_plural_subject_is_named_as_the_reason_not_an_unknown_verb():
    en, es = explain_abstention(analyse("My brothers is students."))
    assert "plural" in en and "*are*" in en
    assert "plural" in es and "*are*" in es
    assert "not one of the 20" not in en
    en, _ = explain_abstention(analyse("I forgetted my umbrella."))
    assert "not one of the 20" in en


@pytest.mark.parametrize(("verb", "form", "says"), [
    ("work", "works", "adds -s: *works*"), ("go", "goes", "adds -es here: *goes*"),
    ("watch", "watches", "adds -es here: *watches*"), ("study", "studies", "becomes *-ies*: *studies*"),
    ("have", "has", "*have* is irregular in the present: *has*"),
])
def test_the_third_person_explanation_says_how_the_form_is_spelled(verb, form, says):
    """*has* is not *have* + -s: the explanation names the ending the form really has, in both languages."""
    from tutor.a13.explain import explain_cell
    from tutor.scope import load_scope

    cell = load_scope().cell(verb, "present simple", "3rd singular")
    assert cell.correct_form == form
    english, spanish = explain_cell(cell, "present agreement", form, verb)
    assert says in english, english
    assert form in spanish and ("irregular" in spanish) == (verb == "have")
