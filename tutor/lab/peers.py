"""Peer comparison, like for like: every engine produces the same artefact on the same token paths, in one run.

For each workload (phone regex, parens CFG, config CFG, a13 JSON Schema) every engine compiles the
grammar, then walks the same token paths (valid outputs, tokenized by longest match in the model's
vocabulary). At each step it fills a packed bitmask over the whole vocabulary (32 tokens per uint32
word, the layout llguidance, outlines-core and XGrammar use): that fill is timed as "mask". Then the
same function (tutor.engine.matcher.apply_bitmask) applies each engine's bitmask to the same float32
logits: "mask + apply" is the sum, the cost a decoder pays per token. p50, p99 and the maximum of both
are reported. llama.cpp's GBNF sampler has no bitmask: its timed step is its own apply to a full
candidate array (mask and apply in one), from which its bitmask is read untimed.

Each engine's bitmask is compared with ours at every step ("same mask"), and each engine samples
random walks under its own mask whose outputs are judged by an independent validator (re.fullmatch,
jsonschema, or a recursive GBNF recogniser; tutor.lab.validity): "valid" counts the finished walks
that the validator accepts.

Engines: ours, llguidance, outlines-core (regex and JSON Schema only: it has no CFG) and llama.cpp's
GBNF sampler (through llama-cpp-python). Peers are an optional extra (`pip install llguidance
outlines-core`); a peer that is not installed, or cannot take a workload, is listed as such.
Vocabulary-level set-up (llguidance's tokenizer, outlines-core's vocabulary, our trie and string-body walk,
llama.cpp's vocabulary) is done before timing compiles. Our compile is lazy: a state's token set, bitmask,
fill plan and forced continuation are built the first time decoding reaches it (DFAGrammar.allowed_at,
fill_plan, forced_at), and a CFG builds each parser state's bitmask the first time it meets it. The peer
"grammar-tutor eager" is the same compiler building every state up front (DFAGrammar.warm_bitmasks and every
forced continuation), so both builds are measured in one run and its masks are compared with the lazy ones
at every step.
"first mask ms" is the compile plus the first fill; "memory MB" is the growth of the process's resident
memory from before the compile to the end of the replay (allocator reuse makes it a lower bound).
Every engine writes every word of the caller's buffer (ours: the zero row and a sparse state's nonzero
span, or a dense state's whole row; AllowedSet.fill_plan).
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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tutor.engine.matcher import TokenRejected, apply_bitmask
from tutor.resources import grammar_path

WORKLOADS = {  # name -> (grammar file, valid outputs whose token paths are replayed)
    "phone": ("phone.regex", ["617-253-1000", "555-123-4567", "212-555-0199"]),
    "parens": ("parens.gbnf", ["(atom(atom)())", "((atom)(atom(atom)))", "atom", "(((atom)))"]),
    "config": ("config.gbnf", ['name="Ada"\nfavourite_verb="write"\n', 'level="3"\nsound="on"']),
    "a13": ("a13.schema.json", []),  # the prompt's worked examples (data/prompts/a13.json)
}
COMPACT_JSON = {"whitespace_flexible": False, "key_separator": ":", "item_separator": ","}
# llama.cpp's GBNF has no /regex/ terminals: the phone regex written in its syntax
LLAMA_PHONE_GBNF = 'root ::= [0-9]{3} "-" [0-9]{3} "-" [0-9]{4}'


def _stats(values: list[float]) -> tuple[float | None, float | None, float | None]:
    if not values:
        return None, None, None
    arr = np.asarray(values)
    return (round(float(np.percentile(arr, 50)), 3), round(float(np.percentile(arr, 99)), 3),
            round(float(arr.max()), 3))


@dataclass
class Row:
    """One engine on one workload."""

    engine: str
    compile_ms: float | None = None
    rss_mb: float | None = None
    mask_us: list[float] = field(default_factory=list)
    apply_us: list[float] = field(default_factory=list)
    same_mask: int = 0
    compared: int = 0
    differences: dict[str, int] = field(default_factory=dict)  # why a step's mask differs from ours (classify)
    valid: int = 0
    finished: int = 0
    walks: int = 0
    note: str = ""

    def figures(self) -> dict[str, Any]:
        """Return compile ms, mask and mask+apply p50/p99/max µs, same-mask steps and valid walks (None: not run)."""
        total = [m + a for m, a in zip(self.mask_us, self.apply_us, strict=True)]
        p50, p99, mx = _stats(self.mask_us)
        t50, t99, tmx = _stats(total)
        ran = self.compile_ms is not None and bool(self.mask_us)
        return {"compile_ms": round(self.compile_ms, 3) if ran else None,
                "first_mask_ms": round(self.compile_ms + self.mask_us[0] / 1e3, 3) if ran else None,
                "memory_mb": round(self.rss_mb, 1) if self.rss_mb is not None and ran else None,
                "mask_p50_us": p50, "mask_p99_us": p99, "mask_max_us": mx,
                "mask_apply_p50_us": t50, "mask_apply_p99_us": t99, "mask_apply_max_us": tmx,
                "same_mask": f"{self.same_mask}/{self.compared}" if self.compared else None,
                "mask_differences": dict(sorted(self.differences.items())) if self.compared else None,
                "valid": f"{self.valid}/{self.finished}" if self.walks else None,
                "unfinished": self.walks - self.finished if self.walks else None}


def a13_examples() -> list[str]:
    """Return the a13 prompt's worked examples as schema-shaped JSON texts."""
    from tutor.a13.prompt import answer_json, load_prompt

    return [answer_json(ex["sentence"], ex["answer"], private=False) for ex in load_prompt().examples]


