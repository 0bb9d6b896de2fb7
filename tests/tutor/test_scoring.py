"""§A13 §8 scoring: the reference figures, abstention forms, normalisation and the confidence report."""

import json

from tutor.scoring import abstains, extract, norm, schema_valid, score

ITEM_IN = {"id": "T-1", "original": "He goed home.", "gold": {"verb": "go", "tense": "past simple",
           "person": "3rd singular", "correct_form": "went"}, "correct_form_accepted": ["went"],
           "spanish_accepted": ["fue"], "error_type": "overregularised_past"}
ITEM_OUT = {"id": "T-2", "original": "I buyed it.", "gold": None, "correct_form_accepted": [],
            "spanish_accepted": [], "error_type": "out_of_scope"}
GOOD = {"verb": "go", "tense": "past simple", "person": "3rd singular", "correct_form": "went", "spanish": "fue"}


def test_gold_abstain_and_empty_reference_figures(dev_set_path):
    items = [json.loads(line) for line in dev_set_path.read_text(encoding="utf-8").splitlines()]
    gold = {it["id"]: ({**it["gold"], "spanish": it["spanish_accepted"][0]} if it["gold"] else
                       {"out_of_scope": True}) for it in items}
    r = score(items, gold)
    assert (r["all_fields_correct"], r["schema_valid"], r["consistency"]) == (1.0, 1.0, 1.0)
    r = score(items, {it["id"]: None for it in items})
    assert r["all_fields_correct"] == r["consistency"] == 5 / 80 and r["schema_valid"] == 1.0
    r = score(items, {})
    assert (r["all_fields_correct"], r["schema_valid"], r["consistency"]) == (0.0, 0.0, 0.0)


def test_abstention_forms():
    assert abstains(None) and abstains({}) and abstains({"out_of_scope": True, "verb": "go"})
    assert abstains({"verb": "n/a"}) and abstains({"verb": None})
    assert not abstains({"verb": "none", "tense": "past simple"})
    assert not abstains(GOOD)


def test_wrappers_strings_and_fences():
    assert extract({"id": 1, "pred": '```json\n{"verb": "go"}\n```'}) == {"verb": "go"}
    assert extract({"id": 1, "verb": "go"}) == {"verb": "go"}
    assert extract({"id": 1, "result": None}) is None


def test_normalisation_keeps_accents():
    assert norm('"Went!"') == "went"
    assert norm("terminó") != norm("termino")
    assert norm("I’m") == "i'm"


def test_enum_spelling_is_strict_for_schema_validity():
    assert schema_valid(GOOD)
    assert not schema_valid({**GOOD, "tense": "Past Simple"})
    assert not schema_valid({**GOOD, "person": "3rd person"})


def test_field_scores_and_consistency():
    r = score([ITEM_IN, ITEM_OUT], {"T-1": GOOD, "T-2": {"out_of_scope": True}})
    assert r["all_fields_correct"] == 1.0 and r["consistency"] == 1.0
    wrong_spanish = {**GOOD, "spanish": "fui"}
    r = score([ITEM_IN], {"T-1": wrong_spanish})
    assert r["fields"]["spanish"] == 0.0 and r["all_fields_correct"] == 0.0 and r["consistency"] == 1.0
    inconsistent = {**GOOD, "correct_form": "goes"}
    assert score([ITEM_IN], {"T-1": inconsistent})["consistency"] == 0.0


def test_confidence_report_separates_right_from_wrong():
    items = [dict(ITEM_IN, id=f"T-{k}") for k in range(4)]
    preds = {"T-0": {**GOOD, "confidence": 0.9}, "T-1": {**GOOD, "confidence": 0.8},
             "T-2": {**GOOD, "verb": "see", "confidence": 0.3}, "T-3": {**GOOD, "verb": "come", "confidence": 0.6}}
    c = score(items, preds)["confidence"]
    assert c["auroc"] == 1.0
    assert c["accuracy_when_sure"] == 2 / 3 and c["accuracy_when_not_sure"] == 0.0
