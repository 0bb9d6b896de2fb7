"""The analyser's two large word tables, read from one compact cache file instead of rebuilt in every process.

- the English words the spell checker knows (pyspellchecker's English list, 160,000 words as a gzipped JSON of
  frequencies that took about 0.5-1.8 s to read and lower-case): a known word is never taken for a misspelling;
- the nouns of the English inflection tables with their plurals (lemminflect's 40,000 lemmas, parsed line by line
  from a gzipped CSV in 0.6-1.5 s): whether a noun has a plural, and which.

The first start builds both from the packages' own files and saves them in the cache folder
(tutor.engine.cache: checksummed, written atomically); later starts read that file, keyed by the sha256 of those
data files, the packages' versions and this module's source, so a new word list or a new version of this code
makes a new file. A missing or damaged file is rebuilt. The answers are the libraries' own: each entry is made by
asking the library the question the analyser asks (tests/tutor/a13/test_tables.py compares them).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from tutor.engine import cache as disk

KIND = "a13-tables"
_lock = threading.Lock()


class Lines:
    """Sorted lines of UTF-8 text, `key<TAB>value<TAB>value…`, looked up by key with a binary search over the
    file's bytes as they are: nothing to parse at start (a dict or a set of them took 0.2-0.6 s to make)."""

    def __init__(self, text: bytes, starts: np.ndarray) -> None:
        self.text = text
        self.starts = starts.tolist()  # where each line begins, and a last entry: the end of the text + 1

    @classmethod
    def of(cls, rows: dict[str, tuple[str, ...]]) -> Lines:
        """Return the lines of key -> values (keys without tabs or newlines)."""
        lines = [b"\t".join(x.encode("utf-8") for x in (k, *v)) for k, v in sorted(rows.items(),
                                                                                   key=lambda kv: kv[0].encode())]
        starts = np.cumsum([0] + [len(line) + 1 for line in lines], dtype=np.int64)
        return cls(b"\n".join(lines), starts)

    def __len__(self) -> int:
        return len(self.starts) - 1

    def _key(self, i: int) -> bytes:
        line = self.text[self.starts[i]: self.starts[i + 1] - 1]
        return line.split(b"\t", 1)[0]

    def get(self, key: str) -> tuple[str, ...] | None:
        """Return the values of `key`, or None when no line has it."""
        want = key.encode("utf-8")
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._key(mid) < want:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(self) or self._key(lo) != want:
            return None
        fields = self.text[self.starts[lo]: self.starts[lo + 1] - 1].decode("utf-8").split("\t")
        return tuple(fields[1:])

    def items(self) -> dict[str, tuple[str, ...]]:
        """Return every line as key -> values (for tests and rebuilding)."""
        out = {}
        for i in range(len(self)):
            fields = self.text[self.starts[i]: self.starts[i + 1] - 1].decode("utf-8").split("\t")
            out[fields[0]] = tuple(fields[1:])
        return out


@dataclass(frozen=True)
class Tables:
    """The word tables, each as sorted lines: the known English words (lower case, no values), lemma -> plurals
    for every lemma listed as a noun (none for some: *advice*), and every listed lemma, any word class ->
    lemminflect.getInflection(lemma, "NNS")."""

    known_words: Lines
    nouns: Lines
    plurals: Lines


def _package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(package)
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*parts)


def sources() -> dict[str, Path]:
    """Return the data files the tables are built from, by name."""
    return {
        "spellchecker": _package_file("spellchecker", "resources", "en.json.gz"),
        "lemminflect": _package_file("lemminflect", "resources", "infl_lu.csv.gz"),
        "lemminflect-overrides": _package_file("lemminflect", "resources", "infl_overrides.csv"),
    }


def key() -> str:
    """Return the cache key: the data files' sha256, the packages' versions and this module's source."""
    h = hashlib.sha256()
    for name, path in sorted(sources().items()):
        h.update(f"{name}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\0".encode())
    for package in ("pyspellchecker", "lemminflect"):
        h.update(f"{package}\0{importlib.metadata.version(package)}\0".encode())
    h.update(hashlib.sha256(Path(__file__).read_bytes()).digest())
    return h.hexdigest()[:32]


