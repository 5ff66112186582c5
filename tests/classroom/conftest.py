"""Store fixtures: every store test runs against SQLite (a temp file, WAL) and a real PostgreSQL."""
from __future__ import annotations

import itertools

import pytest

from classroom import db
from tests.classroom.postgres import PostgresUnavailable, fresh_database, throwaway_postgres

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL server for the session.  Fails (never skips) if it cannot start."""
    try:
        with throwaway_postgres() as url:
            yield url
    except PostgresUnavailable as exc:
        pytest.fail(f"PostgreSQL tests cannot run: {exc}", pytrace=False)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """An empty database URL: a fresh SQLite file, or a fresh database on the throwaway PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    else:
        url = fresh_database(request.getfixturevalue("pg_server"), f"t{next(_counter)}")
    yield url
    db.dispose(url)
