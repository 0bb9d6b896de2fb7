"""A Tutor with a veto model (Settings.veto_model): the real default model judges, the real 1.5B model vetoes."""

from __future__ import annotations

import copy
import dataclasses
import math

import pytest

VETO_MODEL = "qwen2.5-coder-1.5b"
TEXT = "Last summer I visit my grandmother in Valencia. Every morning she make coffee for me and we talk a lot."


@pytest.fixture(scope="module")
def vetoing_tutor():
    """Return a Tutor on the bundled model with the 1.5B veto model, or skip when the veto model is absent."""
    from tutor.api import Tutor
    from tutor.catalogue import catalogue, installed

    if not installed(catalogue()[VETO_MODEL]):
        pytest.skip(f"the veto model {VETO_MODEL} is not installed here (1.1 GB, never downloaded by the tests)")
    tutor = Tutor.load(veto_model=VETO_MODEL)
    yield tutor
    tutor.close()


def _with_margin(tutor, margin: float):
    other = copy.copy(tutor)
    other.veto = dataclasses.replace(tutor.veto, rule=dataclasses.replace(tutor.veto.rule, min_margin=margin))
    return other


def test_check_records_the_veto_score_of_every_finding_and_its_time(vetoing_tutor):
    keep_all = _with_margin(vetoing_tutor, -math.inf)
    result = keep_all.check(TEXT)
    assert result.findings, "the bundled model finds the text's verb errors"
    assert all(f.veto is not None and "veto" in f.to_dict() for f in result.findings)
    assert 0 < result.veto_ms <= result.total_ms
    assert vetoing_tutor.settings.veto_model == VETO_MODEL


def test_a_veto_no_finding_can_pass_leaves_the_text_and_the_sentence_as_written(vetoing_tutor):
    strict = _with_margin(vetoing_tutor, math.inf)
    assert strict.check(TEXT).findings == []
    result = strict.correct("Every morning she make coffee for me.")
    assert result.is_correct and not result.out_of_scope and result.veto is None
    plain = _with_margin(vetoing_tutor, -math.inf).correct("Every morning she make coffee for me.")
    assert not plain.is_correct and plain.output["correct_form"] == "makes" and plain.veto is not None
