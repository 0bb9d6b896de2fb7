"""Decoder benchmark: each decoding path, and llama.cpp's grammar on the same forward passes, in one run.

Every path decodes the same sentences with the real model. While it runs, the logits of every step
and the time of the forward pass that produced them are recorded. Then llama.cpp's grammar sampler
(the GBNF that LlamaGrammar.from_json_schema builds from the same schema) is replayed over the same
token sequence: at each step where this decoder masked, it masks the same logits, so the two mask
times differ by the masking alone. The mask's share of the forward pass is measured in the same run.

"valid" is judged by `jsonschema` against grammars/a13.schema.json, never by the code under test.
Sentences where the model chooses (at least one sampled token) are reported apart from those whose
output was forced whole: a forced output has no forward pass and no mask to compare.
`llama_grammar` is llama.cpp's grammar generating on its own (through the same loop, one forward pass
per token), for its validity; its time is not compared with paths that skip forward passes.
"""

from __future__ import annotations

import argparse
import copy
import ctypes
import json
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SENTENCES = [
    "He goed to school yesterday.",
    "My mum have a new car.",
    "I will went to the party.",
    "She has wrote three books.",
    "You was late again!",
    "I want eat something.",
    "The kids watchs cartoons every morning.",
    "Mi hermano study in Madrid.",
]

# path -> Tutor settings (None: a path this module drives itself)
PATHS: dict[str, dict[str, Any] | None] = {
    "unconstrained": None,
    "llama_grammar": None,
    "schema_fsm": {"table": False, "pin_original": False},
    "schema_fsm_no_jump": {"table": False, "pin_original": False, "jump_forward": False},
    "a13_constrained": {},
    "a13_constrained_no_jump": {"jump_forward": False},
    # --no-facts: the model picks among every cell of the verbs present (the §A13 fields only, so the
    # decoded JSON is the schema's object and llama.cpp's grammar can replay it)
    "a13_model_chooses": {"facts": False, "private_fields": False},
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the benchmark's options."""
    parser.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    parser.add_argument("--n", type=int, default=len(SENTENCES), help="sentences per path")
    parser.add_argument("--paths", default="all", help=f"comma-separated subset of: {', '.join(PATHS)}")
    parser.add_argument("--json", action="store_true", help="last line: one JSON object keyed by path")


def schema_valid(text: bytes | str, schema: dict) -> bool:
    """Return True when text is JSON valid under `schema` (jsonschema: independent of the decoder)."""
    import jsonschema

    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError, TypeError):
        return False
    try:
        jsonschema.validate(obj, schema)
    except jsonschema.ValidationError:
        return False
    return True


