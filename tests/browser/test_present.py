"""Present mode in a real Chromium: keys as a presenter's clicker sends them, the address follows the step,
nothing cut off at 1024×768, text contrast of at least 7:1 in both themes, the handout downloaded,
rendered to PNG and read back.

Expected numbers come from metrics/ (never typed in here); screenshots go to test-artifacts/screenshots.
"""
from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from metrics.lessons.examples import EXAMPLES, FORMULAS
from metrics.ndcg import breakdown, dcg, idcg, ndcg
from tests.browser.conftest import PROJECTOR, SCREENSHOTS, overflowing, page_problems, screenshot, settled, wait_for_app
from ui.numbers import show_trimmed
from ui.pages.present.link import lecture_from_example
from ui.pages.present.slides import announcement, slide, steps

EX = EXAMPLES["000-graded"]  # document 000: 3, 2, 1, 3, 2 under Järvelin's discount
F = FORMULAS[EX.implied].variant.options
N_STEPS = len(steps(lecture_from_example(EX.key)))
SIDEBAR_WIDTH_JS = ("() => { const s = document.querySelector('[data-testid=stSidebar]');"
                    " return s ? s.getBoundingClientRect().width : 0 }")


def step_in_url(pg) -> int:
    return int(parse_qs(urlparse(pg.url).query)["step"][0])


KEYS_STATE_JS = "() => JSON.stringify({url: location.search, keys: window.__ndcgLabKeys || null})"


def wait_step(pg, n: int) -> None:
    try:
        pg.wait_for_function(f"() => new URLSearchParams(location.search).get('step') === '{n}'", timeout=30_000)
    except Exception as exc:  # say where the page is instead: which press was lost or counted twice
        raise AssertionError(f"step {n} never reached: {pg.evaluate(KEYS_STATE_JS)}") from exc
    settled(pg)


def title(pg) -> str:
    return pg.inner_text('[data-testid="stMainBlockContainer"] h1').strip()


def big_number(pg) -> str:
    return pg.inner_text('[data-testid="nl-number"]').strip()


def wait_keys(pg) -> None:
    """Until the key listener is attached to the page's document."""
    pg.wait_for_function("() => window.__ndcgLabKeys && window.__ndcgLabKeys.handler", timeout=30_000)


