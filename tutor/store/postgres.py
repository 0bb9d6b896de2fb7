"""The store's PostgreSQL side: reaching the database with errors a person can act on, and its schema.

A `postgresql://USER[:PASSWORD]@HOST:PORT/DB` URL names the database (psycopg 3 with psycopg_pool). The schema
is schema.MIGRATIONS' own, version for version (pg_schema.MIGRATIONS), recorded in the same `schema_version`
table; tests/tutor/store/test_store_postgres.py checks that both give the same tables, columns and keys.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, NoReturn

from tutor.errors import StoreError
from tutor.store import pg_schema, schema
from tutor.store.paths import redact

CONNECT_TIMEOUT_S = 5


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as exc:  # an install without the `district` extra
        raise StoreError(
            "a postgresql:// database needs psycopg: pip install 'grammar-tutor[district]'"
        ) from exc
    return psycopg


def explain(exc: Exception, url: str, doing: str) -> StoreError:
    """Return a StoreError naming the database (without its password), what failed and what to do."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    where = redact(url)
    if "password authentication failed" in text or "no password supplied" in text:
        return StoreError(f"the PostgreSQL database {where} refused the user name or password while {doing}; "
                          "check the URL's user and password")
    if "does not exist" in text and "database" in text:
        return StoreError(f"the PostgreSQL database {where} does not exist ({text}); create it with createdb "
                          "or check the URL's database name")
    psycopg = _psycopg()
    if isinstance(exc, psycopg.OperationalError):
        return StoreError(f"cannot reach the PostgreSQL database {where} while {doing} ({text}); check that "
                          "the server is running and the host and port are right")
    return StoreError(f"the PostgreSQL database {where} failed while {doing}: {text}")


def connect(url: str, *, autocommit: bool = False) -> Any:
    """Return one psycopg connection to `url`, or raise StoreError (unreachable, wrong password, no such db)."""
    psycopg = _psycopg()
    try:
        return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=autocommit)
    except psycopg.Error as exc:
        raise explain(exc, url, "connecting") from None
    except (ValueError, psycopg.ProgrammingError) as exc:  # a URL libpq cannot parse
        raise StoreError(f"{redact(url)} is not a PostgreSQL URL libpq understands ({exc})") from None


@contextlib.contextmanager
def translated(url: str, doing: str) -> Iterator[None]:
    """Turn any psycopg error raised inside the block into an actionable StoreError."""
    psycopg = _psycopg()
    try:
        yield
    except psycopg.Error as exc:
        raise explain(exc, url, doing) from exc


def current_version(conn: Any) -> int:
    """Return the highest migration applied to the database (0 for an empty one)."""
    found = conn.execute("SELECT to_regclass('schema_version')").fetchone()[0]
    if found is None:
        return 0
    return int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def secret_hash(url: str, subject: str) -> str | None:
    """Return the hash kept under `subject` (lock.TEACHER: the passphrase) at `url`, or None (none, or no schema)."""
    with connect(url) as conn, translated(url, "reading the teacher passphrase"):
        if conn.execute("SELECT to_regclass(%s)", [schema.SECRETS]).fetchone()[0] is None:
            return None
        row = conn.execute(f"SELECT hash FROM {schema.SECRETS} WHERE subject = %s", [subject]).fetchone()
    return None if row is None else str(row[0])


def migrate(url: str) -> int:
    """Bring the database at `url` up to the latest schema, one transaction per migration; return its version.

    Servers starting at once against one database take turns on a session advisory lock, so each migration
    runs once; a database written by a newer grammar-tutor is refused.
    """
    # A session lock taken before each transaction begins: a transaction that waited on a lock inside it would
    # keep its catalog cache from before the other server's CREATE TABLEs and try them again.
    with connect(url, autocommit=True) as conn, translated(url, "upgrading its schema"):
        conn.execute("SELECT pg_advisory_lock(%s)", [pg_schema.MIGRATION_LOCK])
        try:
            version = current_version(conn)
            if version > pg_schema.LATEST:
                raise StoreError(
                    f"the PostgreSQL database {redact(url)} was written by a newer grammar-tutor (schema {version}, "
                    f"this one knows {pg_schema.LATEST}); update grammar-tutor"
                )
            while version < pg_schema.LATEST:
                with conn.transaction():
                    pg_schema.apply(conn, version + 1)
                version += 1
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", [pg_schema.MIGRATION_LOCK])
        return version


def open_postgres(url: str) -> NoReturn:
    """Check that `url` can be reached and migrated, then refuse: the Store's queries run on SQLite only so far."""
    migrate(url)
    raise StoreError(
        f"the PostgreSQL database {redact(url)} is reachable and has the store's schema, but this version of "
        "grammar-tutor keeps learners and corrections in a SQLite file only; give a file path with --db PATH"
    )
