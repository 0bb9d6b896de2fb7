"""The analyser's word tables come from one cache file, built once from the libraries and answering as they do."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from tutor.a13 import tables as tb
from tutor.engine import cache as disk


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Return (cache folder, tables) built into an empty cache folder by a child process, as a first start is."""
    folder = tmp_path_factory.mktemp("cache")
    code = "from tutor.a13.tables import tables; tables()"
    env = {**__import__("os").environ, "GRAMMAR_TUTOR_CACHE": str(folder)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=600)
    loaded = disk.load(disk.entry_path(tb.KIND, tb.key(), folder))
    assert loaded is not None, "the first start left no tables file"
    tables = tb.decode(loaded[0])
    assert tables is not None
    return folder, tables


def test_the_known_words_are_the_spell_checkers(built):
    from spellchecker import SpellChecker

    _, tables = built
    checker = SpellChecker(distance=1)
    words = list(checker.word_frequency.dictionary)
    assert set(tables.known_words.items()) == checker.known(words)
    rng = random.Random(7)
    probes = [*rng.sample(words, 300), "woubl", "becouse", "Neighbor", "LONDON", "3.5", "nan", "-", "", "zzzzq"]
    for word in probes:
        assert (tables.known_words.get(word.lower()) is not None) == bool(checker.known([word])), word


def test_the_noun_tables_answer_as_lemminflect_does(built, monkeypatch):
    from lemminflect import getAllInflections, getInflection

    folder, tables = built
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(folder))
    tb.tables.cache_clear()
    rng = random.Random(11)
    edge = ["shop", "advice", "go", "meeting", "smartphone", "wachted", "Maria", "Shop"]
    probes = [*rng.sample(sorted(tables.plurals.items()), 400), *edge]
    for word in probes:
        forms = getAllInflections(word, upos="NOUN")
        assert tb.listed_noun_plurals(word) == (tuple(forms.get("NNS", ())) if forms else None), word
        assert tb.plural_of(word) == tuple(getInflection(word, "NNS")), word
    tb.tables.cache_clear()


def test_a_later_start_reads_the_file_instead_of_building(built, monkeypatch):
    folder, tables = built
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(folder))
    monkeypatch.setattr(tb, "build", lambda: pytest.fail("the tables were built again"))
    tb.tables.cache_clear()
    t0 = time.perf_counter()
    again = tb.tables()
    took = time.perf_counter() - t0
    tb.tables.cache_clear()
    assert again.known_words.text == tables.known_words.text and again.plurals.text == tables.plurals.text
    assert took < 2.0, f"reading the tables took {took:.2f} s"


def test_a_damaged_file_is_rebuilt(built, monkeypatch, tmp_path):
    folder, tables = built
    path = disk.entry_path(tb.KIND, tb.key(), tmp_path)
    path.parent.mkdir(parents=True)
    data = disk.entry_path(tb.KIND, tb.key(), folder).read_bytes()
    path.write_bytes(data[: len(data) // 2])  # cut short, as by a full disk
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path))
    monkeypatch.setattr(tb, "build", lambda: tables)
    tb.tables.cache_clear()
    assert tb.tables() is tables
    tb.tables.cache_clear()
    assert disk.load(path) is not None, "the rebuilt tables were not saved over the damaged file"


def test_the_key_changes_with_a_data_file(monkeypatch, tmp_path):
    files = {name: tmp_path / name for name in ("spellchecker", "lemminflect", "lemminflect-overrides")}
    for path in files.values():
        path.write_bytes(b"one")
    monkeypatch.setattr(tb, "sources", lambda: files)
    first = tb.key()
    files["lemminflect"].write_bytes(b"two")
    assert tb.key() != first


def test_lines_find_every_key_and_no_other():
    rows = {"b": ("x",), "a": (), "ab": ("y", "z"), "é": ("e",)}
    lines = tb.Lines.of(rows)
    assert lines.items() == rows
    assert [lines.get(k) for k in ("a", "ab", "b", "é", "", "c", "aa")] == [(), ("y", "z"), ("x",), ("e",),
                                                                            None, None, None]