class _Recorder:
    """The tutor's model as its decoder sees it, keeping each step's logits and the forward time before it."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.stats = model.stats
        self.clear()

    def clear(self) -> None:
        """Forget the recorded steps."""
        self.logits_seen: list[np.ndarray] = []
        self.forward_ns: list[int] = []
        self.after_prompt: list[bool] = []
        self._mark = self.stats.ns
        self._prompt = False

    def tokenize(self, data: bytes, *, bos: bool = False, special: bool = False) -> list[int]:
        return self.model.tokenize(data, bos=bos, special=special)

    def piece(self, token: int) -> bytes:
        return self.model.piece(token)

    def is_eog(self, token: int) -> bool:
        return self.model.is_eog(token)

    def set_context(self, tokens: list[int]) -> int:
        self._prompt = True
        return self.model.set_context(tokens)

    def append(self, tokens: list[int]) -> None:
        self.model.append(tokens)

    def logits(self) -> np.ndarray:
        view = self.model.logits()
        self.logits_seen.append(view.copy())  # outside the decoder's mask timing
        self.forward_ns.append(self.stats.ns - self._mark)
        self.after_prompt.append(self._prompt)
        self._mark, self._prompt = self.stats.ns, False
        return view


class LlamaGrammarMask:
    """llama.cpp's grammar sampler over a full candidate array of the model's vocabulary, as llama.cpp samples."""

    def __init__(self, model: Any, gbnf: str) -> None:
        import llama_cpp

        self.lib = llama_cpp
        self.vocab_ptr = model.vocab_ptr
        self.gbnf = gbnf.encode()
        self.n = model.n_vocab
        self.data = (llama_cpp.llama_token_data * self.n)()
        self.view = np.frombuffer(self.data, dtype=np.dtype([("id", np.int32), ("logit", np.float32),
                                                              ("p", np.float32)]))
        self.array = llama_cpp.llama_token_data_array(self.data, self.n, -1, False)
        self.array_ref = ctypes.byref(self.array)
        self.sampler = None
        self.reset()

    def reset(self) -> None:
        """Start the grammar again."""
        self.close()
        self.sampler = self.lib.llama_sampler_init_grammar(self.vocab_ptr, self.gbnf, b"root")
        if not self.sampler:
            raise RuntimeError("llama.cpp cannot compile the grammar")

    def mask(self, logits: np.ndarray) -> tuple[int, np.ndarray]:
        """Return (ns, masked logits): the sampler applied to a fresh candidate array holding `logits`."""
        self.view["id"] = np.arange(self.n, dtype=np.int32)  # untimed: the candidate array, as llama.cpp fills it
        self.view["logit"] = logits
        self.array.size, self.array.selected, self.array.sorted = self.n, -1, False
        t0 = time.perf_counter_ns()
        self.lib.llama_sampler_apply(self.sampler, self.array_ref)
        ns = time.perf_counter_ns() - t0
        return ns, self.view["logit"].copy()

    def accept(self, token: int) -> None:
        """Advance the grammar by one token (the caller checked that the mask allows it)."""
        self.lib.llama_sampler_accept(self.sampler, token)

    def close(self) -> None:
        """Free the sampler."""
        if self.sampler:
            self.lib.llama_sampler_free(self.sampler)
            self.sampler = None


class _LlamaGrammarMatcher:
    """llama.cpp's grammar as a Matcher for the decode loop (no forced bytes: it has no jump-forward)."""

    def __init__(self, grammar: LlamaGrammarMask) -> None:
        self.grammar = grammar

    def reset(self) -> None:
        self.grammar.reset()

    def allowed(self) -> _LlamaGrammarMatcher:
        return self

    def apply(self, logits: np.ndarray) -> np.ndarray:
        return self.grammar.mask(logits)[1]

    def advance(self, token: int) -> None:
        self.grammar.accept(token)

    def advance_bytes(self, data: bytes) -> None:
        raise NotImplementedError("llama.cpp's grammar forces nothing")

    def is_accepting(self) -> bool:
        return True  # the loop asks only after the mask allowed an end-of-generation token

    def is_finished(self) -> bool:
        return False

    def forced_bytes(self) -> bytes:
        return b""

    def forced_completes(self) -> bool:
        return False

    def rollback(self, steps: int = 1) -> None:
        raise NotImplementedError


@dataclass
class PathResult:
    """One path's figures over the sentences."""

    seconds: list[float] = field(default_factory=list)
    valid: list[bool] = field(default_factory=list)
    chooses: list[bool] = field(default_factory=list)
    forward_us: list[float] = field(default_factory=list)  # per masked step after the prompt
    mask_us: list[float] = field(default_factory=list)  # this path's mask+apply, same steps
    llama_us: list[float] = field(default_factory=list)  # llama.cpp's grammar on the same logits
    llama_accepts: list[bool] = field(default_factory=list)
    no_output: int = 0  # sentences with no decode (out of scope, or the decode failed): counted not valid
    masked: bool = True

    def summary(self) -> dict[str, Any]:
        """Return the figures as one JSON-able dict."""
        def pct(values: list[float], q: float) -> float | None:
            return round(float(np.percentile(values, q)), 3) if values else None

        def share(part: list[float]) -> float | None:
            return round(100 * sum(part) / sum(self.forward_us), 4) if part and self.forward_us else None

        chose = [s for s, c in zip(self.seconds, self.chooses, strict=True) if c]
        forced = [s for s, c in zip(self.seconds, self.chooses, strict=True) if not c]
        return {
            "p50_s": statistics.median(self.seconds), "max_s": max(self.seconds),
            "valid": sum(self.valid) / len(self.valid), "n": len(self.seconds), "no_output": self.no_output,
            "model_chooses": sum(self.chooses),
            "p50_s_model_chooses": statistics.median(chose) if chose else None,
            "p50_s_forced": statistics.median(forced) if forced else None,
            "steps": len(self.forward_us), "forward_ms_p50": pct([u / 1000 for u in self.forward_us], 50),
            "mask_us_p50": pct(self.mask_us, 50) if self.masked else None,
            "mask_us_p99": pct(self.mask_us, 99) if self.masked else None,
            "mask_pct_of_forward": share(self.mask_us) if self.masked else None,
            "llama_mask_us_p50": pct(self.llama_us, 50), "llama_mask_us_p99": pct(self.llama_us, 99),
            "llama_mask_pct_of_forward": share(self.llama_us),
            "llama_accepts": sum(self.llama_accepts) if self.llama_accepts else None,
        }


