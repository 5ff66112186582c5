"""Nothing a teacher points at is cut off: the five NDCG pages on a projector (1024×768, sidebar open), at
1280×800 zoomed to 150 % (853×533 CSS pixels, sidebar open) and on a phone (390×844), in English, Simplified
and Traditional Chinese, and Korean.  On the projector, the same load is checked for accessibility
(:func:`tests.browser.a11y.check_page`).
Every metric, button, select value, label, heading, formula and message fits its box
(``overflowing``: scrollWidth against clientWidth; ``cut_off``: every text line, field value and formula against
each box that clips it and the window's edges), every table and formula is whole (``not_whole``: no table
or formula cut off or scrolled sideways, no word split across lines, no Chinese column squeezed to a character
a line), with no exception and no dialog.  Present's printed-vs-exact table and its formula slide on a
projector: :func:`test_present_tables_and_formulas_on_a_projector`.  A screenshot of each view goes to
test-artifacts/screenshots (look at them)."""
from __future__ import annotations

import pytest

from tests.browser.a11y import axe_version, check_page, rendered
from tests.browser.conftest import PHONE, PROJECTOR, cut_off, not_whole, overflowing, page_problems, screenshot, settled
from tests.browser.journey import visit

ZOOMED = {"width": 853, "height": 533}  # 1280×800 at 150 %
VIEWPORTS = {"projector": PROJECTOR, "zoomed": ZOOMED, "phone": PHONE}
# Each page with what a teacher shows: the documents' setups, a sheet with findings, an exercise.
PAGES = {
    "playground": "playground?rels=3,2,3,0,1,2&unretrieved=3,0&k=6&discount=jarvelin",
    "worked_examples": "worked_examples?doc=003",
    "variants": "variants?flip_first=linear/jarvelin/judged",
    "check": "check?discount=jarvelin&gain=exponential",
    "practice": "practice?seed=42&difficulty=hard",
}


# every view below is a later visitor's (the worker's server has served one before)
pytestmark = pytest.mark.usefixtures("warmed")


# One load per page serves both desktop sizes (the projector, then the same page resized to the zoomed
# window: both keep the sidebar open, and the layout follows the window); a phone opens the page itself,
# as its sidebar starts collapsed only on a load at phone width.
DEVICES = {"desktop": ("projector", "zoomed"), "phone": ("phone",)}


@pytest.mark.parametrize("device", list(DEVICES))
@pytest.mark.parametrize("lang", ["en", "zh", "zh-Hant", "ko"])
def test_nothing_is_cut_off(make_page, app_url, device, lang):
    views = DEVICES[device]
    page = make_page(viewport=VIEWPORTS[views[0]])
    problems, a11y = {}, []
    for name, path in PAGES.items():
        visit(page, f"{app_url}/{path}&lang={lang}")
        if device == "desktop":  # the same load serves tests/browser/test_a11y.py's checks
            rendered(page)
            a11y += check_page(page, name, lang, f"{name} [{lang}]")
        for viewport in views:
            page.set_viewport_size(VIEWPORTS[viewport])
            settled(page)
            if viewport != "phone":  # the sidebar is open (it takes its share of the width)
                assert page.get_by_test_id("stSidebar").bounding_box()["width"] > 200
            if name == "variants":  # the formula grid: each cell names its discount once the columns stack
                stacked = viewport == "phone"
                assert page.locator('[class*="st-key-stacked_va_"]').first.is_visible() == stacked, viewport
                assert page.locator(".st-key-stackhead_va_formulas").is_visible() != stacked, viewport
            found = overflowing(page) + not_whole(page) + cut_off(page)
            if found:
                problems[f"{name} {viewport}"] = [x.replace("\n", "")[:120] for x in found]
            assert page_problems(page) == []
            height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
            page.set_viewport_size({"width": VIEWPORTS[viewport]["width"], "height": int(min(height + 40, 6000))})
            settled(page)
            screenshot(page, f"layout_{name}_{viewport}_{lang}")
    assert problems == {}
    assert not a11y, f"axe-core {axe_version()}:\n" + "\n".join(a11y)


# ---- Present on a projector: the document's printed numbers and the formula on the first screen -----------
@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_present_tables_and_formulas_on_a_projector(make_page, app_url, lang):
    """Issue 36: at 1024×768 the printed-vs-exact table of the IDCG and NDCG steps was below the fold, and Present
    had no formula in symbols.  For every document's example: the IDCG step, → the NDCG step, → the formula step;
    each table whole and on screen (its bottom within 768 px), each formula whole and on screen."""
    from metrics.lessons.examples import DOCUMENTS
    from ui.pages.present.link import example_key, lecture_from_values
    from ui.pages.present.slides import slide, steps

    page = make_page(viewport=PROJECTOR)
    problems = {}
    for doc in DOCUMENTS:
        lecture = lecture_from_values({"present_doc": example_key(doc)})[0]
        kinds = [s.kind for s in steps(lecture)]
        first = kinds.index("idcg") + 1
        page.goto(f"{app_url}/present?doc={doc}&step={first}&lang={lang}")
        settled(page)
        page.wait_for_function("() => new URLSearchParams(location.search).get('step') !== null")
        for step in (first, first + 1, first + 2):  # IDCG, NDCG, the formula
            if step > first:
                page.keyboard.press("ArrowRight")
                page.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{step}'")
                settled(page)
            s = slide(lecture, step, lang)
            found = overflowing(page) + not_whole(page)
            if s.printed:
                # the step before may have drawn its table in another place: wait until it has left
                page.wait_for_function("() => document.querySelectorAll('[data-testid=\"nl-printed\"]').length === 1")
                box = page.get_by_test_id("nl-printed").bounding_box()
                if box is None or box["y"] + box["height"] > PROJECTOR["height"]:
                    found.append(f"printed-vs-exact table below the fold: {box}")
            if s.kind == "formula":
                formulas = page.locator(".st-key-present_formulas .katex-display")
                assert formulas.count() == 3, doc
                for i in range(3):
                    box = formulas.nth(i).bounding_box()
                    if box["y"] + box["height"] > PROJECTOR["height"] or box["x"] + box["width"] > PROJECTOR["width"]:
                        found.append(f"formula {i + 1} off the first screen: {box}")
            assert page_problems(page) == []
            if found:
                problems[f"{doc} step {step} ({s.kind})"] = found
            screenshot(page, f"present_{doc}_{s.kind}_{lang}")
    assert problems == {}
