"""Classroom in a real browser: one teacher (projector) and three students (phones), each in their own
browser context; the dashboard refreshes itself; reveal and next reach the students; and a server killed
mid-session and restarted on the same database loses no committed answer.

Exercise: document 003's worked example, DCG 6.8611, IDCG 8.3841, NDCG 0.8184 (tests/classroom/test_store.py).
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from classroom import db
from classroom.store import Store
from tests.browser.conftest import PHONE, PROJECTOR, overflowing, page_problems, screenshot, settled, wait_for_app

ROOT = Path(__file__).resolve().parents[2]
SETUP = "class?source=example&example=003-blog&steps=dcg,idcg,ndcg"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db_url: str) -> subprocess.Popen:
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", NDCG_LAB_DB_URL=db_url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    deadline = time.time() + 90
    while True:
        if proc.poll() is not None:
            pytest.fail(f"streamlit exited early ({proc.returncode}):\n{proc.stdout.read().decode(errors='replace')}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            if time.time() > deadline:
                pytest.fail("streamlit did not become healthy within 90 s")
            time.sleep(0.3)


def kill(proc: subprocess.Popen) -> None:
    """SIGKILL: no shutdown hook runs, as when a host stops a container."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


@contextmanager
def server(db_url: str):
    port = free_port()
    proc = start_server(port, db_url)
    try:
        yield f"http://127.0.0.1:{port}", port, proc
    finally:
        kill(proc)


@pytest.fixture
def db_file(tmp_path):
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    yield url
    db.dispose(url)


def full_height(pg) -> None:
    """Grow the viewport to the page's height (Streamlit scrolls inside stMain) for a whole screenshot."""
    height = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    pg.set_viewport_size({"width": pg.viewport_size["width"], "height": int(min(height + 40, 5000))})
    settled(pg)


def settle(pg, timeout: float = 30_000) -> None:
    settled(pg, timeout)  # every rerun the page asked for has finished and been drawn


def metric(pg, label: str) -> str:
    box = pg.locator('[data-testid="stMetric"]').filter(has=pg.get_by_text(label, exact=True)).first
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def wait_metric(pg, label: str, value: str, timeout: float = 60_000) -> float:
    """Wait until the metric shows ``value`` without any action on the page; return the seconds waited."""
    started = time.time()
    pg.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')].some(m =>
             m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label &&
             m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === value)""",
        arg=[label, value], timeout=timeout)
    return time.time() - started


def start_class(pg, url: str) -> tuple[str, str]:
    pg.goto(f"{url}/{SETUP}")
    wait_for_app(pg)
    pg.get_by_role("button", name="Start the class").click()
    pg.get_by_text("Scan to join").wait_for()
    settle(pg)
    q = parse_qs(urlsplit(pg.url).query)
    return q["code"][0], q["key"][0]


def join(pg, url: str, code: str, nickname: str) -> None:
    pg.goto(f"{url}/join?code={code}")
    wait_for_app(pg)
    pg.get_by_role("textbox", name="Nickname").fill(nickname)
    pg.get_by_role("button", name="Join").click()
    pg.get_by_role("textbox", name="DCG", exact=True).wait_for()
    settle(pg)


def answer(pg, label: str, text: str) -> None:
    box = pg.get_by_role("textbox", name=label, exact=True)
    box.fill(text)
    box.press("Enter")
    settle(pg)


def test_one_teacher_three_students(make_page, db_file):
    with server(db_file) as (url, _, _):
        teacher = make_page(viewport=PROJECTOR)
        code, key = start_class(teacher, url)
        assert len(code) == 6 and len(key) >= 40
        assert teacher.locator('[data-testid="stImage"] img').count() >= 1  # the QR code
        students = [make_page(viewport=PHONE) for _ in range(3)]
        for i, (pg, name) in enumerate(zip(students, ["Ada", "Bo <b>x</b>", "李雷"])):
            join(pg, url, code, name)
            wait_metric(teacher, "Joined", str(i + 1))  # the dashboard refreshes by itself
        ada, bo, li = students
        answer(ada, "DCG", "6.86")
        answer(ada, "IDCG", "8.38")
        answer(ada, "NDCG", "0.82")
        ada.get_by_text("All steps right. Well done!").wait_for()
        answer(bo, "DCG", "6.8")  # a named mistake
        bo.get_by_text("First wrong step: DCG").wait_for()
        answer(li, "DCG", "6.86")
        wait_metric(teacher, "Answers", "5")
        assert metric(teacher, "Answered") == "3"
        teacher.get_by_text("Mistakes the class makes").wait_for()
        assert teacher.get_by_text("Student 2").count() >= 1 and teacher.get_by_text("Bo <b>x</b>").count() == 0
        teacher.wait_for_selector('[data-testid="stVegaLiteChart"]')
        # a student sees only their own answers
        assert bo.get_by_text("6.86").count() == 0 or bo.get_by_text("8.38").count() == 0
        assert ada.get_by_text("6.8", exact=True).count() == 0

        teacher.get_by_role("button", name="Reveal the solution").click()
        settle(teacher)
        for pg in students:  # no reload: the student's fragment notices within a few seconds
            pg.get_by_role("heading", name="Solution").wait_for(timeout=60_000)
        teacher.get_by_role("button", name="Next exercise").click()
        settle(teacher)
        for pg in students:
            pg.get_by_text("Exercise 2:").first.wait_for(timeout=60_000)
        answer(li, "DCG", "1")
        wait_metric(teacher, "Answers", "1")

        teacher.get_by_text("Show nicknames", exact=True).click()
        settle(teacher)
        # the grid (a canvas) keeps its cells as text for screen readers: the name as typed, not as HTML
        teacher.get_by_text("Bo <b>x</b>").first.wait_for(state="attached")
        for pg in [teacher, *students]:
            assert page_problems(pg) == []
        full_height(teacher)
        screenshot(teacher, "classroom_teacher")
        full_height(li)
        screenshot(li, "classroom_student")
        assert overflowing(teacher) == [], overflowing(teacher)
        assert overflowing(li) == [], overflowing(li)
    frame = Store(db_file).teacher(code, key).answers()
    assert len(frame) == 6 and frame["answer_id"].is_unique


def test_a_killed_server_loses_no_committed_answer(make_page, db_file):
    port = free_port()
    proc = start_server(port, db_file)
    url = f"http://127.0.0.1:{port}"
    try:
        teacher = make_page(viewport=PROJECTOR)
        code, key = start_class(teacher, url)
        student = make_page(viewport=PHONE)
        join(student, url, code, "Ada")
        answer(student, "DCG", "6.86")
        answer(student, "IDCG", "8.37")
        wait_metric(teacher, "Answers", "2")
        kill(proc)  # mid-session, no shutdown
        proc = start_server(port, db_file)
        # Both pages reconnect by themselves and read everything back from the database.
        wait_metric(teacher, "Answers", "2", timeout=60_000)
        student.reload()
        wait_for_app(student)
        assert student.get_by_role("textbox", name="DCG", exact=True).input_value() == "6.86"
        assert student.get_by_role("textbox", name="IDCG", exact=True).input_value() == "8.37"
        answer(student, "NDCG", "0.82")
        wait_metric(teacher, "Answers", "3")
    finally:
        kill(proc)
    frame = Store(db_file).teacher(code, key).answers()
    assert frame["text"].tolist() == ["6.86", "8.37", "0.82"]
