"""The decoder through the real llama-cpp-python and the bundled GGUF."""

import json

import pytest

from tutor.engine.choices import ChoiceMatcher
from tutor.lab.decoder_bench import SENTENCES as BENCH_SENTENCES
from tutor.scope import load_scope
from tutor.scoring import schema_valid

pytestmark = pytest.mark.model

SENTENCES = [*BENCH_SENTENCES, "I am happy.", "I'd love to visited Japan."]
# sentences that leave the model a choice (present or past, noun or verb, several Spanish forms)
OPEN = ["My cousin play the guitar.", "The baby eat his soup.", "I have work tomorrow.", "She finish at six.",
        "My dad walk to the office.", "I went there for study.", "Juan like football.", "He look tired."]


def test_sampled_corrections_are_schema_valid_and_consistent(tutor_engine):
    """The model samples among every cell of the verbs present (--no-facts): the mask alone keeps it in §A13."""
    from tutor.lab.ablations import Ablation

    scope = load_scope()
    pool = SENTENCES + OPEN
    sampled = 0
    for i in range(200):
        sentence = pool[i % len(pool)]
        hot = Ablation(tutor_engine.with_settings(temperature=1.0, seed=i, spanish_choice=True, facts=False))
        result = hot.correct(sentence)
        sampled += result.timings.tokens_sampled
        out = result.output
        assert out["original"] == sentence
        assert schema_valid(out)
        if not out.get("out_of_scope"):
            cell = scope.cell(out["verb"], out["tense"], out["person"])
            assert out["correct_form"] in cell.english
            assert out["spanish"] in cell.spanish
    assert sampled >= 100  # the mask really was exercised by sampling, not only by forcing


def test_original_is_pinned_even_with_quotes_and_unicode(tutor_engine):
    for sentence in ['She said "I goed" — ¿verdad?', "Sofía y José has came from León \\ ok", "I eated 🍕 today"]:
        assert tutor_engine.correct(sentence).output["original"] == sentence


def test_jump_forward_and_step_by_step_give_the_same_text(tutor_engine):
    from tutor.a13.prompt import render

    model = tutor_engine.llm
    strings = [b'{"a":"go","b":"went"}', b'{"a":"go","b":"gone"}', b'{"a":"see","b":"saw"}']
    prefix, request = render("He goed home.", tutor_engine.model.prompt_format)
    prompt = model.tokenize((prefix + request).encode(), bos=True, special=True)
    texts = []
    for jump in (True, False):
        matcher = ChoiceMatcher(strings, tutor_engine.answer_decoder.compiler.piece_index())
        gen = tutor_engine.answer_decoder.decoder.generate(prompt, matcher, jump_forward=jump)
        texts.append(gen.text)
        if jump:
            assert gen.n_forced > 0
        else:
            assert gen.n_forced == 0
    assert texts[0] == texts[1]
    assert texts[0] in strings


def test_timings_are_recorded(tutor_engine):
    result = tutor_engine.correct("My father work in a bank.")
    t = result.timings
    assert t.total_ms > 0 and t.prompt_ms > 0
    # forced text that ends the output is never evaluated, so one sampled token can mean no forward pass
    assert t.forward_ms >= 0 and (t.forward_ms > 0 or t.tokens_sampled <= 1)
    assert t.total_ms >= t.prompt_ms + t.forward_ms
    assert t.tokens_forced > 0
    assert t.tokens_sampled + t.tokens_forced > 5
    assert "tokens" in t.status_line()
    assert json.loads(json.dumps(t.to_dict()))["tokens_forced"] == t.tokens_forced


def test_a_decode_that_cannot_finish_raises_the_tutors_error(tutor_engine):
    from tutor.decoding.decoder import DecodeError
    from tutor.engine.decode import DecodeError as EngineDecodeError
    from tutor.errors import TutorError

    prompt = tutor_engine.llm.tokenize(b"Answer in JSON:", bos=True)
    with pytest.raises(DecodeError, match="within 4 tokens") as info:
        answers = tutor_engine.answer_decoder
        answers.decoder.generate(prompt, answers.schema_grammar().matcher(), max_tokens=4)
    assert isinstance(info.value, TutorError) and isinstance(info.value, EngineDecodeError)


# last: its prompt replaces the few-shot prefix in the KV cache, which the tests above reuse
def test_unconstrained_decoding_runs_and_stops(tutor_engine):
    model = tutor_engine.llm
    prompt = model.tokenize(b"The capital of France is", bos=True)
    gen = tutor_engine.answer_decoder.decoder.generate(prompt, None, max_tokens=8)
    assert 0 < len(gen.tokens) <= 8
    assert gen.prompt_tokens_evaluated >= 0
