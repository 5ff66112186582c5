"""Check and Practice pages in a real browser: they render the diagnosis and the exercise; screenshots."""
from __future__ import annotations

from tests.browser.conftest import screenshot, wait_for_app


def open_path(page, app_url: str, path: str) -> None:
    """Open the app at its root first (app.py sets up st.navigation), then the page's own URL."""
    page.goto(app_url)
    wait_for_app(page)
    page.goto(f"{app_url}/{path}")
    wait_for_app(page)


def full_height(page) -> None:
    """Grow the viewport to the page's height: Streamlit scrolls inside stMain, not the document."""
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": int(min(height + 40, 4000))})
    page.wait_for_timeout(1200)


def test_check_page_shows_document_003_diagnosis(page, app_url):
    open_path(page, app_url, "check")
    assert page.get_by_role("heading", name="Check my hand calculation").count() >= 1
    # the first wrong step of document 003's sheet
    assert page.get_by_text("First wrong step: DCG term at position 5").count() == 1
    page.wait_for_selector('[data-testid="stDataFrame"]')
    full_height(page)
    path = screenshot(page, "check")
    assert path.stat().st_size > 10_000


def test_check_page_in_chinese(page, app_url):
    open_path(page, app_url, "check?lang=zh")
    assert page.get_by_text("第一个出错的步骤").count() == 1


def test_practice_link_opens_the_same_exercise(page, app_url):
    open_path(page, app_url, "practice?seed=42&difficulty=hard")
    assert page.get_by_role("heading", name="Exercise 42 (Hard)").count() == 1
    box = page.get_by_label("DCG", exact=True)
    box.fill("0.5")
    box.press("Enter")
    page.wait_for_timeout(500)
    wait_for_app(page)
    assert page.get_by_text("First wrong step: DCG").count() == 1
    assert "seed=42" in page.url and "difficulty=hard" in page.url
    full_height(page)
    path = screenshot(page, "practice")
    assert path.stat().st_size > 10_000
