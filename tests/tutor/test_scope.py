"""The §A13 table: every irregular form, the spelling rules and the Spanish irregulars are pinned."""

import json

import pytest

from tutor.resources import data_path
from tutor.scope import PERSONS, TENSES, ScopeError, load_scope

S = load_scope()


def eng(verb, tense, person="1st singular"):
    return S.cell(verb, tense, person).correct_form


def esp(verb, tense, person):
    return S.cell(verb, tense, person).spanish


def test_size_and_order():
    assert len(S.verbs) == 20 and S.tenses == TENSES and S.persons == PERSONS
    assert len(S.cells) == 300


@pytest.mark.parametrize(
    ("verb", "present", "past", "participle"),
    [
        ("be", ("am", "are", "is"), ("was", "were", "was"), "been"),
        ("have", ("have", "have", "has"), ("had",) * 3, "had"),
        ("do", ("do", "do", "does"), ("did",) * 3, "done"),
        ("go", ("go", "go", "goes"), ("went",) * 3, "gone"),
        ("come", ("come", "come", "comes"), ("came",) * 3, "come"),
        ("see", ("see", "see", "sees"), ("saw",) * 3, "seen"),
        ("eat", ("eat", "eat", "eats"), ("ate",) * 3, "eaten"),
        ("write", ("write", "write", "writes"), ("wrote",) * 3, "written"),
    ],
)
def test_irregular_forms(verb, present, past, participle):
    assert tuple(eng(verb, "present simple", p) for p in PERSONS) == present
    assert tuple(eng(verb, "past simple", p) for p in PERSONS) == past
    assert all(eng(verb, "past participle", p) == participle for p in PERSONS)
    assert all(eng(verb, "simple future", p) == f"will {verb}" for p in PERSONS)
    assert S.cell(verb, "infinitive", "2nd singular").english == (f"to {verb}", verb)


@pytest.mark.parametrize(("verb", "third"), [("study", "studies"), ("watch", "watches"), ("finish", "finishes"),
                                             ("play", "plays"), ("like", "likes")])
def test_spelling_rules(verb, third):
    assert eng(verb, "present simple", "3rd singular") == third
    assert eng(verb, "present simple", "1st singular") == verb
    assert eng("study", "past simple") == "studied"


@pytest.mark.parametrize(
    ("verb", "tense", "person", "expected"),
    [
        ("go", "past simple", "1st singular", ("fui",)),
        ("go", "past simple", "3rd singular", ("fue",)),
        ("be", "past simple", "3rd singular", ("fue", "estuvo")),
        ("have", "past simple", "1st singular", ("tuve", "hube")),
        ("do", "past simple", "1st singular", ("hice",)),
        ("do", "past simple", "3rd singular", ("hizo",)),
        ("come", "past simple", "1st singular", ("vine",)),
        ("see", "past simple", "1st singular", ("vi",)),
        ("see", "past simple", "3rd singular", ("vio",)),
        ("write", "past participle", "2nd singular", ("escrito",)),
        ("see", "past participle", "1st singular", ("visto",)),
        ("do", "past participle", "3rd singular", ("hecho",)),
        ("have", "present simple", "3rd singular", ("tiene", "ha")),
        ("like", "present simple", "1st singular", ("me gusta", "me gustan", "gusta", "gustan")),
        ("like", "past simple", "2nd singular", ("te gustó", "te gustaron", "gustó", "gustaron")),
        ("like", "infinitive", "3rd singular", ("gustar",)),
        ("play", "past simple", "3rd singular", ("jugó", "tocó")),
        ("finish", "past simple", "3rd singular", ("terminó", "acabó")),
        ("go", "infinitive", "1st singular", ("ir",)),
    ],
)
def test_spanish_irregulars(verb, tense, person, expected):
    assert esp(verb, tense, person) == expected


def test_gusto_is_never_accepted():
    for (verb, _t, _p), cell in S.cells.items():
        if verb == "like":
            assert "gusto" not in cell.spanish and "gustas" not in cell.spanish


def test_dev_set_labels_agree_with_the_table(dev_set_path):
    for line in dev_set_path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if item["gold"]:
            g = item["gold"]
            cell = S.cell(g["verb"], g["tense"], g["person"])
            assert list(cell.english) == item["correct_form_accepted"]
            assert list(cell.spanish) == item["spanish_accepted"]


def test_loader_rejects_a_broken_table(tmp_path, monkeypatch):
    import tutor.scope as scope_mod

    raw = json.loads(data_path("a13", "verbs.json").read_text(encoding="utf-8"))
    del raw["verbs"]["go"]
    (tmp_path / "a13").mkdir()
    (tmp_path / "a13" / "verbs.json").write_text(json.dumps(raw), encoding="utf-8")
    for name in ("spanish.json", "gustar.json"):
        (tmp_path / "a13" / name).write_text(data_path("a13", name).read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(scope_mod, "data_path", lambda *parts: tmp_path.joinpath(*parts))
    scope_mod.load_scope.cache_clear()
    try:
        with pytest.raises(ScopeError, match="expected 20 verbs"):
            scope_mod.load_scope()
    finally:
        monkeypatch.undo()
        scope_mod.load_scope.cache_clear()
