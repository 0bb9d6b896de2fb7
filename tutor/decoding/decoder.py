"""The tutor's decoder: the engine's decode loop (tutor.engine.decode) over a LoadedModel, with the tutor's errors.

The loop itself (logits → mask → sample → advance, jump-forward through forced bytes) lives in the
engine, which knows only the Matcher protocol; this module makes its failures TutorErrors.
"""

from __future__ import annotations

from tutor.engine.decode import DecodeError as EngineDecodeError
from tutor.engine.decode import Decoder as EngineDecoder
from tutor.engine.decode import Generation
from tutor.errors import TutorError

__all__ = ["DecodeError", "Decoder", "Generation"]


class DecodeError(TutorError, EngineDecodeError):
    """Decoding did not reach an accepting state within the token budget."""


class Decoder(EngineDecoder):
    """Greedy or temperature decoding of one model under any Matcher (raises the tutor's DecodeError)."""

    decode_error = DecodeError
