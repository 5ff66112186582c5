"""The playground in Debian's Chromium: the journey (a later visitor's link, a change, leave and come back,
the copied link in a fresh context), the move buttons, an example button, a CSV download, and a screenshot.
Dragging the cards (mouse, touch, keyboard) and the numbers while a card moves: test_playground_cards.py."""
from __future__ import annotations

import re

from metrics.ndcg import ndcg
from tests.browser.conftest import screenshot, settled
from tests.browser.journey import copied_link, done, fill, go_via_sidebar, query, visit


def metric(page, label: str) -> str:
    """A headline number as shown (the cards component draws them: CG, DCG, IDCG, NDCG)."""
    key = label.lower()
    return page.locator(f'.num[data-key="{key}"] .val').inner_text().strip()


def wait_for_ndcg_change(page, before: str) -> str:
    page.locator(".num[data-key='ndcg'] .val").filter(has_not_text=before).wait_for(timeout=30_000)
    done(page)
    return metric(page, "NDCG")


def open_playground(page, app_url, q: str):
    visit(page, f"{app_url}/playground?{q}")
    page.wait_for_selector(".cards[data-cards-ready='1']")


def test_journey(make_page, app_url, warmed):
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
    other = make_page(fresh=True)
    visit(other, link)
    assert other.get_by_label("Grades in ranked order", exact=True).input_value() == "2.1234567, 3"
    assert metric(other, "NDCG") == shown and metric(other, "DCG") == metric(page, "DCG")


def test_root_forwards_to_the_playground_with_its_query(make_page, app_url, warmed):
    page = make_page()
    visit(page, f"{app_url}/?rels=3,2,3,0,1,2&unretrieved=3,0&k=6")
    page.wait_for_url(re.compile(r"/playground\?"))
    assert query(page) == {"rels": "3,2,3,0,1,2", "unretrieved": "3,0", "k": "6"}
    assert metric(page, "NDCG") == "0.8184"
    # documents 001 and 003 share this setup: their printed numbers beside the exact ones
    assert "001: 8.38 · 003: 8.37" in page.locator('.num[data-key="idcg"]').inner_text()


def test_example_button_reproduces_document_000(page, app_url):
    open_playground(page, app_url, "gain=exponential&k=2")
    page.get_by_role("button", name=re.compile(r"000 · 3, 2, 1, 3, 2")).click()
    page.locator('.num[data-key="dcg"] .printed').filter(has_text="000: 7.99").wait_for(timeout=30_000)
    done(page)
    assert (metric(page, "DCG"), metric(page, "IDCG"), metric(page, "NDCG")) == ("7.9923", "8.6925", "0.9194")
    # (3,2,1,3,2 is the playground's default ranking: the link leaves it out)
    assert query(page) == {"labels": "A,D,E,G,F", "discount": "jarvelin", "idcg": "list"}


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
