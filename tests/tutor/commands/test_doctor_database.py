"""`grammar-tutor doctor` on a database URL: a real PostgreSQL, one that is not there, another scheme."""

from __future__ import annotations

import socket

from tutor.commands.doctor import check_database
from tutor.store import postgres, schema


def test_doctor_reads_a_postgres_database_without_writing(postgres_url: str) -> None:
    empty = check_database(postgres_url)
    assert empty.ok and "PostgreSQL, empty" in empty.detail
    with postgres.connect(postgres_url) as conn:
        assert postgres.current_version(conn) == 0  # the doctor made nothing
    postgres.migrate(postgres_url)
    assert check_database(postgres_url).detail.endswith(f"(PostgreSQL, schema {schema.LATEST})")


def test_doctor_reports_an_unreachable_database_and_another_scheme() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    down = check_database(f"postgresql://tutor:hunter2@127.0.0.1:{port}/district")
    assert not down.ok and "cannot reach" in down.detail and "hunter2" not in down.detail
    other = check_database("mysql://u@127.0.0.1/db")
    assert not other.ok and "not a database grammar-tutor can use" in other.detail
