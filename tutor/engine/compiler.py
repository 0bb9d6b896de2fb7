"""The engine's front door: GrammarCompiler turns a regex, a JSON Schema, a GBNF grammar or a list of
choices into an immutable CompiledGrammar for one vocabulary; `compiled.matcher()` gives one request's state.

    compiler = GrammarCompiler(Vocabulary.from_gguf("model.gguf"))
    compiled = compiler.compile_json_schema({"type": "object", "properties": {...}})
    matcher = compiled.matcher()          # a tutor.engine.Matcher
    data = compiled.to_bytes()            # CompiledGrammar.from_bytes(data, vocabulary) restores it

Regex and JSON Schema compile to a byte DFA with a precomputed token index (one lookup per step);
GBNF compiles to a pushdown parser whose masks are computed once per parser state and memoised;
choices are matched by dictionary lookups of the vocabulary's pieces.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tutor.engine import cache
from tutor.engine.cfg.grammar import compile_grammar
from tutor.engine.cfg.matcher import CompiledCFG
from tutor.engine.choices import ChoiceMatcher, PieceIndex
from tutor.engine.dfa_grammar import (
    DFAGrammar,
    assemble,
    code_version,
    compile_json_schema,
    compile_regex,
    grammar_key,
    parse_schema_text,
    stored_arrays,
)
from tutor.engine.errors import GrammarError, SerialisedGrammarError
from tutor.engine.limits import Budget, Limits
from tutor.engine.matcher import Matcher
from tutor.engine.sources import choice_bytes, finite_priors
from tutor.engine.trie import token_trie
from tutor.engine.vocab import Vocabulary

__all__ = ["CompiledGrammar", "GrammarCompiler", "GrammarKind"]

GrammarKind = Literal["regex", "json_schema", "gbnf", "choices"]
FORMAT = "grammar-tutor compiled grammar"
FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class _Choices:
    """A choice grammar: the strings, their log-priors and the vocabulary's pieces by bytes."""

    strings: tuple[bytes, ...]
    priors: tuple[float, ...] | None
    index: PieceIndex


@dataclass(frozen=True, eq=False)
class CompiledGrammar:
    """A grammar compiled for one vocabulary: immutable, shareable between requests and threads of one family.

    `kind` is the family; `source` the canonical text the grammar was compiled from (for JSON Schema and
    choices, a JSON object with the options). A GBNF grammar's per-state masks are memoised inside as
    requests meet them (not thread-safe: compile one per thread for GBNF).
    """

    kind: GrammarKind
    source: str
    vocabulary: Vocabulary
    _impl: DFAGrammar | CompiledCFG | _Choices = field(repr=False)

    def matcher(self) -> Matcher:
        """Return a new matcher at the start of the grammar."""
        impl = self._impl
        if isinstance(impl, _Choices):
            return ChoiceMatcher(impl.strings, impl.index, impl.priors)
        return impl.matcher()

    @property
    def build_ms(self) -> float:
        """Return the milliseconds the compilation took (0 when loaded from a cache or bytes)."""
        impl = self._impl
        if isinstance(impl, DFAGrammar):
            return impl.build_ms
        if isinstance(impl, CompiledCFG):
            return impl.compile_ms
        return 0.0

    @property
    def dfa_grammar(self) -> DFAGrammar | None:
        """Return the DFA family's grammar (regex, JSON Schema), or None for GBNF and choices."""
        return self._impl if isinstance(self._impl, DFAGrammar) else None

    def to_bytes(self) -> bytes:
        """Return the grammar serialised: the DFA and token index as arrays, GBNF and choices as their source.

        Restore it with CompiledGrammar.from_bytes(data, vocabulary) for the same vocabulary.
        """
        meta: dict[str, Any] = {"format": FORMAT, "version": FORMAT_VERSION, "kind": self.kind,
                                "source": self.source, "vocab": self.vocabulary.sha256, "code": code_version()}
        arrays = stored_arrays(self._impl.arrays()) if isinstance(self._impl, DFAGrammar) else {}
        return cache.encode(arrays, meta)

    @classmethod
    def from_bytes(cls, data: bytes, vocabulary: Vocabulary, *, limits: Limits | None = None) -> CompiledGrammar:
        """Return the grammar serialised by to_bytes(); SerialisedGrammarError if the bytes are not one for it.

        A DFA grammar written by different compiler code, a GBNF grammar and choices are rebuilt from
        their source (bounded by `limits`).
        """
        decoded = cache.decode(bytes(data))
        if decoded is None:
            raise SerialisedGrammarError("the bytes are not a compiled grammar (wrong header or corrupt payload)")
        arrays, meta = decoded
        if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
            raise SerialisedGrammarError(f"the bytes are not a compiled grammar of format version {FORMAT_VERSION}")
        if meta.get("vocab") != vocabulary.sha256:
            raise SerialisedGrammarError("the grammar was compiled for another vocabulary; compile it again for"
                                         " this one")
        kind, source = meta["kind"], meta["source"]
        if kind in ("regex", "json_schema") and meta.get("code") == code_version() and arrays:
            family = "regex" if kind == "regex" else "json"
            key, _ = grammar_key(family, source, vocabulary)
            return cls(kind, source, vocabulary, assemble(family, key, vocabulary, arrays, True, 0.0))
        return GrammarCompiler(vocabulary, limits=limits)._from_source(kind, source)


