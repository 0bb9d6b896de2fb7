"""The store's PostgreSQL side through a real PostgreSQL 15: the same schema as SQLite, and clear errors."""

from __future__ import annotations

import re
import socket
import sqlite3
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tutor.cli import main
from tutor.errors import StoreError
from tutor.store import Store, pg_schema, postgres, schema

_TYPES = {"bigint": "INTEGER", "text": "TEXT", "double precision": "FLOAT", "bytea": "BLOB",
          "INTEGER": "INTEGER", "TEXT": "TEXT", "FLOAT": "FLOAT", "REAL": "FLOAT", "BLOB": "BLOB"}
# SQLite gives each new learner a UUID by a trigger, PostgreSQL by the column's default: the same rule.
_UUID_DEFAULT = ("learners", "uuid")


def _default(text: str | None) -> str | None:
    """A column default without PostgreSQL's casts: `'base'::text` and SQLite's `'base'` compare equal."""
    return None if text is None else re.sub(r"::[a-z ]+", "", text).strip("()")


def sqlite_shape(path: Path) -> dict[str, Any]:
    conn = sqlite3.connect(path)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                         " AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'")]
    columns, unique, foreign = set(), set(), set()
    for table in tables:
        for _, name, kind, notnull, default, pk in conn.execute(f"PRAGMA table_info({table})"):
            columns.add((table, name, _TYPES[kind], bool(notnull or pk), bool(pk),
                         None if (table, name) == _UUID_DEFAULT else _default(default)))
        for _, index, is_unique, origin, _ in conn.execute(f"PRAGMA index_list({table})"):
            if is_unique and origin != "pk":
                cols = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({index})"))
                unique.add((table, cols))
            elif is_unique and origin == "pk":  # a text primary key
                unique.add((table, tuple(r[2] for r in conn.execute(f"PRAGMA index_info({index})"))))
        for row in conn.execute(f"PRAGMA foreign_key_list({table})"):
            foreign.add((table, row[3], row[2], row[4]))
    for table in tables:  # an INTEGER PRIMARY KEY has no index of its own in SQLite: it is the rowid
        pk = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[5]]
        unique.add((table, tuple(pk)))
    conn.close()
    return {"tables": set(tables), "columns": columns, "unique": unique, "foreign": foreign}


