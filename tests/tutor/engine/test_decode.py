"""The engine's low-level decode loop over a plain llama_cpp.Llama (tutor.engine.decode, tutor.engine.llama_cpp)."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from tutor.engine import GrammarCompiler, Vocabulary
from tutor.engine.decode import DecodeError, Decoder
from tutor.engine.errors import EngineError
from tutor.engine.llama_cpp import LlamaContext, generate

pytestmark = pytest.mark.model

SCHEMA = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 12},
                                           "age": {"type": "integer"}},
          "required": ["name", "age"], "additionalProperties": False}


@pytest.fixture(scope="module")
def compiler(plain_llm) -> GrammarCompiler:
    return GrammarCompiler(Vocabulary.from_llama(plain_llm))


@pytest.fixture(scope="module")
def context(plain_llm):
    ctx = LlamaContext(plain_llm)
    yield ctx
    ctx.free()


def _prompt(llm, text: str) -> list[int]:
    return llm.tokenize(text.encode(), add_bos=True)


def test_sampled_phone_numbers_match_and_finish(plain_llm, compiler, context) -> None:
    compiled = compiler.compile_regex("[0-9]{3}-[0-9]{4}")
    prompt = _prompt(plain_llm, "A phone number:")
    texts = set()
    for seed in range(8):
        gen = generate(context, prompt, compiled, temperature=1.0, seed=seed, max_tokens=16)
        assert gen.finished
        assert re.fullmatch(rb"[0-9]{3}-[0-9]{4}", gen.text), gen.text
        assert len(gen.mask_ns) == gen.n_sampled or len(gen.mask_ns) == gen.n_sampled + 1  # + a sampled EOS
        texts.add(gen.text)
    assert len(texts) > 1


def test_json_is_valid_and_forced_bytes_are_fed_without_sampling(plain_llm, compiler, context) -> None:
    compiled = compiler.compile_json_schema(SCHEMA)
    prompt = _prompt(plain_llm, "A person as JSON:")
    jumped = generate(context, prompt, compiled, max_tokens=48)
    stepped = generate(context, prompt, compiled, max_tokens=48, jump_forward=False)
    for gen in (jumped, stepped):
        jsonschema.validate(json.loads(gen.text), SCHEMA)
    assert jumped.n_forced > 0 and stepped.n_forced == 0
    assert jumped.text == stepped.text  # greedy: forcing the only continuation changes nothing
    assert jumped.forward_ms > 0 and jumped.prompt_ms > 0


def test_the_prompt_prefix_is_reused_and_survives_create_completion(plain_llm, compiler, context) -> None:
    compiled = compiler.compile_regex("[a-z]{2,6}")
    prompt = _prompt(plain_llm, "One short word:")
    first = generate(context, prompt, compiled, max_tokens=8)
    again = generate(context, prompt, compiled, max_tokens=8)
    assert again.prompt_tokens_evaluated == 1  # only the last prompt token, for its logits
    plain_llm.create_completion("Something else entirely", max_tokens=4, temperature=0.0)
    after = generate(context, prompt, compiled, max_tokens=8)
    assert after.prompt_tokens_evaluated == len(prompt)  # the Llama changed the cache: evaluated afresh
    assert first.text == again.text == after.text
    out = plain_llm.create_completion("One short word:", max_tokens=3, temperature=0.0)
    assert out["choices"][0]["text"]  # and the Llama's own generation still works after ours


def test_no_output_within_the_budget_is_a_decode_error(plain_llm, compiler) -> None:
    compiled = compiler.compile_regex("[a-z]{20}")
    with pytest.raises(DecodeError, match="within 3 tokens") as info:
        generate(plain_llm, _prompt(plain_llm, "Letters:"), compiled, max_tokens=3)
    assert isinstance(info.value, EngineError)


def test_unconstrained_decoding_stops_at_max_tokens(plain_llm, context) -> None:
    gen = Decoder(context).generate(_prompt(plain_llm, "The capital of France is"), None, max_tokens=5)
    assert 0 < len(gen.tokens) <= 5 and gen.n_forced == 0
