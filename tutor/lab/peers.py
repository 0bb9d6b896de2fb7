"""Peer comparison: the same workloads on the same vocabulary through other engines, beside ours.

For each workload (phone regex, parens CFG, config CFG, a13 JSON Schema) every engine compiles the
grammar, then walks the same token paths (valid outputs, tokenized by longest match in the model's
vocabulary); at each step it computes the mask (timed) and consumes the token. Engines: ours,
llguidance, outlines-core (regex and JSON Schema only: it has no CFG) and llama.cpp's GBNF sampler
(through llama-cpp-python). Peers are an optional extra (`pip install llguidance outlines-core`); a
peer that is not installed, or cannot take a workload, is listed as such. Vocabulary-level set-up
(llguidance's tokenizer, our vocabulary trie, llama.cpp's vocabulary) is done before timing compiles.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.metadata
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tutor.resources import grammar_path

WORKLOADS = {  # name -> (grammar file, valid outputs whose token paths are replayed)
    "phone": ("phone.regex", ["617-253-1000", "555-123-4567", "212-555-0199"]),
    "parens": ("parens.gbnf", ["(atom(atom)())", "((atom)(atom(atom)))", "atom", "(((atom)))"]),
    "config": ("config.gbnf", ['name="Ada"\nfavourite_verb="write"\n', 'level="3"\nsound="on"']),
    "a13": ("a13.schema.json", []),  # the prompt's worked examples (data/prompts/a13.json)
}
# llama.cpp's GBNF has no /regex/ terminals: the phone regex written in its syntax
LLAMA_PHONE_GBNF = 'root ::= [0-9]{3} "-" [0-9]{3} "-" [0-9]{4}'


@dataclass
class Row:
    """One engine on one workload."""

    engine: str
    compile_ms: float | None = None
    mask_us: list[float] | None = None
    note: str = ""

    def figures(self) -> dict[str, float | None]:
        """Return compile ms and mask p50/p99 µs (None where not measured)."""
        if not self.mask_us:
            return {"compile_ms": None, "mask_p50_us": None, "mask_p99_us": None}
        arr = np.array(self.mask_us)
        return {"compile_ms": round(self.compile_ms or 0.0, 3),
                "mask_p50_us": round(float(np.percentile(arr, 50)), 3),
                "mask_p99_us": round(float(np.percentile(arr, 99)), 3)}


def a13_examples() -> list[str]:
    """Return the a13 prompt's worked examples as schema-shaped JSON texts."""
    from tutor.a13.prompt import answer_json, load_prompt

    return [answer_json(ex["sentence"], ex["answer"], private=False) for ex in load_prompt().examples]


def token_path(text: bytes, vocab: Any) -> list[int]:
    """Return a tokenization of text by longest match over the vocabulary's trie."""
    from tutor.cfg.tokens import vocab_trie

    trie = vocab_trie(vocab)
    out, i = [], 0
    while i < len(text):
        node, best, best_len, j = 0, -1, 0, i
        while j < len(text):
            child = trie.first_child[node]
            while child >= 0 and trie.label[child] != text[j]:
                child = trie.next_sibling[child]
            if child < 0:
                break
            node, j = child, j + 1
            if trie.tokens_at[node]:
                best, best_len = trie.tokens_at[node][0], j - i
        if best < 0:
            raise ValueError(f"no token spells {text[i:i + 8]!r}")
        out.append(best)
        i += best_len
    return out


def to_lark(gbnf: str) -> str:
    """Return a GBNF file of our subset (no {m,n}) in Lark syntax, for llguidance."""
    lines = []
    for line in gbnf.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).rstrip()
        if line:
            lines.append(re.sub(r"^(\w+)\s*::=", lambda m: ("start" if m[1] == "root" else m[1]) + ":", line))
    return "\n".join(lines) + "\n"


def _timed(step: Callable[[], Any]) -> float:
    t0 = time.perf_counter_ns()
    step()
    return (time.perf_counter_ns() - t0) / 1e3


# --- the engines -------------------------------------------------------------------------------------


def run_ours(kind: str, source: str, paths: list[list[int]], vocab: Any) -> Row:
    """Our engines: compile, then allowed() along each path."""
    from tutor.cfg.tokens import vocab_trie
    from tutor.lab.families import load_family

    vocab_trie(vocab)
    family = load_family(source, vocab, use_cache=False)  # a cold compile, as for the peers
    row = Row("grammar-tutor", family.compile_ms, [])
    for path in paths:
        matcher = family.matcher()
        for token in path:
            row.mask_us.append(_timed(matcher.allowed))
            matcher.advance(token)
    return row


