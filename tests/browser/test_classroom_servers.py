"""Several app servers behind Debian's nginx over one PostgreSQL, in real browsers.

Two ``streamlit run app.py`` processes share a throwaway PostgreSQL; nginx (``deploy/nginx.conf``, written
to a temp folder with free ports) sends each browser to one of them by its route cookie.  The teacher is
on server B, two students on server A and one on B: the teacher sees every student, the reveal reaches
every student; then answers are typed on A just before it dies — one saved there, one sent while A no
longer answers (frozen, then killed: SIGKILL, no shutdown) — and A's students' pages reconnect through
nginx to B by themselves, keep their seats, show both answers (the one A never saved is saved by B from
what the browser sends again) and go on answering; nothing is lost or stored twice, and no page ever
shows two answer boxes for one step.
"""
from __future__ import annotations

import os
import signal
import time

from classroom import db
from classroom.store import Store
from tests.browser.conftest import PHONE, PROJECTOR, page_problems, screenshot, settled, wait_for_app
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

#: Counts, on every frame, the text boxes of each label on the page (stale and retained ones included, the boxes
#: of a folded expander not: what a student sees) and keeps the highest count of any label, with what the boxes
#: were then: one answer panel at a time means 1.
BOXES_JS = """
(() => {
  window.__mostBoxes = 0;
  const count = () => {
    // what a student sees: a folded expander's boxes (the seat-code form's "Class code") are not on screen
    const boxes = [...document.querySelectorAll('[data-testid="stTextInput"]')].filter(b => b.checkVisibility());
    const seen = {};
    for (const box of boxes) {
      const label = box.querySelector('label')?.innerText.trim() || '';
      seen[label] = (seen[label] || 0) + 1;
      if (seen[label] > window.__mostBoxes) {
        window.__mostBoxes = seen[label];
        const key = (b) => (b.closest('[class*="st-key-"]')?.className.match(/st-key-\\S+/) || ['-'])[0];
        window.__twice = boxes.map(b => [key(b), b.closest('[data-stale]')?.getAttribute('data-stale'),
          b.closest('[data-retained]') ? 'retained' : ''].join(':')).join(' ; ') + ' | ' +
          [...document.querySelectorAll('h3')].map(h => h.innerText).join(' / ');
      }
    }
    requestAnimationFrame(count);
  };
  requestAnimationFrame(count);
})();
"""


def on(make_page, proxy, route: str, viewport):
    """A browser (a fresh context) whose route cookie sends it to one chosen app server; it counts the
    answer boxes of each step on every frame (:data:`BOXES_JS`)."""
    pg = make_page(viewport=viewport, fresh=True)
    pg.context.add_cookies([{"name": "ndcglab_route", "value": route, "url": proxy}])
    pg.context.add_init_script(BOXES_JS)
    return pg


def most_boxes(pg) -> tuple[int, str]:
    """The most text boxes with one label the page has shown at once since it was loaded, and that label."""
    return pg.evaluate("() => [window.__mostBoxes || 0, window.__twice || '']")


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

            # Answers typed on A just before it dies: Ada's is saved there (her feedback shows); Bo presses
            # Enter while A no longer answers (frozen: the message is sent and never read), then A is killed.
            answer(students[0], "IDCG", "8.38", "IDCG: right")
            mark = len(proxy.log.read_text(errors="replace").splitlines())
            os.kill(a.proc.pid, signal.SIGSTOP)
            sent = students[1].evaluate("() => window.__stRuns.requests")
            box = students[1].get_by_role("textbox", name="IDCG", exact=True)
            box.fill("8.48")
            box.press("Enter")
            # the page has sent its rerun with the answer (conftest's tracker counts what leaves the page)
            students[1].wait_for_function("(n) => window.__stRuns.requests > n", arg=sent)
            a.kill()  # mid-session, no shutdown
            for pg, idcg, mark_text in ((students[0], "8.38", "IDCG: right"), (students[1], "8.48", "IDCG: wrong")):
                # their pages reconnect by themselves, through nginx, to B
                wait_until(lambda: served_by(proxy, routes[a.port], b.port, after=mark))
                wait_text(pg, "You are ")
                wait_value(pg, "DCG", "6.86", timeout=90_000)
                wait_value(pg, "IDCG", idcg, timeout=90_000)
                wait_text(pg, mark_text, timeout=90_000)  # checked and saved: the feedback comes from the store
                settled(pg)
            wait_metric(teacher, "Answers", "5")  # B counts Bo's answer, which A never read
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
            for pg in students:  # never two answer panels at once, through the failover and the next exercise
                assert most_boxes(pg)[0] == 1, most_boxes(pg)
            screenshot(students[0], "classroom_after_failover")
        frame = Store(url).teacher(code, key).answers()
        assert sorted(frame["text"]) == sorted(["6.86"] * 3 + ["8.38", "8.48", "8.38", "1"])
        assert frame.groupby(["round", "student_id", "field"]).size().eq(1).all()  # nothing stored twice
    finally:
        db.dispose(url)
