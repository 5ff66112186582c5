"""Where the classroom data lives and how to reach it: one SQLAlchemy engine per database URL.

* Default: SQLite in WAL mode, ``data/classroom/classroom.sqlite3`` under the repository (the folder is
  created, and git-ignored), so ``streamlit run app.py`` needs nothing else.
* ``NDCG_LAB_DB_URL`` (environment, or the same key in Streamlit secrets, which the app passes in):
  any SQLAlchemy URL.  ``postgresql://user:pass@host/db`` uses psycopg 3 (``postgresql+psycopg``), as
  hosts with an ephemeral disk need; ``sqlite:////abs/path.sqlite3`` another SQLite file.

The schema is brought to the newest Alembic revision once per engine (:func:`upgrade`).

SQLite: every connection sets ``journal_mode=WAL`` (readers never wait for the writer),
``synchronous=FULL`` (a committed answer survives even a power cut, not only a killed server),
``busy_timeout`` and foreign keys.  Writes open with ``BEGIN IMMEDIATE`` (:func:`write`): they take
the write lock at once instead of failing with "database is locked" when two readers upgrade.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

__all__ = ["ENV_VAR", "DEFAULT_DIR", "database_url", "new_engine", "engine_for", "dispose", "upgrade", "write", "read",
           "describe"]

ENV_VAR = "NDCG_LAB_DB_URL"
DEFAULT_DIR = Path(__file__).resolve().parent.parent / "data" / "classroom"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


def database_url(configured: str | None = None) -> str:
    """The URL to use: ``configured`` (e.g. from Streamlit secrets), else ``$NDCG_LAB_DB_URL``, else the
    default SQLite file (its folder is created).  ``postgresql://`` and ``postgres://`` select psycopg 3.

    >>> database_url("postgres://u:p@db.example/lab")
    'postgresql+psycopg://u:p@db.example/lab'
    >>> database_url("sqlite:////tmp/x.sqlite3")
    'sqlite:////tmp/x.sqlite3'
    """
    url = (configured or os.environ.get(ENV_VAR) or "").strip()
    if not url:
        DEFAULT_DIR.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{DEFAULT_DIR / 'classroom.sqlite3'}"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def describe(url: str) -> str:
    """The URL with its password hidden (for messages and logs)."""
    return make_url(url).render_as_string(hide_password=True)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # SQLAlchemy's "begin" event below emits BEGIN itself
        cur = dbapi_conn.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=15000", "foreign_keys=ON"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn):
        immediate = conn.get_execution_options().get("classroom_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


#: Benchmarks: a folder where each process writes, every second, how many statements its engines sent
#: (``<pid>.json``: by first word) and what its change watchers did (:mod:`classroom.changes`).
STATS_VAR = "NDCG_LAB_DB_STATS"
_stats: dict[str, int] = {}
_stats_lock = threading.Lock()


def _count_statements(engine: Engine) -> None:
    folder = Path(os.environ[STATS_VAR])

    @event.listens_for(engine, "before_cursor_execute")
    def _count(_conn, _cursor, statement, *_args):
        word = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else "?"
        _stats[word] = _stats.get(word, 0) + 1

    def dump() -> None:
        import json
        import time

        from .changes import _watchers

        while True:
            time.sleep(1.0)
            data = dict(_stats)
            for key in ("reads", "checks", "notifications"):
                data[f"watcher_{key}"] = sum(getattr(w, key) for w in list(_watchers.values()))
            path = folder / f"{os.getpid()}.json"
            path.with_suffix(".tmp").write_text(json.dumps(data))
            path.with_suffix(".tmp").replace(path)

    with _stats_lock:
        if not getattr(_count_statements, "started", False):
            _count_statements.started = True
            folder.mkdir(parents=True, exist_ok=True)
            threading.Thread(target=dump, name="classroom-db-stats", daemon=True).start()


def new_engine(url: str) -> Engine:
    """A new engine for ``url`` with this module's connection setup (no migration, not cached)."""
    engine = _new_engine(url)
    if os.environ.get(STATS_VAR):
        _count_statements(engine)
    return engine


def _new_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        args = {"check_same_thread": False, "timeout": 15}
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            # A pool as large as the busiest class needs at once (a connection is held only for
            # one short transaction); new connections run the PRAGMAs below once.
            engine = create_engine(url, connect_args=args, pool_size=16, max_overflow=48, pool_timeout=20)
        else:  # one shared in-memory database (examples and quick tests)
            engine = create_engine(url, connect_args=args, poolclass=StaticPool)
        _sqlite_setup(engine)
        return engine
    return create_engine(url, pool_size=16, max_overflow=48, pool_timeout=20, pool_pre_ping=True)


def engine_for(url: str) -> Engine:
    """The engine for ``url`` (one per process and URL), its schema upgraded to the newest revision."""
    with _lock:
        engine = _engines.get(url)
        if engine is None:
            engine = new_engine(url)
            upgrade(engine)
            _engines[url] = engine
        return engine


def dispose(url: str) -> None:
    """Close and forget the engine for ``url`` (the next :func:`engine_for` opens a new one) and its
    change watcher (:mod:`classroom.changes`)."""
    from .changes import forget

    forget(url)
    with _lock:
        engine = _engines.pop(url, None)
    if engine is not None:
        engine.dispose()


#: The PostgreSQL advisory lock every process takes while it migrates ("NDCL" in ASCII).
MIGRATION_LOCK = 0x4E44434C


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (creating it in an empty database).

    Several app servers may start at once on one empty database: the migration runs in one transaction
    that first takes a lock, so the others wait and then find the schema already at the newest revision
    (PostgreSQL: a transaction-level advisory lock; SQLite: ``BEGIN IMMEDIATE``, the database's write lock).
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect().execution_options(classroom_write=True) as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by copying it and dropping the old one; with foreign keys on, that drop
            # would cascade and delete every row that refers to it (all students and answers).  The pragma
            # only works outside a transaction; the keys are checked before the migration commits.
            conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")
        try:
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    raise RuntimeError("the migration left rows whose parent row is missing; nothing was changed")
        finally:
            if sqlite:
                conn.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")


@contextmanager
def write(engine: Engine) -> Iterator[Connection]:
    """A transaction that writes (SQLite: ``BEGIN IMMEDIATE``); committed on leaving, rolled back on error."""
    with engine.connect().execution_options(classroom_write=True) as conn, conn.begin():
        yield conn


@contextmanager
def read(engine: Engine) -> Iterator[Connection]:
    """A read-only transaction."""
    with engine.connect() as conn, conn.begin():
        yield conn
