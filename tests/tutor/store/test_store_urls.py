"""A database named by a URL on the command line: other schemes get one clear line and no folder (issue 32)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tutor.cli import main


@pytest.mark.parametrize("command", [["history"], ["teacher", "status"], ["practice", "--learner", "Ana"], ["import"]])
@pytest.mark.parametrize("url", ["mysql://u@127.0.0.1:3306/db", "http://127.0.0.1:1/x.db"])
def test_another_scheme_is_refused_and_makes_nothing(command: list[str], url: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(os.listdir(tmp_path))
    code = main(["--db", url, *command] + (["nothing.json"] if command == ["import"] else []))
    err = capsys.readouterr().err
    assert code != 0
    assert "not a database grammar-tutor can use" in err and "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == before  # no "mysql:" or "http:" folder
