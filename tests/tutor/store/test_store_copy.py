"""`grammar-tutor store copy`: a class's SQLite history into a real PostgreSQL and back, once, in one transaction."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tutor.cli import main
from tutor.errors import StoreError
from tutor.practice.practice import Practice
from tutor.store import Store, schema
from tutor.store.copy import copy_store
from tutor.store.lock import SecretLock

from .conftest import make_result

_CONTENT = {  # what must arrive, by the key that names each row everywhere (local ids differ by design)
    schema.LEARNERS: "SELECT uuid, name, name_key, created FROM learners ORDER BY uuid",
    schema.CORRECTIONS: "SELECT c.id, l.uuid, c.original, c.is_correct, c.mask_p50_us, c.total_ms, c.kind"
                        " FROM corrections c JOIN learners l ON l.id = c.learner_id ORDER BY c.id",
    schema.MASK_TIMINGS: "SELECT c.id, m.count, m.us_f32 FROM mask_timings m"
                         " JOIN corrections c ON c.seq = m.correction_seq ORDER BY c.id",
    schema.CARDS: "SELECT k.id, l.uuid, k.answer, k.state, k.stability, k.due, k.reps FROM cards k"
                  " JOIN learners l ON l.id = k.learner_id ORDER BY k.id",
    schema.CARD_REVIEWS: "SELECT r.id, r.card_id, r.given, r.correct, r.rating FROM card_reviews r ORDER BY r.id",
    schema.SECRETS: "SELECT CASE WHEN s.subject LIKE 'learner:%' THEN 'pin:' || l.uuid ELSE s.subject END AS who,"
                    " s.hash FROM secrets s LEFT JOIN learners l ON s.subject = 'learner:' || l.id ORDER BY who",
}


def _content(location: Path | str) -> dict[str, list[tuple[Any, ...]]]:
    if isinstance(location, str):
        with psycopg.connect(location) as conn:
            return {t: [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r)
                        for r in conn.execute(sql).fetchall()] for t, sql in _CONTENT.items()}
    conn = sqlite3.connect(location)
    try:
        return {t: [tuple(r) for r in conn.execute(sql).fetchall()] for t, sql in _CONTENT.items()}
    finally:
        conn.close()


def _class_file(path: Path) -> Path:
    """A class's store made through the real API: learners, timed corrections, cards answered, PIN, passphrase."""
    with Store.open(path) as store:
        store.save_correction(make_result("She go to school", mask_us=(3.0, 4.5, 9.25)), learner="Ana")
        store.save_correction(make_result("He eat apples", verb="eat", correct_form="eats", spanish="come"),
                              learner="Ana")
        store.save_correction(make_result("They goes home", correct_form="go", person="3rd plural"), learner="Bo")
        practice = Practice(store)
        assert practice.build("Ana") > 0
        card = practice.due("Ana")[0]
        practice.answer("Ana", card["id"], card["answer"])
        lock = SecretLock(store)
        lock.set_pin("Bo", "483921")
        lock.set_teacher(TEACHER)
    return path


TEACHER = "a long teacher passphrase"


def _copy(monkeypatch: pytest.MonkeyPatch, source: Path | str, target: Path | str, passphrase: str = TEACHER) -> int:
    """Run `grammar-tutor store copy` with the teacher passphrase on stdin."""
    monkeypatch.setattr("sys.stdin", io.StringIO(passphrase + "\n"))
    return main(["store", "copy", "--from", str(source), "--to", str(target), "--passphrase-stdin"])


