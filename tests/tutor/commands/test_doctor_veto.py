"""`doctor` says which veto model is in use, or that there is none."""

from __future__ import annotations

import pytest

from tutor.commands.doctor import check_veto


def test_doctor_says_there_is_no_veto_model_by_default():
    check = check_veto(None)
    assert check.ok and check.detail.startswith("none")


def test_doctor_fails_a_veto_model_it_cannot_find(tmp_path):
    check = check_veto(str(tmp_path / "missing.gguf"))
    assert not check.ok and "not found" in check.detail


def test_doctor_names_the_veto_model_and_its_margin():
    from tutor.catalogue import catalogue, installed

    if not installed(catalogue()["qwen2.5-coder-1.5b"]):
        pytest.skip("the veto model qwen2.5-coder-1.5b is not installed here (1.1 GB, never downloaded by the tests)")
    check = check_veto("qwen2.5-coder-1.5b")
    assert check.ok and "qwen2.5-coder-1.5b" in check.detail and "verified" in check.detail and "≥" in check.detail
