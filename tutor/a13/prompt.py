"""The few-shot prompt (data/prompts/a13.json) rendered in the model's chat format."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from tutor.resources import data_path

_FORMATS = {
    "chatml": ("<|im_start|>{role}\n{text}<|im_end|>\n", "<|im_start|>assistant\n"),
    "gemma": ("<start_of_turn>{role}\n{text}<end_of_turn>\n", "<start_of_turn>model\n"),
}


@dataclass(frozen=True)
class PromptSpec:
    """The prompt's parts, loaded from data."""

    system: str
    user_template: str
    examples: tuple[dict, ...]


@cache
def load_prompt() -> PromptSpec:
    """Return the §A13 prompt spec from data/prompts/a13.json."""
    raw = json.loads(data_path("prompts", "a13.json").read_text(encoding="utf-8"))
    return PromptSpec(raw["system"], raw["user_template"], tuple(raw["examples"]))


def answer_json(original: str, answer: dict, *, private: bool = True) -> str:
    """Return the answer object as compact JSON, 'original' first, the private 'written' next."""
    obj = {"original": original}
    for key in ("written", "verb", "tense", "person", "correct_form", "spanish"):
        if key == "written" and not private:
            continue
        if key in answer:
            obj[key] = answer[key]
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def render(sentence: str, fmt: str = "chatml", *, private: bool = True) -> tuple[str, str]:
    """Return (prefix, request): the fixed few-shot prefix and the per-sentence part after it."""
    spec = load_prompt()
    turn, assistant = _FORMATS.get(fmt, _FORMATS["chatml"])
    role_user = "user"
    parts = []
    if fmt == "gemma":
        parts.append(turn.format(role=role_user, text=spec.system))
        parts.append(turn.format(role="model", text="OK."))
    else:
        parts.append(turn.format(role="system", text=spec.system))
    for ex in spec.examples:
        parts.append(turn.format(role=role_user, text=spec.user_template.format(sentence=ex["sentence"])))
        reply = answer_json(ex["sentence"], ex["answer"], private=private)
        parts.append(turn.format(role="model" if fmt == "gemma" else "assistant", text=reply))
    prefix = "".join(parts)
    request = turn.format(role=role_user, text=spec.user_template.format(sentence=sentence)) + assistant
    return prefix, request
