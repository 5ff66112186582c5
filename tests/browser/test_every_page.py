"""Every page of app.py a teacher or a student reads, on a projector (1024×768, the sidebar open) and on a
phone (390×844), in English, Simplified and Traditional Chinese, and Korean: nothing a user reads is cut off.

The five NDCG pages are measured the same way by tests/browser/test_layout.py (three sizes); this module opens
the others, each with what makes it widest: the conventions that explain a reported number, a diversity ranking
with a missed document, Present's last slide (every variant side by side), Top-N, Rating and ROC as a class
first sees them, the run-file samples with two measures by name and a mean to explain, the teacher's dashboard
with three students (two have answered) and a student's answer page.  Every expander is opened first (its
formulas, tables and charts are read too).

Measured on each view (``tests/browser/conftest.py``): ``cut_off`` (every text node's lines, every field's
value, every formula against each box that clips it and against the window's edges; chart labels Vega
shortened), ``overflowing`` and ``not_whole`` (tables and formulas whole, no word broken across lines); no
exception and no dialog.  On the projector the same load is checked for accessibility
(:func:`tests.browser.a11y.check_page`: axe-core at WCAG 2.1 AA, the page's title and ``<html lang>``, charts
and headline numbers named): this is where zh-Hant is checked for these pages.  A screenshot of each whole
view goes to test-artifacts/screenshots/every_<page>_<device>_<lang>.png (look at them).
"""
from __future__ import annotations

import os

import pytest

from classroom.store import Client, Store
from classroom.tasks import FIELDS, example_task
from tests.browser import test_layout
from tests.browser.a11y import axe_version, check_page, rendered
from tests.browser.conftest import (
    PHONE,
    PROJECTOR,
    cut_off,
    not_whole,
    overflowing,
    page_problems,
    screenshot,
    settled,
    wait_for_app,
)
from tests.browser.test_a11y import app_pages
from ui.i18n import catalogue

LANGS = ["en", "zh", "zh-Hant", "ko"]
DEVICES = {"projector": PROJECTOR, "phone": PHONE}
# Each page with what makes it widest ("{code}", "{key}", "{me}": the class made for the test).
PAGES = {
    "match": "match?rels=3,2,3,0,1,2&unretrieved=3,0&k=6&value=0.8184",
    "diversity": "diversity?ranking=ab,a,-,c&missed=d&alpha=0.5&k=4",
    "present": "present?doc=001&step=99",
    "topn": "topn",
    "rating": "rating",
    "roc": "roc",
    "run_files": "run_files?more=nDCG@10;Judged@10&match=0.4620",
    "class": "class?code={code}&key={key}",
    "join": "join?code={code}&me={me}",
}

pytestmark = pytest.mark.usefixtures("warmed")


def test_every_page_is_measured_here_or_in_the_layout_test():
    assert set(PAGES) | set(test_layout.PAGES) == set(app_pages())
    assert not set(PAGES) & set(test_layout.PAGES)


@pytest.fixture
def a_class():
    """A class of document 003's example in the server's database (it inherits NDCG_LAB_DB_URL), three
    students in, two of them have answered; yields a function giving a new private link for each load (a
    link opens the dashboard once) and the third student's token."""
    store = Store(os.environ["NDCG_LAB_DB_URL"])
    info, key = store.create(example_task("003-blog"), fields=FIELDS)
    handle = store.teacher(info.code, key)
    tokens = []
    for i in range(3):
        seat, token = store.join(info.code, f"student{i}", client=Client(f"every-{info.code}-{i}", f"198.51.100.{i}"))
        tokens.append(token)
        if i < 2:
            seat.submit(1, "dcg", "6.86" if i else "6.8", submission_id=f"every-{info.code}-{i}")
    return lambda: {"code": info.code, "key": handle.new_link(), "me": tokens[2]}


def wait_metric(pg, label: str, value: str) -> None:
    pg.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')].some(m =>
             m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label &&
             m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === value)""",
        arg=[label, value], timeout=60_000)


def open_view(pg, url: str, name: str, lang: str) -> None:
    """Open the page and wait until it is drawn: its own content there, every expander open, nothing moving."""
    pg.goto(url)
    wait_for_app(pg)
    if name == "class":  # the dashboard follows the class: wait for the students, then for the redraw
        wait_metric(pg, catalogue(lang)["classroom.joined"], "3")
        wait_metric(pg, catalogue(lang)["classroom.answers"], "2")
    elif name == "join":
        pg.locator('[data-testid="stMain"] [data-testid="stTextInput"] input').first.wait_for()
    closed = pg.locator('[data-testid="stMain"] [data-testid="stExpander"] details:not([open]) > summary')
    for _ in range(closed.count()):  # each click opens the first one still closed (no rerun: in the browser)
        closed.first.click()
    rendered(pg)
    assert page_problems(pg) == [], (url, page_problems(pg))


def whole_page(pg, name: str, viewport: dict) -> None:
    """A screenshot of the whole view: the window made as tall as the main area (the width, so the layout,
    stays), then back."""
    height = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    pg.set_viewport_size({"width": viewport["width"], "height": min(int(height) + 40, 12_000)})
    pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")  # opening expanders scrolled
    settled(pg)
    screenshot(pg, name)
    pg.set_viewport_size(viewport)
    settled(pg)


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("lang", LANGS)
def test_nothing_a_user_reads_is_cut_off(make_page, app_url, a_class, device, lang):
    viewport = DEVICES[device]
    pg = make_page(viewport=viewport)
    problems, a11y = {}, []
    for name, path in PAGES.items():
        url = f"{app_url}/{path.format(**a_class())}" + ("&" if "?" in path else "?") + f"lang={lang}"
        open_view(pg, url, name, lang)
        if device == "projector" and name != "present":  # Present folds the sidebar away for the lecture
            assert pg.get_by_test_id("stSidebar").bounding_box()["width"] > 200, name
        if device == "projector":
            a11y += check_page(pg, name, lang, f"{name} [{lang}]")
        # a data grid may scroll sideways when its scrollbar is drawn (cut_off checks that); everything else whole
        found = cut_off(pg) + overflowing(pg) + [x for x in not_whole(pg) if not x.startswith("data grid scrolls")]
        if found:
            problems[name] = sorted({x.replace("\n", " ")[:160] for x in found})
        whole_page(pg, f"every_{name}_{device}_{lang}", viewport)
    cut = [f"{name}: {x}" for name, found in problems.items() for x in found]
    assert not cut and not a11y, "\n".join(cut + ([f"axe-core {axe_version()}:"] + a11y if a11y else []))
