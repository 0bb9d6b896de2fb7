"""Constrained decoding as a library: grammars compile to immutable automata and token indexes; matchers walk them.

    from tutor.engine import GrammarCompiler, Vocabulary
    from tutor.engine.llama_cpp import LogitsProcessor

    vocab = Vocabulary.from_llama(llm)                  # llm: a llama_cpp.Llama
    compiled = GrammarCompiler(vocab).compile_regex("[0-9]{3}-[0-9]{4}")
    out = llm.create_completion(prompt, max_tokens=16, logits_processor=[LogitsProcessor(compiled)])

The package imports nothing else of `tutor`; `tutor.engine.llama_cpp` is its only module that knows
llama-cpp-python. See docs/engine.md.
"""

from tutor.engine.compiler import CompiledGrammar, GrammarCompiler, GrammarKind
from tutor.engine.errors import EngineError, GrammarError, SerialisedGrammarError, TokenRejected, VocabularyError
from tutor.engine.limits import DEFAULT_LIMITS, LimitExceeded, Limits
from tutor.engine.matcher import AllowedSet, Matcher
from tutor.engine.vocab import Vocabulary

__all__ = [
    "DEFAULT_LIMITS",
    "AllowedSet",
    "CompiledGrammar",
    "EngineError",
    "GrammarCompiler",
    "GrammarError",
    "GrammarKind",
    "LimitExceeded",
    "Limits",
    "Matcher",
    "SerialisedGrammarError",
    "TokenRejected",
    "Vocabulary",
    "VocabularyError",
]
