"""The model loads with CPU-safe parameters, and a native crash in the first forward pass is a message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tutor.decoding import native
from tutor.decoding.preflight import check_model_runs, crash_message, ensure_model_runs
from tutor.errors import ModelError


def test_extra_buffer_types_follow_the_cpu_and_the_override(monkeypatch):
    monkeypatch.delenv("GRAMMAR_TUTOR_EXTRA_BUFTS", raising=False)
    assert native.use_extra_buffer_types() is (not native.cpu_has_amx())
    monkeypatch.setenv("GRAMMAR_TUTOR_EXTRA_BUFTS", "0")
    assert native.use_extra_buffer_types() is False
    monkeypatch.setenv("GRAMMAR_TUTOR_EXTRA_BUFTS", "1")
    assert native.use_extra_buffer_types() is True


def test_amx_is_read_from_the_cpu_flags(monkeypatch):
    monkeypatch.setattr(native, "cpu_flags", lambda: frozenset({"avx2", "amx_tile", "amx_int8"}))
    assert native.cpu_has_amx()
    monkeypatch.setattr(native, "cpu_flags", lambda: frozenset({"avx2", "avx512f"}))
    assert not native.cpu_has_amx()


def test_safe_params_turn_repacking_off_only_inside_the_block(monkeypatch):
    import llama_cpp.llama_cpp as low

    monkeypatch.setenv("GRAMMAR_TUTOR_EXTRA_BUFTS", "0")
    assert low.llama_model_default_params().use_extra_bufts is True
    with native.model_params_for_this_cpu():
        assert low.llama_model_default_params().use_extra_bufts is False
    assert low.llama_model_default_params().use_extra_bufts is True


def test_a_real_forward_pass_runs_with_repacking_off(default_model_path):
    """The AMX work-around: the model loads with use_extra_bufts=false and still generates."""
    code = (f"from tutor.decoding.llm import LoadedModel\nm = LoadedModel({str(default_model_path)!r}, n_ctx=128)\n"
            "m.set_context(m.tokenize(b'He goed to school', bos=True))\nimport numpy as np\n"
            "print(int(np.argmax(m.logits())))")
    env = dict(os.environ, GRAMMAR_TUTOR_EXTRA_BUFTS="0")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip()) >= 0


def test_the_first_forward_pass_runs_in_a_child_and_its_verdict_is_cached(default_model_path, tmp_path, monkeypatch):
    from tutor.catalogue import file_sha256

    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path))
    sha = file_sha256(default_model_path)
    first = check_model_runs(default_model_path, sha)
    assert first.ok and not first.cached
    assert first.tokens > 5 and first.forward_ms > 0 and first.system_info.strip()
    cached_files = list((tmp_path / "preflight").glob("*.json"))
    assert len(cached_files) == 1 and sha[:16] in cached_files[0].name
    assert native.build_identity() in cached_files[0].name  # keyed by model and build
    second = check_model_runs(default_model_path, sha)
    assert second.ok and second.cached


def test_a_native_crash_in_the_child_becomes_a_model_error(default_model_path, tmp_path, monkeypatch):
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path))
    monkeypatch.setenv("GRAMMAR_TUTOR_TEST_NATIVE_CRASH", "1")
    with pytest.raises(ModelError) as err:
        ensure_model_runs(default_model_path, "0" * 64)
    text = str(err.value)
    assert "crashed" in text and "SIGSEGV" in text and "GGML_NATIVE=OFF" in text and "doctor" in text


def test_the_cli_reports_a_native_crash_and_exits_non_zero(tmp_path):
    env = dict(os.environ, GRAMMAR_TUTOR_CACHE=str(tmp_path), GRAMMAR_TUTOR_TEST_NATIVE_CRASH="1")
    proc = subprocess.run([sys.executable, "-m", "tutor.cli", "correct", "--no-save", "He goed to school."],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 2
    assert "crashed" in proc.stderr and "what" not in proc.stdout
    assert "Traceback" not in proc.stderr and "Segmentation fault" not in proc.stderr
    assert proc.stdout == ""


def test_the_crash_message_says_what_happened_and_what_to_do():
    text = crash_message("SIGSEGV, a native crash")
    assert "processor" in text and "pip install" in text and "Nothing was lost" in text


def test_doctor_passes_on_a_working_setup(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GRAMMAR_TUTOR_CACHE=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "tutor.cli", "doctor", "--db", str(tmp_path / "t.db"), "--json"],
                          capture_output=True, text=True, env=env, timeout=600)
    report = json.loads(proc.stdout)
    names = [c["name"] for c in report["checks"]]
    assert names == ["model", "llama.cpp", "forward", "veto", "database", "qt"]
    assert report["ok"] and proc.returncode == 0, report
    assert "tokens/s" in report["checks"][2]["detail"]


def test_doctor_fails_with_a_fix_for_each_broken_part(tmp_path):
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"not a model")
    folder = tmp_path / "file-not-folder"
    folder.write_text("x")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GRAMMAR_TUTOR_CACHE=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "tutor.cli", "doctor", "--model", str(bad),
                           "--db", str(folder)], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("FAIL  model") and "not a GGUF" in lines[0]
    assert any(line.startswith("FAIL  forward") for line in lines)
    assert any(line.startswith("FAIL  database") for line in lines)
    assert "Traceback" not in proc.stderr


def test_a_missing_qt_platform_is_a_message_and_exit_3_not_a_core_dump(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(QT_QPA_PLATFORM="xcb", GRAMMAR_TUTOR_DB=str(tmp_path / "t.db"))
    proc = subprocess.run([sys.executable, "-c", "import sys; from app.launch import main; sys.exit(main([]))"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 3
    assert "cannot open the window" in proc.stderr
    assert ("apt install" in proc.stderr and "dnf install" in proc.stderr) or "no screen" in proc.stderr
    assert not Path("core").exists()


def test_a_broken_chat_template_is_a_model_error_from_the_cli(broken_template_model, tmp_path):
    env = dict(os.environ, GRAMMAR_TUTOR_CACHE=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "tutor.cli", "correct", "--no-save", "--model",
                           str(broken_template_model), "He goed home."], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 2
    assert "could not be loaded" in proc.stderr and "Traceback" not in proc.stderr
