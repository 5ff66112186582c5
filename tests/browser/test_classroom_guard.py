"""Hostile and unlucky use of the classroom in real browsers (issue 37), on real servers.

* A guessing script (Streamlit's protocol, a fresh session per code: tests/classroom/wire.py) and a hall
  of honest students share one address: the script is held, the hall is let in by the teacher with one
  click and joins at once after that; the server's log holds no traceback.
* The teacher's key behind the real nginx (deploy/nginx.py): never in nginx's access log (request lines,
  Referers), out of the address bar and the history once the browser keeps its cookie, used once; a
  browser that refuses cookies is warned.
* Two app processes behind nginx, one killed and restarted: pages moved to the live one stay there; the
  teacher's CSV downloads and the Run files page uploads without a reload.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

from classroom import db, throttle
from classroom.store import Client, Store
from classroom.tasks import example_task
from deploy.nginx import route_name
from tests.browser.conftest import PHONE, PROJECTOR, overflowing, page_problems, screenshot, wait_for_app
from tests.browser.test_classroom import private_link, settle, start_class, wait_metric, wait_text
from tests.classroom.servers import App, apps, nginx
from tests.classroom.wire import guess

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
WAITING = "so the code you typed was not checked"
# A browser that refuses cookies: document.cookie takes nothing (what "block all cookies" does to a page).
NO_COOKIES = """Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true, get() { return ''; }, set(v) { /* refused */ } });"""


def wait_until(condition, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout:.0f} s: {condition.__doc__ or condition}")
        time.sleep(0.2)


def tracebacks(app: App) -> list[str]:
    text = app.log.read_text(errors="replace")
    return [line for line in text.splitlines() if "Traceback" in line]


# ---------------------------------------------------------------------------------------------- the hall
def test_a_guessing_script_does_not_lock_the_hall_out(make_page, tmp_path):
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    app = App(url).start()
    try:
        store = Store(url)
        # The teacher made the class on another network (the class is not known at the hall's address).
        info, key = store.create(example_task("003-blog"), client=Client("staff-room", "203.0.113.1"))
        teacher = make_page(viewport=PROJECTOR, fresh=True)
        teacher.goto(f"{app.url}/class?code={info.code}#key={key}")
        teacher.get_by_text("Scan to join").wait_for(timeout=60_000)
        # The script, on the hall's address (every browser here connects from 127.0.0.1): 60 wrong codes.
        said = guess(app.url, [f"ZZZ{i:03d}" for i in range(60)])
        assert all("No class has this code" in " ".join(a) for a in said[:50]), said[:50]
        assert any(WAITING in " ".join(a) for a in said[51:]), said[51:]  # held (2 s, 4 s, ... while it goes on)
        # A script that keeps going for an hour is held for an hour (2 s doubling to the cap): as if it had.
        with db.write(store.engine) as conn:
            throttle.failed(conn, f"guess:a:{throttle.client_hash('address', 'localhost')}", free=0, base=3600,
                            cap=3600, window=3600, now=time.time())
        # held: the same answer for a wrong code and the right one (whose join then waits with the hall's)
        assert all(WAITING in " ".join(a) for a in guess(app.url, ["ZZZ100", info.code])), "held for every code"
        # Honest students type the right code: they are not refused, they wait (so does a wrong code).
        students = [make_page(viewport=PHONE, fresh=True) for _ in range(3)]
        for i, pg in enumerate(students):
            pg.goto(f"{app.url}/join?code={info.code}")
            wait_for_app(pg)
            pg.get_by_role("textbox", name="Nickname").fill(f"Student{i}")
            pg.get_by_role("button", name="Join").click()
            wait_text(pg, WAITING)
        wait_text(teacher, "4 waiting to join")  # the hall and the script's right code
        screenshot(students[0], "classroom_join_waiting")
        teacher.locator(".st-key-class_waiting").scroll_into_view_if_needed()
        screenshot(teacher, "classroom_teacher_waiting")
        teacher.get_by_role("button", name="Let them in (4)").click()
        for pg in students:  # each page joins by itself
            wait_text(pg, "You are Student")
            pg.get_by_role("textbox", name="DCG", exact=True).wait_for()
        wait_metric(teacher, "Joined", "4")
        late = make_page(viewport=PHONE, fresh=True)  # the hall's address is let in: at once
        late.goto(f"{app.url}/join?code={info.code}")
        wait_for_app(late)
        late.get_by_role("textbox", name="Nickname").fill("Late")
        late.get_by_role("button", name="Join").click()
        late.get_by_role("textbox", name="DCG", exact=True).wait_for(timeout=60_000)
        wait_metric(teacher, "Joined", "5")
        # The script still learns nothing: a code no class has, and the right code of another class.
        other, _ = store.create(example_task("003-blog"), client=Client("elsewhere", "203.0.113.2"))
        for alerts in guess(app.url, ["ZZZ999", other.code]):
            assert any(WAITING in x for x in alerts), alerts
        screenshot(teacher, "classroom_hall_let_in")
        for pg in (teacher, late, *students):
            assert page_problems(pg) == []
        assert tracebacks(app) == []
    finally:
        app.stop()
        db.dispose(url)


# ---------------------------------------------------------------------------------------------- the key
def test_the_teachers_key_stays_out_of_the_proxy_log_and_opens_once(make_page, browser, tmp_path):
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    with apps(url, 1, env={"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"}) as (a,), nginx([a.port]) as proxy:
        teacher = make_page(viewport=PROJECTOR, fresh=True)
        code = start_class(teacher, proxy)
        teacher.reload()  # the cookie keeps the dashboard
        teacher.get_by_text("Scan to join").wait_for()
        first = private_link(teacher)
        assert f"/class?code={code}#key=" in first
        key1 = first.split("#key=")[1]

        laptop = make_page(viewport=PROJECTOR, fresh=True)  # the teacher's other browser
        laptop.goto(first)
        laptop.get_by_text("Scan to join").wait_for(timeout=60_000)
        laptop.wait_for_function("() => !location.href.includes('key=')")  # out of the address bar and history
        laptop.reload()
        laptop.get_by_text("Scan to join").wait_for(timeout=60_000)

        stranger = make_page(viewport=PROJECTOR, fresh=True)  # the same link later: used once
        stranger.goto(first)
        stranger.get_by_text("This teacher link is not valid").wait_for(timeout=60_000)
        assert stranger.get_by_text("Scan to join").count() == 0

        teacher.get_by_role("button", name="Hide the link").click()
        settle(teacher)
        second = private_link(teacher)
        key2 = second.split("#key=")[1]
        context = browser.new_context(viewport=PROJECTOR)  # cookies refused
        context.add_init_script(NO_COOKIES)
        try:
            blocked = context.new_page()
            blocked.goto(second)
            blocked.get_by_text("Scan to join").wait_for(timeout=60_000)
            blocked.get_by_text("This browser refuses cookies").wait_for(timeout=60_000)
            screenshot(blocked, "classroom_cookies_refused")
            # Red team F12: the link was retired only when a browser confirmed its cookie, so after one that
            # refuses cookies one more browser opened the dashboard.  Used once, whatever the browser does.
            another = make_page(viewport=PROJECTOR, fresh=True)
            another.goto(second)
            another.get_by_text("This teacher link is not valid").wait_for(timeout=60_000)
            assert another.get_by_text("Scan to join").count() == 0
            blocked.get_by_role("button", name="Show the private teacher link").wait_for()  # the tab keeps it
            for pg in (teacher, laptop, stranger, blocked, another):
                assert page_problems(pg) == []
        finally:
            context.close()
        logs = proxy.combined.read_text(errors="replace") + proxy.log.read_text(errors="replace")
        assert logs.count("\n") > 50  # the pages' requests were logged ...
        for key in (key1, key2):
            assert key not in logs  # ... never the key: not in a request line, not in a Referer
        assert "key=" not in logs
        referers = re.findall(r'" \d{3} \d+ "([^"]*)"', proxy.combined.read_text(errors="replace"))
        assert referers and set(referers) == {"-"}  # Referrer-Policy: no-referrer


# ---------------------------------------------------------------------------------------------- failover
def test_pages_moved_by_a_failover_keep_uploading_and_downloading(make_page, tmp_path):
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    with apps(url, 2, env={"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"}) as (a, b), nginx([a.port, b.port]) as proxy:
        pinned = [{"name": "ndcglab_route", "value": route_name(a.port), "url": proxy}]
        teacher = make_page(viewport=PROJECTOR, fresh=True)
        teacher.context.add_cookies(pinned)
        code = start_class(teacher, proxy)
        files = make_page(viewport=PROJECTOR, fresh=True)
        files.context.add_cookies(pinned)
        files.goto(f"{proxy}/run_files?data=upload")
        wait_for_app(files)
        uploads = files.locator('[data-testid="stFileUploader"] input[type="file"]')
        uploads.nth(1).wait_for(state="attached")

        a.kill()  # both pages reconnect through nginx to B, and their route cookie moves with them
        for pg in (teacher, files):
            wait_until(lambda pg=pg: {c["value"] for c in pg.context.cookies() if c["name"] == "ndcglab_route"}
                       == {route_name(b.port)})
        wait_metric(teacher, "Joined", "0", timeout=90_000)
        back = App(url, port=a.port, env={"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1"}).start()  # A comes back
        try:
            # No reload.  The teacher's CSV (a file B made for this page) ...
            settle(teacher)
            with teacher.expect_download(timeout=60_000) as got:
                teacher.get_by_role("button", name="Download the results (CSV)").click()
            assert got.value.failure() is None
            assert Path(got.value.path()).read_text(encoding="utf-8").startswith('"round","student"')
            # ... and an upload to the session that lives on B.
            before = files.evaluate("() => window.__stRuns.requests")
            uploads.nth(0).set_input_files(str(SAMPLES / "qrels.txt"))
            files.wait_for_function("(n) => window.__stRuns.requests > n", arg=before, timeout=120_000)
            wait_for_app(files, 120_000)
            uploads.nth(1).set_input_files([str(p) for p in sorted(SAMPLES.glob("*.run"))])
            files.get_by_text("bm25.run").first.wait_for(timeout=120_000)
            assert files.locator('[data-testid="stFileUploaderFileError"]').count() == 0
            # Red team F8: the chips appeared but the page kept asking for files (the moved session's first
            # run got the uploaders' values before drawing them: no callback kept them).  Evaluated now.
            wait_for_app(files, 120_000)
            files.wait_for_function("() => !document.body.innerText.includes('Upload a qrels file and at least')",
                                    timeout=120_000)
            files.locator('[data-testid="stDataFrame"]').first.wait_for(state="attached", timeout=120_000)
            for pg in (teacher, files):
                assert page_problems(pg) == []
            assert code
        finally:
            back.stop()


# ---------------------------------------------------------------------------------------------- layout
WAITING_TEXT = {"zh": "没有检查你输入的课堂码", "ko": "입력한 코드를 확인하지 않았습니다"}
LET_IN = {"zh": "让他们进入（1）", "ko": "입장 허락 (1)"}


def test_the_new_panels_fit_in_chinese_and_korean(make_page, tmp_path):
    # The waiting panels (student and teacher), the link buttons and the cookie warning: nothing a user
    # reads is cut off at 1024×768 with the sidebar open or at 390 px.
    url = f"sqlite:///{tmp_path / 'classroom.sqlite3'}"
    app = App(url).start()
    try:
        store = Store(url)
        with db.write(store.engine) as conn:  # the loopback address (every browser here) held for an hour
            throttle.failed(conn, f"guess:a:{throttle.client_hash('address', 'localhost')}", free=0, base=3600,
                            cap=3600, window=3600, now=time.time())
        for lang in ("zh", "ko"):
            locale = {"zh": "zh-CN", "ko": "ko-KR"}[lang]
            info, key = store.create(example_task("003-blog"), client=Client(f"t-{lang}", "203.0.113.1"))
            student = make_page(viewport=PHONE, fresh=True, locale=locale)
            student.goto(f"{app.url}/join?code={info.code}&lang={lang}")
            wait_for_app(student)
            nickname = student.get_by_role("textbox").nth(1)
            nickname.fill("学生" if lang == "zh" else "학생")
            nickname.press("Enter")  # the join form: Enter in the nickname box joins (no label needed here)
            wait_text(student, WAITING_TEXT[lang])
            settle(student)
            assert overflowing(student) == [], (lang, overflowing(student))
            screenshot(student, f"classroom_join_waiting_{lang}")
            teacher = make_page(viewport=PROJECTOR, fresh=True, locale=locale)
            teacher.goto(f"{app.url}/class?code={info.code}&lang={lang}#key={key}")
            teacher.get_by_role("button", name=LET_IN[lang]).wait_for(timeout=60_000)
            for viewport in (PROJECTOR, PHONE):
                teacher.set_viewport_size(viewport)
                settle(teacher)
                assert overflowing(teacher) == [], (lang, viewport, overflowing(teacher))
            teacher.locator(".st-key-class_waiting").scroll_into_view_if_needed()
            screenshot(teacher, f"classroom_teacher_waiting_{lang}_phone")
            for pg in (student, teacher):
                assert page_problems(pg) == []
    finally:
        app.stop()
        db.dispose(url)