def wait_keys_idle(pg) -> None:
    """Until no press is waiting for the server and every run the page asked for has ended and been drawn.

    The status widget alone is not enough: Streamlit mounts it only 500 ms into a run, so a press the page
    took (or a step it should not have taken) is only certain once :func:`settled` holds."""
    pg.wait_for_function("() => window.__ndcgLabKeys && window.__ndcgLabKeys.presses.length === 0"
                         " && !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=30_000)
    settled(pg)


def open_present(make_page, app_url, query: str):
    pg = make_page(viewport=PROJECTOR)
    pg.goto(f"{app_url}/present?{query}")
    wait_for_app(pg)
    pg.wait_for_function("() => new URLSearchParams(location.search).has('step')", timeout=30_000)
    wait_keys(pg)
    return pg


def test_document_link_stepped_with_keys_to_ndcg(make_page, app_url):
    pg = open_present(make_page, app_url, "doc=000")
    assert step_in_url(pg) == 1
    assert page_problems(pg) == []
    # → / Space / PageDown forward: the address bar's step follows every press.
    keys = ["ArrowRight", " ", "PageDown"]
    step = 1
    while title(pg) != "NDCG":
        pg.keyboard.press(keys[step % 3])
        step += 1
        wait_step(pg, step)
        assert step <= N_STEPS, "NDCG never showed"
        if title(pg) == "DCG":
            assert big_number(pg) == show_trimmed(dcg(list(EX.relevances), **F))
        if title(pg) == "IDCG":
            assert big_number(pg) == show_trimmed(idcg(list(EX.relevances), **F))
    assert big_number(pg) == show_trimmed(ndcg(list(EX.relevances), **F))  # 0.9194
    printed = pg.inner_text('[data-testid="nl-printed"]')
    assert "0.91" in printed and show_trimmed(ndcg(list(EX.relevances), **F)) in printed  # beside, not "fixed"
    assert "Truncation" in printed
    # ← / PageUp back.
    pg.keyboard.press("ArrowLeft")
    wait_step(pg, step - 1)
    assert title(pg) == "IDCG"
    pg.keyboard.press("PageUp")
    wait_step(pg, step - 2)
    # A burst of presses while the server is busy: every one counts, none twice.
    for _ in range(3):
        pg.keyboard.press("ArrowRight")
    wait_step(pg, step + 1)
    assert title(pg) == "The formula"  # in symbols, the lecture's numbers written in (three KaTeX blocks)
    assert pg.locator(".st-key-present_formulas .katex-display").count() == 3
    pg.keyboard.press("ArrowRight")
    wait_step(pg, step + 2)
    assert title(pg) == "The other variants"
    assert page_problems(pg) == []


def test_buttons_move_and_space_on_a_focused_button_presses_it(make_page, app_url):
    pg = open_present(make_page, app_url, "doc=001&step=6")
    assert step_in_url(pg) == 6
    pg.get_by_role("button", name="Next").click()
    wait_step(pg, 7)
    pg.get_by_role("button", name="Back").click()
    wait_step(pg, 6)
    # Space on a focused button presses that button (Back: one step back), the slide does not move forward.
    pg.get_by_role("button", name="Back").focus()
    pg.keyboard.press(" ")
    wait_step(pg, 5)
    wait_keys_idle(pg)
    assert step_in_url(pg) == 5
    bd = breakdown(list(EXAMPLES["001-main"].relevances), k=6, pool=EXAMPLES["001-main"].pool)
    assert big_number(pg) == show_trimmed(float(bd["dcg"].iloc[1]))  # position 2: DCG so far
    # A click with the mouse leaves the keys to the slide (a presenter's clicker after a click on Next).
    pg.get_by_role("button", name="Next").click()
    wait_step(pg, 6)
    pg.keyboard.press("PageDown")
    wait_step(pg, 7)
    # Back pressed with Space down to the first step: Back is disabled under the focus, which moves to the
    # slide's title (never to the page body).
    pg.get_by_role("button", name="Back").focus()
    for n in range(6, 0, -1):
        pg.keyboard.press(" ")
        wait_step(pg, n)
    pg.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H1'", timeout=30_000)


def _luminance(rgb) -> float:
    lin = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _ratio(a, b) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


COLOURS_JS = r"""
() => {
  const rgb = (s) => (s.match(/[\d.]+/g) || []).slice(0, 4).map(Number);
  const bg = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const out = [];
  const sel = 'h1, .nl-say, .nl-number, .nl-number-label, .nl-grade, .nl-label, .nl-line, .nl-term, .nl-facts, '
    + '.nl-sum, .nl-table td, .nl-table th, .nl-rowname, [data-testid="stCaptionContainer"], button p';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !(el.innerText || '').trim()) continue;
    if (el.closest('[data-testid="stSidebar"]')) continue;  // collapsed: not on screen
    const cs = getComputedStyle(el);
    out.push({cls: el.className || el.tagName, text: el.innerText.trim().slice(0, 30),
              color: rgb(cs.color).slice(0, 3), bg: bg(el), size: parseFloat(cs.fontSize),
              opacity: parseFloat(cs.opacity)});
  }
  return out;
}
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_projector_first_middle_last_step(make_page, app_url, theme):
    lecture = lecture_from_example("001-main")
    n = len(steps(lecture))
    middle = [i for i, s in enumerate(steps(lecture), start=1) if s.kind == "term"][2]
    for name, step in (("first", 1), ("middle", middle), ("last", n)):
        pg = open_present(make_page, app_url, f"doc=001&step={step}&theme={theme}")
        settled(pg)  # charts and the ideal order's animation settle
        assert step_in_url(pg) == step
        assert page_problems(pg) == []
        assert overflowing(pg) == [], (theme, name)
        # The sidebar is collapsed on this page: the lecture has the whole width.
        width = pg.evaluate(SIDEBAR_WIDTH_JS)
        assert width < 5
        # Nothing runs off the right edge either (cards, tables, charts).
        wide = pg.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= PROJECTOR["width"]
        items = pg.evaluate(COLOURS_JS)
        assert items
        for item in items:
            assert _ratio(item["color"], item["bg"]) >= 7, (theme, name, item)
            assert item["opacity"] == 1, item
        if step > 1:  # the current number
            numbers = [i for i in items if "nl-number" == i["cls"]]
            assert numbers and numbers[0]["size"] >= 28
        path = screenshot(pg, f"present_{theme}_{name}")
        assert path.stat().st_size > 10_000
        pg.close()


def test_ideal_order_with_unretrieved_items(make_page, app_url):
    lecture = lecture_from_example("001-main")
    ideal_step = next(i for i, s in enumerate(steps(lecture), start=1) if s.kind == "ideal")
    pg = open_present(make_page, app_url, f"doc=001&step={ideal_step}")
    settled(pg)
    rows = pg.locator(".nl-cards").all()
    assert len(rows) == 2
    ideal_grades = [c.strip() for c in rows[1].locator(".nl-grade").all_inner_texts()]
    bd = breakdown(list(EXAMPLES["001-main"].relevances), k=6, pool=EXAMPLES["001-main"].pool)
    # Every judged item, best first: the first k are the ideal ranking metrics/ computes, the others come after k.
    counted = [show_trimmed(x) for x in bd["ideal_relevance"].dropna()]
    assert ideal_grades[: len(counted)] == counted
    pool = sorted(EXAMPLES["001-main"].pool, reverse=True)
    assert ideal_grades == [show_trimmed(x) for x in pool]
    assert rows[1].inner_text().count("after k") == len(pool) - len(counted)
    assert "not retrieved" in rows[1].inner_text()
    screenshot(pg, "present_light_ideal")


def test_present_button_from_the_playground_and_back(make_page, app_url):
    pg = make_page(viewport={"width": 1280, "height": 900})
    pg.goto(f"{app_url}/playground?rels=3,2,3,0,1,2&unretrieved=3,0&k=6")
    wait_for_app(pg)
    pg.get_by_role("link", name="Present", exact=True).click()
    pg.wait_for_url(re.compile(r".*/present\?.*step=1.*"), timeout=30_000)
    wait_for_app(pg)
    assert title(pg) == "A ranked list"
    grades = [g.strip() for g in pg.locator(".nl-cards").first.locator(".nl-grade").all_inner_texts()]
    assert grades == ["3", "2", "3", "0", "1", "2"]
    side = SIDEBAR_WIDTH_JS
    settled(pg)  # the sidebar slides shut (a transition settled() waits out)
    assert pg.evaluate(side) < 5  # collapsed here
    pg.get_by_role("link", name="Open in playground").click()
    pg.wait_for_url(re.compile(r".*/playground\?.*"), timeout=30_000)
    wait_for_app(pg)
    assert pg.evaluate(side) > 100  # and back on the other pages
    assert page_problems(pg) == []


def test_handout_downloaded_rendered_and_read_back(make_page, app_url, tmp_path):
    from pypdf import PdfReader

    pg = open_present(make_page, app_url, "doc=000&step=12&lang=zh")
    with pg.expect_download(timeout=60_000) as info:
        pg.get_by_role("button", name="讲义 PDF（A4）").click()
    path = tmp_path / "handout.pdf"
    info.value.save_as(path)
    reader = PdfReader(str(path))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (210, 297)
    text = reader.pages[0].extract_text()
    for value in (dcg(list(EX.relevances), **F), idcg(list(EX.relevances), **F), ndcg(list(EX.relevances), **F)):
        assert show_trimmed(value) in text
    assert "NDCG 计算讲义" in text and "截断" in text  # the title and the verdict on 0.91, in Chinese
    # the footer's link is one a reader can type from paper: the address the lecturer opened, not a relative path
    assert f"{app_url.rstrip('/')}/present?doc=000" in text.replace("\n", "")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    out = SCREENSHOTS / "present_handout_zh_A4"
    subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", str(path), str(out)], check=True)
    assert out.with_suffix(".png").stat().st_size > 20_000


# ---- keyboard only: a lecture stepped through and back, every step announced, the focus always visible ------

STATUS = '[data-testid="nl-present-status"]'
FOCUSED_JS = r"""
() => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return {tag: 'BODY', visible: false};
  const r = e.getBoundingClientRect();
  const inView = r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0
    && r.left < innerWidth && r.top < innerHeight;
  return {tag: e.tagName, text: (e.getAttribute('aria-label') || e.innerText || '').trim().slice(0, 40),
          // on screen, and neither it nor an ancestor hidden, transparent or display:none
          visible: inView && e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}),
          key: (e.closest('[class*="st-key-present_"]') || {className: ''}).className.match(/st-key-(\S+)/)?.[1] || ''};
}
"""


def focused(pg) -> dict:
    return pg.evaluate(FOCUSED_JS)


def wait_said(pg, text: str) -> None:
    """Until the live region says ``text`` (the step just shown)."""
    try:
        pg.wait_for_function("([sel, text]) => { const r = document.querySelector(sel);"
                             " return r && r.textContent === text; }", arg=[STATUS, text], timeout=30_000)
    except Exception as exc:
        said = pg.evaluate(f"() => (document.querySelector('{STATUS}') || {{}}).textContent")
        raise AssertionError(f"the live region says {said!r}, not {text!r}") from exc


def tab_to(pg, key: str, *, back: bool = False, limit: int = 40) -> list[dict]:
    """Tab (or Shift+Tab) until the control in the container keyed ``key`` has the focus, each stop on the way
    visible on screen (nothing invisible takes the focus); the stops are returned."""
    stops = []
    for _ in range(limit):
        pg.keyboard.press("Shift+Tab" if back else "Tab")
        now = focused(pg)
        stops.append(now)
        assert now["visible"], f"an invisible tab stop on the way to {key}: {stops}"
        if now["key"] == key:
            return stops
    raise AssertionError(f"no tab stop reaches {key}: {stops}")


def ring_contrast(pg, selector: str) -> float:
    """The focus indicator's contrast, measured in screenshots: the pixels left of the focused control, on its
    middle row, against the same pixels with the control not focused (the page's background there)."""
    from PIL import Image

    el = pg.locator(selector)
    box = el.bounding_box()
    clip = {"x": max(box["x"] - 16, 0), "y": box["y"] + box["height"] / 2 - 1, "width": 16, "height": 2}
    focused_px = Image.open(io.BytesIO(pg.screenshot(clip=clip))).convert("RGB")
    pg.evaluate("(sel) => { window.__nlRefocus = document.activeElement; document.activeElement.blur(); }", selector)
    plain_px = Image.open(io.BytesIO(pg.screenshot(clip=clip))).convert("RGB")
    pg.evaluate("() => window.__nlRefocus.focus()")  # back where the keyboard left it (focus-visible kept)
    ring = [_ratio(focused_px.getpixel((x, 0)), plain_px.getpixel((x, 0))) for x in range(focused_px.width)]
    # 16 px out, past the ring and its halo (the page's own colour): the page is the same focused or not
    assert _ratio(focused_px.getpixel((0, 0)), plain_px.getpixel((0, 0))) < 1.1
    return max(ring)


def run_axe(pg) -> list[str]:
    """axe-core (the copy pinned by axe-playwright-python, from disk) at WCAG 2.1 A and AA on the page: one line
    per violation node."""
    import axe_playwright_python

    source = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
    if not pg.evaluate("() => typeof window.axe !== 'undefined'"):
        pg.evaluate(source)
    found = pg.evaluate("""async () => {
      const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
                                         resultTypes: ['violations']});
      return r.violations.flatMap(v => v.nodes.map(n => v.id + ': ' + n.target.join(' ') + ' ' + n.html.slice(0, 120)));
    }""")
    return found


def expected_in_region(kind: str) -> list[str]:
    """Numbers the live region must say at a step of document 000's lecture, from metrics/."""
    rels = list(EX.relevances)
    return {"dcg": [show_trimmed(dcg(rels, **F))], "idcg": [show_trimmed(idcg(rels, **F))],
            "ndcg": [show_trimmed(ndcg(rels, **F))], "ranking": [show_trimmed(x) for x in rels]}.get(kind, [])


def test_keyboard_only_lecture_with_every_step_announced(make_page, app_url):
    lecture = lecture_from_example(EX.key)
    all_steps = steps(lecture)
    pg = open_present(make_page, app_url, "doc=000")
    said = []
    # Forward with the keys (nothing focused: the slide takes them), every step announced with its numbers.
    for i, step in enumerate(all_steps, start=1):
        if i > 1:
            pg.keyboard.press("ArrowRight" if i % 2 else "PageDown")
            wait_step(pg, i)
        text = announcement(slide(lecture, i, "en"), "en")
        wait_said(pg, text)
        assert text.startswith(f"Step {i} of {N_STEPS}: {title(pg)}.")
        for number in expected_in_region(step.kind):
            assert number in text
        said.append(text)
        if step.kind in ("ranking", "variants"):  # the first slide and the variants table: nothing for axe
            found = run_axe(pg)
            assert found == [], "\n".join(found)
    assert len(set(said)) == N_STEPS
    region = pg.locator(STATUS)
    assert (region.get_attribute("role"), region.get_attribute("aria-live")) == ("status", "polite")
    assert region.get_attribute("aria-label") == "Lecture step" and region.get_attribute("lang") == "en"
    # ... and back with ← / PageUp.
    for i in range(N_STEPS - 1, 0, -1):
        pg.keyboard.press("ArrowLeft" if i % 2 else "PageUp")
        wait_step(pg, i)
        wait_said(pg, said[i - 1])
    # Tab from the top of the page to Next: every stop is on screen (the collapsed sidebar takes none).
    stops = tab_to(pg, "present_next")
    assert [stop["tag"] for stop in stops].count("A") <= 2, stops  # skip link at most: no sidebar links
    assert ring_contrast(pg, ".st-key-present_next button") >= 3
    screenshot(pg, "present_keyboard_next_focused")
    # Next pressed with Space and Enter: the focus stays on it.
    pg.keyboard.press(" ")
    wait_step(pg, 2)
    # → with the keyboard on a control is the control's (a button: nothing), not the slide's: not counted.
    presses_before = pg.evaluate("() => window.__ndcgLabKeys.seq")
    pg.keyboard.press("ArrowRight")
    assert pg.evaluate("() => window.__ndcgLabKeys.seq") == presses_before
    pg.keyboard.press("Enter")
    wait_step(pg, 3)
    wait_keys_idle(pg)
    assert step_in_url(pg) == 3 and focused(pg)["key"] == "present_next"
    for i in range(4, N_STEPS + 1):
        pg.keyboard.press(" ")
        wait_step(pg, i)
    wait_said(pg, said[-1])
    # At the last step Next is disabled under the focus: the slide's title takes it, never the page body.
    pg.wait_for_function("() => document.activeElement && document.activeElement.tagName === 'H1'", timeout=30_000)
    assert focused(pg)["text"] == title(pg) == "The other variants"
    assert ring_contrast(pg, '[data-testid="stMainBlockContainer"] h1') >= 3
    # With the focus on the title (not a control) the slide takes the keys.
    pg.keyboard.press("ArrowLeft")
    wait_step(pg, N_STEPS - 1)
    # Back with the keyboard: Space presses it, the slide does not move forward.
    tab_to(pg, "present_back")
    assert ring_contrast(pg, ".st-key-present_back button") >= 3
    pg.keyboard.press(" ")
    wait_step(pg, N_STEPS - 2)
    wait_said(pg, said[N_STEPS - 3])
    # A handout button with Space: the handout downloads, the slide stays.
    tab_to(pg, "present_handout_a4")
    with pg.expect_download(timeout=60_000) as info:
        pg.keyboard.press(" ")
    assert info.value.suggested_filename.endswith("_A4.pdf")
    wait_keys_idle(pg)
    assert step_in_url(pg) == N_STEPS - 2
    found = run_axe(pg)
    assert found == [], "\n".join(found)
    # The dark theme from the keyboard: the focus ring keeps 3:1 there too, axe finds nothing.
    tab_to(pg, "present_theme_toggle", back=True)
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => new URLSearchParams(location.search).get('theme') === 'dark'", timeout=30_000)
    wait_keys_idle(pg)
    assert focused(pg)["key"] == "present_theme_toggle"
    assert ring_contrast(pg, ".st-key-present_theme_toggle button") >= 3
    screenshot(pg, "present_keyboard_dark_theme_focused")
    found = run_axe(pg)
    assert found == [], "\n".join(found)
    assert page_problems(pg) == []
