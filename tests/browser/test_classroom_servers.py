"""Several app servers behind Debian's nginx over one PostgreSQL, in real browsers.

Two ``streamlit run app.py`` processes share a throwaway PostgreSQL; nginx (``deploy/nginx.conf``, written
to a temp folder with free ports) sends each browser to one of them by its route cookie.  The teacher is
on server B, two students on server A and one on B: the teacher sees every student, the reveal reaches
every student; then server A is killed mid-session (SIGKILL, no shutdown): its students' pages reconnect
through nginx to B by themselves, keep their seats and answers, and go on answering; nothing is lost or
stored twice.
"""
from __future__ import annotations

import time

from classroom import db
from classroom.store import Store
from tests.browser.conftest import PHONE, PROJECTOR, page_problems, screenshot, wait_for_app
from tests.browser.test_classroom import (
    answer,
    join,
    private_link,
    start_class,
    wait_metric,
    wait_text,
    wait_value,
)
from tests.classroom.conftest import pg_server  # noqa: F401 - the session's PostgreSQL
from tests.classroom.postgres import fresh_database
from tests.classroom.servers import apps, nginx


def on(make_page, proxy, route: str, viewport):
    """A browser (a fresh context) whose route cookie sends it to one chosen app server."""
    pg = make_page(viewport=viewport, fresh=True)
    pg.context.add_cookies([{"name": "ndcglab_route", "value": route, "url": proxy}])
    return pg


def served_by(proxy, route: str, port: int, after: int = 0) -> bool:
    """Whether nginx has passed a request of this route to ``port`` (log lines from ``after`` on; a
    websocket is logged when it closes, the page's health checks and config requests at once)."""
    lines = proxy.log.read_text(errors="replace").splitlines()[after:]
    return any(f" {route} " in line and line.split(" ")[-3].endswith(f":{port}") for line in lines)


def wait_until(condition, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout:.0f} s: {condition.__doc__ or condition}")
        time.sleep(0.2)


def test_two_servers_one_class_and_one_server_killed(make_page, pg_server):  # noqa: F811 - the fixture
    url = fresh_database(pg_server, "two_servers")
    try:
        with apps(url, 2, env={"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"}) as (a, b), nginx([a.port, b.port]) as proxy:
            routes = proxy.routes([a.port, b.port])
            teacher = on(make_page, proxy, routes[b.port], PROJECTOR)
            code = start_class(teacher, proxy)
            assert served_by(proxy, routes[b.port], b.port)
            students = [on(make_page, proxy, routes[port], PHONE) for port in (a.port, a.port, b.port)]
            for i, (pg, name) in enumerate(zip(students, ("Ada", "Bo", "Cy")), start=1):
                join(pg, proxy, code, name)
                wait_metric(teacher, "Joined", str(i))  # students on A, the teacher on B: one class
            for pg in students:
                answer(pg, "DCG", "6.86", "DCG: right")
            wait_metric(teacher, "Answers", "3")
            teacher.get_by_role("button", name="Reveal the solution").click()
            for pg in students:  # B's reveal reaches A's students through the database
                pg.get_by_role("heading", name="Solution").wait_for(timeout=60_000)
            key = private_link(teacher).split("key=")[1]

            mark = len(proxy.log.read_text(errors="replace").splitlines())
            a.kill()  # mid-session, no shutdown
            for pg in students[:2]:  # their pages reconnect by themselves, through nginx, to B
                wait_until(lambda pg=pg: served_by(proxy, routes[a.port], b.port, after=mark))
                wait_text(pg, "You are ")
                wait_value(pg, "DCG", "6.86", timeout=90_000)
            answer(students[0], "IDCG", "8.38", "IDCG: right")
            answer(students[1], "IDCG", "8.48", "IDCG: wrong")
            answer(students[2], "IDCG", "8.38", "IDCG: right")
            wait_metric(teacher, "Answers", "6")
            # The next exercise reaches every student without a click of theirs, the moved ones too.
            teacher.get_by_role("button", name="Next exercise").click()
            teacher.get_by_role("button", name="Yes, start exercise 2").click()
            for pg in students:
                pg.get_by_text("Exercise 2:").first.wait_for(timeout=60_000)
            wait_metric(teacher, "Answers", "0")
            students[0].reload()  # a reload on the surviving server: the seat comes from the cookie
            wait_for_app(students[0])
            students[0].get_by_text("Exercise 2:").first.wait_for()
            answer(students[0], "DCG", "1", "DCG: wrong")
            wait_metric(teacher, "Answers", "1")
            for pg in (teacher, *students):
                assert page_problems(pg) == []
            screenshot(students[0], "classroom_after_failover")
        frame = Store(url).teacher(code, key).answers()
        assert sorted(frame["text"]) == sorted(["6.86"] * 3 + ["8.38", "8.48", "8.38", "1"])
        assert frame.groupby(["round", "student_id", "field"]).size().eq(1).all()  # nothing stored twice
    finally:
        db.dispose(url)