def replay_llama(grammar: LlamaGrammarMask, gen: Any, rec: _Recorder, eos: list[int], out: PathResult) -> None:
    """Replay a generation's tokens through llama.cpp's grammar, timing its mask at every step ours masked."""
    grammar.reset()
    zeros = np.zeros(grammar.n, dtype=np.float32)
    step = 0
    accepted = True
    steps = [(tok, forced) for tok, forced in zip(gen.tokens, gen.forced, strict=True)]
    if len(rec.logits_seen) > gen.n_sampled:  # the last step sampled end-of-generation
        steps.append((eos[0], False))
    for token, forced in steps:
        logits = zeros if forced else rec.logits_seen[step]
        ns, masked = grammar.mask(logits)
        if not forced:
            if not rec.after_prompt[step]:
                out.llama_us.append(ns / 1000)
            step += 1
        ok = np.isfinite(masked[eos]).any() if token in eos else np.isfinite(masked[token])
        if not ok:
            accepted = False
            break
        if token not in eos:
            grammar.accept(token)
    out.llama_accepts.append(accepted)


def _recorded(tutor: Any, settings: dict[str, Any], decoder: Any) -> Any:
    """Return the tutor (an Ablation for a plain path) with `settings`, decoding answers with `decoder`."""
    from tutor.lab.ablations import ablated

    variant = tutor.with_settings(**settings)
    variant.answer_decoder = copy.copy(tutor.answer_decoder)  # this variant's own decoder; the tutor keeps its one
    variant.answer_decoder.decoder = decoder
    return ablated(variant)


