"""The command line on its error paths and its stable formats (real model, real SQLite file)."""

import json
import os
import subprocess
import sys

import pytest

CLI = [sys.executable, "-m", "tutor.cli"]


def run(args, *, stdin=None, env_extra=None, tmp_path=None):
    env = dict(os.environ)
    if tmp_path is not None:
        env["GRAMMAR_TUTOR_DB"] = str(tmp_path / "cli.db")
    env.update(env_extra or {})
    return subprocess.run(CLI + args, input=stdin, capture_output=True, text=True, env=env, timeout=600)


def test_empty_sentence_is_refused(tmp_path):
    r = run(["correct", ""], tmp_path=tmp_path)
    assert r.returncode != 0 and "empty" in r.stderr and "Traceback" not in r.stderr


def test_huge_sentence_is_refused(tmp_path):
    r = run(["correct", "I goed home. " * 800], tmp_path=tmp_path)
    assert r.returncode != 0 and "at most 1000 characters" in r.stderr and "Traceback" not in r.stderr


def test_missing_model_is_refused(tmp_path):
    r = run(["correct", "He goed home.", "--model", str(tmp_path / "missing.gguf")], tmp_path=tmp_path)
    assert r.returncode != 0 and "not found" in r.stderr and "Traceback" not in r.stderr


def test_truncated_gguf_is_refused(tmp_path, default_model_path):
    broken = tmp_path / "truncated.gguf"
    with default_model_path.open("rb") as src:
        broken.write_bytes(src.read(1_000_000))
    r = run(["correct", "He goed home.", "--model", str(broken)], tmp_path=tmp_path)
    assert r.returncode != 0 and "could not be loaded" in r.stderr and "Traceback" not in r.stderr


def test_not_a_gguf_is_refused(tmp_path):
    fake = tmp_path / "fake.gguf"
    fake.write_text("hello")
    r = run(["correct", "He goed home.", "--model", str(fake)], tmp_path=tmp_path)
    assert r.returncode != 0 and "not a GGUF" in r.stderr


@pytest.mark.model
def test_correct_prints_json_and_saves_it(tmp_path):
    r = run(["correct", "My sister have two dogs.", "--learner", "ana"], tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["original"] == "My sister have two dogs." and out["correct_form"] == "has"
    from tutor.store import Store

    rows = Store.open(tmp_path / "cli.db").history("ana")
    assert len(rows) == 1


@pytest.mark.model
def test_jsonl_handles_bad_lines_one_at_a_time(tmp_path):
    lines = "\n".join([json.dumps("He goed home."), "{not json", json.dumps({"id": "x7", "original": ""}),
                       json.dumps({"id": "x8", "original": "I forgetted it."})]) + "\n"
    r = run(["correct", "--jsonl", "--no-save"], stdin=lines, tmp_path=tmp_path)
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(rows) == 4
    assert rows[0]["output"]["correct_form"] == "went"
    assert "error" in rows[1] and "not JSON" in rows[1]["error"]
    assert rows[2]["id"] == "x7" and "empty" in rows[2]["error"]
    assert rows[3] == {"id": "x8", "output": {"original": "I forgetted it.", "out_of_scope": True}}
    assert r.returncode == 1
    assert not (tmp_path / "cli.db").exists()


@pytest.mark.model
def test_eval_scores_predictions_and_a_small_file(tmp_path, dev_set_path):
    items = dev_set_path.read_text(encoding="utf-8").splitlines()[:4]
    small = tmp_path / "small.jsonl"
    small.write_text("\n".join(items) + "\n", encoding="utf-8")
    r = run(["eval", str(small), "--by", "error_type", "--json"], tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.splitlines()[-1])
    assert last["n"] == 4 and last["schema_valid"] == 1.0 and last["consistency"] == 1.0
    assert "by error_type" in r.stdout and "seconds per sentence" in r.stdout


def test_eval_scores_saved_text_predictions_without_the_model(tmp_path):
    """`eval --predictions` on a set of texts scores what `--save-predictions` wrote (no model is loaded, so a
    wrong finding counts against it), and names a text the file has no prediction for."""
    text = "Yesterday I go to the beach. It was nice."
    items = [{"id": "T-1", "text": text, "errors": [{"start": 12, "end": 14, "written": "go", "verb": "go",
                                                     "tense": "past simple", "person": "1st singular",
                                                     "correct_form": "went", "correct_form_accepted": ["went"]}]},
             {"id": "T-2", "text": "She is happy.", "errors": []}]
    gold = tmp_path / "texts.jsonl"
    gold.write_text("".join(json.dumps(it) + "\n" for it in items), encoding="utf-8")
    found = {"original": "Yesterday I go to the beach.", "verb": "go", "tense": "past simple",
             "person": "1st singular", "correct_form": "went", "spanish": "fui", "start": 12, "end": 14,
             "written": "go"}
    wrong = {"original": "She is happy.", "verb": "be", "tense": "past simple", "person": "3rd singular",
             "correct_form": "was", "spanish": "fue", "start": 4, "end": 6, "written": "is"}
    preds = tmp_path / "preds.jsonl"
    preds.write_text(json.dumps({"id": "T-1", "findings": [found]}) + "\n"
                     + json.dumps({"id": "T-2", "findings": [wrong]}) + "\n", encoding="utf-8")
    r = run(["eval", str(gold), "--predictions", str(preds), "--json"], tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.splitlines()[-1])
    assert (last["texts"], last["findings"], last["found"], last["real"]) == (2, 2, 1.0, 0.5)
    preds.write_text(json.dumps({"id": "T-1", "findings": [found]}) + "\n", encoding="utf-8")
    r = run(["eval", str(gold), "--predictions", str(preds)], tmp_path=tmp_path)
    assert r.returncode != 0 and "no prediction for 1 of the 2 texts" in r.stderr and "Traceback" not in r.stderr


def test_a_jsonl_line_without_the_field_names_the_field_it_lacks_and_the_others_still_run(tmp_path):
    """`correct --jsonl` reads {"id", "original"}: a line with another field (the server's "sentence") is told
    which field it lacks, in its own answer line, and the next line is still corrected."""
    lines = '{"id": "a", "sentence": "She go home."}\n{"id": "b", "original": "She go home."}\n'
    r = run(["correct", "--jsonl", "--no-model", "--no-save"], stdin=lines, tmp_path=tmp_path)
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert first["id"] == "a" and 'no "original" field' in first["error"] and '"sentence"' in first["error"]
    assert second["id"] == "b" and second["output"]["correct_form"] == "goes"
    assert r.returncode == 1  # one line failed