def build() -> Tables:
    """Return the tables made from the libraries themselves (seconds: done once, then cached)."""
    from spellchecker import SpellChecker

    from tutor.a13.parser_import import import_lemminflect

    lemminflect = import_lemminflect()
    getAllInflections, getInflection = lemminflect.getAllInflections, lemminflect.getInflection
    from lemminflect.core.Inflections import Inflections

    checker = SpellChecker(distance=1)
    known = checker.known(checker.word_frequency.dictionary.keys())
    inflections = Inflections()
    lemmas = {w for w in (*inflections._getInflDict(), *inflections._getOverridesDict()) if w == w.lower()}
    nouns: dict[str, tuple[str, ...]] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for lemma in sorted(lemmas):
        forms = getAllInflections(lemma, upos="NOUN")
        if forms:
            nouns[lemma] = tuple(forms.get("NNS", ()))
        plurals[lemma] = tuple(getInflection(lemma, "NNS"))
    return Tables(Lines.of(dict.fromkeys(known, ())), Lines.of(nouns), Lines.of(plurals))


_NAMES = ("known_words", "nouns", "plurals")


def encode(tables: Tables) -> dict[str, np.ndarray]:
    """Return the tables as the cache file's arrays: each table's text and where its lines start."""
    out = {}
    for name in _NAMES:
        lines: Lines = getattr(tables, name)
        out[name] = np.frombuffer(lines.text, dtype=np.uint8)
        out[name + ".starts"] = np.asarray(lines.starts, dtype=np.int64)
    return out


def decode(arrays: dict[str, np.ndarray]) -> Tables | None:
    """Return the tables from the cache file's arrays, or None when they are not whole."""
    if set(arrays) != {n + s for n in _NAMES for s in ("", ".starts")}:
        return None
    parts = {}
    for name in _NAMES:
        text, starts = arrays[name].tobytes(), arrays[name + ".starts"]
        if starts.ndim != 1 or len(starts) < 1 or int(starts[-1]) != len(text) + 1:
            return None
        parts[name] = Lines(text, starts)
    return Tables(**parts)


@cache
def tables() -> Tables:
    """Return the word tables: from the cache file when it matches the sources, else built and saved."""
    with _lock:
        k = key()
        path = disk.entry_path(KIND, k)
        loaded = disk.load(path)
        found = decode(loaded[0]) if loaded is not None and loaded[1].get("key") == k else None
        if found is not None:
            return found
        made = build()
        with contextlib.suppress(OSError):  # a read-only cache folder: built again next time, nothing else changes
            disk.save(path, encode(made), {"key": k})
        return made


def is_known(word: str) -> bool:
    """Return True when the spell checker's English list knows `word` (as SpellChecker.known does, any case)."""
    return tables().known_words.get(word.lower()) is not None


def listed_noun_plurals(word: str) -> tuple[str, ...] | None:
    """Return the plurals the inflection tables list for a lower-case noun (lemminflect.getAllInflections with
    upos NOUN, its NNS), or None when they do not list the word as a noun."""
    if word != word.lower():
        from tutor.a13.parser_import import import_lemminflect

        forms = import_lemminflect().getAllInflections(word, upos="NOUN")
        return tuple(forms.get("NNS", ())) if forms else None
    return tables().nouns.get(word)


def plural_of(word: str) -> tuple[str, ...]:
    """Return lemminflect.getInflection(word, "NNS"): the listed plural, else the one its rules make."""
    if word == word.lower():
        found = tables().plurals.get(word)
        if found is not None:
            return found
        from tutor.a13.parser_import import import_lemminflect  # a word the tables do not list: the rules answer

        return tuple(import_lemminflect().getAllInflectionsOOV(word, "NOUN").get("NNS", ()))
    from tutor.a13.parser_import import import_lemminflect

    return tuple(import_lemminflect().getInflection(word, "NNS"))
