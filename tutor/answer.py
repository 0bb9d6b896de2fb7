"""The AnswerDecoder, the third stage: the judged answer written as the §A13 JSON object by the model.

The answer is decoded under the precompiled FSM of grammars/a13.schema.json intersected with the one
answer the Judge chose (tutor.decoding.compose): every byte, forced or sampled, advances both, so nothing
outside §A13 and no broken JSON can come out on any path. Both grammars come from the public face of the
constrained-decoding library (tutor.engine.GrammarCompiler), compiled for the model's vocabulary and kept
in the tutor's cache folder. The chosen answer is forced text, so it costs no forward pass.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tutor.a13.prompt import answer_json, render
from tutor.decoding.compose import IntersectionMatcher
from tutor.decoding.decoder import Decoder, Generation
from tutor.engine import CompiledGrammar, GrammarCompiler, Vocabulary
from tutor.engine.cache import cache_dir
from tutor.resources import grammar_path

if TYPE_CHECKING:
    from tutor.catalogue import ModelFile
    from tutor.judge.slots import Candidate


def answer_fields(candidate: Candidate) -> dict[str, str]:
    """Return the five §A13 fields of a judged candidate (verb, tense, person, correct_form, spanish)."""
    cell = candidate.cell
    if cell is None:
        raise ValueError(f"the candidate {candidate.written!r} fills no §A13 cell, so it is no answer")
    return {"verb": cell.verb, "tense": cell.tense, "person": cell.person,
            "correct_form": candidate.correct_form or cell.correct_form, "spanish": cell.spanish[0]}


class AnswerDecoder:
    """Decodes answers for one loaded model: its vocabulary, its grammar compiler and its decoder loop."""

    def __init__(self, llm: Any, model_file: ModelFile) -> None:
        """`llm` is the loaded model (tutor.decoding.llm.LoadedModel); its vocabulary is read from the GGUF
        file once and cached on disk, as the compiled grammars are."""
        self.llm = llm
        self.prompt_format = model_file.prompt_format
        folder = cache_dir()
        self.vocabulary = Vocabulary.from_gguf(model_file.path, cache_dir=folder, sha256=model_file.sha256)
        self.compiler = GrammarCompiler(self.vocabulary, cache_dir=folder)
        self.decoder = Decoder(llm)
        self._schema: CompiledGrammar | None = None

    def schema_grammar(self) -> CompiledGrammar:
        """Return grammars/a13.schema.json compiled for this vocabulary, properties in declared order."""
        if self._schema is None:
            schema = json.loads(grammar_path("a13.schema.json").read_text(encoding="utf-8"))
            self._schema = self.compiler.compile_json_schema(schema, property_order="declared")
        return self._schema

    def prompt(self, original: str, *, private: bool = False) -> list[int]:
        """Return the tokens of the few-shot prompt and the request for `original` (data/prompts/a13.json)."""
        prefix, request = render(original, self.prompt_format, private=private)
        return self.llm.tokenize((prefix + request).encode("utf-8"), bos=True, special=True)

    def decode(self, original: str, candidate: Candidate, *, temperature: float = 0.0, seed: int | None = None,
               jump_forward: bool = True, on_token: Callable[[str], None] | None = None) -> Generation:
        """Return the generation of the answer object for `candidate` (its text is the §A13 JSON)."""
        text = answer_json(original, answer_fields(candidate), private=False).encode("utf-8")
        matcher = IntersectionMatcher(self.schema_grammar().matcher(), self.compiler.compile_choices([text]).matcher())
        return self.decoder.generate(
            self.prompt(original), matcher, temperature=temperature, seed=seed, max_tokens=len(text) + 16,
            jump_forward=jump_forward,
            on_text=(lambda b: on_token(b.decode("utf-8", "replace"))) if on_token else None)