def token_path(text: bytes, vocab: Any) -> list[int]:
    """Return a tokenization of text by longest match over the vocabulary's trie."""
    from tutor.engine.trie import token_trie

    trie = token_trie(vocab)
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


def ascii_classes(pattern: str) -> str:
    r"""Return the pattern with `\d` spelled `[0-9]`: ours and the judge read `\d` as ASCII, the peers as Unicode."""
    return pattern.replace(r"\d", "[0-9]")


# --- the engines: each fills a packed bitmask and consumes tokens ------------------------------------


class Engine:
    """One engine bound to one compiled grammar: reset(), fill(bitmask) (timed by the caller), consume(token)."""

    name = "engine"
    compile_ms: float = 0.0
    note = ""

    def reset(self) -> None:
        """Return to the start of the grammar."""
        raise NotImplementedError

    def fill(self, bitmask: np.ndarray) -> None:
        """Write the allowed tokens of the current state into `bitmask` (the step that is timed)."""
        raise NotImplementedError

    def read_back(self, bitmask: np.ndarray) -> None:
        """Finish `bitmask` after fill, untimed (only llama.cpp needs it: its artefact is masked logits)."""

    def consume(self, token: int) -> bool:
        """Advance by one token; return False if the engine rejects it."""
        raise NotImplementedError

    def forced(self) -> bytes:
        """Return the bytes the grammar forces next (only ours says; b"" for the peers)."""
        return b""


class Ours(Engine):
    """grammar-tutor: the family's matcher; DFAMatcher / AllowedSet.fill_bitmask write the state's fill plan.

    `eager` builds every state's bitmask, fill plan and forced continuation in the compile (the build before
    it was made lazy), for a before/after comparison in one run.
    """

    def __init__(self, kind: str, source: str, vocab: Any, cache: dict[str, Any] | None = None, *,
                 eager: bool = False) -> None:
        from tutor.engine.dfa_grammar import DFAGrammar, DFAMatcher
        from tutor.engine.index import body_walk
        from tutor.engine.trie import token_trie
        from tutor.lab.families import load_family

        body_walk(token_trie(vocab))  # the vocabulary's preparation: its trie and string-body walk, any grammar's
        t0 = time.perf_counter()
        self.family = load_family(source, vocab, use_cache=False)  # a cold compile, as for the peers
        if eager and isinstance(self.family.compiled, DFAGrammar):
            self.family.compiled.warm_bitmasks()
            self.family.compiled.arrays()  # walks every state's forced continuation
        self.compile_ms = (time.perf_counter() - t0) * 1e3
        self.name = "grammar-tutor eager" if eager else "grammar-tutor"
        self.size = vocab.size
        self.matcher = self.family.matcher()
        self._fill = self.matcher.fill_bitmask if isinstance(self.matcher, DFAMatcher) else self._fill_from_set

    def reset(self) -> None:
        self.matcher.reset()

    def fill(self, bitmask: np.ndarray) -> None:
        self._fill(bitmask)

    def _fill_from_set(self, bitmask: np.ndarray) -> None:
        self.matcher.allowed().fill_bitmask(bitmask, self.size)

    def consume(self, token: int) -> bool:
        try:
            self.matcher.advance(token)
        except TokenRejected:
            return False
        return True

    def forced(self) -> bytes:
        return self.matcher.forced_bytes()


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