class _GTokenizer:
    """What llguidance's TokenizerWrapper needs: tokens as bytes, EOS and a tokenize function."""

    def __init__(self, vocab: Any) -> None:
        self.vocab = vocab
        self.tokens = [p if p else b"\xff<special_%d>" % i for i, p in enumerate(vocab.pieces)]
        self.eos_token_id = min(vocab.eog_ids)
        self.bos_token_id = None
        self.special_token_ids = sorted(vocab.special_ids | vocab.eog_ids)

    def __call__(self, data: bytes) -> list[int]:
        return token_path(data, self.vocab)


def run_llguidance(kind: str, source: str, paths: list[list[int]], vocab: Any, cache: dict[str, Any]) -> Row:
    """llguidance: LLMatcher with its numpy bitmask."""
    import llguidance
    import llguidance.numpy as llnp

    name = f"llguidance {importlib.metadata.version('llguidance')}"
    if "llg_tokenizer" not in cache:
        cache["llg_tokenizer"] = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_GTokenizer(vocab)))
    tokenizer = cache["llg_tokenizer"]
    text = grammar_path(source).read_text(encoding="utf-8")
    t0 = time.perf_counter()
    if kind == "regex":
        grammar = llguidance.LLMatcher.grammar_from_regex(text.rstrip("\n"))
    elif kind == "json":
        grammar = llguidance.LLMatcher.grammar_from_json_schema(text)
    else:
        grammar = llguidance.LLMatcher.grammar_from_lark(to_lark(text))
    matcher = llguidance.LLMatcher(tokenizer, grammar, log_level=0)
    compile_ms = (time.perf_counter() - t0) * 1e3
    if matcher.is_error():
        return Row(name, note=f"cannot compile: {matcher.get_error()[:80]}")
    bitmask = llnp.allocate_token_bitmask(1, vocab.size)
    row = Row(name, compile_ms, [])
    for path in paths:
        matcher.reset()
        for token in path:
            row.mask_us.append(_timed(lambda m=matcher: llnp.fill_next_token_bitmask(m, bitmask)))
            if not matcher.consume_token(token):
                return Row(name, note=f"rejected a valid token: {matcher.get_error()[:80]}")
    return row


