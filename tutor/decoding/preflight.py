"""Run a model's first forward pass once in a child process, so a native crash becomes a message.

A crash inside llama.cpp (a segfault in a CPU kernel) would kill the process that hosts it: the
window would vanish, the CLI print only "Segmentation fault". The first time a given model file
meets a given llama.cpp build on this CPU, a child process loads the model and evaluates a few
tokens; the verdict is cached under both keys, so later starts pay nothing.

Run as `python -m tutor.decoding.preflight MODEL.gguf` it is that child: it prints one JSON line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from tutor.errors import ModelError
from tutor.threads import set_openmp_waits

PROBE_TEXT = "He goed to school yesterday. The correct sentence is: He went to school yesterday."
_TIMEOUT_S = 180.0
# A test of the crash path: the child really segfaults (a NULL read) before loading the model.
_CRASH_FOR_TEST = "GRAMMAR_TUTOR_TEST_NATIVE_CRASH"


@dataclass(frozen=True)
class Verdict:
    """What the child process found: whether the model ran, how fast, and on what build."""

    ok: bool
    model_sha256: str
    build: str
    message: str = ""
    system_info: str = ""
    extra_buffer_types: bool = True
    tokens: int = 0
    forward_ms: float = 0.0
    load_ms: float = 0.0
    cached: bool = False

    @property
    def tokens_per_s(self) -> float:
        """Return prompt-evaluation throughput of the probe forward pass."""
        return self.tokens / (self.forward_ms / 1000) if self.forward_ms > 0 else 0.0


def _cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(os.environ.get("GRAMMAR_TUTOR_CACHE") or user_cache_dir("grammar-tutor")) / "preflight"


def crash_message(detail: str) -> str:
    """Return what a learner reads when the inference library cannot run here, and what to do."""
    return (
        f"the inference library (llama.cpp, through llama-cpp-python) crashed while running the model on"
        f" this computer's processor ({detail}). Nothing was lost. To fix it, rebuild the library for a"
        " generic CPU: CMAKE_ARGS=\"-DGGML_NATIVE=OFF\" pip install --force-reinstall --no-cache-dir"
        " llama-cpp-python==0.3.36 — then run `grammar-tutor doctor` to check the set-up."
    )


def _describe_exit(rc: int) -> str:
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        return f"{name}, a native crash"
    if rc in (134, 139):  # shells report 128 + SIGABRT / SIGSEGV
        return f"exit {rc}, a native crash"
    return f"exit code {rc}"


def run_probe(model_path: Path, model_sha256: str, *, timeout: float = _TIMEOUT_S) -> Verdict:
    """Load the model and run one forward pass in a child process (no cache); return the verdict."""
    from tutor.decoding.native import build_identity

    build = build_identity()
    cmd = [sys.executable, "-m", "tutor.decoding.preflight", str(model_path)]
    env = dict(os.environ)
    set_openmp_waits(env)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL, encoding="utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        return Verdict(False, model_sha256, build, f"the test forward pass took longer than {timeout:.0f} s;"
                       " the computer may be very busy. Close other programs and try again.")
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-1:] or [""]
        detail = _describe_exit(proc.returncode)
        if proc.returncode > 0 and tail[0].startswith("grammar-tutor:"):  # a clean ModelError in the child
            return Verdict(False, model_sha256, build, tail[0].removeprefix("grammar-tutor: "))
        return Verdict(False, model_sha256, build, crash_message(detail))
    try:
        data = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return Verdict(False, model_sha256, build, crash_message("no answer from the test process"))
    return Verdict(True, model_sha256, build, "", data["system_info"], data["extra_buffer_types"],
                   data["tokens"], data["forward_ms"], data["load_ms"])


def _is_cacheable(v: Verdict) -> bool:
    return v.ok or "crashed" in v.message


def check_model_runs(model_path: Path, model_sha256: str, *, use_cache: bool = True) -> Verdict:
    """Return the cached verdict for (model, build), running the child probe the first time."""
    from tutor.decoding.native import build_identity

    build = build_identity()
    path = _cache_dir() / f"{model_sha256[:16]}-{build}.json"
    if use_cache and path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data["cached"] = True
            return Verdict(**data)
        except (ValueError, TypeError, OSError):
            pass  # a damaged cache entry: probe again
    verdict = run_probe(model_path, model_sha256)
    if _is_cacheable(verdict):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(asdict(verdict)), encoding="utf-8")
            tmp.replace(path)
        except OSError:
            pass  # an unwritable cache only costs a probe next time
    return verdict


def ensure_model_runs(model_path: Path, model_sha256: str) -> Verdict:
    """Raise ModelError with what to do unless the model runs here (checked once per model and build)."""
    if os.environ.get("GRAMMAR_TUTOR_SKIP_PREFLIGHT") == "1":
        return Verdict(True, model_sha256, "unchecked")
    verdict = check_model_runs(model_path, model_sha256)
    if not verdict.ok:
        raise ModelError(verdict.message)
    return verdict


def _child(path: str) -> int:
    if os.environ.get(_CRASH_FOR_TEST) == "1":
        import ctypes

        ctypes.string_at(0)  # a real segfault, as a broken CPU kernel would cause
    from tutor.decoding.llm import LoadedModel
    from tutor.decoding.native import llama_system_info, use_extra_buffer_types

    t0 = time.perf_counter()
    try:
        model = LoadedModel(Path(path), n_ctx=256)
    except ModelError as exc:
        print(f"grammar-tutor: {exc}", file=sys.stderr)
        return 2
    load_ms = (time.perf_counter() - t0) * 1000
    tokens = model.tokenize(PROBE_TEXT.encode(), bos=True)
    before = model.stats.ns
    model.set_context(tokens)
    forward_ms = (model.stats.ns - before) / 1e6
    model.close()
    print(json.dumps({"system_info": llama_system_info(), "extra_buffer_types": use_extra_buffer_types(),
                      "tokens": len(tokens), "forward_ms": forward_ms, "load_ms": load_ms}))
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1]))
