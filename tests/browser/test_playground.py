"""The playground in Debian's Chromium: the journey (a later visitor's link, a change, leave and come back,
the copied link in a fresh context), a real drag, a keyboard reorder (dnd-kit's keyboard sensor), the move
buttons, an example button, a CSV download, and a screenshot."""
from __future__ import annotations

import re

from metrics.ndcg import ndcg
from tests.browser.conftest import screenshot, settled
from tests.browser.journey import (
    SORTABLE,
    copied_link,
    done,
    fill,
    go_via_sidebar,
    metric,
    query,
    visit,
    warm,
)


def cards(page):
    return page.frame_locator(SORTABLE).locator("li.sortable-item:not(.dragging)")


def wait_for_ndcg_change(page, before: str) -> str:
    page.wait_for_function(
        """(before) => {
            const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
              .find(e => e.innerText.trim().startsWith('NDCG'));
            return m && !m.querySelector('[data-testid="stMetricValue"]').innerText.includes(before);
        }""", arg=before, timeout=30_000)
    done(page)
    return metric(page, "NDCG")


def open_playground(page, app_url, q: str):
    visit(page, f"{app_url}/playground?{q}")
    cards(page).first.wait_for()


def test_journey(browser, make_page, app_url):
    warm(browser, app_url)
    page = make_page()
    # a later visitor opens the documented link: no dialog, no exception, document 000's numbers
    visit(page, f"{app_url}/playground?rels=3,2,1,3,2&discount=jarvelin")
    assert (metric(page, "DCG"), metric(page, "NDCG")) == ("7.9923", "0.9194")
    # change something: exact numbers typed reach the address bar exactly
    fill(page, "Grades in ranked order", "2.1234567, 3")
    assert query(page)["rels"] == "2.1234567,3" and query(page)["discount"] == "jarvelin"
    shown = metric(page, "NDCG")
    assert shown == f"{ndcg([2.1234567, 3], discount='jarvelin'):.4f}"
    # leave and come back: still there
    go_via_sidebar(page, "Check my calculation")
    go_via_sidebar(page, "Playground")
    assert page.get_by_label("Grades in ranked order", exact=True).input_value() == "2.1234567, 3"
    assert metric(page, "NDCG") == shown
    # the copied link in a fresh context: the same view
    link = copied_link(page)
    assert link.startswith(f"{app_url}/playground?") and "rels=2.1234567,3" in link
    other = make_page()
    visit(other, link)
    assert other.get_by_label("Grades in ranked order", exact=True).input_value() == "2.1234567, 3"
    assert metric(other, "NDCG") == shown and metric(other, "DCG") == metric(page, "DCG")


def test_root_forwards_to_the_playground_with_its_query(browser, make_page, app_url):
    warm(browser, app_url)
    page = make_page()
    visit(page, f"{app_url}/?rels=3,2,3,0,1,2&unretrieved=3,0&k=6")
    page.wait_for_url(re.compile(r"/playground\?"))
    assert query(page) == {"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"}
    assert metric(page, "NDCG") == "0.8184"
    # documents 001 and 003 share this setup: their printed numbers beside the exact ones
    assert "001: 8.38 · 003: 8.37" in page.locator('[data-testid="stMetric"]').filter(has_text="IDCG").inner_text()


def test_example_button_reproduces_document_000(page, app_url):
    open_playground(page, app_url, "gain=exponential&k=2")
    page.get_by_role("button", name=re.compile(r"000 · 3, 2, 1, 3, 2")).click()
    page.wait_for_function("() => document.body.innerText.includes('000: 7.99')", timeout=30_000)
    done(page)
    assert (metric(page, "DCG"), metric(page, "IDCG"), metric(page, "NDCG")) == ("7.9923", "8.6925", "0.9194")
    # (3,2,1,3,2 is the playground's default ranking: the link leaves it out)
    assert query(page) == {"labels": "A,D,E,G,F", "discount": "jarvelin", "idcg": "list"}


def test_real_drag_changes_ndcg(page, app_url):
    open_playground(page, app_url, "rels=3,2,1,3,2")
    before = metric(page, "NDCG")
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
    assert page.get_by_label("Grades in ranked order", exact=True).input_value() == "1, 3, 2, 3, 2"


def test_drag_into_not_retrieved(page, app_url):
    open_playground(page, app_url, "rels=3,2,1&unretrieved=0")
    before = metric(page, "NDCG")
    items = cards(page)
    items.nth(0).drag_to(items.nth(3), steps=10)  # D1 (grade 3) onto the not-retrieved card D4
    after = wait_for_ndcg_change(page, before)
    q = query(page)
    assert q["rels"] == "2,1" and sorted(q["unretrieved"].split(",")) == ["0", "3"]
    assert after == f"{ndcg([2, 1], pool=[2, 1, 3, 0]):.4f}"


def test_keyboard_reorder(page, app_url):
    open_playground(page, app_url, "rels=3,2,1,3,2")
    before = metric(page, "NDCG")
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
    before = metric(page, "NDCG")
    down = page.get_by_role("button", name="Down", exact=True)
    down.focus()
    page.keyboard.press("Enter")  # the chosen item (D1) goes down one rank
    after = wait_for_ndcg_change(page, before)
    assert query(page)["rels"] == "2,3,1,3,2" and after == f"{ndcg([2, 3, 1, 3, 2]):.4f}"
    page.get_by_role("button", name="Up", exact=True).focus()
    page.keyboard.press("Enter")
    assert wait_for_ndcg_change(page, after) == before


def test_csv_download_names_its_variant_and_neutralises_formulas(page, app_url):
    open_playground(page, app_url, "rels=3,2,3,0,1,2&unretrieved=3,0&k=6&labels=%3D1%2B1,%2Bcmd,@SUM(1)")
    with page.expect_download() as info:
        page.get_by_role("button", name="CSV", exact=True).click()
    download = info.value
    assert download.suggested_filename == "ndcg_linear_standard_k6_judged.csv"
    text = open(download.path(), encoding="utf-8").read()
    assert "\"'=1+1\"" in text and "\"'+cmd\"" in text and "\"'@SUM(1)\"" in text
    lines = text.splitlines()
    assert "variant_gain" in lines[0] and lines[1].endswith('"linear","standard","2","6","judged"')


def test_screenshot(page, app_url):
    open_playground(page, app_url, "rels=3,2,3,0,1,2&unretrieved=3,0&k=6")
    assert metric(page, "NDCG") == "0.8184"
    page.wait_for_selector('[data-testid="stVegaLiteChart"] canvas, [data-testid="stVegaLiteChart"] svg')
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": int(min(height + 40, 4000))})
    settled(page)
    path = screenshot(page, "playground")
    assert path.stat().st_size > 50_000
