"""Which convention? and the Run files page's "Where did this number come from?" in a real browser: document
000's 0.91 is first said to be the Järvelin form's 0.9194 cut off, a reported mean finds trec_eval back, and
nothing a user reads is cut off on a projector (1024×768, sidebar open) or a phone (390 px), in English,
Chinese and Korean."""
from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE, PROJECTOR, overflowing, page_problems, screenshot, settled
from tests.browser.journey import visit
from ui.i18n import t

pytestmark = pytest.mark.usefixtures("warmed")

DOC_000 = "match?rels=3,2,1,3,2&unretrieved=&k=&value=0.91"
RUN_FILES = "run_files?match=0.4620&match_measure=nDCG@10"
DEVICES = {"projector": PROJECTOR, "phone": PHONE}


def _explanations(page) -> list[str]:
    """The items of the first list after the "Most likely" heading, in order."""
    return page.evaluate("""(title) => {
      const h = [...document.querySelectorAll('h2')].find(e => e.innerText.trim().startsWith(title));
      let el = h && h.closest('[data-testid="stElementContainer"], .stElementContainer');
      while (el && !el.querySelector('li')) el = el.nextElementSibling;
      return el ? [...el.querySelectorAll('li')].map(li => li.innerText) : [];
    }""", t("match.explain", lang="en"))


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_nothing_is_cut_off(make_page, app_url, device, lang):
    page = make_page(viewport=DEVICES[device])
    problems = {}
    for name, path in (("match_doc000", DOC_000), ("run_files_match", RUN_FILES)):
        visit(page, f"{app_url}/{path}&lang={lang}")
        settled(page)
        if device == "projector":
            assert page.get_by_test_id("stSidebar").bounding_box()["width"] > 200
        if name == "match_doc000":
            assert page.get_by_role("heading", name=t("match.explain", lang=lang)).count() == 1
        else:
            title = page.get_by_role("heading", name=t("run_match.title", lang=lang))
            title.scroll_into_view_if_needed()
            assert title.count() == 1
            page.get_by_text(t("run_match.table_title", lang=lang)).click()  # open the conformance table
            settled(page)
        found = overflowing(page)
        if found:
            problems[name] = [x.replace("\n", "")[:120] for x in found]
        assert page_problems(page) == []
        height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
        page.set_viewport_size({"width": DEVICES[device]["width"], "height": int(min(height + 40, 8000))})
        settled(page)
        screenshot(page, f"{name}_{device}_{lang}")
        page.set_viewport_size(DEVICES[device])
        settled(page)
    assert problems == {}


def test_document_000_is_first_the_jarvelin_value_cut_off(page, app_url):
    visit(page, f"{app_url}/{DOC_000}")
    items = _explanations(page)
    assert items, "the Most likely list is shown"
    assert items[0].startswith("0.91 is 0.9194 cut off after 2 decimals, not rounded (rounded: 0.92)"), items[0]
    assert "Järvelin" in items[0]
    rarer = [i for i, text in enumerate(items) if "natural" in text.lower() or "log base e" in text.lower()
             or "2.718" in text]
    assert rarer and rarer[0] > 0, items


def test_a_reported_mean_is_found_back_and_typing_another_updates(page, app_url):
    visit(page, f"{app_url}/{RUN_FILES}")
    heading = page.get_by_role("heading", name=t("run_match.title"))
    heading.scroll_into_view_if_needed()
    page.wait_for_selector("text=trec_eval 9.0.8 gives 0.462025 over", timeout=60_000)
    box = page.get_by_role("textbox", name=t("run_match.value"))
    box.fill("0.4434")
    box.press("Enter")
    settled(page)
    page.wait_for_selector("text=ranx, make_comparable=True gives 0.443457", timeout=60_000)
    assert page_problems(page) == []
