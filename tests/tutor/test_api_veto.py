"""A Tutor with a veto model (Settings.veto_model): the real default model judges, the real 1.5B model vetoes."""

from __future__ import annotations

import copy
import dataclasses
import math

import pytest

VETO_MODEL = "qwen2.5-coder-1.5b"
TEXT = "My brother work in a bank. He go to work by bus every day."


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
    # 'watch' fills a cell as written (I watch): vetoed, the answer is the verb as written; 'work' after 'my
    # brother' fills none, so with its one change vetoed the tutor abstains rather than show it
    strict = _with_margin(vetoing_tutor, math.inf)
    assert strict.check(TEXT).findings == []
    result = strict.correct("Yesterday I watch the news with my father.")
    assert result.is_correct and not result.out_of_scope and result.veto is None
    assert strict.correct("My brother work in a bank.").out_of_scope
    plain = _with_margin(vetoing_tutor, -math.inf).correct("Yesterday I watch the news with my father.")
    assert not plain.is_correct and plain.output["correct_form"] == "watched" and plain.veto is not None