class GrammarCompiler:
    """Compiles grammars for one vocabulary, remembering each compiled grammar (and on disk under `cache_dir`).

    `cache_dir=None` keeps compiled grammars in this object only (choices are not kept: they cost nothing to
    build, and a compiler that decodes one answer per request must not grow with every request); a folder
    makes regex and JSON Schema grammars persist there, keyed by the grammar, the vocabulary and the
    compiler's code, so a second process loads them instead of compiling. `limits` bound every compilation
    (GrammarError / LimitExceeded name the construct and the limit).
    """

    def __init__(self, vocabulary: Vocabulary, cache_dir: str | Path | None = None, *,
                 limits: Limits | None = None) -> None:
        self.vocabulary = vocabulary
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.limits = limits
        self._memo: dict[tuple[str, str], CompiledGrammar] = {}
        self._piece_index: PieceIndex | None = None

    def compile_regex(self, pattern: str) -> CompiledGrammar:
        """Return the grammar of the strings that fully match `pattern` (Python `re` syntax, byte-level UTF-8)."""
        return self._from_source("regex", pattern)

    def compile_json_schema(self, schema: Mapping[str, Any] | bool | str, *, whitespace: int = 0,
                            property_order: str = "any", strict: bool = False, free_depth: int = 2) -> CompiledGrammar:
        """Return the grammar of the JSON texts valid under `schema` (a dict or JSON text).

        whitespace: at most this many bytes of whitespace between JSON tokens (default none, compact JSON).
        The schema is honoured by default (objects open unless it closes them, properties in any order);
        the narrowings are asked for: property_order="declared" (properties in the schema's order),
        strict=True (objects closed), free_depth (how deeply a free-form value may nest, default 2).
        """
        parsed = parse_schema_text(schema) if isinstance(schema, str) else schema
        try:
            source = json.dumps({"schema": parsed, "whitespace": whitespace, "property_order": property_order,
                                 "strict": strict, "free_depth": free_depth}, ensure_ascii=False,
                                separators=(",", ":"), sort_keys=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise GrammarError(f"the schema cannot be written as JSON ({exc})") from None
        return self._from_source("json_schema", source)

    def compile_gbnf(self, grammar: str) -> CompiledGrammar:
        """Return the grammar of a GBNF text (llama.cpp's grammar syntax, `root` the start rule)."""
        return self._from_source("gbnf", grammar)

    def compile_choices(self, choices: Sequence[str | bytes], priors: Sequence[float] | None = None) -> CompiledGrammar:
        """Return the grammar whose sentences are exactly `choices` (priors: a log-prior per choice, or None)."""
        strings = choice_bytes(choices)
        if not strings:
            raise GrammarError("compile_choices needs at least one choice")
        weights = finite_priors(priors, len(strings)) if priors is not None else None
        source = json.dumps({"choices": [s.decode("utf-8", errors="surrogateescape") for s in strings],
                             "priors": weights},
                            ensure_ascii=True, separators=(",", ":"))
        return self._from_source("choices", source)

    def _from_source(self, kind: GrammarKind, source: str) -> CompiledGrammar:
        """Return the compiled grammar of a canonical source (memoised in this compiler)."""
        hit = self._memo.get((kind, source))
        if hit is not None:
            return hit
        vocab, limits = self.vocabulary, self.limits
        disk = self.cache_dir is not None
        impl: DFAGrammar | CompiledCFG | _Choices
        if kind == "regex":
            impl = compile_regex(source, vocab, use_cache=disk, limits=limits, cache_dir=self.cache_dir)
        elif kind == "json_schema":
            options = json.loads(source)
            impl = compile_json_schema(options["schema"], vocab, whitespace=options["whitespace"], use_cache=disk,
                                       limits=limits, cache_dir=self.cache_dir,
                                       property_order=options.get("property_order", "any"),
                                       strict=options.get("strict", False), free_depth=options.get("free_depth", 2))
        elif kind == "gbnf":
            token_trie(vocab)  # the vocabulary's trie (built once per process) is not the grammar's cost
            budget = Budget(limits, subject="the grammar <grammar>")  # one clock for parsing, rules and tokens
            impl = CompiledCFG(compile_grammar(source, limits=limits, budget=budget), vocab, limits=limits,
                               budget=budget)
        elif kind == "choices":
            options = json.loads(source)
            strings = tuple(s.encode("utf-8", errors="surrogateescape") for s in options["choices"])
            priors = tuple(options["priors"]) if options["priors"] is not None else None
            impl = _Choices(strings, priors, self.piece_index())
        else:
            raise GrammarError(f"unknown grammar kind {kind!r}; use regex, json_schema, gbnf or choices")
        compiled = CompiledGrammar(kind, source, vocab, impl)
        if kind != "choices":
            self._memo[(kind, source)] = compiled
        return compiled

    def piece_index(self) -> PieceIndex:
        """Return the vocabulary's pieces by bytes (built once per compiler), as choice matchers use them."""
        if self._piece_index is None:
            v = self.vocabulary
            self._piece_index = PieceIndex(v.pieces, v.special_ids | v.eog_ids, eog_ids=sorted(v.eog_ids),
                                           trie=token_trie(v, self.cache_dir, persist=self.cache_dir is not None))
        return self._piece_index