def run_outlines(kind: str, source: str, paths: list[list[int]], vocab: Any, cache: dict[str, Any]) -> Row:
    """outlines-core: Index + Guide, mask written into an int32 bitmask."""
    import outlines_core

    name = f"outlines-core {importlib.metadata.version('outlines-core')}"
    if kind == "cfg":
        return Row(name, note="no CFG support")
    if "oc_vocab" not in cache:
        by_piece: dict[bytes, list[int]] = {}
        blocked = vocab.special_ids | vocab.eog_ids
        for i, piece in enumerate(vocab.pieces):
            if piece and i not in blocked:
                by_piece.setdefault(piece, []).append(i)
        cache["oc_vocab"] = outlines_core.Vocabulary(min(vocab.eog_ids), by_piece)
    text = grammar_path(source).read_text(encoding="utf-8")
    t0 = time.perf_counter()
    if kind == "regex":
        pattern = text.rstrip("\n")
    else:
        from outlines_core.json_schema import build_regex_from_schema

        pattern = build_regex_from_schema(text, r"")  # no whitespace between tokens, as ours
    index = outlines_core.Index(pattern, cache["oc_vocab"])
    compile_ms = (time.perf_counter() - t0) * 1e3
    bitmask = np.zeros((vocab.size + 31) // 32, dtype=np.int32)
    ptr = bitmask.ctypes.data
    row = Row(name, compile_ms, [])
    for path in paths:
        guide = outlines_core.Guide(index)
        for token in path:
            row.mask_us.append(_timed(lambda g=guide: g.write_mask_into(ptr, len(bitmask), 4)))
            guide.advance(token)
    return row


def run_llamacpp(kind: str, source: str, paths: list[list[int]], vocab: Any, cache: dict[str, Any]) -> Row:
    """llama.cpp's GBNF grammar sampler applied to a full candidate array, as llama.cpp samples."""
    import llama_cpp

    name = f"llama.cpp GBNF (llama-cpp-python {llama_cpp.__version__})"
    if "llama" not in cache:
        from tutor.models import resolve

        cache["llama"] = llama_cpp.Llama(str(resolve().path), vocab_only=True, verbose=False)
    llm = cache["llama"]
    text = grammar_path(source).read_text(encoding="utf-8")
    if kind == "regex":
        gbnf = LLAMA_PHONE_GBNF if source == "phone.regex" else None
    elif kind == "json":
        from llama_cpp.llama_grammar import json_schema_to_gbnf

        gbnf = json_schema_to_gbnf(text)
    else:
        gbnf = None if "/" in text else text
    if gbnf is None:
        return Row(name, note="no /regex/ terminals in llama.cpp GBNF")
    vocab_ptr = llama_cpp.llama_model_get_vocab(llm.model)
    n = vocab.size
    data = (llama_cpp.llama_token_data * n)()
    row = Row(name, None, [])
    for path in paths:
        t0 = time.perf_counter()
        sampler = llama_cpp.llama_sampler_init_grammar(vocab_ptr, gbnf.encode(), b"root")
        if row.compile_ms is None:
            row.compile_ms = (time.perf_counter() - t0) * 1e3
        if not sampler:
            return Row(name, note="cannot compile the grammar")
        try:
            for token in path:
                for i in range(n):
                    data[i].id, data[i].logit, data[i].p = i, 0.0, 0.0
                arr = llama_cpp.llama_token_data_array(data, n, -1, False)
                apply = llama_cpp.llama_sampler_apply
                row.mask_us.append(_timed(lambda a=arr, s=sampler, f=apply: f(s, ctypes.byref(a))))
                llama_cpp.llama_sampler_accept(sampler, token)
        finally:
            llama_cpp.llama_sampler_free(sampler)
    return row


PEERS = {"llguidance": run_llguidance, "outlines-core": run_outlines, "llama.cpp": run_llamacpp}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument("--workload", action="append", choices=list(WORKLOADS), metavar="NAME",
                        help=f"run only this workload (repeatable): {', '.join(WORKLOADS)}")
    parser.add_argument("--peer", action="append", choices=list(PEERS), metavar="NAME",
                        help=f"run only this peer (repeatable): {', '.join(PEERS)}")
    parser.add_argument("--model", help="whose vocabulary to use (default: the bundled model)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")


def run(args: argparse.Namespace) -> int:
    """Compile and walk every workload through every engine; print a markdown table (and JSON); return 0."""
    from tutor.engine.vocab import load_vocabulary
    from tutor.lab.families import family_kind, load_family
    from tutor.models import resolve

    vocab = load_vocabulary(resolve(args.model).path)
    cache: dict[str, Any] = {}
    results: dict[str, list[Row]] = {}
    for workload in args.workload or list(WORKLOADS):
        source, texts = WORKLOADS[workload]
        kind = family_kind(grammar_path(source))
        texts = texts or a13_examples()
        paths = [token_path(t.encode("utf-8"), vocab) for t in texts]
        check = load_family(source, vocab)
        for text in texts:
            if not check.judge(text.encode("utf-8")):
                raise ValueError(f"the {workload} example {text!r} is not in its language")
        print(f"[peers] {workload}: {len(paths)} paths, {sum(map(len, paths))} tokens", file=sys.stderr)
        rows = [run_ours(kind, source, paths, vocab)]
        for peer in args.peer or list(PEERS):
            try:
                rows.append(PEERS[peer](kind, source, paths, vocab, cache))
            except ImportError:
                rows.append(Row(peer, note="not installed (pip install llguidance outlines-core)"))
        results[workload] = rows
    print(f"Vocabulary of {vocab.size} tokens; masks timed at every token of the same token paths.\n")
    print("| workload | engine | compile ms | mask p50 µs | mask p99 µs | note |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for workload, rows in results.items():
        for r in rows:
            f = r.figures()
            cells = [f"{f[k]:.1f}" if f[k] is not None else "–"
                     for k in ("compile_ms", "mask_p50_us", "mask_p99_us")]
            print(f"| {workload} | {r.engine} | {' | '.join(cells)} | {r.note} |")
    print("\nxgrammar is not measured here: its PyPI package requires torch (with CUDA libraries, gigabytes).")
    if args.json:
        out = {w: {r.engine: r.figures() | {"note": r.note} for r in rows} for w, rows in results.items()}
        print(json.dumps(out))
    return 0
