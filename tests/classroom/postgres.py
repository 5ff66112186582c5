"""A throwaway PostgreSQL server for tests: ``initdb`` + ``pg_ctl`` from Debian's binaries, in a temp dir,
on a free loopback port, stopped and deleted afterwards.

Root cannot run ``postgres``: as root the cluster is owned by and run as the ``postgres`` user
(``runuser``).  Nothing here skips: if the binaries are missing or the server does not start, the
caller fails with the server's own log (``scripts/test.sh`` installs Debian's ``postgresql``).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _pg_bin() -> Path:
    """$PG_BIN, else the newest Debian PostgreSQL under /usr/lib/postgresql (15 on this machine)."""
    if os.environ.get("PG_BIN"):
        return Path(os.environ["PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()
USER = "lab"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL could not be started (the message says why and how to fix it)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_owner(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@contextmanager
def throwaway_postgres(settings: dict[str, str] | None = None) -> Iterator[str]:
    """Start a server; yield a SQLAlchemy URL of its ``postgres`` database (user ``lab``, no password).
    ``settings``: more server settings (``-c name=value``), e.g. for benchmarks' statistics."""
    for tool in ("initdb", "pg_ctl", "postgres"):
        if not (PG_BIN / tool).exists():
            raise PostgresUnavailable(
                f"{PG_BIN / tool} not found: install Debian's postgresql (apt-get install -y postgresql; "
                "scripts/test.sh does it) or set PG_BIN to the folder holding initdb and pg_ctl")
    root = Path(tempfile.mkdtemp(prefix="ndcg-lab-pg-"))
    data, log = root / "data", root / "server.log"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = _free_port()

    def run(cmd, **kw):
        return subprocess.run(_as_owner(cmd), capture_output=True, text=True, timeout=120, **kw)

    try:
        out = run([str(PG_BIN / "initdb"), "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8",
                   "--locale=C.UTF-8", "--no-sync"])
        if out.returncode != 0:
            raise PostgresUnavailable(f"initdb failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
        opts = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
                "-c full_page_writes=off -c max_connections=200 -c shared_buffers=32MB"
                + "".join(f" -c {name}={value}" for name, value in (settings or {}).items()))
        out = run([str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", opts, "-w", "-t", "60", "start"])
        if out.returncode != 0:
            text = log.read_text(errors="replace") if log.exists() else ""
            raise PostgresUnavailable(f"pg_ctl start failed ({out.returncode}):\n{out.stdout}\n{out.stderr}\n{text}")
        url = f"postgresql+psycopg://{USER}@127.0.0.1:{port}/postgres"
        _wait(url, log)
        yield url
    finally:
        if (data / "postmaster.pid").exists():
            run([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(root, ignore_errors=True)


def _wait(url: str, log: Path) -> None:
    import psycopg

    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    deadline = time.time() + 60
    while True:
        try:
            with psycopg.connect(dsn, connect_timeout=3):
                return
        except psycopg.OperationalError as exc:
            if time.time() > deadline:
                raise PostgresUnavailable(f"PostgreSQL did not accept connections: {exc}\n"
                                          f"{log.read_text(errors='replace')}") from exc
            time.sleep(0.2)


def fresh_database(server_url: str, name: str) -> str:
    """Create an empty database ``name`` on the server; return its URL."""
    import psycopg

    dsn = server_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return server_url.rsplit("/", 1)[0] + f"/{name}"
