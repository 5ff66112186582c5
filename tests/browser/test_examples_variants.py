"""Worked examples and Variants in a real browser: each page's journey (a later visitor's link, a change,
leave and come back, the copied link in a fresh context) and screenshots."""
from __future__ import annotations

from tests.browser.conftest import screenshot, settled
from tests.browser.journey import copied_link, fill, go_via_sidebar, query, settle, visit


def grow(page, width: int = 1400) -> None:
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": width, "height": int(min(height + 40, 4000))})
    settled(page)


def test_worked_examples_journey(make_page, app_url, warmed):
    page = make_page()
    visit(page, f"{app_url}/worked_examples?doc=001")
    assert page.get_by_role("tab", name="001").get_attribute("aria-selected") == "true"
    # the headline: 001's correct 6.86 / 8.38 large, 003's printed 8.37 beside it
    assert page.get_by_text("6.86 / 8.38").count() >= 1 and page.get_by_text("003 prints 8.37").count() == 1
    # change something: another document
    page.get_by_role("tab", name="003").click()
    settle(page)
    assert query(page) == {"doc": "003"}
    assert page.get_by_text("Sum disagrees with its own terms").count() >= 1
    assert page.get_by_text("Error carried from an earlier step").count() >= 1
    # leave and come back
    go_via_sidebar(page, "Variants & libraries")
    go_via_sidebar(page, "Worked examples")
    assert page.get_by_role("tab", name="003").get_attribute("aria-selected") == "true"
    # the copied link in a fresh context
    link = copied_link(page)
    assert link.endswith("/worked_examples?doc=003")
    other = make_page(fresh=True)
    visit(other, link)
    assert other.get_by_role("tab", name="003").get_attribute("aria-selected") == "true"
    assert other.get_by_text("Sum disagrees with its own terms").count() >= 1
    grow(other)
    assert screenshot(other, "worked_examples").stat().st_size > 50_000


def test_variants_journey(make_page, app_url, warmed):
    page = make_page()
    visit(page, f"{app_url}/variants?rels=3,2,1&k=all&lang=zh")
    assert page.get_by_text("IDCG 取自").count() >= 1
    assert page.get_by_label("按排名顺序的等级", exact=True).input_value() == "3, 2, 1"
    fill(page, "按排名顺序的等级", "2.1234567, 1, 0")
    assert query(page)["rels"] == "2.1234567,1,0" and query(page)["lang"] == "zh"
    table = page.get_by_test_id("va_libraries").inner_text()
    go_via_sidebar(page, "实验台")
    go_via_sidebar(page, "公式变体与库")
    assert page.get_by_label("按排名顺序的等级", exact=True).input_value() == "2.1234567, 1, 0"
    link = copied_link(page)
    other = make_page(fresh=True)
    visit(other, link)
    assert other.get_by_label("按排名顺序的等级", exact=True).input_value() == "2.1234567, 1, 0"
    assert other.get_by_test_id("va_libraries").inner_text() == table


def test_variants_uses_the_playground_ranking_on_request(page, app_url):
    visit(page, f"{app_url}/playground?rels=0,3&unretrieved=2")
    go_via_sidebar(page, "Variants & libraries")
    page.get_by_role("button", name="Use the playground's ranking (0, 3)").click()
    settle(page)
    assert query(page)["rels"] == "0,3" and query(page)["unretrieved"] == "2"
    grow(page)
    assert screenshot(page, "variants").stat().st_size > 50_000
