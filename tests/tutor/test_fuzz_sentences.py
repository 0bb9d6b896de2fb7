"""Random Unicode sentences: the tutor answers with a correction, an abstention or an InputError, nothing else."""

from __future__ import annotations

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.errors import InputError
from tutor.resources import grammar_path

pytestmark = pytest.mark.model

_WORDS = st.sampled_from(["he", "goed", "have", "has", "to", "will", "watching", "the", "my", "friend", "yesterday",
                          "is", "are", "was", "went", "study", "studys", ",", ".", "and", "she", "I", "eat"])
_SENTENCES = st.one_of(
    st.text(min_size=0, max_size=120),
    st.lists(st.one_of(_WORDS, st.text(min_size=1, max_size=4)), min_size=1, max_size=25).map(" ".join),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sentence=_SENTENCES)
def test_any_sentence_gets_a_valid_answer_or_an_input_error(tutor_engine, sentence):
    import json

    schema = json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))
    abstain = json.loads(grammar_path("a13-abstain.schema.json").read_text(encoding="utf-8"))
    try:
        result = tutor_engine.correct(sentence)
    except InputError as exc:
        assert str(exc) and "token" not in str(exc)
        return
    out = {k: v for k, v in result.output.items() if k != "confidence"}
    jsonschema.validate(out, abstain if out.get("out_of_scope") else schema)
    if "confidence" in result.output:
        assert 0.0 < result.output["confidence"] <= 1.0
