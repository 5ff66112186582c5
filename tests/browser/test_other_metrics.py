"""The Top-N, Rating and ROC pages in a real browser: a journey per page.

Each journey opens the page's link as a later visitor (no "page not found" dialog, no exception),
changes something, goes to another page and back (still there), then opens the page's copied link in
a fresh browser context (a new visitor) and finds the same view.
"""
from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlparse

from playwright.sync_api import expect

from tests.browser.conftest import page_problems, screenshot, settled, wait_for_app


def _rendered(pg, charts: int) -> None:
    assert page_problems(pg) == []
    pg.wait_for_selector(".katex", timeout=30_000)
    # charts mount one after another: wait for all of them, not a snapshot taken after the first
    expect(pg.locator('[data-testid="stVegaLiteChart"]')).to_have_count(charts, timeout=30_000)


def _query(pg) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(pg.url).query).items()}


def _metrics(pg) -> list[str]:
    return pg.locator('[data-testid="stMetricValue"]').all_inner_texts()


def _formulas(pg) -> list[str]:
    return pg.locator(".katex-mathml annotation").all_text_contents()


def _slider_value(pg) -> str:
    return pg.locator('.st-key-roc_step [data-testid="stSliderThumbValue"]').inner_text().strip()


def _copied_link(pg) -> str:
    """The complete address in the page's "link to this view" box."""
    return pg.locator('[data-testid="stCode"] code').last.inner_text().strip()


def _visit(pg, url: str) -> None:
    pg.goto(url)
    wait_for_app(pg)


def _leave_and_come_back(pg, there: str, back: str) -> None:
    pg.locator(f'[data-testid="stSidebarNav"] a[href$="/{there}"]').click()
    pg.wait_for_function(f"() => location.pathname.endsWith('/{there}')")
    wait_for_app(pg)
    pg.locator(f'[data-testid="stSidebarNav"] a[href$="/{back}"]').click()
    pg.wait_for_function(f"() => location.pathname.endsWith('/{back}')")
    wait_for_app(pg)


def _not_first_visitor(make_page, app_url) -> None:
    _visit(make_page(), app_url)


def test_topn_journey(make_page, app_url):
    _not_first_visitor(make_page, app_url)
    pg = make_page()
    users = "p: X Y Z | Z\nq: Z Y X | Y W"
    _visit(pg, f"{app_url}/topn?" + urlencode({"users": users, "n": "2", "prec": "n", "user": "q"}))
    _rendered(pg, charts=2)
    area = pg.locator(".st-key-topn_users textarea")
    assert area.input_value() == users
    # N = 2, denominator N: 2 users x 2 = 4; hits: p has Z at 3 (cut), q has Y at 2 -> 1
    assert any("\\frac{1}{4} = 0.25" in f for f in _formulas(pg))
    screenshot(pg, "journey_topn_opened")
    # change N to 3: p's Z now counts, the formulas and the address bar follow
    box = pg.locator(".st-key-topn_n input")
    box.fill("3")
    box.press("Enter")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('n') === '3'", timeout=30_000)
    wait_for_app(pg)
    assert any("\\frac{2}{6}" in f for f in _formulas(pg))
    # leave for the Rating page and come back: still N = 3, the same users and the same link
    _leave_and_come_back(pg, "rating", "topn")
    assert pg.locator(".st-key-topn_n input").input_value() == "3"
    assert pg.locator(".st-key-topn_users textarea").input_value() == users
    assert _query(pg)["n"] == "3"
    before = _formulas(pg)
    link = _copied_link(pg)
    assert link.startswith(app_url) and "n=3" in link
    # a new visitor opens the copied link: the same view
    fresh = make_page(fresh=True)
    _visit(fresh, link)
    _rendered(fresh, charts=2)
    assert fresh.locator(".st-key-topn_users textarea").input_value() == users
    assert _formulas(fresh) == before
    # bad input: a message naming the item and positions, the numbers stay
    area = fresh.locator(".st-key-topn_users textarea")
    area.fill("alice: A B A | A")
    area.press("Control+Enter")
    fresh.get_by_text("appears twice in the recommended list (positions 1 and 3)").wait_for()
    # the message comes first in the run; the formulas below it are redrawn after it: wait for the run's end
    settled(fresh)
    assert page_problems(fresh) == [] and _formulas(fresh) == before


def test_rating_journey(make_page, app_url):
    _not_first_visitor(make_page, app_url)
    pg = make_page()
    _visit(pg, f"{app_url}/rating?" + urlencode({"true": "1,1", "pred": "2,4", "pair": "1", "lang": "zh"}))
    _rendered(pg, charts=3)
    assert pg.get_by_role("heading", name="评分预测：RMSE 与 MAE").count() >= 1
    # errors 1 and 3: RMSE = sqrt((1 + 9) / 2) = 2.2361, MAE = 2
    assert _metrics(pg) == ["2.2361", "2"]
    # change the predictions: errors 1 and 2 -> RMSE sqrt(5/2) = 1.5811, MAE 1.5
    area = pg.locator(".st-key-rating_pred textarea")
    area.fill("2 3")
    area.press("Control+Enter")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('pred') === '2,3'", timeout=30_000)
    wait_for_app(pg)
    assert _metrics(pg) == ["1.5811", "1.5"]
    screenshot(pg, "journey_rating_changed")
    _leave_and_come_back(pg, "roc", "rating")
    assert pg.locator(".st-key-rating_pred textarea").input_value() == "2 3"
    assert _metrics(pg) == ["1.5811", "1.5"]
    assert _query(pg) == {"true": "1,1", "pred": "2,3", "pair": "1", "lang": "zh"}
    link = _copied_link(pg)
    fresh = make_page(fresh=True)
    _visit(fresh, link)
    _rendered(fresh, charts=3)
    assert _metrics(fresh) == ["1.5811", "1.5"]
    assert fresh.get_by_role("heading", name="评分预测：RMSE 与 MAE").count() >= 1  # lang travels with the link


def test_roc_journey(make_page, app_url):
    _not_first_visitor(make_page, app_url)
    pg = make_page()
    _visit(pg, f"{app_url}/roc?" + urlencode({"step": "3"}))
    _rendered(pg, charts=2)
    assert _query(pg)["step"] == "3"
    pg.get_by_text("Both ways give AUC = 0.78").wait_for()
    screenshot(pg, "journey_roc_opened")
    # one step further with the keyboard: the slider, the explanation and the link follow
    slider = pg.get_by_role("slider")
    slider.focus()
    slider.press("ArrowRight")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('step') === '4'", timeout=30_000)
    wait_for_app(pg)
    area_so_far = _metrics(pg)
    _leave_and_come_back(pg, "topn", "roc")
    assert _slider_value(pg) == "4"
    assert _metrics(pg) == area_so_far
    link = _copied_link(pg)
    assert "step=4" in link
    fresh = make_page(fresh=True)
    _visit(fresh, link)
    _rendered(fresh, charts=2)
    assert _slider_value(fresh) == "4"
    assert _metrics(fresh) == area_so_far


def test_roc_page_korean_bad_link(make_page, app_url):
    pg = make_page()
    _visit(pg, f"{app_url}/roc?" + urlencode({"labels": "1,0,2", "lang": "ko"}))
    pg.get_by_text("레이블이 아닙니다").first.wait_for()
    assert page_problems(pg) == []
    # the bad parameter leaves the address bar
    pg.wait_for_function("() => !new URL(location.href).searchParams.has('labels')", timeout=30_000)
