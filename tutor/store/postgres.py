"""The store's PostgreSQL side: reaching the database with errors a person can act on, its schema, and the
Store's connections to it.

A `postgresql://USER[:PASSWORD]@HOST:PORT/DB` URL names the database (psycopg 3 with psycopg_pool). The schema
is schema.MIGRATIONS' own, version for version (pg_schema.MIGRATIONS), recorded in the same `schema_version`
table; tests/tutor/store/test_store_postgres.py checks that both give the same tables, columns and keys.
PgConnections is tutor.store.db.Connections' counterpart: the store's modules run their SQLite SQL on it
unchanged (to_postgres translates it), and take what differs from tutor.store.dialect.
"""

from __future__ import annotations

import contextlib
import functools
import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from tutor.errors import StoreError, StoreUnavailable
from tutor.store import dialect, pg_schema, schema
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
    if isinstance(exc, psycopg.OperationalError):  # down, restarting, out of connections: trying later may work
        return StoreUnavailable(f"cannot reach the PostgreSQL database {where} while {doing} ({text}); check that "
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


# -- the Store's connections ----------------------------------------------------------------------------------

POOL_SIZE = 8  # connections one process keeps at most (the class server's store work runs in its thread pool)
POOL_WAIT_S = 5.0  # how long a query waits for a connection before the store is "unavailable" (503 on a server)
_LITERAL = re.compile(r"('(?:[^']|'')*')")
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_OR_IGNORE = re.compile(r"^(\s*)INSERT OR IGNORE INTO(.*?)(\s+RETURNING\s.*)?$", re.S | re.I)
_NOCASE_EQUAL = re.compile(r"([\w.]+) = \? COLLATE NOCASE", re.I)
_NOCASE = re.compile(r"([\w.]+) COLLATE NOCASE", re.I)
_INDEXED_BY = re.compile(r"\s+INDEXED BY \w+", re.I)
_EXPRESSIONS = {schema.WEEK_SQL: "tutor_week(created)::text"}  # SQLite's expression -> PostgreSQL's, as text


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """Return a statement of the store's SQLite SQL in PostgreSQL's: `?` and `:name` become psycopg's %s and
    %(name)s, INSERT OR IGNORE becomes ON CONFLICT DO NOTHING, NOCASE becomes lower(), IFNULL COALESCE, index
    hints go, and schema.WEEK_SQL becomes tutor_week. String literals are left as they are."""
    for sqlite_text, pg_text in _EXPRESSIONS.items():
        sql = sql.replace(sqlite_text, pg_text)
    parts = _LITERAL.split(sql)
    for i in range(0, len(parts), 2):  # the even parts are outside quotes
        code = parts[i].replace("%", "%%")
        code = _NOCASE_EQUAL.sub(r"lower(\1) = lower(?)", code)
        code = _NOCASE.sub(r"lower(\1)", code)
        code = _INDEXED_BY.sub("", code)
        code = re.sub(r"\bIFNULL\(", "COALESCE(", code, flags=re.I)
        code = _NAMED.sub(r"%(\1)s", code.replace("?", "%s"))
        parts[i] = code
    sql = "".join(parts)
    ignore = _OR_IGNORE.match(sql)
    if ignore:
        sql = f"{ignore.group(1)}INSERT INTO{ignore.group(2)} ON CONFLICT DO NOTHING{ignore.group(3) or ''}"
    return sql


def _param(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value  # SQLite's flags are integers; so are PostgreSQL's here


def _params(params: Any) -> Any:
    if params is None:
        return None
    if isinstance(params, dict):
        return {key: _param(value) for key, value in params.items()}
    return [_param(value) for value in params]


class Result:
    """What a statement returned, read in full: rows (tuples or dicts), and how many rows it changed."""

    def __init__(self, rows: list[Any], rowcount: int) -> None:
        self._rows, self.rowcount = rows, rowcount

    def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    def fetchall(self) -> list[Any]:
        rows, self._rows = self._rows, []
        return rows

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgDb:
    """A Store's connection to PostgreSQL, with the subset of sqlite-utils' Database the store's modules use
    (`execute`, `query`, `conn.execute`, `conn.executemany`), taking the store's SQLite SQL (to_postgres).

    Bound to one connection inside a write transaction or a snapshot; otherwise each statement borrows a
    connection from the pool and commits at once (READ COMMITTED: it sees every committed write).
    """

    dialect = dialect.POSTGRES

    def __init__(self, conns: PgConnections, conn: Any = None) -> None:
        self._conns, self._conn = conns, conn

    @property
    def conn(self) -> PgDb:
        return self

    @property
    def in_transaction(self) -> bool:
        return self._conn is not None or self._conns.bound() is not None

    def _run(self, conn: Any, sql: str, params: Any, *, dicts: bool, many: bool = False) -> Result:
        from psycopg.rows import dict_row, tuple_row

        with conn.cursor(row_factory=dict_row if dicts else tuple_row) as cur:
            if many:
                cur.executemany(to_postgres(sql), [_params(p) for p in params])
                return Result([], cur.rowcount)
            cur.execute(to_postgres(sql), _params(params))
            return Result(cur.fetchall() if cur.description is not None else [], cur.rowcount)

    def _statement(self, sql: str, params: Any, *, dicts: bool = False, many: bool = False) -> Result:
        word = sql.strip().upper()
        if word in ("BEGIN", "ROLLBACK") and not many:  # export.snapshot: one read-only snapshot on this thread
            self._conns.snapshot(start=word == "BEGIN")
            return Result([], 0)
        conn = self._conn if self._conn is not None else self._conns.bound()
        if conn is not None:
            return self._run(conn, sql, params, dicts=dicts, many=many)
        with self._conns.borrow() as conn:
            return self._run(conn, sql, params, dicts=dicts, many=many)

    def execute(self, sql: str, params: Any = None) -> Result:
        """Run one statement; its rows are tuples."""
        return self._statement(sql, params)

    def executemany(self, sql: str, seq: Iterable[Any]) -> Result:
        """Run one statement once per parameter list."""
        return self._statement(sql, list(seq), many=True)

    def query(self, sql: str, params: Any = None) -> Iterator[dict[str, Any]]:
        """Run one statement; yield its rows as dicts."""
        return iter(self._statement(sql, params, dicts=True).fetchall())


def _configure(conn: Any) -> None:
    """Set up a new pooled connection: `numeric` (what SUM over bigint gives) loads as int when whole, else as
    float, as SQLite gives them."""
    from psycopg.adapt import Loader

    class NumericLoader(Loader):
        def load(self, data: Any) -> Any:
            text = bytes(data).decode("ascii")
            return float(text) if any(c in text for c in ".eEnN") else int(text)

    conn.adapters.register_loader("numeric", NumericLoader)


class PgConnections:
    """The Store's connections to one PostgreSQL database: a psycopg_pool pool, each write one transaction.

    `path` is the URL without its password (what messages name). Mirrors tutor.store.db.Connections.
    """

    def __init__(self, url: str, *, size: int = POOL_SIZE) -> None:
        from psycopg_pool import ConnectionPool

        self.url, self.path = url, redact(url)
        self._local = threading.local()
        self._pool = ConnectionPool(url, min_size=1, max_size=size, timeout=POOL_WAIT_S, open=False,
                                    kwargs={"connect_timeout": CONNECT_TIMEOUT_S}, configure=_configure,
                                    check=ConnectionPool.check_connection, name="grammar-tutor store")
        self._closed = False

    @classmethod
    def open(cls, url: str) -> PgConnections:
        """Reach the database (StoreError naming it when it cannot be reached), migrate it, open the pool."""
        migrate(url)
        conns = cls(url)
        try:
            with translated(url, "connecting"):
                conns._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S * 2)
        except BaseException:
            conns.close()  # no pool threads left behind a store that could not open
            raise
        return conns

    @contextlib.contextmanager
    def borrow(self) -> Iterator[Any]:
        """Lend one pooled connection for one statement (committed when it is given back)."""
        if self._closed:
            raise StoreError(f"the store {self.path} was closed; open it again with Store.open()")
        with self._pool.connection() as conn:
            yield conn

    def bound(self) -> Any:
        """Return the connection this thread's write or snapshot holds, or None."""
        db = getattr(self._local, "db", None)
        return None if db is None else db._conn

    def get(self) -> PgDb:
        """Return this thread's connection inside a write or snapshot, else one that borrows per statement."""
        if self._closed:
            raise StoreError(f"the store {self.path} was closed; open it again with Store.open()")
        bound = getattr(self._local, "db", None)
        return bound if bound is not None else PgDb(self)

    @contextlib.contextmanager
    def write(self, doing: str) -> Iterator[PgDb]:
        """Run the block in one transaction: committed on exit, rolled back on any error."""
        with translated(self.path, doing), self.borrow() as conn, conn.transaction():
            self._local.db = PgDb(self, conn)
            try:
                yield self._local.db
            finally:
                self._local.db = None

    def snapshot(self, *, start: bool) -> None:
        """Start (or end) one REPEATABLE READ, read-only transaction on this thread: the reads in between see one
        moment of the database (an export's pages)."""
        from psycopg import IsolationLevel

        if start:
            conn = self._pool.getconn()
            conn.isolation_level, conn.read_only = IsolationLevel.REPEATABLE_READ, True
            conn.execute("SELECT 1")  # the snapshot is taken at the transaction's first statement
            self._local.db = PgDb(self, conn)
            return
        bound, self._local.db = getattr(self._local, "db", None), None
        if bound is not None:
            try:
                bound._conn.rollback()
                bound._conn.isolation_level, bound._conn.read_only = None, None
            finally:
                self._pool.putconn(bound._conn)

    def open_count(self) -> int:
        """Return how many connections the pool holds."""
        return int(self._pool.get_stats().get("pool_size", 0))

    def close(self) -> None:
        """Close the pool; later use raises StoreError."""
        self._closed = True
        self._pool.close(timeout=2.0)
