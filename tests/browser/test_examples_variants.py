"""Worked examples and variants pages in a real browser: they render, and screenshots for the README.

Pages are reached through the app's own navigation (the sidebar), as a user does.
"""
from __future__ import annotations

from tests.browser.conftest import screenshot, wait_for_app


def open_from_sidebar(page, app_url, name: str, *, lang: str = "en") -> None:
    page.goto(f"{app_url}/?lang={lang}" if lang != "en" else app_url)
    wait_for_app(page)
    page.get_by_role("link", name=name).first.click()
    page.wait_for_selector(f'h1:has-text("{name}")', timeout=30_000)
    wait_for_app(page)


def test_worked_examples_page(page, app_url):
    open_from_sidebar(page, app_url, "Worked examples")
    assert page.get_by_text("7.99 / 8.69").count() >= 1
    assert page.get_by_text("6.86 / 8.37").count() >= 1
    assert page.get_by_text("exact 7.9923 / 8.6925").count() >= 1
    page.get_by_role("tab", name="Document 003").click()
    page.wait_for_timeout(500)
    assert page.get_by_text("Sum disagrees with its own terms").count() >= 1
    page.get_by_role("tab", name="Document 000").click()
    page.set_viewport_size({"width": 1400, "height": 2400})  # Streamlit scrolls inside the page: grow it
    page.wait_for_timeout(1500)
    path = screenshot(page, "worked_examples")
    assert path.stat().st_size > 50_000


def test_variants_page(page, app_url):
    open_from_sidebar(page, app_url, "公式变体与库", lang="zh")
    assert page.get_by_text("IDCG 取自").count() >= 1
    open_from_sidebar(page, app_url, "Variants & libraries")
    assert page.get_by_text("scikit-learn").count() >= 1
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.wait_for_timeout(1500)
    path = screenshot(page, "variants")
    assert path.stat().st_size > 50_000
