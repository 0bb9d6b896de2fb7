"""On-disk cache of numpy arrays: one file per entry, checksummed, written atomically.

File layout: magic (8 bytes) | header length (u32 LE) | header crc32 (u32 LE) | header JSON |
zero padding to a multiple of 64 | payload. The header lists each array's name, dtype, shape and
offset, the payload length and the payload's crc32. A missing, truncated or corrupt file loads as
None, so the caller rebuilds the entry and saves it again.
"""

from __future__ import annotations

import json
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

MAGIC = b"GTCACHE1"
_PREFIX = struct.Struct("<8sII")
_ALIGN = 64


def cache_dir() -> Path:
    """Return the cache folder: $GRAMMAR_TUTOR_CACHE, or the user cache folder for grammar-tutor."""
    env = os.environ.get("GRAMMAR_TUTOR_CACHE")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("grammar-tutor"))


def entry_path(kind: str, key: str, root: Path | None = None) -> Path:
    """Return the file path of one cache entry (kind: a sub-folder such as 'index' or 'vocab').

    `root` is the cache folder (default: cache_dir()).
    """
    return (cache_dir() if root is None else Path(root)) / kind / f"{key}.gtc"


def encode(arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> bytes:
    """Return arrays and JSON metadata in the cache's file layout (see the module docstring)."""
    entries = []
    offset = 0
    blobs = []
    for name, array in arrays.items():
        data = np.ascontiguousarray(array)
        entries.append([name, data.dtype.str, list(data.shape), offset, data.nbytes])
        blobs.append(data.tobytes())
        pad = -data.nbytes % _ALIGN
        blobs.append(b"\0" * pad)
        offset += data.nbytes + pad
    payload = b"".join(blobs)
    header = json.dumps(
        {"meta": meta, "arrays": entries, "payload": len(payload), "crc32": zlib.crc32(payload)},
        separators=(",", ":"),
    ).encode("utf-8")
    head = _PREFIX.pack(MAGIC, len(header), zlib.crc32(header)) + header
    head += b"\0" * (-len(head) % _ALIGN)
    return head + payload


def save(path: Path, arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
    """Write arrays and JSON metadata to path atomically (a crash leaves the old file or none)."""
    data = encode(arrays, meta)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a cache file is ordinary data
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
    """Return (arrays, meta) from a cache file, or None if it is missing, truncated or corrupt.

    The arrays are read-only views into one buffer read from the file.
    """
    try:
        with path.open("rb") as fh:
            data = fh.read()
    except OSError:
        return None
    return decode(data)


def decode(data: bytes) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
    """Return (arrays, meta) from bytes written by encode(), or None if they are truncated or corrupt.

    The arrays are read-only views into `data`.
    """
    if len(data) < _PREFIX.size:
        return None
    magic, header_len, header_crc = _PREFIX.unpack_from(data)
    header = data[_PREFIX.size : _PREFIX.size + header_len]
    if magic != MAGIC or len(header) != header_len or zlib.crc32(header) != header_crc:
        return None
    try:
        info = json.loads(header)
    except ValueError:
        return None
    if not isinstance(info, dict) or not {"meta", "arrays", "payload", "crc32"} <= info.keys():
        return None
    start = _PREFIX.size + header_len
    start += -start % _ALIGN
    payload = memoryview(data)[start:]
    if len(payload) != info["payload"] or zlib.crc32(payload) != info["crc32"]:
        return None
    arrays = {}
    for name, dtype, shape, offset, nbytes in info["arrays"]:
        dt = np.dtype(dtype)
        arrays[name] = np.frombuffer(payload, dtype=dt, count=nbytes // dt.itemsize, offset=offset).reshape(
            shape
        )
    return arrays, info["meta"]
