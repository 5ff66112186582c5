"""The classroom on a slow server: no click and no answer is lost while a run is still going.

The module's app server runs with ``NDCG_LAB_CLASS_SLOW`` (ui.pages.classroom.views.SLOW_ENV): every full run of
the teacher's page sleeps after drawing the dashboard (its cookie component, drawn near the top, answers
with a run of its own before the run has rewritten the address), and every full run of the student's page
sleeps before drawing the answer boxes.  These are the two races the lead's loaded test run hit:

* "no dashboard after Start": the cookie component's run carried the setup's address (the browser had not
  yet taken the page's rewrite); read as a newly opened link, it put the setup back for good;
* an answer typed as soon as a page had reconnected to another (here: a restarted) server was dropped: the
  new session's first run was interrupted before it drew the answer boxes, and the next run wrote the stored
  answer over the value the browser sent.

Nothing waits on time: every wait is for the page to show something (tests/browser/conftest.py).
"""
from __future__ import annotations

import pytest

from classroom import db
from classroom.store import Store
from classroom.tasks import FIELDS, example_task
from tests.browser.conftest import PHONE, PROJECTOR, page_problems
from tests.browser.test_classroom import answer, join, private_link, start_class, text_of, wait_metric, wait_value
from tests.classroom.servers import App
from ui.pages.classroom import push
from ui.pages.classroom.views import SLOW_ENV

SLOW_SECONDS = "2"


@pytest.fixture
def slow_app(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    app = App(db_url, env={SLOW_ENV: SLOW_SECONDS}).start()
    try:
        yield app
    finally:
        app.stop()
        db.dispose(db_url)


def test_start_shows_the_dashboard_and_a_reconnected_page_keeps_the_answer_typed_first(make_page, slow_app):
    teacher = make_page(viewport=PROJECTOR, fresh=True)
    code = start_class(teacher, slow_app.url)  # the dashboard, then the key leaves the address bar
    assert "key=" not in teacher.url and "Start the class" not in text_of(teacher)
    key = private_link(teacher).split("key=")[1]
    student = make_page(viewport=PHONE, fresh=True)
    join(student, slow_app.url, code, "Ada")
    answer(student, "DCG", "6.86", "DCG: right")
    wait_metric(teacher, "Answers", "1")

    slow_app.kill()  # no shutdown; the same port and database again: both pages reconnect by themselves
    slow_app.start()
    # No reload: typed as soon as the box takes input again (Streamlit disables widgets while disconnected),
    # i.e. while the new session's first run is still sleeping before it draws the boxes.
    answer(student, "IDCG", "8.38", "IDCG: right")
    wait_value(student, "IDCG", "8.38")
    wait_value(student, "DCG", "6.86")
    wait_metric(teacher, "Answers", "2", timeout=90_000)
    for pg in (teacher, student):
        assert page_problems(pg) == []
    frame = Store(slow_app.db_url).teacher(code, key).answers()
    assert sorted(frame["text"]) == ["6.86", "8.38"] and frame["answer_id"].is_unique


def test_an_answer_whose_rerun_never_reached_the_server_is_saved_by_the_next_timed_check(tmp_path, make_page):
    # CI stop 43: a page back on a just restarted server sent a typed answer's rerun before that process's
    # first run had installed ui.reruns.keep_fragment_reruns; Streamlit dropped it ("The fragment with id
    # ... does not exist anymore"), the box kept "8.38", nothing was saved and nothing said so.  Made
    # certain here: the one message that carries the answer is dropped on its way to the server.  The
    # student does nothing more; the page's timed change check (every STUDENT_REFRESH s without pushes,
    # push.SAFETY s with them: the same fragment) carries every box's text and saves it.
    db_url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    app = App(db_url, env={push.SWITCH: "0"}).start()
    try:
        store = Store(db_url)
        info, key = store.create(example_task("003-blog"), fields=FIELDS)
        student = make_page(viewport=PHONE, fresh=True)
        dropped: list = []

        def relay(ws) -> None:
            upstream = ws.connect_to_server()

            def to_server(message) -> None:
                raw = message if isinstance(message, bytes) else message.encode()
                if not dropped and b"8.38" in raw:
                    dropped.append(raw)  # the answer's own rerun: lost
                    return
                upstream.send(message)

            ws.on_message(to_server)

        student.route_web_socket("**/_stcore/stream", relay)
        join(student, app.url, info.code, "Ada")
        answer(student, "IDCG", "8.38", "IDCG: right")
        assert dropped, "the answer's message was not the one dropped"
        frame = Store(db_url).teacher(info.code, key).answers()
        assert list(frame["text"]) == ["8.38"] and frame["answer_id"].is_unique
        assert page_problems(student) == []
        assert "Traceback" not in app.log.read_text(errors="replace")
    finally:
        app.stop()
        db.dispose(db_url)
