"""Opening: damaged or foreign files are never overwritten; unwritable places and full disks say so.

Real files in tmp_path throughout.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from tutor.errors import StoreError
from tutor.store import Store, schema

from .conftest import make_result


def _fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def _filled_store(path: Path, rows: int = 200) -> None:
    with Store.open(path) as store:
        results = [make_result(f"She go to school number {i} " + "x" * 200) for i in range(rows)]
        store.save_corrections(results, learner="Ana")


def _companions(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if p.name.startswith(path.name) and p != path]


def test_new_file_and_folders_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "new.db"
    with Store.open(path) as store:
        assert store.schema_version == schema.LATEST
    assert path.is_file()


def test_none_opens_the_environment_path(tmp_path: Path) -> None:
    with Store.open() as store:
        assert store.path == tmp_path / "env" / "from-env.db"


def test_an_empty_file_is_refused_not_silently_made_a_new_store(db_path: Path) -> None:
    """A 0-byte file may be a store cut short: starting afresh there would hide the loss (issue 19, item 15)."""
    db_path.touch()
    with pytest.raises(StoreError, match=r"is an empty file \(0 bytes\).*restore a copy.*left untouched"):
        Store.open(db_path)
    assert db_path.stat().st_size == 0 and _companions(db_path) == []
    with Store.open(db_path, fresh=True) as store:  # the app's "start a fresh database" keeps it aside
        assert store.schema_version == schema.LATEST and store.moved_aside is not None
        assert store.moved_aside.stat().st_size == 0


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_a_new_store_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "private" / "new.db"
    with Store.open(path) as store:
        store.ensure_learner("Ana")
        companions = [p for p in path.parent.iterdir() if p.name != path.name]
        assert companions  # the WAL files exist while the store is open
        for file in [path, *companions]:
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_non_sqlite_file_is_refused_and_untouched(db_path: Path) -> None:
    db_path.write_text("name,score\nAna,10\n" * 100)
    before = _fingerprint(db_path)
    with pytest.raises(StoreError, match="is not a SQLite database") as info:
        Store.open(db_path)
    assert "left untouched" in str(info.value) and "--db PATH" in str(info.value)
    assert _fingerprint(db_path) == before
    assert _companions(db_path) == []


def test_corrupt_sqlite_file_is_refused_and_untouched(db_path: Path) -> None:
    _filled_store(db_path)
    data = bytearray(db_path.read_bytes())
    page = 4096
    data[3 * page : 6 * page] = b"\xde\xad\xbe\xef" * (3 * page // 4)  # scribble over table/index pages
    db_path.write_bytes(bytes(data))
    before = _fingerprint(db_path)
    with pytest.raises(StoreError, match=r"damaged.*left untouched"):
        Store.open(db_path)
    assert _fingerprint(db_path) == before


def test_truncated_file_is_refused_and_untouched(db_path: Path) -> None:
    _filled_store(db_path)
    data = db_path.read_bytes()
    db_path.write_bytes(data[: len(data) // 2])
    before = _fingerprint(db_path)
    with pytest.raises(StoreError, match="left untouched"):
        Store.open(db_path)
    assert _fingerprint(db_path) == before


def test_fresh_moves_a_damaged_file_aside_and_starts_over(db_path: Path) -> None:
    db_path.write_bytes(b"not a database at all" * 50)
    original = db_path.read_bytes()
    with Store.open(db_path, fresh=True) as store:
        assert store.moved_aside is not None
        assert store.moved_aside.name.startswith("store.db.corrupt-")
        assert store.moved_aside.read_bytes() == original
        store.save_correction(make_result(), learner="Ana")
        assert store.count_history() == 1
    with Store.open(db_path) as again:
        assert again.count_history() == 1


def test_fresh_keeps_a_healthy_file(db_path: Path) -> None:
    _filled_store(db_path, rows=3)
    with Store.open(db_path, fresh=True) as store:
        assert store.moved_aside is None
        assert store.count_history() == 3


def test_another_programs_database_is_refused_and_untouched(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO invoices (total) VALUES (9.5)")
    before = _fingerprint(db_path)
    with pytest.raises(StoreError, match="another program"):
        Store.open(db_path)
    assert _fingerprint(db_path) == before


def test_file_from_a_newer_version_is_refused(db_path: Path) -> None:
    _filled_store(db_path, rows=1)
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version (version, applied) VALUES (99, 'future')")
    with pytest.raises(StoreError, match="newer grammar-tutor"):
        Store.open(db_path)


def test_a_folder_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder; give a file path"):
        Store.open(tmp_path)


def test_unwritable_place_is_a_clear_error() -> None:
    # /proc refuses new files even to root: a real read-only location on Linux.
    if not Path("/proc/self").exists():
        pytest.skip("needs Linux /proc")
    with pytest.raises(StoreError, match=r"read-only|cannot create") as info:
        Store.open("/proc/grammar-tutor-test.db")
    assert "--db PATH" in str(info.value)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_folder_and_file_are_clear_errors(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="read-only"):
            Store.open(folder / "x.db")
    finally:
        folder.chmod(0o700)
    path = tmp_path / "ro.db"
    _filled_store(path, rows=1)
    path.chmod(0o400)
    with pytest.raises(StoreError, match="read-only"):
        Store.open(path).save_correction(make_result(), learner="Ana")


def test_full_disk_is_a_clear_error_and_loses_nothing(sqlite_store: Store) -> None:
    store = sqlite_store
    kept = store.save_correction(make_result(), learner="Ana")
    db = store._conns.get()
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite now answers SQLITE_FULL, as on a full disk
    with pytest.raises(StoreError, match=r"disk .* is full.*free some space"):
        for i in range(500):
            store.save_correction(make_result(f"She go {i} " + "y" * 500), learner="Ana")
    saved_before_full = store.count_history()
    db.execute("PRAGMA max_page_count = 1073741823")
    assert store.get(kept) is not None
    assert store.integrity_check() == ["ok"]
    store.save_correction(make_result(), learner="Ana")
    assert store.count_history() == saved_before_full + 1


def test_fresh_never_moves_another_programs_database(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="another program"):
        Store.open(db_path, fresh=True)
    assert db_path.exists()
    assert not any("corrupt" in p.name for p in db_path.parent.iterdir())
