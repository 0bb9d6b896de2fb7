"""The model catalogue (`models/catalogue.json`): find a known GGUF offline and verify it by sha256."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tutor.errors import ModelError
from tutor.resources import models_path

GGUF_MAGIC = b"GGUF"


@dataclass(frozen=True)
class ModelEntry:
    """One catalogue entry."""

    name: str
    title: str
    source: dict[str, Any]
    sha256: str | None
    licence: str
    prompt_format: str
    size_bytes: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelFile:
    """A GGUF file on disk, verified, with the catalogue entry it came from (if any)."""

    path: Path
    name: str
    sha256: str
    licence: str
    prompt_format: str
    licence_es: str = ""  # the licence line in Spanish, for the Spanish interface ("" when the entry has none)


@cache
def catalogue() -> dict[str, ModelEntry]:
    """Return the catalogue's entries by name, in file order."""
    raw = json.loads(models_path("catalogue.json").read_text(encoding="utf-8"))
    entries = {}
    for item in raw["models"]:
        known = {"name", "title", "source", "sha256", "licence", "prompt_format", "size_bytes"}
        entries[item["name"]] = ModelEntry(
            name=item["name"],
            title=item["title"],
            source=item["source"],
            sha256=item.get("sha256"),
            licence=item["licence"],
            prompt_format=item["prompt_format"],
            size_bytes=item.get("size_bytes"),
            extra={k: v for k, v in item.items() if k not in known},
        )
    return entries


def default_model_name() -> str:
    """Return the name of the bundled default model."""
    return json.loads(models_path("catalogue.json").read_text(encoding="utf-8"))["default"]


def _package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)  # locates without importing the package itself
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(os.environ.get("GRAMMAR_TUTOR_CACHE") or user_cache_dir("grammar-tutor"))


def installed(entry: ModelEntry) -> bool:
    """Return True when an entry's files are on this computer (its packages installed, or already assembled in
    the cache), without assembling or hashing anything: what a model chooser can say before loading."""
    src = entry.source
    if src["kind"] == "package_file":
        pkg = _package_dir(src["package"])
        return pkg is not None and (pkg / src["file"]).is_file()
    if src["kind"] == "chunks":
        if (_cache_dir() / "models" / src["file"]).is_file():
            return True
        return all((pkg := _package_dir(package)) is not None and (pkg / rel).is_file()
                   for package, rel in src["parts"])
    if src["kind"] == "requantized":
        base = catalogue().get(src["from"])
        return (_cache_dir() / "models" / src["file"]).is_file() or (base is not None and installed(base))
    return False


def install_line(entry: ModelEntry) -> str:
    """Return the one `pip install` line that brings an entry's files ("" when it is made from another entry)."""
    src = entry.source
    if src["kind"] == "requantized":
        base = catalogue().get(src["from"])
        return install_line(base) if base is not None else ""
    pip = src.get("pip") or src.get("package") or " ".join(dict.fromkeys(p for p, _ in src.get("parts", ())))
    return f"pip install {pip}" if pip else ""


def locate(entry: ModelEntry) -> Path:
    """Return the GGUF path of a catalogue entry, assembling chunks into the cache if needed."""
    src = entry.source
    if src["kind"] == "package_file":
        pkg = _package_dir(src["package"])
        if pkg is None or not (pkg / src["file"]).is_file():
            raise ModelError(
                f"model {entry.name!r} is not installed: the package {src['package']!r} has no"
                f" {src['file']!r}. Install it with: pip install {src.get('pip', src['package'])}"
            )
        return pkg / src["file"]
    if src["kind"] == "chunks":
        target = _cache_dir() / "models" / src["file"]
        if _verified(target, entry):
            return target
        parts = []
        for package, rel in src["parts"]:
            pkg = _package_dir(package)
            if pkg is None or not (pkg / rel).is_file():
                raise ModelError(
                    f"model {entry.name!r} needs the package {package!r}, which is not installed."
                    f" Install it with: pip install {src.get('pip', package)}"
                )
            parts.append(pkg / rel)

        def concatenate(tmp: Path) -> None:
            with tmp.open("wb") as out:
                for part in parts:
                    with part.open("rb") as fh:
                        while chunk := fh.read(1 << 22):
                            out.write(chunk)

        _write_then_rename(target, concatenate)
        return target
    if src["kind"] == "requantized":
        return _requantized(entry)
    raise ModelError(f"model {entry.name!r}: unknown source kind {src['kind']!r} in models/catalogue.json")


def _verified(target: Path, entry: ModelEntry) -> bool:
    """Return True when a file made in the cache is there and matches its entry's sha256 (if it has one)."""
    return target.is_file() and (entry.sha256 is None or file_sha256(target) == entry.sha256)


