"""The engine's own errors: every exception the library raises on purpose derives from EngineError."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of the engine's errors; each message names the input, what was wrong and what to do."""


class GrammarError(EngineError, ValueError):
    """A grammar (regex, schema or CFG) uses something the compiler does not support.

    The message names the construct and where it is (position or JSON pointer).
    """


class TokenRejected(EngineError, ValueError):
    """A token was fed to a matcher that does not allow it in its current state."""


class VocabularyError(EngineError):
    """A vocabulary cannot be read: the model file is missing or unreadable, or llama-cpp-python is absent."""


class SerialisedGrammarError(EngineError, ValueError):
    """Bytes given to CompiledGrammar.from_bytes are not a compiled grammar for this vocabulary."""
