"""The app shell in a real browser: every page's own path opens for the first and every later visitor (no
"Page not found" dialog, no exception, always inside app.py), ``/`` forwards to ``/playground``, the language
switch; markup from a link: tests/browser/test_injection.py."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.browser.journey import visit

PATHS = {  # page path -> its title in English
    "playground?rels=3,2,1,3,2&discount=jarvelin": "Playground",
    "worked_examples?doc=002": "Worked examples",
    "variants?rels=3,2": "Variants & libraries",
    "check?dcg=7": "Check my hand calculation",
    "practice?seed=7&difficulty=medium": "Practice",
}


def test_a_shared_link_as_the_first_and_every_later_request(make_page, fresh_app_url):
    # The first visitor of a fresh server opens a page's own path (Streamlit's legacy pages/ mode would run
    # the script without app.py); then later visitors open every page's path and "/".
    first = make_page(fresh=True)  # a brand-new browser: nothing cached, nothing compiled
    visit(first, f"{fresh_app_url}/playground?rels=3,2&lang=zh")
    assert first.locator("h1").first.inner_text() == "实验台"
    # inside app.py: its language buttons in the sidebar (the legacy mode would show a file-name menu)
    assert first.get_by_test_id("stSidebar").get_by_role("radiogroup", name="语言").count() == 1
    for visitor in range(2):  # later visitors, every page, twice
        for path, title in PATHS.items():
            pg = make_page()
            visit(pg, f"{fresh_app_url}/{path}")
            assert pg.locator("h1").first.inner_text() == title, (visitor, path)
            assert pg.get_by_test_id("stSidebar").get_by_role("radiogroup", name="Language").count() == 1
            assert urlparse(pg.url).path == "/" + path.split("?")[0]
            pg.close()
    root = make_page()
    visit(root, f"{fresh_app_url}/?rels=3,2,1")
    assert urlparse(root.url).path == "/playground" and parse_qs(urlparse(root.url).query)["rels"] == ["3,2,1"]


def test_opens_on_playground_and_switches_language(page, app_url):
    visit(page, app_url)
    assert page.get_by_role("heading", name="Playground").count() >= 1
    assert urlparse(page.url).path == "/playground"
    visit(page, f"{app_url}/?lang=ko")
    assert page.get_by_role("heading", name="플레이그라운드").count() >= 1


def test_bad_language_in_link_warns_and_falls_back(page, app_url):
    visit(page, f"{app_url}/?lang=xx")
    assert page.get_by_text("Unknown language 'xx'").count() == 1
    assert page.get_by_role("heading", name="Playground").count() >= 1
