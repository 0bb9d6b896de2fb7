"""The model's vocabulary as bytes: what each token id adds to the text, and which ids are special.

`Vocabulary.from_llama(llm)` reads it from a loaded llama_cpp.Llama (no second model load);
`Vocabulary.from_gguf(path, cache_dir=None)` reads it from a GGUF file through llama-cpp-python
(`vocab_only=True`, a few hundred ms at 262k tokens); with a `cache_dir` it is cached there under the
file's sha256. The tutor's own loader, `load_vocabulary(path)`, caches it in the tutor's cache folder.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache as cache_in_process
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tutor.engine import cache
from tutor.engine.errors import VocabularyError
from tutor.engine.llama_cpp import gguf_token_table, token_table

if TYPE_CHECKING:
    from tutor.engine.llama_cpp import Llama

CACHE_VERSION = 1


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """Token pieces and flags.

    `pieces[i]` is the bytes token i adds to the text (b"" for control tokens). `special_ids` are
    never allowed by any mask (control, unknown, unused, marker and empty tokens);
    `eog_ids` end the generation and are allowed only where the grammar accepts.
    """

    pieces: tuple[bytes, ...]
    special_ids: frozenset[int]
    eog_ids: frozenset[int]
    sha256: str

    @property
    def size(self) -> int:
        """Return the number of token ids."""
        return len(self.pieces)

    @classmethod
    def from_pieces(
        cls, pieces: Sequence[bytes], special_ids: Iterable[int] = (), eog_ids: Iterable[int] = ()
    ) -> Vocabulary:
        """Return a vocabulary; empty pieces that do not end generation count as special."""
        pieces = tuple(bytes(p) for p in pieces)
        eog = frozenset(int(i) for i in eog_ids)
        special = frozenset(int(i) for i in special_ids) | {i for i, p in enumerate(pieces) if not p}
        special -= eog
        for i in special | eog:
            if not 0 <= i < len(pieces):
                raise ValueError(f"token id {i} is outside the vocabulary of {len(pieces)} tokens")
        return cls(pieces, special, eog, _digest(pieces, special, eog))

    def arrays(self) -> dict[str, np.ndarray]:
        """Return the vocabulary as arrays: a byte blob, piece offsets, and the special and eog ids."""
        lengths = np.fromiter((len(p) for p in self.pieces), dtype=np.int64, count=self.size)
        offsets = np.zeros(self.size + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return {
            "blob": np.frombuffer(b"".join(self.pieces), dtype=np.uint8),
            "offsets": offsets,
            "special": np.array(sorted(self.special_ids), dtype=np.int64),
            "eog": np.array(sorted(self.eog_ids), dtype=np.int64),
        }

    @classmethod
    def from_llama(cls, llm: Llama) -> Vocabulary:
        """Return the vocabulary of a loaded llama_cpp.Llama, read from its model (no second load)."""
        return cls.from_pieces(*token_table(llm))

    @classmethod
    def from_gguf(cls, path: Path | str, cache_dir: Path | str | None = None, *,
                  sha256: str | None = None) -> Vocabulary:
        """Return the vocabulary of a GGUF file; with `cache_dir`, cached in that folder (None: no disk cache).

        `sha256` is the file's, when the caller has just verified it (the cache is keyed by it; else it is hashed
        here). Raises VocabularyError when the file is missing or llama-cpp-python cannot read it.
        """
        if cache_dir is None:
            return read_gguf_vocabulary(_existing(Path(path)))
        return load_vocabulary(path, Path(cache_dir), sha256=sha256)

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], sha256: str) -> Vocabulary:
        """Return the vocabulary stored by `arrays()`."""
        blob = arrays["blob"].tobytes()
        bounds = arrays["offsets"].tolist()
        pieces = tuple(blob[a:b] for a, b in pairwise(bounds))
        return cls(pieces, frozenset(arrays["special"].tolist()), frozenset(arrays["eog"].tolist()), sha256)


def _digest(pieces: tuple[bytes, ...], special: frozenset[int], eog: frozenset[int]) -> str:
    lengths = np.fromiter((len(p) for p in pieces), dtype="<i8", count=len(pieces))
    flags = np.zeros(len(pieces), dtype=np.uint8)
    flags[list(special)] = 1
    flags[list(eog)] = 2
    digest = hashlib.sha256(b"grammar-tutor vocabulary v1\0")
    digest.update(lengths.tobytes())
    digest.update(flags.tobytes())
    digest.update(b"".join(pieces))
    return digest.hexdigest()


def _existing(path: Path) -> Path:
    """Return path; VocabularyError when it is not a file."""
    if not path.is_file():
        raise VocabularyError(f"model file not found: {path}. Choose an existing .gguf file.")
    return path


def read_gguf_vocabulary(gguf_path: Path | str) -> Vocabulary:
    """Return the vocabulary read from a GGUF file through llama-cpp-python (no cache)."""
    return Vocabulary.from_pieces(*gguf_token_table(Path(gguf_path)))


@cache_in_process
def _sha256_of(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """Return the sha256 of a file (memoised per path, size and mtime)."""
    st = path.stat()
    return _sha256_of(str(path), st.st_size, st.st_mtime_ns)


def load_vocabulary(gguf_path: Path | str, cache_dir: Path | None = None, *, sha256: str | None = None) -> Vocabulary:
    """Return the vocabulary of a GGUF file, from the disk cache when the file was read before.

    The cache is `cache_dir`, or (None) the tutor's cache folder (tutor.engine.cache.cache_dir()):
    this is the tutor's loader; library users call Vocabulary.from_gguf. `sha256` is the file's when the caller
    verified it already (hashing a 140 MB model again took 0.4-0.8 s of every start). Raises VocabularyError when
    the file is missing or llama-cpp-python cannot read it.
    """
    path = _existing(Path(gguf_path))
    key = f"{sha256 or file_sha256(path)}-v{CACHE_VERSION}"
    entry = cache.entry_path("vocab", key, cache_dir)
    hit = cache.load(entry)
    if hit is not None:
        arrays, meta = hit
        return Vocabulary.from_arrays(arrays, meta["sha256"])
    vocab = read_gguf_vocabulary(path)
    cache.save(entry, vocab.arrays(), {"sha256": vocab.sha256, "source": path.name})
    return vocab
