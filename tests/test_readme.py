"""The README is a manual: short, free of commit hashes, and its command table names the real CLI's commands."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
LIMIT = 20_000
HEX = re.compile(r"\b[0-9a-f]{7,40}\b")


def hash_like(text: str) -> list[str]:
    """Return the tokens of `text` that look like a commit hash: 7-40 hex digits, at least one digit and one letter."""
    return [t for t in HEX.findall(text) if re.search(r"[0-9]", t) and re.search(r"[a-f]", t)]


@cache
def help_text(*command: str) -> str:
    """Return `grammar-tutor COMMAND --help` from the real entry point, in a child process."""
    code = "import sys; from app.launch import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code, *command, "--help"], capture_output=True, text=True,
                          timeout=120, cwd=REPO, check=True)
    return done.stdout


def subcommands(*command: str) -> set[str]:
    """Return the subcommands `--help` lists: the `{a,b}` choices, or the names indented under COMMAND."""
    text = help_text(*command)
    choices = re.search(r"\{([\w,-]+)\}", text)
    if choices:
        return set(choices.group(1).split(","))
    return set(re.findall(r"^ {4}([a-z][\w-]*)", text, flags=re.MULTILINE))


def table_commands() -> list[tuple[str, list[str]]]:
    """Return (subcommand, its named alternatives) for each row of the README's "## Commands" table."""
    section = README.split("\n## Commands\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for cell in re.findall(r"^\| `grammar-tutor ([^`]*)`", section, flags=re.MULTILINE):
        words = cell.split()
        if not words or words[0].startswith("-"):
            continue  # the bare `grammar-tutor` row: the app
        second = words[1].split("\\|") if len(words) > 1 and "\\|" in words[1] else []
        rows.append((words[0], [w for w in second if re.fullmatch(r"[a-z][\w-]*", w)]))
    return rows


def test_the_readme_is_under_the_limit() -> None:
    assert len(README) < LIMIT, f"README.md has {len(README)} characters; the manual stays under {LIMIT}"


def test_the_hash_pattern_finds_hashes_and_spares_words() -> None:
    assert hash_like("fixed at 1bbc321 and 9875f2a0") == ["1bbc321", "9875f2a0"]
    assert hash_like("a decade of 2026 and deadbeef, 1234567") == []


def test_the_readme_names_no_commit_hash() -> None:
    assert hash_like(README) == []


def test_every_command_of_the_table_exists_in_the_cli_and_every_cli_command_is_in_the_table() -> None:
    rows = table_commands()
    named = {name for name, _ in rows}
    cli = subcommands()
    assert len(cli) >= 10, cli  # the parse of --help found the command list
    assert named - cli == set(), f"the README's command table names commands the CLI lacks: {named - cli}"
    assert cli - named == set(), f"commands missing from the README's command table: {cli - named}"
    for name, alternatives in rows:
        if alternatives:
            missing = set(alternatives) - subcommands(name)
            assert not missing, f"`grammar-tutor {name}` has no {missing}"
