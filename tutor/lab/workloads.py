"""The lab's workloads (data/lab/workloads.json) and the loaded model they run on."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tutor.resources import data_path

# The model's chat turn and the start of its reply, by the catalogue's prompt_format.
CHAT_FORMATS = {
    "chatml": ("<|im_start|>{role}\n{text}<|im_end|>\n", "<|im_start|>assistant\n"),
    "gemma": ("<start_of_turn>{role}\n{text}<end_of_turn>\n", "<start_of_turn>model\n"),
}
DEV_SET_PLACES = ("data/a13/dev-set.jsonl", "../shared/dev-set.jsonl")


@dataclass(frozen=True)
class Workload:
    """One workload: a grammar file, the request for the model, and a token budget."""

    name: str
    grammar: str
    user: str | None
    prompt: str | None
    max_tokens: int
    examples: tuple[tuple[str, str], ...] = ()


@cache
def load_workloads() -> tuple[str, dict[str, Workload]]:
    """Return (system text, workloads by name) from data/lab/workloads.json."""
    raw = json.loads(data_path("lab", "workloads.json").read_text(encoding="utf-8"))
    workloads = {
        name: Workload(name, spec["grammar"], spec.get("user"), spec.get("prompt"), int(spec["max_tokens"]),
                       tuple((u, a) for u, a in spec.get("examples", ())))
        for name, spec in raw["workloads"].items()
    }
    return raw["system"], workloads


def find_dev_set(explicit: str | None = None) -> Path | None:
    """Return the §A13 dev set: the given path, or data/a13/ or ../shared/ beside the checkout, or None."""
    if explicit:
        return Path(explicit)
    root = data_path().parent
    for place in DEV_SET_PLACES:
        candidate = (root / place).resolve()
        if candidate.is_file():
            return candidate
    return None


def load_dev_items(path: Path | None) -> list[dict[str, Any]]:
    """Return the dev set's items (empty without a dev set)."""
    if path is None:
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class LabModel:
    """The model, its vocabulary and the one decoder every family runs through."""

    def __init__(self, llm: Any, file: Any, decoder: Any = None) -> None:
        from tutor.decoding.decoder import Decoder
        from tutor.engine.vocab import load_vocabulary

        self.file = file
        self.llm = llm
        self.vocab = load_vocabulary(file.path)
        self.decoder = decoder or Decoder(llm)
        self.fmt = file.prompt_format if file.prompt_format in CHAT_FORMATS else "chatml"

    @classmethod
    def load(cls, model: str | None = None) -> LabModel:
        """Resolve, verify and load a model (catalogue name, GGUF path, or None for the default)."""
        from tutor.catalogue import resolve
        from tutor.decoding.llm import LoadedModel

        file = resolve(model)
        return cls(LoadedModel(file), file)

    def close(self) -> None:
        """Free the model."""
        self.llm.close()

    def chat(self, system: str, user: str, examples: tuple[tuple[str, str], ...] = ()) -> list[int]:
        """Return the prompt tokens of a system text, worked examples and a request, up to the reply."""
        turn, reply = CHAT_FORMATS[self.fmt]
        model_role = "model" if self.fmt == "gemma" else "assistant"
        if self.fmt == "gemma":  # no system role: the system text opens the first user turn
            parts = [turn.format(role="user", text=system), turn.format(role="model", text="OK.")]
        else:
            parts = [turn.format(role="system", text=system)]
        for question, answer in examples:
            parts += [turn.format(role="user", text=question), turn.format(role=model_role, text=answer)]
        text = "".join(parts) + turn.format(role="user", text=user) + reply
        return self.llm.tokenize(text.encode("utf-8"), bos=True, special=True)

    def a13_prompt(self, sentence: str) -> list[int]:
        """Return the tutor's few-shot prompt for one sentence, without private fields (the schema's shape)."""
        from tutor.a13.prompt import render

        prefix, request = render(sentence, self.fmt, private=False)
        return self.llm.tokenize((prefix + request).encode("utf-8"), bos=True, special=True)

    def prompts(self, workload: Workload, n: int, sentences: list[str]) -> list[list[int]]:
        """Return n prompts for a workload (a13 cycles through `sentences`)."""
        if workload.prompt == "a13":
            return [self.a13_prompt(sentences[i % len(sentences)]) for i in range(n)]
        system, _ = load_workloads()
        one = self.chat(system, workload.user or "", workload.examples)
        return [one] * n


def a13_sentences(dev_items: list[dict[str, Any]]) -> list[str]:
    """Return the sentences a13 samples use: the dev set's, or the prompt examples' when there is none."""
    if dev_items:
        return [item["original"] for item in dev_items]
    from tutor.a13.prompt import load_prompt

    return [ex["sentence"] for ex in load_prompt().examples]
