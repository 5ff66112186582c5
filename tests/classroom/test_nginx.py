"""The sample nginx configuration (deploy/nginx.py, deploy/nginx.conf) behind the real nginx, at the HTTP
level (issue 37): no version, the security headers, /_stcore/metrics closed, route cookies it did not issue
ignored, and a browser moved to a live process by a failover stays there when the dead one comes back.

Two real app processes (``streamlit run app.py``) on one SQLite file; the browser journey of the same
failover (an upload and the teacher's CSV after the dead process is back) is in
tests/browser/test_classroom_guard.py.
"""
from __future__ import annotations

import collections
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from deploy.nginx import config, route_name
from tests.classroom.servers import App, apps, nginx

ROOT = Path(__file__).resolve().parents[2]


def get(url: str, cookie: str | None = None):
    """(status, headers, body) of a GET, errors included."""
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def served(proxy, n_before: int) -> list[int]:
    """The app ports that served the requests logged after line ``n_before`` (the last address tried)."""
    lines = proxy.log.read_text(errors="replace").splitlines()[n_before:]
    return [int(line.split(" ")[-3].rsplit(":", 1)[1]) for line in lines if ":" in line.split(" ")[-3]]


def logged(proxy) -> int:
    return len(proxy.log.read_text(errors="replace").splitlines()) if proxy.log.exists() else 0


def route_cookie(headers) -> str:
    values = [v for v in headers.get_all("Set-Cookie") or [] if v.startswith("ndcglab_route=")]
    assert len(values) == 1, values
    return values[0].split(";")[0].split("=", 1)[1]


def test_the_sample_configuration_is_the_generators_output():
    assert (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8") == config([8501, 8502, 8503])
    with pytest.raises(ValueError, match="ports must be distinct"):
        config([8501, 8501])
    with pytest.raises(ValueError, match="host and listen"):
        config([8501], host="x; include /etc/passwd")


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """Two app processes on one SQLite file behind the sample nginx: (proxy, app A, app B)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('nginx') / 'classroom.sqlite3'}"
    with apps(url, 2, env={"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"}) as (a, b), nginx([a.port, b.port]) as proxy:
        yield proxy, a, b


def test_no_version_security_headers_and_no_metrics(two):
    proxy, a, _ = two
    status, headers, body = get(f"{proxy}/")
    assert status == 200 and b"<html" in body.lower()
    assert headers["Server"] == "nginx"  # server_tokens off: no version
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    assert headers["Content-Security-Policy"] == "frame-ancestors 'self'"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert route_cookie(headers) in {route_name(p) for p in (a.port, two[2].port)}
    assert get(f"{a.url}/_stcore/metrics")[0] == 200  # the app serves it ...
    status, headers, body = get(f"{proxy}/_stcore/metrics")
    assert status == 404 and b"nginx/" not in body  # ... nginx does not, and its error page has no version
    status, headers, _ = get(f"{proxy}/_stcore/metrics?x=1")
    assert status == 404


def test_route_cookies_it_did_not_issue_are_ignored(two):
    # Issue 37: any route-cookie value pinned its clients to one process (40 sessions on one server).
    proxy, a, b = two
    for forged in ("evil", "route0", "s1", "s" + str(a.port) + "x", "ndcg_lab_s" + str(a.port)):
        mark = logged(proxy)
        answers = [route_cookie(get(f"{proxy}/_stcore/health", f"ndcglab_route={forged}")[1]) for _ in range(40)]
        ports = collections.Counter(served(proxy, mark))
        assert set(ports) == {a.port, b.port}, (forged, ports)  # spread like new browsers
        assert set(answers) == {route_name(a.port), route_name(b.port)}  # and given a name of nginx's own
    mark = logged(proxy)
    for _ in range(10):  # an issued name keeps its browser on its process
        get(f"{proxy}/_stcore/health", f"ndcglab_route={route_name(b.port)}")
    assert set(served(proxy, mark)) == {b.port}


def test_a_browser_moved_by_a_failover_stays_when_the_dead_process_returns(tmp_path):
    # Issue 37: after a killed process restarted, nginx's hash sent the browsers that had moved away back to
    # it (their sessions were elsewhere): uploads failed with HTTP 400, the teacher's CSV download was
    # cancelled.  The route cookie now follows the failover.
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    with apps(url, 2) as (a, b), nginx([a.port, b.port]) as proxy:
        cookie = f"ndcglab_route={route_name(a.port)}"
        status, headers, _ = get(f"{proxy}/_stcore/health", cookie)
        assert status == 200 and route_cookie(headers) == route_name(a.port)
        a.kill()
        status, headers, _ = get(f"{proxy}/_stcore/health", cookie)
        assert status == 200 and route_cookie(headers) == route_name(b.port)  # moved, and told so
        cookie = f"ndcglab_route={route_cookie(headers)}"
        back = App(url, port=a.port).start()  # the dead process comes back on its port
        try:
            mark = logged(proxy)
            for _ in range(20):
                status, headers, _ = get(f"{proxy}/_stcore/health", cookie)
                assert status == 200 and route_cookie(headers) == route_name(b.port)
            assert set(served(proxy, mark)) == {b.port}
            mark = logged(proxy)
            for _ in range(10):  # new browsers reach the returned process again
                get(f"{proxy}/_stcore/health")
            assert a.port in served(proxy, mark)
        finally:
            back.stop()
