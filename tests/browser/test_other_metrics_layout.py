"""Top-N, Rating and ROC with long inputs on a projector (1024×768, sidebar open) and a phone (390×844):
nothing a user reads is cut off (metrics, buttons, selects, widget labels, headings, formulas) and nothing
runs off the right edge; no exception, no dialog.  Their default views in every language (and axe-core on
them): tests/browser/test_every_page.py.

Screenshots of the whole page go to test-artifacts/screenshots/layout_long_<page>_<device>.png.
"""
from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    PHONE,
    PROJECTOR,
    cut_off,
    overflowing,
    page_problems,
    screenshot,
    settled,
    wait_for_app,
)

PAGES = {"topn": 2, "rating": 3, "roc": 2}  # page -> charts it draws
DEVICES = {"projector": PROJECTOR, "phone": PHONE}


def _open(pg, url: str, charts: int) -> None:
    pg.goto(url)
    wait_for_app(pg)
    pg.wait_for_selector(".katex", timeout=30_000)
    expect(pg.locator('[data-testid="stVegaLiteChart"]')).to_have_count(charts, timeout=30_000)
    settled(pg)  # fonts and KaTeX settle


def _whole_page(pg, name: str, viewport: dict) -> None:
    """Screenshot of the whole page: Streamlit scrolls inside its main block, so the window is made as
    tall as the content for the shot (the width, and so the layout, stays the same)."""
    height = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    pg.set_viewport_size({"width": viewport["width"], "height": min(int(height) + 40, 12_000)})
    settled(pg)
    screenshot(pg, name)
    pg.set_viewport_size(viewport)


LONG = {
    # 40 users with long names, N = 40: grids and bars drawn in part, formulas wrapped and shortened
    "topn": {"users": "\n".join(f"utilisateur_numéro_{i:02d}: " + " ".join(f"item{j}" for j in range(40))
                                + f" | item{i}" for i in range(40)), "n": "40"},
    # a huge error: RMSE 7.0711e307, scaled working shown
    "rating": {"true": "1e308,0,3.14159,2.71828", "pred": "0,0,1,2"},
    # 200 samples: 101 steps, 10,000 pairs (no pair grid), long sums wrapped
    "roc": {"scores": ",".join(str(round(1 - i / 200, 3)) for i in range(200)),
            "labels": ",".join(str((i * 7) % 3 % 2) for i in range(200))},
}


@pytest.mark.parametrize("device", DEVICES)
def test_long_inputs_not_cut_off(make_page, app_url, device):
    viewport = DEVICES[device]
    pg = make_page(viewport=viewport)
    found = {}
    for name, query in LONG.items():
        charts = PAGES[name] - (1 if name == "roc" else 0)  # 10,000 pairs: the pair grid gives way to a caption
        _open(pg, f"{app_url}/{name}?{urlencode(query)}", charts)
        found[name] = page_problems(pg) + overflowing(pg) + cut_off(pg)
        _whole_page(pg, f"layout_long_{name}_{device}", viewport)
    assert found == {name: [] for name in LONG}
