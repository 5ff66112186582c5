"""The playground in Debian's Chromium: a real drag, a keyboard reorder (dnd-kit's keyboard sensor),
the move buttons, and the README screenshot."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from metrics.ndcg import ndcg
from tests.browser.conftest import screenshot, wait_for_app

SORTABLE = 'iframe[title="streamlit_sortables.sortable_items"]'


def ndcg_shown(page) -> str:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text=re.compile(r"^NDCG"))
    return metric.locator('[data-testid="stMetricValue"]').inner_text().strip()


def query(page) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(page.url).query).items()}


def cards(page):
    return page.frame_locator(SORTABLE).locator("li.sortable-item:not(.dragging)")


def wait_for_ndcg_change(page, before: str) -> str:
    page.wait_for_function(
        """(before) => {
            const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
              .find(e => e.innerText.trim().startsWith('NDCG'));
            return m && !m.innerText.includes(before);
        }""", arg=before, timeout=30_000)
    wait_for_app(page)
    return ndcg_shown(page)


def open_playground(page, app_url, q: str):
    page.goto(f"{app_url}/?{q}")
    wait_for_app(page)
    cards(page).first.wait_for()


def test_real_drag_changes_ndcg(page, app_url):
    open_playground(page, app_url, "rels=3,2,1,3,2")
    before = ndcg_shown(page)
    assert before == f"{ndcg([3, 2, 1, 3, 2]):.4f}"
    items = cards(page)
    assert items.nth(2).inner_text().strip() == "D3 · 1"
    # dnd-kit starts a drag only after 10 px of movement: move in steps.
    items.nth(2).drag_to(items.nth(0), steps=10)
    after = wait_for_ndcg_change(page, before)
    # D3 (grade 1) moved to rank 1: 1, 3, 2, 3, 2
    assert after == f"{ndcg([1, 3, 2, 3, 2]):.4f}"
    q = query(page)
    assert q["rels"] == "1,3,2,3,2" and q["labels"] == "D3,D1,D2,D4,D5"
    assert page.get_by_role("textbox", name="Grades in ranked order").input_value() == "1, 3, 2, 3, 2"


def test_drag_into_not_retrieved(page, app_url):
    open_playground(page, app_url, "rels=3,2,1&unretrieved=0")
    before = ndcg_shown(page)
    items = cards(page)
    items.nth(0).drag_to(items.nth(3), steps=10)  # D1 (grade 3) onto the not-retrieved card D4
    after = wait_for_ndcg_change(page, before)
    q = query(page)
    assert q["rels"] == "2,1" and sorted(q["unretrieved"].split(",")) == ["0", "3"]
    assert after == f"{ndcg([2, 1], pool=[2, 1, 3, 0]):.4f}"


def test_keyboard_reorder(page, app_url):
    open_playground(page, app_url, "rels=3,2,1,3,2")
    before = ndcg_shown(page)
    first = cards(page).nth(0)
    first.focus()
    page.keyboard.press("Space")  # pick up
    page.wait_for_timeout(300)
    page.keyboard.press("ArrowRight")  # one place to the right
    page.wait_for_timeout(300)
    page.keyboard.press("Space")  # drop
    after = wait_for_ndcg_change(page, before)
    assert query(page)["rels"] == "2,3,1,3,2"
    assert after == f"{ndcg([2, 3, 1, 3, 2]):.4f}"


def test_move_buttons_with_the_keyboard(page, app_url):
    open_playground(page, app_url, "rels=3,2,1,3,2")
    before = ndcg_shown(page)
    down = page.get_by_role("button", name="Down", exact=True)
    down.focus()
    page.keyboard.press("Enter")  # the chosen item (D1) goes down one rank
    after = wait_for_ndcg_change(page, before)
    assert query(page)["rels"] == "2,3,1,3,2" and after == f"{ndcg([2, 3, 1, 3, 2]):.4f}"
    page.get_by_role("button", name="Up", exact=True).focus()
    page.keyboard.press("Enter")
    assert wait_for_ndcg_change(page, after) == before


def test_screenshot_for_the_readme(page, app_url):
    open_playground(page, app_url, "rels=3,2,3,0,1,2&unretrieved=3,0&k=6")
    assert ndcg_shown(page) == "0.8184"
    page.wait_for_selector('[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg')
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": int(min(height + 40, 4000))})
    page.wait_for_timeout(1500)
    path = screenshot(page, "playground")
    assert path.stat().st_size > 50_000
