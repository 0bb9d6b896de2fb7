"""The model judges in context, through the real llama-cpp-python and the bundled GGUF."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.model


def test_token_logprobs_do_not_depend_on_the_order_of_variants(tutor_engine):
    llm = tutor_engine.llm
    prefix = tutor_engine.judge.prefix()
    texts = ["Yesterday she go to the park.", "Yesterday she went to the park.", "Yesterday she goes to the park."]
    variants = [llm.tokenize(t.encode()) for t in texts]
    forward = [lp.sum() for lp in llm.token_logprobs(prefix, variants)]
    backward = [lp.sum() for lp in llm.token_logprobs(prefix, variants[::-1])][::-1]
    assert np.allclose(forward, backward, atol=0.05)
    assert all(s < 0 for s in forward)
    assert int(np.argmax(forward)) == 1  # the model prefers the right past form


def test_the_model_score_favours_the_correction_of_an_obvious_error(tutor_engine):
    judged = tutor_engine.judged("He goed to the cinema with his friends.")
    (verdict,) = judged.verdicts
    went = next(c for c in verdict.slot.candidates if c.replacement == "went")
    assert judged.lm[id(went)]["lm"] > 2.0
    assert verdict.best is went


def test_probabilities_are_a_distribution_and_never_one_by_fiat(tutor_engine):
    for sentence in ("My friend have a big house near the river.", "She likes tea and he likes coffee.",
                     "He plays tennis and she watches films."):
        for v in tutor_engine.judged(sentence).verdicts:
            total = sum(p for _, p in v.ranked)
            assert abs(total - 1.0) < 1e-9
            if len(v.slot.candidates) > 1:
                assert 0.0 < v.probability < 1.0


def test_a_present_state_without_a_past_time_word_has_no_tense_question(tutor_engine):
    # 'likes' agrees with its subject and names a state: with no past time word in the sentence the
    # analyser leaves no other tense to weigh, so the slot holds only "no change"
    verdicts = tutor_engine.judged("She likes tea and he likes coffee.").verdicts
    assert [len(v.slot.candidates) for v in verdicts] == [1, 1]
    events = tutor_engine.judged("He plays tennis and she watches films.").verdicts
    assert all(len(v.slot.candidates) > 1 for v in events)


def test_without_the_model_no_forward_pass_runs(tutor_engine):
    analyst = tutor_engine.with_settings(use_model=False)
    before = analyst.llm.stats.calls
    judged = analyst.judged("Last year my brother work in a hotel.")
    assert analyst.llm.stats.calls == before
    assert judged.lm == {}
    assert judged.verdicts


def test_the_answer_is_decoded_under_the_precompiled_schema_fsm(tutor_engine):
    import json

    import jsonschema

    from tutor.resources import grammar_path

    schema = json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))
    r = tutor_engine.correct("My sister have two dogs.")
    out = {k: v for k, v in r.output.items() if k != "confidence"}
    jsonschema.validate(out, schema)
    assert out["correct_form"] == "has" and r.confidence < 1.0
    assert r.timings.tokens_forced > 0  # every byte went through the FSM as forced text
