"""/match in a real browser: a shared link opens the page with its parameters, typing a new number updates
the libraries named, and the page shows no error in Korean either."""
from __future__ import annotations

from tests.browser.conftest import page_problems, screenshot, settled, wait_for_app


def test_match_page_from_a_link_and_typing(page, app_url):
    page.goto(f"{app_url}/match?rels=3,2,3,0,1,2&unretrieved=3,0&k=6&value=0.8184")
    wait_for_app(page)
    page.wait_for_selector('h1:has-text("Which convention gives my number?")', timeout=30_000)
    assert page.get_by_text("trec_eval's ndcg_cut with k=6 gives 0.818354").count() >= 1
    assert page.get_by_role("link", name="open in the playground").count() >= 1
    # type scikit-learn's number (IDCG from the list itself): scikit-learn is named, near misses change
    box = page.get_by_role("textbox", name="Your number")
    box.fill("0.9608")
    box.press("Enter")
    page.wait_for_selector("text=scikit-learn's ndcg_score with k=6 gives 0.960808", timeout=30_000)
    assert page_problems(page) == []
    page.set_viewport_size({"width": 1400, "height": 2200})
    settled(page)
    path = screenshot(page, "match")
    assert path.stat().st_size > 40_000
    page.goto(f"{app_url}/match?lang=ko&rels=0,0,0&scores=3,2,1&value=1")
    wait_for_app(page)
    page.wait_for_selector('h1:has-text("어떤 규칙이 내 숫자를 만들까?")', timeout=30_000)
    assert page.get_by_text("LightGBM's ndcg").count() >= 1
    assert page_problems(page) == []
