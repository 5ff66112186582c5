"""Present on a slow server: every key press moves exactly one step, in order, however far the server lags.

The module's own Streamlit server runs with ``NDCG_LAB_PRESENT_SLOW`` (ui.pages.present.navigation.SLOW_ENV): every
run of the Present page sleeps after drawing the key listener, so presses arrive while runs are still going
(each new press interrupts the run in progress, and the browser's address lags behind the server's).  Bursts
are sent with no pause and with pauses close to a run's length (the timing that lost presses before), mixed
with Next and Back clicks.  Nothing waits on time: every wait is for the address and the page to show a step.
"""
from __future__ import annotations

import os
from contextlib import ExitStack
from urllib.parse import parse_qs, urlparse

import pytest

from tests.browser.conftest import PROJECTOR, page_problems, streamlit_server, wait_for_app
from ui.pages.present.link import lecture_from_example
from ui.pages.present.navigation import SLOW_ENV
from ui.pages.present.slides import steps

SLOW_SECONDS = "0.6"
N_STEPS = len(steps(lecture_from_example("000-graded")))  # 13
STATE_JS = "() => JSON.stringify({url: location.search, keys: window.__ndcgLabKeys || null})"


@pytest.fixture(scope="module")
def slow_url():
    """A server whose Present runs each take at least SLOW_SECONDS (the variable is read by the server only:
    it is set while the server starts, then put back)."""
    before = os.environ.get(SLOW_ENV)
    with ExitStack() as stack:
        os.environ[SLOW_ENV] = SLOW_SECONDS
        try:
            url = stack.enter_context(streamlit_server())
        finally:
            if before is None:
                os.environ.pop(SLOW_ENV, None)
            else:
                os.environ[SLOW_ENV] = before
        yield url


def step_shown(pg) -> int:
    return int(parse_qs(urlparse(pg.url).query)["step"][0])


def settle_at(pg, n: int) -> None:
    """Until the address says step ``n``, no run is going, no press is waiting and the page shows step n."""
    try:
        pg.wait_for_function(
            """(n) => new URLSearchParams(location.search).get('step') === String(n)
                 && !document.querySelector('[data-testid="stStatusWidget"]')
                 && window.__ndcgLabKeys && window.__ndcgLabKeys.presses.length === 0
                 && window.__ndcgLabKeys.step === n""", arg=n, timeout=60_000)
    except Exception as exc:  # say where the page is: which press was lost or counted twice
        raise AssertionError(f"step {n} never settled: {pg.evaluate(STATE_JS)}") from exc


def open_slow(make_page, url: str, query: str):
    pg = make_page(viewport=PROJECTOR, fresh=True)
    pg.goto(f"{url}/present?{query}")
    wait_for_app(pg, timeout=60_000)
    pg.wait_for_function("() => window.__ndcgLabKeys && window.__ndcgLabKeys.handler", timeout=60_000)
    return pg


PACES = {
    # no pause at all: every press while the first one's run is still going
    "burst": "() => true",
    # as soon as the server has taken the previous press: the next one interrupts the run that took it
    "taken": "() => window.__ndcgLabKeys.presses.length === 0",
    # as soon as a run is going (the status widget): the press lands in the middle of it
    "running": "() => !!document.querySelector('[data-testid=\"stStatusWidget\"]')"
               " || window.__ndcgLabKeys.presses.length === 0",
}


def test_bursts_of_presses_on_a_slow_server_move_exactly_as_many_steps(make_page, slow_url):
    pg = open_slow(make_page, slow_url, "doc=000")
    settle_at(pg, 1)
    expected = 1
    bursts = [(["ArrowRight"] * 4, "burst"), (["ArrowRight", "PageDown", " ", "ArrowRight"], "taken"),
              (["ArrowLeft", "PageUp", "ArrowRight"], "running"), (["ArrowRight"] * 9 + ["ArrowLeft"] * 2, "burst"),
              (["ArrowLeft"] * 3 + ["ArrowRight"], "taken")]
    for keys, pace in bursts:
        for key in keys:
            pg.wait_for_function(PACES[pace], timeout=60_000)
            pg.keyboard.press(key)
            expected = max(1, min(N_STEPS, expected + (-1 if key in ("ArrowLeft", "PageUp") else 1)))
        settle_at(pg, expected)
        assert step_shown(pg) == expected
    assert expected == N_STEPS - 4
    assert page_problems(pg) == []


BUSY_JS = "(ms) => { setTimeout(() => { const end = performance.now() + ms; while (performance.now() < end) {} }, 0); }"


def test_a_press_while_the_browser_is_busy_is_not_undone_by_its_lagging_address(make_page, slow_url):
    """The way presses were lost on a loaded machine: the browser's main thread is busy (here: a script keeps
    it busy for 1.5 s, longer than the server's run) while the server answers a press and a second press is
    made.  When the thread is free, the browser handles the press (input first) before the server's new
    address, so the second press is sent with the address of two steps back; read as a new link, that address
    used to put the old step back."""
    pg = open_slow(make_page, slow_url, "doc=000")
    settle_at(pg, 1)
    expected = 1
    for _ in range(4):
        pg.keyboard.press("ArrowRight")
        pg.evaluate(BUSY_JS, 1500)  # load: the browser cannot take the server's answer for a while
        pg.keyboard.press("ArrowRight")  # handled when the thread is free, before that answer
        expected += 2
        settle_at(pg, expected)
    assert step_shown(pg) == expected == 9
    assert page_problems(pg) == []


def test_presses_and_button_clicks_mixed_on_a_slow_server(make_page, slow_url):
    pg = open_slow(make_page, slow_url, "doc=000&step=3")
    settle_at(pg, 3)
    nxt = pg.locator(".st-key-present_next button")
    back = pg.locator(".st-key-present_back button")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")  # 5
    nxt.click()  # 6 (the click is taken in its place, after the two presses)
    pg.keyboard.press("ArrowRight")  # 7
    settle_at(pg, 7)
    # Each click is one numbered press of the key listener (a click sent as Streamlit's one-shot button
    # trigger is dropped when the next press's request overtakes its run: ui/components/keys).
    assert pg.evaluate("() => window.__ndcgLabKeys.seq") == 4
    back.click()  # 6
    pg.keyboard.press("ArrowLeft")  # 5
    pg.keyboard.press("ArrowLeft")  # 4
    settle_at(pg, 4)
    assert step_shown(pg) == 4
    assert pg.evaluate("() => window.__ndcgLabKeys.seq") == 7
    assert page_problems(pg) == []
