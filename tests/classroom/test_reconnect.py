"""A student's page that comes back on a new server session (its server died, nginx sent it to another one):
what it sends counts for the exercise its boxes showed, never for another.

The page is a protocol-level browser tab (tests/classroom/protocol.py) on a real app server: "coming back" is
a new session sent the page's last address and its boxes' values, as Streamlit's frontend does when its
websocket reconnects.  Exercise: document 003's worked example (DCG 6.8611, IDCG 8.3841; tests/classroom/
test_store.py).
"""
from __future__ import annotations

import asyncio
import concurrent.futures

from classroom import db
from classroom.store import Store
from classroom.tasks import FIELDS, example_task, practice_task
from tests.classroom.protocol import Client
from tests.classroom.servers import apps


def comes_back(page: Client, name: str) -> Client:
    """A new session for ``page``: its address and its boxes' values, nothing else of the old session."""
    back = Client(page.url.replace("ws://", "http://").rsplit("/_stcore", 1)[0], "join", {}, name)
    back.query, back.page_hash, back.values = page.query, page.page_hash, dict(page.values)
    return back


async def until_the_server_shows(page: Client, number: int) -> None:
    """Wait until the server draws exercise ``number`` (it hears of a change made by another process within
    a moment: SQLite's data_version, polled): a fresh session of ``page``'s seat, sending no values, asks."""
    for i in range(600):
        probe = Client(page.url.replace("ws://", "http://").rsplit("/_stcore", 1)[0], "join", {}, f"probe{i}")
        probe.query, probe.page_hash = page.query, page.page_hash
        await probe.open()
        await probe.run()
        await probe.close()
        if f"round={number}" in probe.query:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the server never drew exercise {number}")


def test_answers_a_page_sends_when_it_comes_back_count_for_the_exercise_it_showed(tmp_path):
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    store = Store(url)
    info, token = store.create(example_task("003-blog"), fields=FIELDS)
    teacher = store.teacher(info.code, token)

    async def lesson(base: str) -> None:
        ada = Client(base, "join", {"code": info.code}, "ada")
        await ada.open()
        await ada.run()
        ada.set_text("Nickname", "Ada")
        await ada.run(trigger=ada.buttons["Join"])
        ada.set_text("DCG", "6.86")
        await ada.run()
        assert "round=1" in ada.query  # the page says which exercise its boxes show
        # Ada presses Enter in IDCG as her server dies: the message never arrives.  Her page comes back on a
        # new session with everything its boxes hold: IDCG is saved, DCG (saved before) is not saved again.
        ada.set_text("IDCG", "8.38")
        await ada.close()
        back = comes_back(ada, "back")
        await back.open()
        await back.run()
        await back.close()
        # Again, but the teacher has started the next exercise before the page came back: what its boxes
        # hold belongs to exercise 1 (closed), not to exercise 2.
        teacher.next_round(practice_task(5), after=1)
        await until_the_server_shows(back, 2)
        back.set_text("NDCG", "0.82")
        again = comes_back(back, "again")
        await again.open()
        await again.run()
        assert "round=2" in again.query, (again.trail, again.alerts, again.errors, again.inputs)
        # In exercise 2 the same boxes take exercise 2's answers.
        again.set_text("DCG", "1")
        await again.run()
        await again.close()
        assert not [e for c in (ada, back, again) for e in c.errors if "closed by the server" not in e]

    try:
        with apps(url, 1) as (app,), concurrent.futures.ThreadPoolExecutor(1) as pool:
            # a thread of its own: a browser test earlier in this worker may leave Playwright's loop running
            pool.submit(lambda: asyncio.run(lesson(app.url))).result()
        frame = store.teacher(info.code, token).answers()
        rows = sorted(zip(frame["round"], frame["field"], frame["text"]))
        assert rows == [(1, "dcg", "6.86"), (1, "idcg", "8.38"), (2, "dcg", "1")]
    finally:
        db.dispose(url)


def test_an_answer_a_page_that_came_back_sends_from_its_panel_is_saved(tmp_path):
    # The answer boxes are a fragment: a submit reruns the panel only.  A page back on a new session (its
    # server died) still shows the old server's page, and the visitor's first answer there is a rerun of
    # the panel's fragment — which the new session has never run.  Streamlit drops such a rerun (and the
    # answer in it); the app's servers run the whole page instead (ui.reruns.keep_fragment_reruns), so
    # the answer is saved, and the panel is then the same fragment there (ids are the same on any server).
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    store = Store(url)
    info, token = store.create(example_task("003-blog"), fields=FIELDS)

    async def lesson(base: str) -> None:
        ada = Client(base, "join", {"code": info.code}, "ada")
        await ada.open()
        await ada.run()
        ada.set_text("Nickname", "Ada")
        await ada.run(trigger=ada.buttons["Join"])
        panel = ada.fragment_of["DCG"]
        assert panel and ada.fragment_of["IDCG"] == panel  # every box in the panel's fragment
        ada.set_text("DCG", "6.86")
        await ada.run(fragment_id=panel)  # saved by a rerun of the panel alone
        ada.set_text("IDCG", "8.38")
        await ada.close()
        back = comes_back(ada, "back")
        await back.open()
        await back.run(fragment_id=panel, patience=120, tries=1)  # dropped: no end of a run, ever
        assert back.fragment_of["IDCG"] == panel, (back.trail, back.alerts)
        back.set_text("NDCG", "0.82")
        await back.run(fragment_id=panel)  # on the new session, a rerun of the panel alone again
        await back.close()
        assert not [e for c in (ada, back) for e in c.errors if "closed by the server" not in e]

    try:
        with apps(url, 1) as (app,), concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(lambda: asyncio.run(lesson(app.url))).result()
        frame = store.teacher(info.code, token).answers()
        rows = sorted(zip(frame["round"], frame["field"], frame["text"]))
        assert rows == [(1, "dcg", "6.86"), (1, "idcg", "8.38"), (1, "ndcg", "0.82")]
    finally:
        db.dispose(url)
