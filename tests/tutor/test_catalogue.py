"""The model catalogue: offline location, sha256 verification and clear errors."""

import json

import pytest

import tutor.catalogue as models
from tutor.errors import ModelError


def test_catalogue_lists_the_default_with_licence_and_sha():
    entries = models.catalogue()
    default = entries[models.default_model_name()]
    assert len(default.sha256) == 64 and default.licence and default.prompt_format == "chatml"


def test_default_model_is_found_offline_and_verified():
    model = models.resolve()
    assert model.path.is_file() and model.path.suffix == ".gguf"
    assert model.sha256 == models.catalogue()[model.name].sha256


def test_a_user_gguf_is_recognised_as_the_catalogue_model_it_is(default_model_path):
    assert models.resolve(default_model_path).name == models.default_model_name()


def test_sha_mismatch_is_refused(tmp_path, monkeypatch):
    pkg = tmp_path / "fakepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "m.gguf").write_bytes(b"GGUF" + b"\0" * 64)
    monkeypatch.syspath_prepend(str(tmp_path))
    raw = {"default": "fake", "models": [{"name": "fake", "title": "Fake", "sha256": "0" * 64,
           "source": {"kind": "package_file", "package": "fakepkg", "file": "m.gguf", "pip": "fakepkg"},
           "licence": "none", "prompt_format": "chatml"}]}
    (tmp_path / "catalogue.json").write_text(json.dumps(raw))
    monkeypatch.setattr(models, "models_path", lambda *parts: tmp_path.joinpath(*parts))
    models.catalogue.cache_clear()
    try:
        with pytest.raises(ModelError, match="fails its sha256 check"):
            models.resolve()
    finally:
        monkeypatch.undo()
        models.catalogue.cache_clear()


def test_missing_package_says_how_to_install(tmp_path, monkeypatch):
    raw = {"default": "gone", "models": [{"name": "gone", "title": "Gone", "sha256": None,
           "source": {"kind": "package_file", "package": "no_such_pkg_xyz", "file": "m.gguf", "pip": "no-such"},
           "licence": "none", "prompt_format": "chatml"}]}
    (tmp_path / "catalogue.json").write_text(json.dumps(raw))
    monkeypatch.setattr(models, "models_path", lambda *parts: tmp_path.joinpath(*parts))
    models.catalogue.cache_clear()
    try:
        with pytest.raises(ModelError, match="pip install no-such"):
            models.resolve()
    finally:
        monkeypatch.undo()
        models.catalogue.cache_clear()


@pytest.mark.parametrize(("content", "message"), [(None, "not found"), (b"GGML....", "not a GGUF")])
def test_check_gguf(tmp_path, content, message):
    path = tmp_path / "x.gguf"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ModelError, match=message):
        models.check_gguf(path)