class LLGuidance(Engine):
    """llguidance: LLMatcher filling its numpy bitmask."""

    def __init__(self, kind: str, source: str, vocab: Any, cache: dict[str, Any]) -> None:
        import llguidance
        import llguidance.numpy as llnp

        self.name = f"llguidance {importlib.metadata.version('llguidance')}"
        if "llg_tokenizer" not in cache:
            cache["llg_tokenizer"] = llguidance.LLTokenizer(llguidance.TokenizerWrapper(_GTokenizer(vocab)))
        text = grammar_path(source).read_text(encoding="utf-8")
        t0 = time.perf_counter()
        if kind == "regex":
            grammar = llguidance.LLMatcher.grammar_from_regex(ascii_classes(text.rstrip("\n")))
        elif kind == "json":
            # compact JSON, as ours and outlines-core emit (llguidance allows flexible whitespace by default)
            grammar = llguidance.LLMatcher.grammar_from_json_schema(text, overrides=COMPACT_JSON)
        else:
            grammar = llguidance.LLMatcher.grammar_from_lark(to_lark(text))
        self.matcher = llguidance.LLMatcher(cache["llg_tokenizer"], grammar, log_level=0)
        self.compile_ms = (time.perf_counter() - t0) * 1e3
        if self.matcher.is_error():
            self.note = f"cannot compile: {self.matcher.get_error()[:80]}"
        self._fill = llnp.fill_next_token_bitmask
        self._target: tuple[np.ndarray, np.ndarray] | None = None

    def reset(self) -> None:
        self.matcher.reset()

    def fill(self, bitmask: np.ndarray) -> None:
        if self._target is None or self._target[0] is not bitmask:  # its [1, words] int32 view, made once
            self._target = (bitmask, bitmask.view(np.int32).reshape(1, -1))
        self._fill(self.matcher, self._target[1])

    def consume(self, token: int) -> bool:
        return bool(self.matcher.consume_token(token))


class OutlinesCore(Engine):
    """outlines-core: Index + Guide, the mask written into the bitmask by write_mask_into."""

    def __init__(self, kind: str, source: str, vocab: Any, cache: dict[str, Any]) -> None:
        import outlines_core

        self.name = f"outlines-core {importlib.metadata.version('outlines-core')}"
        if kind == "cfg":
            self.note = "no CFG support"
            return
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
            pattern = ascii_classes(text.rstrip("\n"))
        else:
            from outlines_core.json_schema import build_regex_from_schema

            pattern = build_regex_from_schema(text, r"")  # no whitespace between tokens, as ours
        self.index = outlines_core.Index(pattern, cache["oc_vocab"])
        self.compile_ms = (time.perf_counter() - t0) * 1e3
        self._guide = outlines_core.Guide
        self._target: tuple[np.ndarray, int] | None = None

    def reset(self) -> None:
        self.guide = self._guide(self.index)

    def fill(self, bitmask: np.ndarray) -> None:
        if self._target is None or self._target[0] is not bitmask:  # the array's address, read once
            self._target = (bitmask, bitmask.ctypes.data)
        self.guide.write_mask_into(self._target[1], bitmask.size, 4)

    def consume(self, token: int) -> bool:
        try:
            self.guide.advance(token)
        except ValueError:
            return False
        return True


