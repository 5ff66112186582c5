"""An NDCG ×100 written without its % sign in a real browser: Which convention? says the tester's 81.84 is
trec_eval's 0.818354 ×100 first, Run files' Where did this number come from? finds a paper's 46.2 back, and the
longer sentences are whole on a projector (1024×768, sidebar open) and a phone (390 px) in English, Chinese and
Korean (measured in the browser; screenshots in test-artifacts/screenshots/times_100_*)."""
from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, PROJECTOR, overflowing, page_problems, screenshot, settled
from tests.browser.journey import visit
from ui.i18n import t

pytestmark = pytest.mark.usefixtures("warmed")

PATHS = {"match": "match?value=81.84", "run_files": "run_files?match=46.2&match_measure=nDCG@10"}


def _explanations(page, title: str) -> list[str]:
    """The items of the first list after the "Most likely" heading, in order."""
    return page.evaluate("""(title) => {
      const h = [...document.querySelectorAll('h2')].find(e => e.innerText.trim().startsWith(title));
      let el = h && h.closest('[data-testid="stElementContainer"], .stElementContainer');
      while (el && !el.querySelector('li')) el = el.nextElementSibling;
      return el ? [...el.querySelectorAll('li')].map(li => li.innerText) : [];
    }""", title)


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_times_100_sentences_are_whole(make_page, app_url, lang):
    page = make_page(viewport=PROJECTOR)
    problems = {}
    for device, viewport in (("projector", PROJECTOR), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        for name, path in PATHS.items():
            visit(page, f"{app_url}/{path}&lang={lang}")
            settled(page)
            if name == "match":
                items = _explanations(page, t("match.explain", lang=lang))
                assert items and items[0].startswith("81.84") and "81.8354" in items[0], items[:1]
            else:
                page.get_by_role("heading", name=t("run_match.title", lang=lang)).scroll_into_view_if_needed()
                page.get_by_text("46.2025").first.wait_for()
            found = overflowing(page)
            if found:
                problems[f"{name}_{device}"] = [x.replace("\n", "")[:120] for x in found]
            assert page_problems(page) == []
            height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
            page.set_viewport_size({"width": viewport["width"], "height": int(min(height + 40, 8000))})
            settled(page)
            screenshot(page, f"times_100_{name}_{device}_{lang}")
            page.set_viewport_size(viewport)
            settled(page)
    assert problems == {}