def _write_then_rename(target: Path, write: Callable[[Path], None]) -> None:
    """Make `target` by `write`-ing a `.part` file beside it and renaming it, so a cut-off write leaves no target."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".part")
    write(tmp)
    tmp.replace(target)


def _requantized(entry: ModelEntry) -> Path:
    """Return the cached file of a model made here from another catalogue model's verified GGUF (made once).

    llama.cpp rewrites every weight in the entry's `ftype` (Q8_0: the Q4_1 weights' values kept to within
    0.4 % of each block's largest, and run by faster kernels). The result is checked against the entry's
    sha256 like any catalogue file; a file that does not match is made again once.
    """
    src = entry.source
    target = _cache_dir() / "models" / src["file"]
    if _verified(target, entry):
        return target
    base = resolve(src["from"])  # the source, verified by its own sha256
    try:
        _write_then_rename(target, lambda tmp: _quantize(base.path, tmp, src["ftype"]))
    except OSError as exc:
        raise ModelError(f"model {entry.name!r} could not be written to {target.parent} ({exc.strerror or exc}):"
                         " free some disk space, or set GRAMMAR_TUTOR_CACHE to a writable folder.") from exc
    if entry.sha256 and file_sha256(target) != entry.sha256:
        target.unlink(missing_ok=True)
        raise ModelError(
            f"model {entry.name!r} could not be made from {src['from']!r}: this llama-cpp-python writes a"
            f" different file than the catalogue's (pyproject pins the version it was made with). Use"
            f" --model {src['from']} instead."
        )
    return target


def _quantize(source: Path, target: Path, ftype: str) -> None:
    """Write `source` with its weights quantized as `ftype` (a llama.cpp LLAMA_FTYPE_MOSTLY_* name) to `target`."""
    import ctypes

    import llama_cpp

    from tutor.llama_logs import silence_llama_logs

    silence_llama_logs()  # the quantizer logs a line per tensor
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{ftype}")
    params.allow_requantize = True
    params.nthread = 1  # the same bytes with any thread count (checked with 1, 2 and 4); one is fast enough
    rc = llama_cpp.llama_model_quantize(str(source).encode(), str(target).encode(), ctypes.byref(params))
    if rc != 0:
        target.unlink(missing_ok=True)
        raise ModelError(f"llama.cpp could not write {target} as {ftype} from {source} (error {rc}): is the disk"
                         " full or the cache folder read-only? Set GRAMMAR_TUTOR_CACHE to a writable folder.")


@cache
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """Return the sha256 of a file (memoised per path, size and mtime)."""
    st = path.stat()
    return _sha256_cached(str(path), st.st_size, st.st_mtime_ns)


def check_gguf(path: Path) -> None:
    """Raise ModelError unless path is a readable file that starts with the GGUF magic."""
    if not path.exists():
        raise ModelError(f"model file not found: {path}. Choose an existing .gguf file.")
    if not path.is_file():
        raise ModelError(f"model path is not a file: {path}")
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelError(f"cannot read model file {path}: {exc.strerror}") from exc
    if magic != GGUF_MAGIC:
        raise ModelError(f"{path} is not a GGUF model file (it does not start with 'GGUF').")


def resolve(model: str | os.PathLike[str] | None = None) -> ModelFile:
    """Return a verified model file: a catalogue name, a path to a local GGUF, or None for the default.

    Catalogue models are checked against their sha256; a user's own GGUF is checked for its
    magic bytes (its sha256 is computed and recorded).
    """
    name = default_model_name() if model is None else str(model)
    entries = catalogue()
    if name in entries:
        entry = entries[name]
        path = locate(entry)
        check_gguf(path)
        digest = file_sha256(path)
        if entry.sha256 and digest != entry.sha256:
            raise ModelError(
                f"model {entry.name!r} at {path} fails its sha256 check (got {digest[:12]}…, expected"
                f" {entry.sha256[:12]}…). The file is damaged: reinstall it with"
                f" pip install --force-reinstall {entry.source.get('pip', '')}".rstrip()
            )
        return ModelFile(path, entry.name, digest, entry.licence, entry.prompt_format,
                         entry.extra.get("licence_es", ""))
    path = Path(name).expanduser()
    check_gguf(path)
    for entry in entries.values():
        if entry.size_bytes == path.stat().st_size and entry.sha256 == file_sha256(path):
            return ModelFile(path, entry.name, entry.sha256, entry.licence, entry.prompt_format,
                             entry.extra.get("licence_es", ""))
    return ModelFile(path, path.stem, file_sha256(path), "unknown (user-supplied file)", "chatml",
                     "desconocida (un archivo propio)")
