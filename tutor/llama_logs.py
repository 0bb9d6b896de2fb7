"""Silence llama.cpp's own log lines (loading a model, quantizing one), which would otherwise reach stderr."""

from __future__ import annotations

import ctypes
import functools


@functools.cache
def silence_llama_logs() -> None:
    """Route llama.cpp's log to a callback that drops every line (once per process; the callback is kept alive
    here, since the C side holds only a pointer to it)."""
    import llama_cpp

    @llama_cpp.llama_log_callback
    def quiet(level, text, user_data):
        return None

    llama_cpp.llama_log_set(quiet, ctypes.c_void_p(0))
    silence_llama_logs.keep = quiet  # type: ignore[attr-defined]