class LlamaCppGBNF(Engine):
    """llama.cpp's GBNF grammar sampler applied to a full candidate array, as llama.cpp samples."""

    def __init__(self, kind: str, source: str, vocab: Any, cache: dict[str, Any]) -> None:
        import llama_cpp

        self.lib = llama_cpp
        self.name = f"llama.cpp GBNF (llama-cpp-python {llama_cpp.__version__})"
        if "llama" not in cache:
            from tutor.catalogue import resolve

            cache["llama"] = llama_cpp.Llama(str(resolve().path), vocab_only=True, verbose=False)
        text = grammar_path(source).read_text(encoding="utf-8")
        if kind == "regex":
            gbnf = LLAMA_PHONE_GBNF if source == "phone.regex" else None
        elif kind == "json":
            from llama_cpp.llama_grammar import json_schema_to_gbnf

            gbnf = json_schema_to_gbnf(text)
        else:
            gbnf = None if "/" in text else text
        self.sampler = None
        if gbnf is None:
            self.note = "no /regex/ terminals in llama.cpp GBNF"
            return
        self.gbnf = gbnf.encode()
        self.vocab_ptr = llama_cpp.llama_model_get_vocab(cache["llama"].model)
        self.n = vocab.size
        self.data = (llama_cpp.llama_token_data * self.n)()
        self.view = np.frombuffer(self.data, dtype=np.dtype([("id", np.int32), ("logit", np.float32),
                                                              ("p", np.float32)]))
        self.view["id"] = np.arange(self.n, dtype=np.int32)
        self.array = llama_cpp.llama_token_data_array(self.data, self.n, -1, False)
        self.array_ref = ctypes.byref(self.array)
        t0 = time.perf_counter()
        self.reset()
        self.compile_ms = (time.perf_counter() - t0) * 1e3
        if not self.sampler:
            self.note = "cannot compile the grammar"

    def reset(self) -> None:
        if self.sampler:
            self.lib.llama_sampler_free(self.sampler)
        self.sampler = self.lib.llama_sampler_init_grammar(self.vocab_ptr, self.gbnf, b"root")

    def fill(self, bitmask: np.ndarray) -> None:
        self.lib.llama_sampler_apply(self.sampler, self.array_ref)

    def read_back(self, bitmask: np.ndarray) -> None:
        allowed = np.isfinite(self.view["logit"])
        packed = np.packbits(np.pad(allowed, (0, bitmask.size * 32 - allowed.size)), bitorder="little")
        bitmask[:] = packed.view(bitmask.dtype)
        self.view["logit"] = 0.0  # untimed: the next step starts from a fresh candidate array
        self.array.size, self.array.selected, self.array.sorted = self.n, -1, False

    def consume(self, token: int) -> bool:
        self.lib.llama_sampler_accept(self.sampler, token)
        return True

    def close(self) -> None:
        """Free the sampler."""
        if self.sampler:
            self.lib.llama_sampler_free(self.sampler)
            self.sampler = None


def _eager_ours(kind: str, source: str, vocab: Any, cache: dict[str, Any]) -> Engine:
    return Ours(kind, source, vocab, cache, eager=True)


