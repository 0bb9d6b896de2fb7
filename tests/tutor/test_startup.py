"""Tutor.load loads the parser beside the model; a parser that does not load fails the load with its message."""

from __future__ import annotations

import threading

import pytest

from tutor.a13 import syntax
from tutor.api import Tutor
from tutor.errors import ModelError


def test_the_parser_loads_in_its_own_thread_and_its_failure_fails_the_load(monkeypatch):
    threads = []

    def missing():
        threads.append(threading.current_thread().name)
        raise ModelError("the English parser (test) is not installed")

    monkeypatch.setattr(syntax, "_NLP", None)  # as in a fresh process (monkeypatch puts the loaded one back)
    monkeypatch.setattr(syntax, "_model_dir", missing)
    with pytest.raises(ModelError, match="English parser"):
        Tutor.load()
    assert threads and threads[0].startswith("grammar-tutor-parser"), threads
