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


def test_shared_link_as_first_request_of_a_fresh_server(page, fresh_app_url):
    # Streamlit's legacy pages/ mode would run pages/variants.py without app.py here (no language,
    # file-name sidebar); ui/shell.py reroutes it through app.py's navigation.
    page.goto(f"{fresh_app_url}/variants?lang=zh")
    wait_for_app(page)
    assert page.locator("h1").first.inner_text() == "公式变体与库"
    sidebar = page.get_by_test_id("stSidebar").inner_text()
    assert "实验台" in sidebar and "worked examples" not in sidebar.lower()
    # ...and later sessions are not left in the legacy mode either.
    page.goto(f"{fresh_app_url}/worked_examples")
    wait_for_app(page)
    assert page.locator("h1").first.inner_text() == "Worked examples"
