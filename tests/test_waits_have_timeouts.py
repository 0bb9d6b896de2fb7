"""Every wait in the tests has a timeout: one hung wait holds CI until its 90-minute limit (issue 23).

Read from the tests' syntax trees, so a new test without a timeout fails here before it can hang under load.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
QT_WAITS = {"waitUntil", "waitSignal", "waitSignals", "waitCallback", "waitExposed", "waitActive"}
SUBPROCESS_RUNS = {"run", "call", "check_call", "check_output"}
BLOCKING = {"join", "wait", "result", "communicate", "waitForDone"}  # block forever when called with no argument
PAUSES = {"sleep", "qWait", "processEvents", "wait", "waitUntil"}


def _calls(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def untimed_waits(source: str) -> list[tuple[int, str]]:
    """Return (line, what) for every wait in `source` that could wait forever."""
    tree = ast.parse(source)
    found = []
    for call in _calls(tree):
        name, keywords = _name(call), {k.arg for k in call.keywords}
        owner = ast.unparse(call.func.value) if isinstance(call.func, ast.Attribute) else ""
        if name in QT_WAITS and "timeout" not in keywords:
            found.append((call.lineno, f"qtbot.{name} without timeout="))
        elif owner == "subprocess" and name in SUBPROCESS_RUNS and "timeout" not in keywords:
            found.append((call.lineno, f"subprocess.{name} without timeout="))
        elif name in BLOCKING and not call.args and "timeout" not in keywords:
            found.append((call.lineno, f".{name}() without a timeout"))
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
        names = {_name(c) for c in _calls(function)}
        if "Popen" in names and "kill_after" not in names:
            found.append((function.lineno, f"{function.name} reads a Popen child without kill_after"))
    for loop in (n for n in ast.walk(tree) if isinstance(n, ast.While)):
        pauses = {_name(c) for c in _calls(loop)} & PAUSES
        if pauses and not any(word in ast.unparse(loop.test) for word in ("deadline", "monotonic")):
            found.append((loop.lineno, f"a loop that waits ({', '.join(sorted(pauses))}) without a deadline"))
    return found


def test_the_checker_finds_waits_without_timeouts() -> None:
    source = '''
def test_x(qtbot, thread, proc):
    qtbot.waitUntil(lambda: True)
    qtbot.waitSignal(sig, timeout=1000)
    subprocess.run(["x"])
    subprocess.run(["x"], timeout=5)
    thread.join()
    thread.join(timeout=5)
    ", ".join(parts)
    while not done:
        time.sleep(0.1)
    while time.monotonic() < deadline:
        time.sleep(0.1)
def test_y():
    subprocess.Popen(["x"])
'''
    assert [line for line, _ in untimed_waits(source)] == [3, 5, 7, 14, 10]


def test_every_wait_in_the_tests_has_a_timeout() -> None:
    offenders = [f"{path.relative_to(TESTS.parent)}:{line}: {what}"
                 for path in sorted(TESTS.rglob("*.py")) if "data" not in path.relative_to(TESTS).parts
                 for line, what in untimed_waits(path.read_text(encoding="utf-8"))]
    assert offenders == []