def test_copy_to_postgres_and_back_keeps_everything_and_a_second_run_adds_nothing(
        tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    source = _class_file(tmp_path / "class.db")
    expected = _content(source)
    assert all(expected[t] for t in _CONTENT)  # every kind of row is there to be copied

    assert _copy(monkeypatch, source, postgres_url) == 0
    first = capsys.readouterr().out
    assert f"corrections: {len(expected[schema.CORRECTIONS])} copied, 0 already there" in first
    assert f"cards: {len(expected[schema.CARDS])} copied, 0 already there" in first
    assert _content(postgres_url) == expected

    assert _copy(monkeypatch, source, postgres_url) == 0
    second = capsys.readouterr().out
    assert "total: 0 copied" in second
    assert f"learners: 0 copied, {len(expected[schema.LEARNERS])} already there" in second
    assert _content(postgres_url) == expected

    back = tmp_path / "back.db"
    assert _copy(monkeypatch, postgres_url, back) == 0
    assert _content(back) == expected
    with Store.open(back) as store:  # the copy is a working store: history, search, PIN and passphrase
        assert [r["original"] for r in store.history("Ana", search="scho")] == ["She go to school"]
        assert store.get(store.history("Ana", search="scho")[0]["id"])["mask_us"] == [3.0, 4.5, 9.25]
        lock = SecretLock(store)
        assert lock.check_teacher(TEACHER)
        assert lock.check_pin("Bo", "483921")  # the PIN followed Bo to his new local id
    assert copy_store(postgres_url, back).added == {}


def test_a_name_held_by_another_learner_stops_the_whole_copy(tmp_path: Path, postgres_url: str) -> None:
    with Store.open(tmp_path / "other.db") as store:  # another class's Ana: same name, another person
        store.save_correction(make_result("I has a cat", verb="have", correct_form="have", person="1st singular"),
                              learner="Ana")
    copy_store(tmp_path / "other.db", postgres_url)
    before = _content(postgres_url)
    source = _class_file(tmp_path / "class.db")
    with pytest.raises(StoreError, match="another person"):
        copy_store(source, postgres_url)
    assert _content(postgres_url) == before  # one transaction: not even Bo went in


def test_copy_refuses_what_it_cannot_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["store", "copy", "--from", str(tmp_path / "missing.db"), "--to", str(tmp_path / "b.db")]) == 2
    assert "there is no store at" in capsys.readouterr().err
    assert not (tmp_path / "b.db").exists()
    source = _class_file(tmp_path / "class.db")
    assert main(["store", "copy", "--from", str(source), "--to", "mysql://u@127.0.0.1/db"]) == 2
    assert "not a database grammar-tutor can use" in capsys.readouterr().err


def test_two_copies_at_once_store_every_row_once(tmp_path: Path, postgres_url: str) -> None:
    import threading

    source = _class_file(tmp_path / "class.db")
    copy_store(tmp_path / "class.db", tmp_path / "twin.db")  # a second file holding the same rows
    results: list[Any] = []

    def run(path: Path) -> None:
        try:
            results.append(copy_store(path, postgres_url))
        except Exception as exc:  # a failure is a result the test reports
            results.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in (source, tmp_path / "twin.db")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(results) == 2 and not [r for r in results if isinstance(r, Exception)], results
    assert _content(postgres_url) == _content(source)  # each row once, whichever copy wrote it
    added = sum(r.added.get(schema.CORRECTIONS, 0) for r in results)
    assert added == len(_content(source)[schema.CORRECTIONS])


def test_a_locked_store_is_copied_only_with_its_passphrase(tmp_path: Path, postgres_url: str,
                                                           capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    source = _class_file(tmp_path / "class.db")
    assert _copy(monkeypatch, source, postgres_url, "a wrong guess") == 2
    assert "not right" in capsys.readouterr().err
    with psycopg.connect(postgres_url) as conn:  # nothing copied, not even the schema's rows
        assert conn.execute("SELECT to_regclass('learners')").fetchone()[0] is None
    assert _copy(monkeypatch, source, postgres_url) == 0
    capsys.readouterr()
    assert _copy(monkeypatch, postgres_url, tmp_path / "out.db", "a wrong guess") == 2  # the lock went along
    assert "protected by the teacher passphrase" in capsys.readouterr().err
    assert not (tmp_path / "out.db").exists()
