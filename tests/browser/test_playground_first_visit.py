"""A first visit's rest of the playground arrives even when the browser asks for it during the first run.

A browser's first run of the playground ends after the numbers and cards (ui.pages.playground.defer_rest), and the
cards component asks for the rest (one more run) once its numbers are painted.  That request can reach the
server while the first run is still going: a fragment's rerun then waits for the run to end.  The first run
used to end with ``st.stop()``, which replaces a waiting rerun request with a stop: the page stayed without
its tables, formulas and link box (seen once on a busy machine, in
test_playground_cards.py::test_two_quick_drops_never_go_back).  This module's server slows the deferred
first run down (ui.pages.playground.SLOW_ENV), so the request always arrives during it.
"""
from __future__ import annotations

import pytest

from tests.browser.conftest import page_state, streamlit_server
from tests.browser.journey import copied_link, done, query
from ui.pages.playground import SLOW_ENV

#: How long the deferred first run waits before it ends: far longer than painting the cards takes.
SLOW_SECONDS = "3"


@pytest.fixture(scope="module")
def slow_first_run_url():
    with streamlit_server(env={SLOW_ENV: SLOW_SECONDS}) as url:
        yield url


def test_the_rest_comes_when_asked_for_before_the_first_run_ends(page, slow_first_run_url):
    page.goto(f"{slow_first_run_url}/playground?rels=3,2,1&k=2")
    page.wait_for_selector(".cards[data-cards-ready='1']")
    done(page)  # the link box, the page's last element, is there: the rest came
    runs = page_state(page)["runs"]
    # the page's first request, then the cards' request for the rest, both before the first run ended
    assert runs["log"][:3] == ["request", "request", "finish"], runs
    assert runs["requests"] == 2 and runs["finishes"] == 2, runs
    link = copied_link(page)
    assert "rels=3%2C2%2C1" in link or "rels=3,2,1" in link, link
    assert query(page)["k"] == "2"
    assert page.get_by_test_id("pg_variants").count() == 1  # the tables of the rest
