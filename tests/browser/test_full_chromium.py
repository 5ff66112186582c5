"""Every page in the full Chromium a visitor runs (Debian's ``chromium``, /usr/bin/chromium), not only in the
headless shell the other browser tests use (tests/browser/conftest.py says why): each page of app.py's table
opens from its own link with its tab title and a heading, no exception, traceback or "Page not found"
dialog, and nothing cut off on a projector; the playground's cards are drawn and agree with the server."""
from __future__ import annotations

from tests.browser.a11y import rendered
from tests.browser.conftest import FULL_CHROMIUM, PROJECTOR, launch, overflowing, page_problems
from tests.browser.test_a11y import LINKS, PAGES
from ui.shell import page_title


def test_every_page_opens_cleanly_in_the_full_browser(pw, app_url):
    browser = launch(pw, FULL_CHROMIUM)
    try:
        version = browser.version
        pg = browser.new_context(viewport=PROJECTOR, locale="en-US").new_page()
        problems = {}
        for page in PAGES:
            path = LINKS.get(page, page)
            pg.goto(f"{app_url}/{path}")
            rendered(pg)
            found = [*page_problems(pg), *overflowing(pg)]
            if pg.title() != page_title(page):  # the tab's title names the page (in English here)
                found.append(f"tab title {pg.title()!r}")
            if not pg.locator('[data-testid="stMainBlockContainer"] h1').first.inner_text().strip():
                found.append("no heading")
            if found:
                problems[page] = found
            if page == "playground":
                pg.wait_for_selector(".cards[data-cards-ready='1']")
                assert pg.locator(".cards").get_attribute("data-disagree") is None
        assert problems == {}, (version, problems)
    finally:
        browser.close()
