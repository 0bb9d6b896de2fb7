"""The per-request constraint as a plain JSON Schema, for inference servers with structured outputs.

The tutor's decoder allows exactly the answer set's strings. The same set as a JSON Schema:
one `oneOf` branch per candidate, each a complete object whose every property is a `const`
(`original` is the learner's sentence), keys in the decoder's order, no extra properties. Any
OpenAI-compatible server whose structured outputs compile JSON Schema (vLLM with xgrammar or
guidance, llama.cpp's server, SGLang) then enforces the same guarantee. The `x-guidance` keyword
asks llguidance-based engines for the decoder's compact separators; docs/scale.md has the requests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tutor.a13.prompt import answer_json, render
from tutor.answer import answer_fields
from tutor.api import check_sentence

if TYPE_CHECKING:
    from tutor.api import Tutor

COMPACT = {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"}


@dataclass(frozen=True)
class Constraint:
    """One request's answer set: the candidate strings (in the decoder's form) and their log-priors."""

    original: str
    strings: tuple[str, ...]
    log_priors: tuple[float, ...]  # 0.0 each: the judge's scores come from the model (docs/scale.md)
    private: bool  # the strings carry the private `written` field, dropped from the public output

    def schema(self) -> dict[str, Any]:
        """Return the JSON Schema that accepts exactly these strings' objects."""
        return constraint_schema(self.strings)


def constraint(tutor: Tutor, sentence: str) -> Constraint | None:
    """Return the answers `Tutor.correct` may give for `sentence` (every judged candidate with a §A13 cell).

    None when the sentence abstains. The Judge picks one of these strings; the AnswerDecoder then writes it
    under the precompiled a13 FSM intersected with that choice (tutor.answer.AnswerDecoder.decode).
    """
    proposal = tutor.analyser.propose(check_sentence(sentence))
    if proposal.abstain:
        return None
    seen: dict[str, None] = {}
    for slot in proposal.slots:
        for c in slot.candidates:
            if c.cell is not None:
                seen[answer_json(proposal.sentence, answer_fields(c), private=False)] = None
    return Constraint(proposal.sentence, tuple(seen), tuple(0.0 for _ in seen), private=False) if seen else None


def constraint_schema(strings: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """Return {"oneOf": [complete object per string]} with every property a const, keys in order."""
    branches = []
    for text in strings:
        obj = json.loads(text)
        branches.append({"type": "object", "properties": {key: {"const": value} for key, value in obj.items()},
                         "required": list(obj), "additionalProperties": False})
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "grammar-tutor answer set",
            "oneOf": branches, "x-guidance": dict(COMPACT)}


def completion_request(tutor: Tutor, sentence: str, *, model: str = "grammar-tutor") -> dict[str, Any] | None:
    """Return the OpenAI-compatible /v1/completions body that decodes `sentence` under its constraint."""
    found = constraint(tutor, sentence)
    if found is None:
        return None
    prefix, request = render(found.original, tutor.model.prompt_format, private=found.private)
    return {"model": model, "prompt": prefix + request, "max_tokens": 200, "temperature": 0,
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "a13_answer", "strict": True, "schema": found.schema()}}}
