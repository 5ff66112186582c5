"""Real app servers for classroom tests and benchmarks: ``streamlit run app.py`` processes on free loopback
ports, and Debian's nginx in front of several of them with the sample configuration (``deploy/nginx.py``,
whose output for three processes is ``deploy/nginx.conf``: sticky sessions by a route cookie nginx sets
itself), written to a temp folder.

Nothing here skips: a missing nginx fails with a message saying how to install it.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from deploy.nginx import config as deploy_config
from deploy.nginx import route_name

ROOT = Path(__file__).resolve().parents[2]
NGINX = os.environ.get("NGINX_PATH", "/usr/sbin/nginx")


class ServerFailed(RuntimeError):
    """A server did not start (the message holds its output)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen | None = None, timeout: float = 90, log: Path | None = None) -> None:
    deadline = time.time() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            text = log.read_text(errors="replace") if log and log.exists() else ""
            raise ServerFailed(f"exited early ({proc.returncode}):\n{text[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            if time.time() > deadline:
                text = log.read_text(errors="replace") if log and log.exists() else ""
                raise ServerFailed(f"{url} did not become healthy within {timeout:.0f} s\n{text[-4000:]}") from None
            time.sleep(0.3)


class App:
    """One ``streamlit run app.py`` process (its own process group, so a kill takes its children too)."""

    def __init__(self, db_url: str, *, port: int | None = None, env: dict | None = None, log_dir: Path | None = None,
                 root: Path | None = None):
        self.db_url = db_url
        self.root = Path(root or ROOT)  # the build that runs (benchmarks: another commit's tree, side by side)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.extra = dict(env or {})
        self.log = Path(log_dir or tempfile.mkdtemp(prefix="ndcg-lab-app-")) / f"streamlit-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> App:
        env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", NDCG_LAB_DB_URL=self.db_url, **self.extra)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(self.root / "app.py"), "--server.port", str(self.port),
                 "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"],
                cwd=self.root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        wait_healthy(self.url, self.proc, log=self.log)
        return self

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown hook runs, as when a host dies."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def apps(db_url: str, n: int = 1, *, env: dict | None = None) -> Iterator[list[App]]:
    """``n`` app servers on one database (started one after the other, stopped at the end)."""
    started: list[App] = []
    try:
        for _ in range(n):
            started.append(App(db_url, env=env).start())
        yield started
    finally:
        for app in started:
            app.stop()


@contextmanager
def sqlite_app(folder: Path) -> Iterator[tuple[str, str, Path]]:
    """One app server on a new SQLite database in ``folder``: (its URL, the database URL, its log)."""
    from classroom import db

    url = f"sqlite:///{folder / 'classroom.sqlite3'}"
    app = App(url).start()
    try:
        yield app.url, url, app.log
    finally:
        app.stop()
        db.dispose(url)


def nginx_config(upstreams: Sequence[int], port: int, root: Path) -> str:
    """The sample configuration (:func:`deploy.nginx.config`, what ``deploy/nginx.conf`` holds) for
    ``upstreams`` (app ports) listening on ``port``, every path under ``root``; two access logs: ``access.log``
    (``upstream route-cookie uri`` per line) and ``combined.log`` (nginx's standard format: the request line
    and the Referer, what a proxy usually logs)."""
    text = deploy_config(upstreams, listen=f"127.0.0.1:{port}")
    head = (f"daemon off;\nworker_processes 1;\npid {root}/nginx.pid;\nerror_log {root}/error.log warn;\n"
            + ("user root;\n" if os.geteuid() == 0 else ""))
    temp = "".join(f"    {name}_temp_path {root}/{name};\n" for name in
                   ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    log = (f"    log_format route '$upstream_addr $cookie_ndcglab_route $request_uri';\n"
           f"    access_log {root}/access.log route;\n"
           f"    access_log {root}/combined.log combined;\n")
    text = text.replace("http {", "http {\n" + temp + log, 1)
    return head + text


class Proxy(str):
    """nginx's base URL, with where its access logs are (``log``: ``upstream route uri`` per line;
    ``combined``: nginx's standard format)."""

    log: Path
    combined: Path

    def routes(self, ports: Sequence[int]) -> dict[int, str]:
        """The route cookie value that sends a browser to each app port (checked with a health request each)."""
        found: dict[int, str] = {}
        for port in ports:
            value = route_name(port)
            req = urllib.request.Request(f"{self}/_stcore/health", headers={"Cookie": f"ndcglab_route={value}"})
            with urllib.request.urlopen(req, timeout=10):
                pass
            # nginx writes the log line once the answer is sent: it may come a moment after the answer
            deadline = time.monotonic() + 30
            while not (lines := [line for line in self.log.read_text(errors="replace").splitlines()
                                 if f" {value} " in line]) and time.monotonic() < deadline:
                time.sleep(0.05)
            if not lines:
                raise ServerFailed(f"nginx logged no request with the route cookie {value}")
            last = lines[-1]
            if not last.split(" ")[-3].endswith(f":{port}"):
                raise ServerFailed(f"the route cookie {value} did not reach port {port}: {last}")
            found[port] = value
        return found


@contextmanager
def nginx(upstreams: Sequence[int]) -> Iterator[Proxy]:
    """Debian's nginx in front of the app ports ``upstreams``; yields its base URL (a :class:`Proxy`)."""
    if not Path(NGINX).exists():
        raise ServerFailed(f"{NGINX} not found: install Debian's nginx (apt-get install -y nginx; scripts/test.sh "
                           "does it) or set NGINX_PATH")
    root = Path(tempfile.mkdtemp(prefix="ndcg-lab-nginx-"))
    port = free_port()
    conf = root / "nginx.conf"
    conf.write_text(nginx_config(upstreams, port, root), encoding="utf-8")
    proc = subprocess.Popen([NGINX, "-p", str(root), "-c", str(conf)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    url = Proxy(f"http://127.0.0.1:{port}")
    url.log = root / "access.log"
    url.combined = root / "combined.log"
    try:
        try:
            wait_healthy(url, proc, timeout=60, log=root / "error.log")
        except ServerFailed as exc:
            out = proc.stdout.read().decode(errors="replace") if proc.poll() is not None and proc.stdout else ""
            raise ServerFailed(f"nginx: {exc}\n{out}") from None
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        shutil.rmtree(root, ignore_errors=True)
