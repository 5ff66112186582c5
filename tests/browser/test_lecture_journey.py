"""A lecturer's hour in Debian's Chromium (issue 36): a ranking typed on the Playground, Present opened from the
sidebar, every step walked with the keyboard at 1024×768 with the sidebar open and on a 390 px phone, settings
switched and lists of other lengths, junk and blanks typed in between; then the live exercise, joined and
answered with the keyboard only (Enter in the nickname box joins, Enter in an answer box sends it).

Every step is measured in the page: no error box, no formula or table cut off or scrolled sideways (every
``.katex-display`` and table: scrollWidth against clientWidth, ``WHOLE_JS``), no text a user reads clipped or off
the right edge (``OVERFLOW_JS``), and the server's log holds no traceback.  Expected numbers come from metrics/.
Screenshots go to test-artifacts/screenshots (``lecture_*``).
"""
from __future__ import annotations

import re

import pytest

from metrics.ndcg import ndcg
from tests.browser.conftest import (
    PHONE,
    PROJECTOR,
    not_whole,
    overflowing,
    page_problems,
    screenshot,
    settled,
    streamlit_server,
    wait_for_app,
)
from tests.browser.test_monkey import ERROR_BOX_JS, ServerLog, open_list
from tests.browser.test_present import big_number, step_in_url, title, wait_keys, wait_step
from ui.numbers import show_trimmed
from ui.pages.present.link import lecture_from_values
from ui.pages.present.slides import steps


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A server of this module's own whose log is read: (base URL, :class:`ServerLog`)."""
    log = tmp_path_factory.mktemp("lecture") / "server.log"
    with streamlit_server(log=log) as url:
        yield url, ServerLog(log)


@pytest.fixture
def tab(browser):
    """A brand-new browser per call (cookies matter in the classroom): ``tab(viewport)``."""
    contexts = []

    def _make(viewport):
        context = browser.new_context(viewport=viewport, locale="en-US")
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(60_000)
        return pg

    yield _make
    for context in contexts:
        context.close()


def clean(pg, log: ServerLog, what: str) -> None:
    """No error box or exception on the page, no traceback (or any problem line) in the server's log."""
    on_page = pg.evaluate(ERROR_BOX_JS) + page_problems(pg)
    in_log = log.problems()
    assert not on_page and not in_log, f"{what}: page {on_page}; server log {in_log[:20]}"


def whole(pg, what: str) -> None:
    """Every table and formula whole, nothing a user reads cut off, nothing wider than the window."""
    cut = not_whole(pg) + overflowing(pg)
    wide = pg.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert not cut and wide <= 1, f"{what}: {cut}; page wider than the window by {wide} px"


def sidebar_open(pg) -> None:
    """Open the sidebar if it is collapsed (Present collapses it; a phone starts with it collapsed)."""
    button = pg.get_by_test_id("stExpandSidebarButton")
    if button.count() and button.is_visible():
        button.click()
        pg.get_by_test_id("stSidebarNav").wait_for(state="visible")
        settled(pg)


#: The sidebar's names of the two pages and their paths.
PATHS = {"Playground": "playground", "Present (lecture)": "present"}


def via_sidebar(pg, name: str) -> None:
    """Leave for another page the way a lecturer does: its link in the sidebar's menu."""
    sidebar_open(pg)
    pg.get_by_test_id("stSidebarNav").get_by_role("link", name=name, exact=True).first.click()
    pg.wait_for_url(re.compile(rf".*/{PATHS[name]}\b.*"))
    wait_for_app(pg)
    settled(pg)


def type_grades(pg, text: str) -> None:
    """Type over the playground's grades (the box's whole text) and leave it with Tab, as a user does."""
    box = pg.get_by_label("Grades in ranked order", exact=True)
    box.fill(text)
    box.press("Tab")
    settled(pg)


def choose(pg, label: str, option: str) -> None:
    """Pick an option of the select labelled ``label`` (open its list, click the option)."""
    open_list(pg, pg.get_by_role("combobox", name=label, exact=True))
    pg.get_by_role("option", name=option, exact=True).click()
    settled(pg)


