"""The app shell in a real browser: it renders, and the language switch changes the page."""
from __future__ import annotations

from tests.browser.conftest import wait_for_app


def test_opens_on_playground_and_switches_language(page, app_url):
    page.goto(app_url)
    wait_for_app(page)
    assert page.get_by_role("heading", name="Playground").count() >= 1
    page.goto(f"{app_url}/?lang=ko")
    wait_for_app(page)
    assert page.get_by_role("heading", name="플레이그라운드").count() >= 1


def test_bad_language_in_link_warns_and_falls_back(page, app_url):
    page.goto(f"{app_url}/?lang=xx")
    wait_for_app(page)
    assert page.get_by_text("Unknown language 'xx'").count() == 1
    assert page.get_by_role("heading", name="Playground").count() >= 1
