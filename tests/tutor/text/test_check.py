"""Tutor.check on whole texts, through the real model: every finding with its span, honest notes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tutor.errors import InputError

pytestmark = pytest.mark.model


def test_two_errors_in_two_sentences_are_both_found_at_their_offsets(tutor_engine):
    text = "Yesterday my brother eated a pizza. Now he have a stomach ache."
    result = tutor_engine.check(text)
    spans = {(f.written, f.correct_form) for f in result.findings}
    assert ("eated", "ate") in spans and ("have", "has") in spans
    for f in result.findings:
        assert text[f.start:f.end] == f.written
        assert 0.0 < f.confidence < 1.0
    assert [text[a:b] for a, b in result.sentences] == ["Yesterday my brother eated a pizza.",
                                                        "Now he have a stomach ache."]
    assert result.corrected_text() == "Yesterday my brother ate a pizza. Now he has a stomach ache."


def test_an_age_with_have_gets_a_note_not_a_fix(tutor_engine):
    result = tutor_engine.check("My grandmother have 80 years.")
    assert result.findings == []
    assert [n.kind for n in result.notes] == ["have_age"]


def test_a_correct_text_says_what_was_checked(tutor_engine):
    result = tutor_engine.check("I was tired. She likes music.")
    assert result.findings == []
    assert result.summary_en() == "No errors in the 2 verbs I can check (was, likes)."


def test_long_and_empty_texts_are_refused_with_a_message(tutor_engine):
    with pytest.raises(InputError, match="2,000 characters"):
        tutor_engine.check("He goes home. " * 200)
    with pytest.raises(InputError, match="empty"):
        tutor_engine.check("   ")


def test_check_jsonl_keeps_its_format(tmp_path):
    lines = [json.dumps({"id": "a", "text": "She have a cat. He goed home."}), "not json",
             json.dumps({"id": 7, "text": "I like tea."})]
    env = dict(os.environ, GRAMMAR_TUTOR_DB=str(tmp_path / "t.db"))
    proc = subprocess.run([sys.executable, "-m", "tutor.cli", "check", "--jsonl"], input="\n".join(lines),
                          capture_output=True, text=True, env=env, timeout=600)
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", 2, 7]
    first = out[0]
    assert set(first) == {"id", "findings", "sentences", "notes"}
    assert {f["correct_form"] for f in first["findings"]} == {"has", "went"}
    keys = {"original", "verb", "tense", "person", "correct_form", "spanish", "start", "end", "written",
            "confidence", "explanation_en", "explanation_es"}
    assert all(set(f) == keys for f in first["findings"])
    assert first["sentences"] == [{"start": 0, "end": 15}, {"start": 16, "end": 29}]
    assert "error" in out[1] and "Traceback" not in proc.stderr
    assert out[2]["findings"] == []
    assert proc.returncode == 1  # one bad line