def walk(pg, log: ServerLog, what: str, *, shots: tuple[str, ...] = ()) -> list[str]:
    """Every step of the lecture on screen, from the first to the last, by the → key: each one clean and whole.
    Returns the titles seen; screenshots of the steps whose kinds are in ``shots``."""
    wait_keys(pg)
    if pg.viewport_size["width"] < 640 and pg.get_by_test_id("stSidebarCollapseButton").is_visible():
        pg.get_by_test_id("stSidebarCollapseButton").click()  # a phone's menu covers the lecture: close it
        settled(pg)
    pg.evaluate("() => document.activeElement && document.activeElement.blur()")  # the menu's link had the focus
    for back in range(step_in_url(pg) - 1, 0, -1):  # a lecture Present kept (the playground unchanged): rewind
        pg.keyboard.press("ArrowLeft")
        wait_step(pg, back)
    lecture = lecture_from_values(_values(pg))[0]
    kinds = [s.kind for s in steps(lecture)]
    titles = []
    for i, kind in enumerate(kinds, start=1):
        if i > 1:
            pg.keyboard.press("ArrowRight")
            wait_step(pg, i)
        titles.append(title(pg))
        clean(pg, log, f"{what}, step {i} ({kind})")
        whole(pg, f"{what}, step {i} ({kind})")
        if kind in shots:
            screenshot(pg, f"lecture_{what}_{kind}")
    return titles


def _values(pg) -> dict:
    """Present's field values for the address the page shows (the link mechanism's own parsers)."""
    from urllib.parse import parse_qs, urlparse

    from ui.pages.present.link import FIELDS
    q = {k: v[-1] for k, v in parse_qs(urlparse(pg.url).query).items()}
    out = {}
    for f in FIELDS:
        if f.param in q:
            out[f.key] = f.parse(q[f.param])
    return out


def test_a_lecture_from_the_playground_at_1024_with_the_sidebar_open_and_on_a_phone(tab, logged):
    url, log = logged
    pg = tab(PROJECTOR)
    log.mark()
    pg.goto(f"{url}/playground")
    wait_for_app(pg)
    settled(pg)
    type_grades(pg, "3 2 3 0 1 2")
    choose(pg, "Gain", "Exponential gain")
    clean(pg, log, "playground, typed")
    via_sidebar(pg, "Present (lecture)")
    sidebar_open(pg)  # the lecturer keeps the menu open on the projector
    assert pg.get_by_test_id("stSidebar").bounding_box()["width"] > 200
    grades = [g.strip() for g in pg.locator(".nl-cards").first.locator(".nl-grade").all_inner_texts()]
    assert grades == ["3", "2", "3", "0", "1", "2"]  # the ranking typed, not the default one
    assert "gain=exponential" in pg.url
    titles = walk(pg, log, "projector", shots=("ranking", "idcg", "ndcg", "formula", "variants"))
    assert titles[-1] == "The other variants"
    pg.keyboard.press("ArrowLeft")  # back one, to NDCG's formula step, and the number is metrics/'s
    wait_step(pg, len(titles) - 1)
    pg.keyboard.press("ArrowLeft")
    wait_step(pg, len(titles) - 2)
    assert big_number(pg) == show_trimmed(ndcg([3, 2, 3, 0, 1, 2], gain="exponential"))

    # Settings switched on the playground, lists of other lengths, junk and a blank box: Present follows the
    # playground's last valid ranking every time, and every step stays clean and whole.
    for what, grades_text, setting, expect in (
        ("two", "1 2", ("Discount", "Järvelin–Kekäläinen discount"), (1.0, 2.0)),
        ("one", "5", ("Gain", "Linear gain"), (5.0,)),
        ("zeros", "0 0 0", None, (0.0, 0.0, 0.0)),
        ("junk", "3 x 1", None, (0.0, 0.0, 0.0)),  # refused on the playground: its last valid ranking stays
        ("blank", "", None, (0.0, 0.0, 0.0)),
        ("long", " ".join(str(i % 4) for i in range(23)), ("Cutoff k", "k = 12"),
         tuple(float(i % 4) for i in range(23))),
    ):
        via_sidebar(pg, "Playground")
        type_grades(pg, grades_text)
        if setting is not None:
            choose(pg, *setting)
        clean(pg, log, f"playground, {what}")
        via_sidebar(pg, "Present (lecture)")
        lecture = lecture_from_values(_values(pg))[0]
        assert lecture.rels == expect, (what, pg.url)
        walk(pg, log, f"projector_{what}", shots=("ranking", "ndcg") if what in ("two", "long") else ())

    # The link the issue names: a cutoff longer than the list, said in words and in the formula.
    pg.goto(f"{url}/present?rels=1,2&k=6&step=10")
    wait_for_app(pg)
    wait_keys(pg)
    assert title(pg) == "The formula"
    assert "longer than this list of 2" in pg.inner_text('[data-testid="stMain"]')
    whole(pg, "k past the end, formula")
    screenshot(pg, "lecture_k_past_end_formula")

    phone = tab(PHONE)
    phone.goto(f"{url}/playground")
    wait_for_app(phone)
    settled(phone)
    type_grades(phone, "3 2 3 0 1 2")
    via_sidebar(phone, "Present (lecture)")
    walk(phone, log, "phone", shots=("ranking", "idcg", "formula", "variants"))
    assert log.problems() == []


