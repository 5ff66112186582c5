"""Check and Practice in a real browser: each page's journey (a later visitor's link, a change, leave and come
back, the copied link in a fresh context), Practice's reload, and screenshots."""
from __future__ import annotations

from tests.browser.conftest import screenshot, settled
from tests.browser.journey import choose, copied_link, done, fill, go_via_sidebar, query, settle, visit


def full_height(page) -> None:
    """Grow the viewport to the page's height: Streamlit scrolls inside stMain, not the document."""
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": int(min(height + 40, 4000))})
    settled(page)


def test_check_journey(make_page, app_url, warmed):
    page = make_page()
    visit(page, f"{app_url}/check?dcg=6.9&gain=exponential")
    assert page.get_by_label("DCG", exact=True).input_value() == "6.9"
    # change something: the typed value reaches the link exactly as typed
    fill(page, "IDCG", "8.380")
    assert query(page) == {"dcg": "6.9", "idcg": "8.380", "gain": "exponential"}
    first = page.get_by_text("First mistake").first.inner_text()
    # leave and come back: the typed values are still there (the reported bug: they were forgotten)
    go_via_sidebar(page, "Practice")
    go_via_sidebar(page, "Check my calculation")
    assert page.get_by_label("IDCG", exact=True).input_value() == "8.380"
    assert page.get_by_label("DCG", exact=True).input_value() == "6.9"
    # the copied link in a fresh context: the same diagnosis
    link = copied_link(page)
    other = make_page(fresh=True)
    visit(other, link)
    assert other.get_by_label("IDCG", exact=True).input_value() == "8.380"
    assert other.get_by_text("First mistake").first.inner_text() == first


def test_check_page_shows_document_003_diagnosis_in_two_languages(page, app_url):
    visit(page, f"{app_url}/check")
    assert page.get_by_text("First mistake: DCG term at position 5").count() == 1
    assert page.get_by_text("Sum disagrees with its own terms").count() >= 1  # 6.86 beside terms adding to 6.85
    page.wait_for_selector('[data-testid="check_table"]')
    full_height(page)
    assert screenshot(page, "check").stat().st_size > 10_000
    visit(page, f"{app_url}/check?lang=zh")
    assert page.get_by_text("第一个错误：").count() == 1


def test_practice_journey_and_reload(make_page, app_url, warmed):
    page = make_page()
    visit(page, f"{app_url}/practice?seed=42&difficulty=hard&lang=ko")
    assert page.get_by_role("heading", name="문제 42 (어려움)").count() == 1
    choose(page, "난이도", "보통")
    assert query(page)["difficulty"] == "medium" and query(page)["seed"] == "42"
    box = page.get_by_label("DCG", exact=True)
    box.fill("0.5")
    box.press("Tab")
    settle(page)
    score = page.locator('[data-testid="stMetricValue"]').first.inner_text()
    assert score == "0 / 1" and query(page)["score"] == "0-1-0" and query(page)["lang"] == "ko"
    # leave and come back: difficulty, answer and score still there (the reported KeyError)
    go_via_sidebar(page, "플레이그라운드")
    go_via_sidebar(page, "연습")
    assert page.get_by_label("DCG", exact=True).input_value() == "0.5"
    assert page.locator('[data-testid="stMetricValue"]').first.inner_text() == "0 / 1"
    # a reload keeps the exercise and the score
    page.reload()
    done(page)
    assert query(page)["seed"] == "42" and page.locator('[data-testid="stMetricValue"]').first.inner_text() == "0 / 1"
    # the copied link (for a class): the same exercise, in the same language, without this visitor's score
    link = copied_link(page)
    assert "seed=42" in link and "difficulty=medium" in link and "lang=ko" in link and "score" not in link
    other = make_page(fresh=True)
    visit(other, link)
    assert other.locator("h3").filter(has_text="42").count() >= 1
    assert other.locator('[data-testid="stMetricValue"]').first.inner_text() == "0 / 0"
    full_height(other)
    assert screenshot(other, "practice").stat().st_size > 10_000