def resident_mb() -> float:
    """Return this process's resident memory in MB (Linux /proc; 0.0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * 4096 / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


PEERS: dict[str, Callable[..., Engine]] = {"grammar-tutor-eager": _eager_ours, "llguidance": LLGuidance,
                                           "outlines-core": OutlinesCore, "llama.cpp": LlamaCppGBNF}


# --- the measurement ---------------------------------------------------------------------------------


def _allowed(bitmask: np.ndarray, size: int) -> np.ndarray:
    """Return the allowed ids of a packed bitmask."""
    return np.flatnonzero(np.unpackbits(bitmask.view(np.uint8), count=size, bitorder="little"))


FORCED_CANONICAL = "ours also allows other spellings of the forced bytes: the peer keeps one tokenization"
PEER_BANS_DEL = "the peer bans raw DEL (U+007F) in strings, which JSON allows"


def classify(ours: np.ndarray, theirs: np.ndarray, forced: bytes, vocab: Any) -> str:
    """Return why a peer's bitmask differs from ours at one step ("same" when it does not).

    FORCED_CANONICAL: the grammar forces bytes here and every token the peer leaves out spells a prefix
    of them (or starts with them), as llguidance does when it keeps only its tokenizer's tokens of forced
    text. PEER_BANS_DEL: every token it leaves out holds byte 0x7F. Otherwise which side allows more.
    """
    if np.array_equal(ours, theirs):
        return "same"
    a, b = set(_allowed(ours, vocab.size).tolist()), set(_allowed(theirs, vocab.size).tolist())
    if b <= a:
        extra = [vocab.pieces[t] for t in a - b]
        if forced and all(forced.startswith(p) or p.startswith(forced) for p in extra if p):
            return FORCED_CANONICAL
        if all(b"\x7f" in p for p in extra):
            return PEER_BANS_DEL
        return "ours allows more"
    return "the peer allows more" if a <= b else "each allows tokens the other does not"


def replay(engine: Engine, paths: list[list[int]], vocab: Any, logits: np.ndarray,
           reference: list[list[np.ndarray]] | None,
           forced: list[list[bytes]] | None = None) -> tuple[Row, list[list[np.ndarray]], list[list[bytes]]]:
    """Walk every path: time fill, then apply_bitmask on a copy of `logits`; compare with `reference` masks.

    Returns the row, the engine's masks and its forced bytes per step; a differing step is counted in
    `row.differences` by `classify`, with `forced` (ours, per step).
    """
    row = Row(engine.name, engine.compile_ms)
    words = -(-vocab.size // 32)
    bitmask = np.zeros(words, dtype=np.uint32)
    masks: list[list[np.ndarray]] = []
    forced_out: list[list[bytes]] = []
    for p, path in enumerate(paths):
        engine.reset()
        masks.append([])
        forced_out.append([])
        for k, token in enumerate(path):
            bitmask.fill(0)
            t0 = time.perf_counter_ns()
            engine.fill(bitmask)
            t1 = time.perf_counter_ns()
            engine.read_back(bitmask)
            scores = logits.copy()
            t2 = time.perf_counter_ns()
            apply_bitmask(bitmask, scores)
            t3 = time.perf_counter_ns()
            row.mask_us.append((t1 - t0) / 1e3)
            row.apply_us.append((t3 - t2) / 1e3)
            masks[p].append(bitmask.copy())
            forced_out[p].append(engine.forced())
            if reference is not None:
                row.compared += 1
                why = classify(reference[p][k], bitmask, forced[p][k] if forced else b"", vocab)
                row.same_mask += why == "same"
                if why != "same":
                    row.differences[why] = row.differences.get(why, 0) + 1
            if not engine.consume(token):
                row.note = f"rejected a valid token ({token}) at step {k} of path {p}"
                return row, masks, forced_out
    return row, masks, forced_out


def sample_walks(engine: Engine, row: Row, vocab: Any, judge: Callable[[bytes], bool], walks: int,
                 max_steps: int, seed: int) -> None:
    """Sample random walks under the engine's own mask; count finished ones the independent judge accepts.

    Each step picks a uniform allowed token, or (one time in three) one that may close a structure
    (`"`, `}`, `]`, `)`, a newline or end-of-generation), so walks end within a few hundred tokens.
    """
    rng = np.random.default_rng(seed)
    eog = np.array(sorted(vocab.eog_ids))
    closing = np.zeros(vocab.size, dtype=bool)
    for i, piece in enumerate(vocab.pieces):
        closing[i] = any(c in piece for c in b'"}])\n')
    closing[eog] = True
    bitmask = np.zeros(-(-vocab.size // 32), dtype=np.uint32)
    for _ in range(walks):
        engine.reset()
        row.walks += 1
        text = bytearray()
        for _step in range(max_steps):
            bitmask.fill(0)
            engine.fill(bitmask)
            engine.read_back(bitmask)
            allowed = _allowed(bitmask, vocab.size)
            if not allowed.size:
                row.finished += 1  # a dead end: the engine allowed nothing, an invalid output
                break
            pool = allowed[closing[allowed]] if rng.random() < 1 / 3 else allowed
            token = int(rng.choice(pool if pool.size else allowed))
            if token in vocab.eog_ids:
                row.finished += 1
                row.valid += bool(judge(bytes(text)))
                break
            if not engine.consume(token):
                row.finished += 1
                break
            text += vocab.pieces[token]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the command's options."""
    parser.add_argument("--workload", action="append", choices=list(WORKLOADS), metavar="NAME",
                        help=f"run only this workload (repeatable): {', '.join(WORKLOADS)}")
    parser.add_argument("--peer", action="append", choices=list(PEERS), metavar="NAME",
                        help=f"run only this peer (repeatable): {', '.join(PEERS)}")
    parser.add_argument("--model", help="whose vocabulary to use (default: the bundled model)")
    parser.add_argument("--walks", type=int, default=10, help="random walks per engine judged for validity"
                        " (default 10; 0 skips them)")
    parser.add_argument("--max-steps", type=int, default=400, help="tokens per random walk at most (default 400)")
    parser.add_argument("--json", action="store_true", help="end with one JSON object on the last line")


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    return f"{value:,.1f}" if isinstance(value, float) else str(value)


