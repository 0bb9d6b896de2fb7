"""No module is an alias of another: every module under tutor/ and app/ holds code of its own (issue 20)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for folder in ("tutor", "app") for p in (ROOT / folder).rglob("*.py"))


def _is_alias(tree: ast.Module) -> bool:
    """Return True for a module that puts another module in its place (`sys.modules[__name__] = …`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Name) \
                        and target.slice.id == "__name__" and ast.unparse(target.value) == "sys.modules":
                    return True
    return False


def _only_reexports(tree: ast.Module) -> bool:
    """Return True for a module (not a package's __init__) whose body is imports and __all__ alone."""
    body = [n for n in tree.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    return bool(body) and all(isinstance(n, ast.Import | ast.ImportFrom) or
                              (isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "__all__") for n in body)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_is_not_an_alias(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not _is_alias(tree), f"{path.relative_to(ROOT)} is an alias of another module: import that one instead"
    if path.name != "__init__.py":
        assert not _only_reexports(tree), f"{path.relative_to(ROOT)} only re-exports names: import them from where" \
                                          " they are defined"


def test_the_check_sees_an_alias() -> None:
    assert _is_alias(ast.parse("import sys\nfrom tutor import x\nsys.modules[__name__] = x\n"))
    assert _only_reexports(ast.parse('"""Doc."""\nfrom a import b\n__all__ = ["b"]\n'))
    assert not _only_reexports(ast.parse("from a import b\n\ndef f():\n    return b\n"))
