"""Helpers for the NDCG pages' browser journeys (not a test module).

A journey: open a page's link as a later visitor (the server has served someone before; no dialog, no
exception), change something, leave for another page and come back (still there), then open the address
the page's copy-link box shows in a fresh browser context (the same view).
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from tests.browser.conftest import page_problems, page_state, wait_for_app


def warm(browser, app_url: str) -> None:
    """Make sure the server has served a first visitor (st.navigation has run in this process)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        pg = context.new_page()
        pg.goto(app_url)
        wait_for_app(pg)
    finally:
        context.close()


#: True once the script run is over: every NDCG page ends with its copy-link box, nothing is stale.
DONE_JS = """() => {
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  if (document.querySelector('[data-testid="stMain"] [data-stale="true"]')) return false;
  const codes = document.querySelectorAll('[data-testid="stMain"] [data-testid="stCode"]');
  return codes.length > 0 && codes[codes.length - 1].innerText.trim().startsWith('http');
}"""


def done(pg, timeout: float = 60_000) -> None:
    """Wait until the page's script run is over (its last element, the link box, is drawn and fresh); on a
    timeout, say what the page showed."""
    wait_for_app(pg, timeout)
    try:
        pg.wait_for_function(DONE_JS, timeout=timeout)
    except Exception as exc:
        raise AssertionError(f"the page's run never finished drawing: {page_state(pg)}") from exc


def visit(pg, url: str) -> None:
    """Open ``url`` and wait for the page; fail on a "Page not found" dialog, an exception or a traceback."""
    pg.goto(url)
    done(pg)
    assert page_problems(pg) == [], (url, page_problems(pg))


def settle(pg) -> None:
    """Wait for the end of the rerun a widget change started.

    The page's run tracker (tests/browser/conftest.py) has already counted the rerun request: Streamlit's
    widgets send it from the event handler that Playwright's click, press or fill has run."""
    done(pg)


def query(pg) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(pg.url).query).items()}


def copied_link(pg) -> str:
    """The complete address in the page's copy-link box (the last code block on the page)."""
    text = pg.locator('[data-testid="stCode"]').last.inner_text().strip()
    assert text.startswith("http"), text
    return text


def go_via_sidebar(pg, name: str) -> None:
    """Leave for another page the way a user does: its link in the sidebar."""
    before = pg.locator('[data-testid="stMainBlockContainer"] h1').first.inner_text()
    pg.get_by_test_id("stSidebarNav").get_by_role("link", name=name).first.click()
    pg.wait_for_function(
        "(before) => { const h = document.querySelector('[data-testid=\"stMainBlockContainer\"] h1');"
        " return h && h.innerText !== before; }", arg=before, timeout=60_000)
    done(pg)


def metric(pg, label: str) -> str:
    m = pg.locator('[data-testid="stMetric"]').filter(has_text=re.compile(f"^{re.escape(label)}"))
    return m.locator('[data-testid="stMetricValue"]').first.inner_text().strip()


def fill(pg, label: str, text: str) -> None:
    """Type into a text field or area (by its label) and commit it like a user (Tab away)."""
    box = pg.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Tab")
    settle(pg)


def choose(pg, label: str, option: str) -> None:
    """Pick an option of a select (1.67 selects are comboboxes: open, click the option)."""
    pg.get_by_role("combobox", name=label).click()
    pg.get_by_role("option", name=option, exact=True).click()
    settle(pg)