def run(args: argparse.Namespace) -> int:
    """Compile and walk every workload through every engine; print a markdown table (and JSON); return 0."""
    from tutor.catalogue import resolve
    from tutor.engine.vocab import load_vocabulary
    from tutor.lab.families import family_kind, load_family

    vocab = load_vocabulary(resolve(args.model).path)
    logits = np.random.default_rng(0).standard_normal(vocab.size).astype(np.float32)
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
        rss = resident_mb()
        ours = Ours(kind, source, vocab)
        rows = []
        row, reference, forced = replay(ours, paths, vocab, logits, None)
        row.rss_mb = resident_mb() - rss
        sample_walks(ours, row, vocab, check.judge, args.walks, args.max_steps, seed=1)
        rows.append(row)
        for peer in args.peer or list(PEERS):
            rss = resident_mb()
            try:
                engine = PEERS[peer](kind, source, vocab, cache)
            except ImportError:
                rows.append(Row(peer, note="not installed (pip install llguidance outlines-core)"))
                continue
            if engine.note:
                rows.append(Row(engine.name, note=engine.note))
                continue
            row, _, _ = replay(engine, paths, vocab, logits, reference, forced)
            row.rss_mb = resident_mb() - rss
            if not row.note:
                sample_walks(engine, row, vocab, check.judge, args.walks, args.max_steps, seed=1)
            rows.append(row)
            if isinstance(engine, LlamaCppGBNF):
                engine.close()
        results[workload] = rows
    print(f"Vocabulary of {vocab.size} tokens. Every engine fills a packed bitmask over the vocabulary at every token"
          " of the same paths (mask); the same apply_bitmask then masks the same logits (mask + apply). µs.\n")
    keys = ("compile_ms", "first_mask_ms", "memory_mb",
            "mask_p50_us", "mask_p99_us", "mask_max_us", "mask_apply_p50_us", "mask_apply_p99_us",
            "mask_apply_max_us", "same_mask", "valid", "unfinished")
    print("| workload | engine | compile ms | first mask ms | memory MB |"
          " mask p50 | mask p99 | mask max | mask+apply p50 | mask+apply p99 |"
          " mask+apply max | same mask as ours | valid / finished walks | unfinished | note |")
    print("| --- | --- |" + " ---: |" * 12 + " --- |")
    for workload, rows in results.items():
        for r in rows:
            f = r.figures()
            print(f"| {workload} | {r.engine} | {' | '.join(_cell(f[k]) for k in keys)} | {r.note} |")
    print("\nllama.cpp GBNF's mask is its sampler's apply to a full candidate array (masking included); its bitmask"
          " is read back untimed.\nxgrammar is not measured here: its PyPI package requires torch (with CUDA"
          " libraries, gigabytes).")
    if args.json:
        out = {w: {r.engine: r.figures() | {"note": r.note} for r in rows} for w, rows in results.items()}
        print(json.dumps(out))
    return 0
