"""The correction pipeline through the real model: regression sentences per error type (not dev-set ones)."""

import pytest

from tutor.api import Tutor, check_sentence
from tutor.errors import InputError

pytestmark = pytest.mark.model

# sentence -> (verb, tense, person, correct_form); one or more per §A13 error type
REGRESSION = {
    "overregularised_past": [("My uncle comed to dinner on Friday.", ("come", "past simple", "3rd singular", "came")),
                             ("I doed my homework in ten minutes.", ("do", "past simple", "1st singular", "did"))],
    "missing_3sg_s": [("My teacher speak fast but she explain everything well and write a lot.",
                       ("write", "present simple", "3rd singular", "writes")),
                      ("Carlos play the piano in a band.", ("play", "present simple", "3rd singular", "plays"))],
    "wrong_3sg": [("I wants a cup of coffee.", ("want", "present simple", "1st singular", "want")),
                  ("Your baby studys a lot!", ("study", "present simple", "3rd singular", "studies"))],
    "wrong_be": [("I were very tired after the trip.", ("be", "past simple", "1st singular", "was")),
                 ("My flat are near the station.", ("be", "present simple", "3rd singular", "is"))],
    "wrong_have": [("Paula have three sisters.", ("have", "present simple", "3rd singular", "has"))],
    "wrong_participle": [("We know that she has saw the results.", ("see", "past participle", "3rd singular", "seen")),
                         ("I have never eat sushi.", ("eat", "past participle", "1st singular", "eaten"))],
    "wrong_future": [("Next week I will starts my new job.", ("start", "simple future", "1st singular", "will start"))],
    "infinitive_form": [("I came here for learn English.", ("learn", None, None, None))],
    "base_for_past": [("Last summer my grandma walk to the top of the hill.",
                       ("walk", "past simple", "3rd singular", "walked"))],
    "correct": [("She finished her project on time.", ("finish", "past simple", "3rd singular", "finished"))],
}
CASES = [(t, s, e) for t, rows in REGRESSION.items() for s, e in rows if e[1] is not None]


@pytest.mark.parametrize(("error_type", "sentence", "expected"), CASES)
def test_regression_sentences(tutor_engine, error_type, sentence, expected):
    out = tutor_engine.correct(sentence).output
    assert (out["verb"], out["tense"], out["person"], out["correct_form"]) == expected, error_type
    assert 0.0 < out["confidence"] <= 1.0


def test_out_of_scope_abstains_without_the_model(tutor_engine):
    result = tutor_engine.correct("Yesterday she teached us a new song.")
    assert result.output == {"original": "Yesterday she teached us a new song.", "out_of_scope": True}
    assert result.timings.tokens_sampled == 0


def test_error_span_points_into_the_sentence(tutor_engine):
    sentence = "Mi hermano has went to Peru."
    r = tutor_engine.correct(sentence)
    assert sentence[r.error_start:r.error_end] == "went"
    assert "gone" in r.explanation_en and "gone" in r.explanation_es


def test_correct_sentence_is_flagged_correct(tutor_engine):
    r = tutor_engine.correct("I play football every Sunday.")
    assert r.is_correct and r.error_span is None
    assert r.output["correct_form"] == "play"


@pytest.mark.parametrize("sentence", ["", "   ", "x" * 1001, "\x00bad", "1234 !!"])
def test_bad_input_is_rejected_with_a_message(sentence):
    with pytest.raises(InputError) as exc:
        check_sentence(sentence)
    assert len(str(exc.value)) > 15


def test_constraints_only_remove_impossible_outputs(tutor_engine):
    """Where the model alone (no facts) is already right, adding the facts never changes the answer."""
    from tutor.lab.ablations import Ablation

    plain = Ablation(tutor_engine.with_settings(facts=False, priors=False))
    checked = 0
    for rows in REGRESSION.values():
        for sentence, expected in rows:
            if expected[1] is None:
                continue
            a = plain.correct(sentence).output
            if (a["verb"], a["tense"], a["person"], a["correct_form"]) == expected:
                b = tutor_engine.correct(sentence).output
                assert (b["verb"], b["tense"], b["person"], b["correct_form"]) == expected
                checked += 1
    assert checked >= 1


def test_the_plain_paths_are_the_labs_not_the_tutors(tutor_engine):
    with pytest.raises(ValueError, match=r"tutor\.lab\.ablations"):
        tutor_engine.with_settings(facts=False).correct("He goed home.")
    with pytest.raises(ValueError, match=r"tutor\.lab\.ablations"):
        tutor_engine.with_settings(table=False).correct("He goed home.")


def test_missing_model_gives_a_clear_error(tmp_path):
    from tutor.errors import ModelError

    with pytest.raises(ModelError, match="not found"):
        Tutor.load(tmp_path / "nope.gguf")


def test_a_long_learner_sentence_is_corrected_under_the_schema(tutor_engine):
    """Run-on learner sentences longer than the old 200-character limit still get a valid correction."""
    sentence = ("yesterday after school I goed with my best friend to the new shopping centre near the river "
                "because she wanted to buy a present for her mother, and we walked for hours looking at shoes, "
                "books and clothes until the shops closed at nine.")
    assert len(sentence) > 200
    out = tutor_engine.correct(sentence).output
    assert out["original"] == sentence and out["correct_form"] == "went"


@pytest.mark.parametrize("sentence", ["He g\u200bo to school.", "She \u202ehas went\u202c home.", "\ufeffI goed home."])
def test_invisible_characters_are_refused_with_a_message(sentence):
    with pytest.raises(InputError, match="invisible character"):
        check_sentence(sentence)


def test_a_sentence_dense_in_emoji_is_corrected_without_talk_of_tokens(tutor_engine):
    sentence = "😀" * 40 + " He goed to school 👨\u200d👩\u200d👧"
    out = tutor_engine.correct(sentence).output
    assert out["original"] == sentence and out["correct_form"] == "went"


def test_cjk_around_a_sentence_is_fine(tutor_engine):
    sentence = "我的朋友 she have a cat 猫 " * 3
    out = tutor_engine.correct(sentence).output
    assert out["correct_form"] == "has"
