"""Every family through one interface: the loader, each family's language, and clear errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.engine.matcher import GrammarError, Matcher, TokenRejected
from tutor.engine.vocab import Vocabulary
from tutor.lab.families import find_grammar, load_family
from tutor.lab.validity import gbnf_judge, regex_judge, schema_judge
from tutor.resources import grammar_path

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def accepts(matcher: Matcher, data: bytes) -> bool:
    matcher.reset()
    try:
        matcher.advance_bytes(data)
    except TokenRejected:
        return False
    return matcher.is_accepting()


@pytest.mark.parametrize(("name", "kind"), [("zip", "regex"), ("phone", "regex"), ("parens", "cfg"),
                                            ("config", "cfg"), ("a13", "json")])
def test_the_extension_picks_the_family(byte_vocab: Vocabulary, name: str, kind: str) -> None:
    family = load_family(name, byte_vocab)
    assert family.kind == kind and family.name == name and family.compile_ms > 0
    assert isinstance(family.matcher(), Matcher)
    assert load_family(find_grammar(name), byte_vocab).kind == kind  # a path works as well as a name


def test_unknown_extension_and_missing_file(tmp_path: Path, byte_vocab: Vocabulary) -> None:
    odd = tmp_path / "grammar.lark"
    odd.write_text('start: "x"\n')
    with pytest.raises(GrammarError, match=r"grammar.lark: unknown grammar file type; use one of \.regex"):
        load_family(odd, byte_vocab)
    with pytest.raises(FileNotFoundError, match="no grammar file 'nonexistent'"):
        load_family("nonexistent", byte_vocab)


def test_a_gbnf_file_it_cannot_compile_names_the_construct_and_place(tmp_path: Path, byte_vocab: Vocabulary) -> None:
    bad = tmp_path / "bad.gbnf"
    bad.write_text('root ::= item+\nitem ::= "a" | ~"b"\n')
    with pytest.raises(GrammarError, match=r"^bad.gbnf:2:16: the '~' repetition \(Lark\) is not supported"):
        load_family(bad, byte_vocab)
    bad.write_text("root ::= /a(?=b)/\n")
    with pytest.raises(GrammarError, match=r"^bad.gbnf:1:10: in the terminal 'a\(\?=b\)': unsupported regex syntax"):
        load_family(bad, byte_vocab)


def test_a_regex_file_it_cannot_compile(tmp_path: Path, byte_vocab: Vocabulary) -> None:
    bad = tmp_path / "bad.regex"
    bad.write_text("a(?<=b)\n")
    with pytest.raises(GrammarError, match="unsupported regex syntax"):
        load_family(bad, byte_vocab)


_DIGITS = st.text(alphabet="0123456789-x٣ ", max_size=14)


@given(text=_DIGITS)
@SETTINGS
def test_regex_families_accept_exactly_re_fullmatch(byte_vocab: Vocabulary, text: str) -> None:
    for name in ("zip", "phone"):
        family = _family(name, byte_vocab)
        pattern = grammar_path(f"{name}.regex").read_text().rstrip("\n")
        expected = re.fullmatch(pattern, text, re.ASCII) is not None
        assert accepts(family.matcher(), text.encode()) == expected, (name, text)
        assert family.judge(text.encode()) == expected


def _balanced() -> st.SearchStrategy[bytes]:
    return st.recursive(st.just(b"atom"), lambda inner: st.lists(inner, max_size=3).map(
        lambda xs: b"(" + b"".join(xs) + b")"), max_leaves=10)


_PARENS = st.one_of(_balanced(), st.lists(st.sampled_from([b"(", b")", b"atom", b"at"]), max_size=10).map(b"".join))


@given(data=_PARENS)
@SETTINGS
def test_parens_family_accepts_exactly_balanced_expressions(byte_vocab: Vocabulary, data: bytes) -> None:
    family = _family("parens", byte_vocab)
    depth, ok, i = 0, True, 0
    pieces = []
    while i < len(data):  # a reference tokenizer + counter, independent of both engines
        if data.startswith(b"atom", i):
            pieces.append(b"atom")
            i += 4
        elif data[i : i + 1] in (b"(", b")"):
            pieces.append(data[i : i + 1])
            i += 1
        else:
            ok = False
            break
    closed_at = []
    for k, p in enumerate(pieces):
        depth += {b"(": 1, b")": -1}.get(p, 0)
        ok = ok and depth >= 0
        if depth == 0:
            closed_at.append(k)
    expected = ok and depth == 0 and closed_at == [len(pieces) - 1]
    assert accepts(family.matcher(), data) == expected, data
    assert family.judge(data) == expected


_CONFIG = st.lists(st.sampled_from(["a", "key", "_", "=", '"', '"v"', "\n", "é", " "]), max_size=12).map("".join)


@given(text=_CONFIG)
@SETTINGS
def test_config_family_accepts_exactly_its_regex(byte_vocab: Vocabulary, text: str) -> None:
    family = _family("config", byte_vocab)
    expected = re.fullmatch(r'[a-z_]+="[^"]*"(\n[a-z_]+="[^"]*")*\n?', text, re.ASCII) is not None
    assert accepts(family.matcher(), text.encode()) == expected, text
    assert family.judge(text.encode()) == expected


def test_json_family_and_its_judge_agree_on_examples(byte_vocab: Vocabulary) -> None:
    family = _family("a13", byte_vocab)
    good = (b'{"original":"He go.","verb":"go","tense":"present simple","person":"3rd singular",'
            b'"correct_form":"goes","spanish":"va"}')
    assert accepts(family.matcher(), good) and family.judge(good)
    for bad in (good[:-1], good.replace(b'"go"', b'"fly"'), b"{}"):
        assert not accepts(family.matcher(), bad) and not family.judge(bad)


def test_judges_reject_broken_utf8() -> None:
    assert not regex_judge(".")(b"\xc3")
    assert not gbnf_judge("root ::= .")(b"\xc3")
    assert not schema_judge({"type": "string"})(b'"\xc3"')
    assert gbnf_judge("root ::= .")("é".encode()) and gbnf_judge('root ::= "a"{2,}')(b"aaa")


def test_masks_of_every_family_use_the_same_allowed_set_type(byte_vocab: Vocabulary) -> None:
    for name in ("zip", "parens", "a13"):
        allowed = load_family(name, byte_vocab).matcher().allowed()
        logits = allowed.apply(np.zeros(byte_vocab.size, dtype=np.float32))
        assert np.isfinite(logits).sum() > 0 and not np.isfinite(logits[[0, 1]]).any()


_CACHE: dict[str, object] = {}


def _family(name: str, vocab: Vocabulary):
    key = f"{name}:{vocab.sha256}"
    if key not in _CACHE:
        _CACHE[key] = load_family(name, vocab)
    return _CACHE[key]