def postgres_shape(url: str) -> dict[str, Any]:
    with psycopg.connect(url) as conn:
        tables = {r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        columns = set()
        for table, name, kind, nullable, default in conn.execute(
                "SELECT table_name, column_name, data_type, is_nullable, column_default"
                " FROM information_schema.columns WHERE table_schema = 'public'"):
            pk = bool(conn.execute(
                "SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                " WHERE i.indrelid = %s::regclass AND i.indisprimary AND a.attname = %s", [table, name]).fetchone())
            columns.add((table, name, _TYPES[kind], nullable == "NO", pk,
                         None if (table, name) == _UUID_DEFAULT else _default(default)))
        unique = set()
        for table, definition in conn.execute(
                "SELECT t.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid"
                " JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public' AND i.indisunique"):
            inside = definition[definition.index("(") + 1:definition.rindex(")")]
            cols = tuple(re.sub(r"^lower\((\w+)\)$", r"\1", c.strip()) for c in inside.split(","))
            unique.add((table, cols))
        foreign = set(conn.execute(
            "SELECT cl.relname, a.attname, rt.relname, ra.attname FROM pg_constraint c"
            " JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class rt ON rt.oid = c.confrelid"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]"
            " WHERE c.contype = 'f'").fetchall())
    return {"tables": tables, "columns": columns, "unique": unique, "foreign": foreign}


def test_both_backends_give_the_same_tables_columns_and_keys(tmp_path: Path, postgres_url: str) -> None:
    Store.open(tmp_path / "class.db").close()
    assert postgres.migrate(postgres_url) == schema.LATEST == pg_schema.LATEST
    lite, pg = sqlite_shape(tmp_path / "class.db"), postgres_shape(postgres_url)
    assert lite["tables"] == pg["tables"]
    assert {schema.CORRECTIONS, schema.CARDS, schema.SECRETS, schema.OUTBOX} <= pg["tables"]
    assert lite["columns"] == pg["columns"], (lite["columns"] ^ pg["columns"])
    assert lite["unique"] == pg["unique"], (lite["unique"] ^ pg["unique"])
    assert lite["foreign"] == pg["foreign"]


def test_migrations_are_recorded_once_when_servers_start_together(postgres_url: str) -> None:
    versions: list[int] = []
    threads = [threading.Thread(target=lambda: versions.append(postgres.migrate(postgres_url))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert versions == [schema.LATEST] * 4
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
    assert [r[0] for r in rows] == list(range(1, schema.LATEST + 1))


def test_a_postgres_learner_gets_a_uuid_and_names_fold_case(postgres_url: str) -> None:
    postgres.migrate(postgres_url)
    with psycopg.connect(postgres_url) as conn:
        conn.execute("INSERT INTO learners (name, created) VALUES ('Ana', '2025-01-01T00:00:00Z')")
        uuid = conn.execute("SELECT uuid FROM learners").fetchone()[0]
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", uuid)
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO learners (name, created) VALUES ('ANA', '2025-01-01T00:00:00Z')")


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_database_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://postgres:hunter2@127.0.0.1:{_closed_port()}/district"
    with pytest.raises(StoreError, match="cannot reach the PostgreSQL database") as caught:
        Store.open(url)
    assert "hunter2" not in str(caught.value) and "postgres:***@127.0.0.1" in str(caught.value)
    assert main(["--db", url, "teacher", "status"]) != 0
    err = capsys.readouterr().err
    assert "cannot reach the PostgreSQL database" in err and "Traceback" not in err and "hunter2" not in err


def test_a_wrong_password_and_a_missing_database_say_so(postgres_server: Any) -> None:
    user, password = postgres_server.password_user, postgres_server.password
    wrong = postgres_server.url(user=f"{user}:not-{password}")
    with pytest.raises(StoreError, match="refused the user name or password") as caught:
        postgres.migrate(wrong)
    assert password not in str(caught.value)
    with pytest.raises(StoreError, match="does not exist"):
        postgres.migrate(postgres_server.url("no_such_db"))
    postgres.connect(postgres_server.url(user=f"{user}:{password}")).close()  # the right one works


def test_opening_an_empty_database_migrates_it_and_gives_the_store_api(postgres_url: str) -> None:
    with Store.open(postgres_url) as store:
        assert store.schema_version == schema.LATEST and store.path == postgres_url
        store.ensure_learner("Ana")
        assert [row["name"] for row in store.learners()] == ["Ana"]
    with psycopg.connect(postgres_url) as conn:
        assert postgres.current_version(conn) == schema.LATEST


def test_serve_against_an_unreachable_database_exits_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://tutor:hunter2@127.0.0.1:{_closed_port()}/district"
    assert main(["serve", "--token", "a-class-code-long-enough", "--port", "0", "--db", url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach the PostgreSQL database postgresql://tutor:***@127.0.0.1" in err[0]
    assert "hunter2" not in err[0]


def test_the_stores_sqlite_sql_is_translated_word_for_word() -> None:
    assert postgres.to_postgres("INSERT OR IGNORE INTO t (a, b) VALUES (?, :b) RETURNING seq") == (
        "INSERT INTO t (a, b) VALUES (%s, %(b)s) ON CONFLICT DO NOTHING RETURNING seq")
    assert postgres.to_postgres("SELECT id FROM l WHERE name = ? COLLATE NOCASE ORDER BY l.name COLLATE NOCASE") == (
        "SELECT id FROM l WHERE lower(name) = lower(%s) ORDER BY lower(l.name)")
    # literals are kept as they are, a % is escaped for psycopg, an index hint goes
    assert postgres.to_postgres("SELECT '?:x%' FROM c INDEXED BY idx WHERE IFNULL(a, '') LIKE ?") == (
        "SELECT '?:x%' FROM c WHERE COALESCE(a, '') LIKE %s")
    assert postgres.to_postgres(f"SELECT {schema.WEEK_SQL}") == "SELECT tutor_week(created)::text"


def test_two_servers_claiming_one_new_learner_at_once_make_one_learner_with_one_key(
        postgres_store_url: str) -> None:
    from tutor.store.learner_keys import claim_learner, server_key_hash

    stores = [Store.open(postgres_store_url) for _ in range(2)]  # two pools: two servers' processes
    claims: list[Any] = []
    start = threading.Barrier(4, timeout=30)

    def claim(store: Store, n: int) -> None:
        start.wait(timeout=60)
        claims.append(claim_learner(store, "Luz", None, lambda c: None if c.key_hash else f"hash-{n}"))

    try:
        threads = [threading.Thread(target=claim, args=(stores[n % 2], n)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert len(claims) == 4
        assert [x["name"] for x in stores[0].learners()] == ["Luz"]
        assert len({c.uuid for c in claims}) == 1 and sum(c.created for c in claims) == 1
        assert claims[0].uuid == stores[0].find_learner("Luz")["uuid"] and len(claims[0].uuid) == 36
        assert server_key_hash(stores[1], claims[0].uuid) is not None
    finally:
        for store in stores:
            store.close()


def test_wrong_passphrases_sent_to_two_servers_at_once_are_all_counted(postgres_store_url: str) -> None:
    from tutor.store.lock import NETWORK_TEACHER, SecretLock, Throttled

    stores = [Store.open(postgres_store_url) for _ in range(2)]
    try:
        SecretLock(stores[0]).set_teacher("the right passphrase")
        start = threading.Barrier(6, timeout=30)
        outcomes: list[str] = []

        def attempt(store: Store) -> None:
            start.wait(timeout=60)
            try:
                outcomes.append(str(SecretLock(store).check_teacher("wrong guess", network=True)))
            except Throttled:
                outcomes.append("throttled")

        threads = [threading.Thread(target=attempt, args=(stores[n % 2],)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert len(outcomes) == 6 and "True" not in outcomes
        with psycopg.connect(postgres_store_url) as conn:
            failures = conn.execute("SELECT failures FROM secrets WHERE subject = %s", [NETWORK_TEACHER]).fetchone()[0]
        assert failures == outcomes.count("False")  # every attempt that ran was counted, none lost to a race
        assert outcomes.count("False") >= 3  # the first three are free; a later one is throttled or counted
    finally:
        for store in stores:
            store.close()


def test_serve_with_a_wrong_password_exits_with_one_line_without_the_password(
        postgres_server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    user, password = postgres_server.password_user, postgres_server.password
    url = postgres_server.url(user=f"{user}:not-{password}")
    assert main(["serve", "--token", "a-class-code-long-enough", "--port", "0", "--db", url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refused the user name or password" in err[0] and f"{user}:***@" in err[0]
    assert password not in err[0]


def test_the_teacher_command_sets_the_passphrase_of_a_postgresql_database(
        postgres_store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from tutor.store.lock import SecretLock

    monkeypatch.setattr("sys.stdin", io.StringIO("a district passphrase\n"))
    assert main(["teacher", "--db", postgres_store_url, "set-passphrase"]) == 0
    with Store.open(postgres_store_url) as store:
        assert SecretLock(store).check_teacher("a district passphrase")
