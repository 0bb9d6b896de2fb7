"""The output contract: jsonschema and pydantic agree, and every error names its field."""

import pytest

from tutor.output_contract import Abstention, Correction, OutputError, validate_output

GOOD = {"original": "He goed home.", "verb": "go", "tense": "past simple", "person": "3rd singular",
        "correct_form": "went", "spanish": "fue"}


def test_a_good_correction_and_an_abstention_validate():
    assert isinstance(validate_output(GOOD), Correction)
    assert isinstance(validate_output({**GOOD, "confidence": 0.7}), Correction)
    assert isinstance(validate_output({"original": "I buyed it.", "out_of_scope": True}), Abstention)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"verb": "dranked"}, "verb"),
        ({"tense": "Past Simple"}, "tense"),
        ({"person": "3rd person"}, "person"),
        ({"correct_form": ""}, "correct_form"),
        ({"spanish": "x" * 31}, "spanish"),
        ({"original": "y" * 1001}, "original"),
        ({"extra": 1}, "extra"),
        ({"confidence": 1.5}, "confidence"),
    ],
)
def test_each_error_names_its_field(change, field):
    with pytest.raises(OutputError, match=f"field '{field}'"):
        validate_output({**GOOD, **change})


def test_a_missing_field_is_named():
    broken = dict(GOOD)
    del broken["spanish"]
    with pytest.raises(OutputError, match="spanish"):
        validate_output(broken)


def test_not_an_object():
    with pytest.raises(OutputError, match="JSON object"):
        validate_output(["go"])
