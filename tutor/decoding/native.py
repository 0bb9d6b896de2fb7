"""What the native inference library (llama.cpp through llama-cpp-python) needs on this CPU.

llama.cpp built with native CPU flags repacks the weights into an AMX buffer on Intel CPUs with
AMX (Sapphire Rapids and later), and that buffer's matrix kernel crashes on the first forward pass
(llama.cpp issue #20824). The extra (repacking) buffer types are a model-load parameter,
`use_extra_bufts`; it is turned off where the CPU has AMX, so nothing is left for the user to set.
`GRAMMAR_TUTOR_EXTRA_BUFTS=0|1` overrides the choice (for measuring it, or for a CPU this
module misreads).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import platform
import threading
from collections.abc import Iterator
from pathlib import Path

_AMX_FLAGS = ("amx_tile", "amx_int8", "amx_bf16", "amx_fp16")
_patch_lock = threading.Lock()  # model params
_context_patch_lock = threading.Lock()  # context params (a separate lock: the two patches nest)


@functools.cache
def cpu_flags() -> frozenset[str]:
    """Return the CPU feature flags the kernel reports (Linux), else an empty set."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags") and ":" in line:
            return frozenset(line.split(":", 1)[1].split())
    return frozenset()


def llama_system_info() -> str:
    """Return llama.cpp's system-info line (the CPU features the build uses)."""
    import llama_cpp

    raw = llama_cpp.llama_print_system_info()
    return (raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)).strip()


def cpu_has_amx() -> bool:
    """Return True when the CPU (or the llama.cpp build) has Intel AMX."""
    if any(flag in cpu_flags() for flag in _AMX_FLAGS):
        return True
    if cpu_flags():
        return False
    # No /proc/cpuinfo (macOS, Windows): ask the build; an AMX kernel is compiled in only for AMX CPUs.
    with contextlib.suppress(Exception):
        info = llama_system_info()
        return "AMX_INT8 = 1" in info or "AMX = 1" in info
    return False


def use_extra_buffer_types() -> bool:
    """Return whether models load with llama.cpp's extra (repacking) buffer types."""
    forced = os.environ.get("GRAMMAR_TUTOR_EXTRA_BUFTS", "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    return not cpu_has_amx()


@contextlib.contextmanager
def _patched_defaults(name: str, lock: threading.Lock, edit) -> Iterator[None]:
    """Within the block, llama-cpp-python's `llama_cpp.llama_cpp.<name>()` returns its defaults with
    `edit(params)` applied: `Llama.__init__` reads its model and context params from these functions."""
    import llama_cpp.llama_cpp as low

    with lock:
        original = getattr(low, name)

        def edited():  # returns llama.cpp's ctypes struct
            params = original()
            edit(params)
            return params

        setattr(low, name, edited)
        try:
            yield
        finally:
            setattr(low, name, original)


@contextlib.contextmanager
def model_params_for_this_cpu() -> Iterator[None]:
    """Make `llama_cpp.Llama(...)` created inside the block load with this CPU's safe model params.

    llama-cpp-python has no argument for `use_extra_bufts`; within the block the defaults it reads
    have it set as `use_extra_buffer_types()` says.
    """
    if use_extra_buffer_types():
        yield
        return

    def no_extra_bufts(params) -> None:
        params.use_extra_bufts = False

    with _patched_defaults("llama_model_default_params", _patch_lock, no_extra_bufts):
        yield


@contextlib.contextmanager
def context_params_with_sequences(n_seq: int) -> Iterator[None]:
    """Make `llama_cpp.Llama(...)` created inside the block get a context of `n_seq` sequences that share
    one KV cache (`n_seq_max`, `kv_unified`): the judge scores a sentence's variants in one batch.

    llama-cpp-python sets neither from its arguments.
    """
    import llama_cpp.llama_cpp as low

    def sequences(params) -> None:
        params.n_seq_max = max(1, min(n_seq, int(low.llama_max_parallel_sequences())))
        params.kv_unified = True

    with _patched_defaults("llama_context_default_params", _context_patch_lock, sequences):
        yield


@functools.cache
def build_identity() -> str:
    """Return a key for this llama.cpp build on this CPU: package version, library file, CPU flags."""
    import llama_cpp

    parts = [getattr(llama_cpp, "__version__", "?"), platform.machine(), platform.system()]
    lib_dir = Path(llama_cpp.__file__).parent / "lib"
    libs = sorted(lib_dir.glob("*llama*")) + sorted(lib_dir.glob("*ggml*")) if lib_dir.is_dir() else []
    for lib in libs:
        st = lib.stat()
        parts.append(f"{lib.name}:{st.st_size}:{st.st_mtime_ns}")
    parts.append(",".join(sorted(cpu_flags())))
    parts.append(f"extra_bufts={int(use_extra_buffer_types())}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]
