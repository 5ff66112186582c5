"""The Diversity page in a real browser: a visitor types a ranking with the keyboard and the numbers follow; a
link with bad values opens with the defaults and says so.  Its layout on a projector and a phone in every
language, and axe-core on it: tests/browser/test_every_page.py.
"""
from __future__ import annotations

from playwright.sync_api import expect

from metrics.lessons.diversity import alpha_ndcg
from tests.browser.conftest import PHONE, PROJECTOR, page_problems, settled, wait_for_app
from ui.numbers import show

DEVICES = {"projector": PROJECTOR, "phone": PHONE}
CHARTS = 2


def _open(pg, url: str) -> None:
    pg.goto(url)
    wait_for_app(pg)
    pg.wait_for_selector(".katex", timeout=30_000)
    expect(pg.locator('[data-testid="stVegaLiteChart"]')).to_have_count(CHARTS, timeout=30_000)
    settled(pg)


def test_typing_a_ranking_updates_the_numbers(make_page, app_url):
    pg = make_page(viewport=PROJECTOR)
    _open(pg, f"{app_url}/diversity?lang=en")
    box = pg.get_by_role("textbox", name="Ranking: each document's subtopics, top first")
    box.click()
    box.fill("ab, c, a")
    box.press("Enter")
    want = show(alpha_ndcg([{"a", "b"}, {"c"}, {"a"}], [{"c"}, {"b", "c"}], alpha=0.5, k=10)["alpha_ndcg"])
    expect(pg.locator('[data-testid="stMetricValue"]').first).to_have_text(want, timeout=30_000)
    settled(pg)
    assert "ranking=ab%2Cc%2Ca" in pg.url or "ranking=ab,c,a" in pg.url
    assert page_problems(pg) == []


def test_a_bad_link_opens_with_the_defaults_and_says_so(make_page, app_url):
    pg = make_page(viewport=PHONE)
    _open(pg, f"{app_url}/diversity?lang=zh&ranking=%3Cimg%20src%3Dx%3E&k=0")
    warnings = pg.locator('[data-testid="stAlertContentWarning"]')
    expect(warnings.first).to_be_visible(timeout=30_000)
    text = " ".join(warnings.all_inner_texts())
    assert "ranking" in text and "k" in text
    assert pg.locator("img[src='x']").count() == 0
    assert page_problems(pg) == []