def measure(tutor: Any, sentences: list[str], paths: list[str], *, log: Any = print) -> dict[str, dict[str, Any]]:
    """Run each path on the sentences; return its summary (see PathResult.summary) by path name."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    from tutor.a13.prompt import render
    from tutor.decoding.decoder import DecodeError, Decoder
    from tutor.resources import grammar_path

    schema_text = grammar_path("a13.schema.json").read_text(encoding="utf-8")
    schema = json.loads(schema_text)
    tutor.answer_decoder.schema_grammar()  # compiled (or loaded) once, outside the timings
    model = tutor.llm
    grammar = LlamaGrammarMask(model, json_schema_to_gbnf(schema_text))
    eos = [t for t in range(model.n_vocab) if model.is_eog(t)]
    rec = _Recorder(model)

    class Recording(Decoder):
        last: Any = None

        def generate(self, *args: Any, **kwargs: Any) -> Any:
            self.last = None
            self.last = super().generate(*args, **kwargs)
            return self.last

    decoder = Recording(rec)

    def prompt_tokens(s: str) -> list[int]:
        prefix, request = render(s, tutor.model.prompt_format, private=False)
        return model.tokenize((prefix + request).encode(), bos=True, special=True)

    results: dict[str, dict[str, Any]] = {}
    try:
        for name in paths:
            if name not in PATHS:
                raise ValueError(f"unknown path {name!r}; choose from {', '.join(PATHS)}")
            out = PathResult(masked=name != "unconstrained")
            variant = _recorded(tutor, PATHS[name], decoder) if PATHS[name] is not None else None
            for s in sentences:
                rec.clear()
                decoder.last = None
                t0 = time.perf_counter()
                text: bytes = b""
                try:
                    if name == "unconstrained":
                        gen = decoder.generate(prompt_tokens(s), None, max_tokens=120)
                        text = gen.text.split(b"<|im_end|>")[0]
                    elif name == "llama_grammar":
                        gen = decoder.generate(prompt_tokens(s), _LlamaGrammarMatcher(grammar), max_tokens=160)
                        text = gen.text
                    else:
                        variant.correct(s)
                        gen = decoder.last
                        text = gen.text if gen is not None else b""
                except DecodeError:
                    gen = None
                if gen is not None and len(gen.mask_ns) != len(rec.logits_seen):
                    raise RuntimeError(f"{name}: {len(gen.mask_ns)} masks for {len(rec.logits_seen)} recorded steps")
                out.no_output += gen is None
                out.seconds.append(time.perf_counter() - t0)
                out.valid.append(schema_valid(text, schema))
                out.chooses.append(gen is not None and gen.n_sampled > 0)
                if gen is None:
                    continue
                for k, ns in enumerate(gen.mask_ns):
                    if not rec.after_prompt[k]:
                        out.forward_us.append(rec.forward_ns[k] / 1000)
                        out.mask_us.append(ns / 1000)
                if name not in ("unconstrained", "llama_grammar"):
                    replay_llama(grammar, gen, rec, eos, out)
            results[name] = out.summary()
            r = results[name]
            log(f"  {name}: p50 {r['p50_s']:.3f} s, valid {r['valid']:.2f}, model chooses in {r['model_chooses']}"
                f"/{r['n']}, {r['steps']} masked steps", flush=True)
    finally:
        grammar.close()
    return results


def _fmt(value: Any, spec: str = ".2f") -> str:
    return "–" if value is None else format(value, spec)


def run(args: argparse.Namespace) -> int:
    """Run every path on the same sentences and print a table (and JSON with --json)."""
    from tutor.api import Tutor

    tutor = Tutor.load(args.model)
    try:
        sentences = (SENTENCES * (args.n // len(SENTENCES) + 1))[: args.n]
        wanted = list(PATHS) if args.paths == "all" else args.paths.split(",")
        print(f"model {tutor.model.name}, {len(sentences)} sentences per path")
        results = measure(tutor, sentences, wanted)
    finally:
        tutor.close()
    print("\n| path | p50 s / correction | model chooses | p50 s when it chooses | p50 s when forced | valid"
          " (jsonschema) | no output |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, r in results.items():
        print(f"| {name} | {r['p50_s']:.3f} | {r['model_chooses']}/{r['n']} | {_fmt(r['p50_s_model_chooses'], '.3f')}"
              f" | {_fmt(r['p50_s_forced'], '.3f')} | {r['valid']:.2f} | {r['no_output']} |")
    print("\nOn the same forward passes (masked steps after the prompt; llama.cpp replays the same tokens on the"
          " same logits):\n\n| path | steps | forward ms p50 | mask+apply µs p50 / p99 | % of forward |"
          " llama.cpp grammar µs p50 / p99 | % of forward | llama.cpp accepts |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, r in results.items():
        accepts = "–" if r["llama_accepts"] is None else f"{r['llama_accepts']}/{r['n']}"
        print(f"| {name} | {r['steps']} | {_fmt(r['forward_ms_p50'])} | {_fmt(r['mask_us_p50'], '.1f')} /"
              f" {_fmt(r['mask_us_p99'], '.1f')} | {_fmt(r['mask_pct_of_forward'], '.3f')} |"
              f" {_fmt(r['llama_mask_us_p50'], '.0f')} / {_fmt(r['llama_mask_us_p99'], '.0f')} |"
              f" {_fmt(r['llama_mask_pct_of_forward'], '.1f')} | {accepts} |")
    if args.json:
        print(json.dumps(results))
    return 0