def test_joining_and_answering_with_the_keyboard(tab, logged):
    """The teacher's grades take Enter; a student types the code and a nickname and presses Enter (joined), then
    types an answer and presses Enter (checked).  Nothing but typing and Enter on the student's side."""
    url, log = logged
    log.mark()
    teacher = tab(PROJECTOR)
    teacher.goto(f"{url}/class?source=ranking")
    wait_for_app(teacher)
    settled(teacher)
    box = teacher.get_by_label("Grades in ranked order", exact=True)
    box.fill("3 2 1")
    box.press("Enter")  # the value is taken (the link follows it) without leaving the box
    teacher.wait_for_function("() => new URLSearchParams(location.search).get('rels') === '3,2,1'")
    settled(teacher)
    teacher.get_by_role("button", name="Start the class").click()
    teacher.get_by_text("Scan to join").wait_for()
    teacher.wait_for_function("() => new URLSearchParams(location.search).has('code')")
    code = re.search(r"code=([A-Z0-9]+)", teacher.url).group(1)
    clean(teacher, log, "teacher")

    student = tab(PHONE)
    student.goto(f"{url}/join")
    wait_for_app(student)
    settled(student)
    student.get_by_role("textbox", name="Class code", exact=True).fill(code)  # (the seat-code form's is hidden)
    nickname = student.get_by_label("Nickname", exact=True)
    nickname.fill("Ada")
    nickname.press("Enter")  # no click: Enter in the last box joins
    other = tab(PHONE)  # the other order: the nickname first, then the code, and Enter in the code box
    other.goto(f"{url}/join")
    wait_for_app(other)
    other.get_by_label("Nickname", exact=True).fill("Bo")
    code_box = other.get_by_role("textbox", name="Class code", exact=True)
    code_box.fill(code)
    code_box.press("Enter")
    other.get_by_role("textbox", name="DCG", exact=True).wait_for()
    clean(other, log, "second student")
    answer_box = student.get_by_role("textbox", name="DCG", exact=True)
    answer_box.wait_for()
    settled(student)
    assert "You are Ada" in student.inner_text('[data-testid="stMain"]')
    # DCG of 3, 2, 1 (linear gain, log2(i + 1)): 3/1 + 2/log2(3) + 1/2 = 3 + 1.2619 + 0.5 = 4.7619
    answer_box.fill("4.76")
    answer_box.press("Enter")
    student.wait_for_function(
        "() => document.querySelector('[data-testid=\"stMain\"]').innerText.includes('DCG: right')")
    settled(student)
    screenshot(student, "lecture_joined_by_enter")
    clean(student, log, "student")
    whole(student, "student")
