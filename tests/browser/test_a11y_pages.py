"""Keyboard only, with the focus indicator measured at every step, and what a screen reader announces
compared with what the page shows: charts (their description), headline numbers (st.metric) and tables
(the grid's cells for screen readers).

Keyboard journeys (Tab, Shift+Tab, Enter, Space, arrows, typing only; no mouse): change every setting of
Top-N (text area, number input, radio) and of Variants (select, slider); step the ROC curve with the
slider's keys; answer a Practice exercise; switch the language from the sidebar; follow a page link.
Every focused control is photographed focused and unfocused (tests/browser/a11y.py): at least a 2 px
ring's worth of pixels must change by 3:1 or more.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from metrics.lessons.exercises import make_exercise
from metrics.other.roc import auc, roc_steps
from tests.browser.a11y import focus_indicator, rendered, tab_to
from tests.browser.conftest import screenshot
from ui.i18n import catalogue
from ui.numbers import show

EN = catalogue("en")


def query(pg) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(pg.url).query).items()}


def wait_query(pg, key: str, value: str) -> None:
    """Wait until the address bar holds ``key=value`` (the rerun a change starts has written it), then for
    the page to be drawn."""
    pg.wait_for_function("([k, v]) => new URL(location.href).searchParams.get(k) === v", arg=[key, value])
    rendered(pg)


def ring(pg, where: str):
    found = focus_indicator(pg)
    assert found.visible, f"{where}: {found}"
    return found


def chart_names(pg) -> list[str]:
    return pg.eval_on_selector_all('[data-testid="stVegaLiteChart"]',
                                   "els => els.map(e => e.getAttribute('aria-label'))")


def test_topn_every_setting_by_keyboard(make_page, app_url):
    pg = make_page()
    pg.goto(f"{app_url}/topn")
    rendered(pg)
    # the users text area: select all, type two users, apply with Ctrl+Enter
    tab_to(pg, "el => el.tagName === 'TEXTAREA'")
    ring(pg, "users text area")
    pg.keyboard.press("Control+A")
    pg.keyboard.type("ann: a b c | a c\nben: x y z | q")
    pg.keyboard.press("Control+Enter")
    pg.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stVegaLiteChart\"]')]"
                         ".some(e => (e.getAttribute('aria-label') || '').includes('ann: hits at 1, 3'))")
    rendered(pg)
    grid = chart_names(pg)[0]
    assert "ann: hits at 1, 3" in grid and "ben: no hit" in grid, grid
    # N: the number input, typed and confirmed with Enter
    tab_to(pg, "el => el.type === 'number'")
    ring(pg, "number input N")
    pg.keyboard.press("Control+A")
    pg.keyboard.type("2")
    pg.keyboard.press("Enter")
    wait_query(pg, "n", "2")
    assert "top 2" in chart_names(pg)[0]
    # the precision denominator: a radio group, changed with the arrow keys
    tab_to(pg, "el => el.type === 'radio'")
    ring(pg, "radio")
    before = query(pg).get("prec", "list")
    pg.keyboard.press("ArrowRight")
    pg.wait_for_function("(b) => (new URL(location.href).searchParams.get('prec') || 'list') !== b", arg=before)
    rendered(pg)
    ring(pg, "radio after the change")
    screenshot(pg, "a11y_topn_keyboard")


def test_variants_select_and_slider_by_keyboard(make_page, app_url):
    pg = make_page()
    pg.goto(f"{app_url}/variants")
    rendered(pg)
    tab_to(pg, "el => el.getAttribute('role') === 'combobox' && el.getAttribute('aria-label') === 'Log base'")
    ring(pg, "log base select")
    pg.keyboard.press("ArrowDown")   # opens the list
    pg.wait_for_selector('[role="listbox"]')
    pg.keyboard.press("ArrowDown")
    pg.keyboard.press("Enter")
    pg.wait_for_function("() => new URL(location.href).searchParams.get('base') !== null")
    rendered(pg)
    assert query(pg)["base"] in ("e", "10")
    assert "(log base 2)" not in chart_names(pg)[0]
    tab_to(pg, "el => el.type === 'range'")
    ring(pg, "curve length slider")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    wait_query(pg, "n", "12")
    assert "positions 1 to 12" in chart_names(pg)[0]
    ring(pg, "slider after the change")


def test_roc_stepped_with_the_slider_keys_and_announced_as_shown(make_page, app_url):
    pg = make_page()
    pg.goto(f"{app_url}/roc?scores=0.9,0.8,0.7,0.6,0.55&labels=1,1,0,1,0")
    rendered(pg)
    tab_to(pg, "el => el.type === 'range'")
    ring(pg, "step slider")
    pg.keyboard.press("Home")
    wait_query(pg, "step", "0")
    pg.keyboard.press("ArrowRight")
    pg.keyboard.press("ArrowRight")
    wait_query(pg, "step", "2")
    ring(pg, "step slider after moving")
    name = chart_names(pg)[0]
    assert name.startswith("ROC curve drawn up to step 2 of 5"), name
    # the chart's "area so far" is the headline number beside it (AUC so far), as shown
    steps = roc_steps([0.9, 0.8, 0.7, 0.6, 0.55], [1, 1, 0, 1, 0])
    expected = steps.loc[steps["step"] == 2, "auc_so_far"].iloc[0]
    metric = pg.get_by_test_id("stMetric").filter(has_text=EN["roc.auc_so_far"])
    shown_value = metric.get_by_test_id("stMetricValue").inner_text().strip()
    assert float(shown_value) == float(show(expected))
    assert f"Area so far {show(expected)}" in name
    # the whole curve: the area equals AUC
    pg.keyboard.press("End")
    wait_query(pg, "step", "5")
    assert f"Area so far {show(auc([0.9, 0.8, 0.7, 0.6, 0.55], [1, 1, 0, 1, 0]))}" in chart_names(pg)[0]


def test_practice_answered_by_keyboard(make_page, app_url):
    pg = make_page()
    pg.goto(f"{app_url}/practice?seed=7&difficulty=easy")
    rendered(pg)
    solution = make_exercise(7, "easy").solution()
    decimals = make_exercise(7, "easy").decimals
    tab_to(pg, f"el => el.tagName === 'INPUT' && el.getAttribute('aria-label') === {EN['check.dcg']!r}")
    ring(pg, "DCG answer field")
    pg.keyboard.type(show(solution["dcg"], decimals))
    pg.keyboard.press("Enter")
    score = pg.get_by_test_id("stMetric").filter(has_text=EN["practice.score"])
    expected = EN["practice.score_value"].format(right=1, tried=1)
    pg.wait_for_function("(v) => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')]"
                         ".some(e => e.innerText.trim() === v)", arg=expected)
    rendered(pg)
    assert score.get_by_test_id("stMetricValue").inner_text().strip() == expected
    # on to the NDCG field with Tab, answered too
    tab_to(pg, f"el => el.tagName === 'INPUT' && el.getAttribute('aria-label') === {EN['check.ndcg']!r}")
    ring(pg, "NDCG answer field")
    pg.keyboard.type(show(solution["ndcg"], decimals))
    pg.keyboard.press("Enter")
    expected = EN["practice.score_value"].format(right=2, tried=2)
    pg.wait_for_function("(v) => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')]"
                         ".some(e => e.innerText.trim() === v)", arg=expected)
    rendered(pg)
    # the solution toggle: Space turns it on
    tab_to(pg, "el => el.getAttribute('role') === 'switch'")
    ring(pg, "show-solution toggle")
    pg.keyboard.press("Space")
    pg.wait_for_function("() => document.querySelector('[role=switch]').checked")
    rendered(pg)
    screenshot(pg, "a11y_practice_keyboard")


def test_language_and_pages_from_the_sidebar_by_keyboard(make_page, app_url):
    pg = make_page()
    pg.goto(f"{app_url}/rating")
    rendered(pg)
    assert pg.title() == f"{EN['common.nav.rating']} · NDCG Lab"
    # the language buttons: one Tab stop (the chosen language); the arrows only move the focus (WCAG 3.2.2)
    tab_to(pg, "el => el.getAttribute('role') === 'radio' && el.closest('[role=radiogroup]')"
               ".getAttribute('aria-label') === 'Language'")
    ring(pg, "language buttons")
    chosen = ("() => [...document.querySelectorAll('[role=radiogroup][aria-label=Language] [role=radio]')]"
              ".map((b) => [b.innerText, b.getAttribute('aria-checked'), b === document.activeElement])")
    assert pg.evaluate(chosen) == [["English", "true", True], ["简体中文", "false", False],
                                   ["繁體中文", "false", False], ["한국어", "false", False]]
    for _ in range(3):
        pg.keyboard.press("ArrowRight")
    assert pg.evaluate(chosen) == [["English", "true", False], ["简体中文", "false", False],
                                   ["繁體中文", "false", False], ["한국어", "false", True]]
    ring(pg, "language button 한국어 (focused, not chosen yet)")
    assert "lang" not in query(pg)
    pg.keyboard.press("Space")   # 한국어, the last language
    wait_query(pg, "lang", "ko")
    ko = catalogue("ko")
    pg.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert pg.title() == f"{ko['common.nav.rating']} · NDCG Lab"
    # the page menu: Shift+Tab back to the ROC link, Enter follows it (still in Korean)
    tab_to(pg, f"el => el.dataset.testid === 'stSidebarNavLink' && el.innerText.includes({ko['common.nav.roc']!r})",
           shift=True)
    ring(pg, "page link")
    pg.keyboard.press("Enter")
    pg.wait_for_url(re.compile(r"/roc"))
    rendered(pg)
    assert pg.title() == f"{ko['common.nav.roc']} · NDCG Lab"
    assert pg.evaluate("() => document.documentElement.lang") == "ko"


def announced_names(pg) -> list[tuple[str, str]]:
    """(role, name) of every node of Chromium's accessibility tree that a screen reader can reach."""
    cdp = pg.context.new_cdp_session(pg)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    return [(n.get("role", {}).get("value", ""), str(n.get("name", {}).get("value", ""))) for n in nodes
            if not n.get("ignored")]


def test_tables_read_the_numbers_they_show(make_page, app_url):
    """The grids' cells for screen readers hold at most 4 decimals: what the grid draws (Streamlit shows
    4 decimals, or the column's %.4f) rather than the raw float (0.9561125053043696).  On the way: the
    documents' quotes carry their own language."""
    pg = make_page()
    long = re.compile(r"\d\.\d{5,}")
    for path in ("worked_examples", "rating", "topn", "run_files"):
        pg.goto(f"{app_url}/{path}")
        rendered(pg)
        if path == "worked_examples":  # document 000's tab: Chinese quotes in an English page
            quotes = pg.locator('blockquote[lang="zh-Hans"]:visible')
            assert quotes.count() == 3, quotes.count()
            assert "DCG" in quotes.first.inner_text() and re.search(r"[\u4e00-\u9fff]", quotes.first.inner_text())
            assert pg.evaluate("() => document.documentElement.lang") == "en"
        # nothing a screen reader reaches carries more decimals than the page shows (charts are announced by
        # their description, their marks hidden; grids hold their displayed values)
        charts = [name for role, name in announced_names(pg) if role == "graphics-document"]
        assert charts and all(name and name != "Vega visualization" for name in charts), (path, charts)
        grids = pg.locator('[data-testid="stDataFrame"]:visible')
        tables = pg.locator('.nl-tbl:visible')  # ui/tables.py: HTML tables, their cells are what they show
        assert grids.count() + tables.count() > 0, path
        for i in range(tables.count()):
            raw = [c for c in tables.nth(i).locator("td, th").all_text_contents() if long.search(c)]
            assert raw == [], (path, "table", i, raw[:5])
        for i in range(grids.count()):
            grid = grids.nth(i)
            grid.scroll_into_view_if_needed()   # the grid writes its cells for screen readers once drawn
            grid.locator('[role="gridcell"]').first.wait_for(state="attached")
            cells = grid.locator('[role="gridcell"]').all_text_contents()
            raw = [c for c in cells if long.search(c)]
            assert raw == [], (path, i, raw[:5])
        raw = [(role, name[:120]) for role, name in announced_names(pg) if long.search(name)]
        assert raw == [], (path, raw[:5])


# One focused control of each kind per page (kind = its frame, test id, role and tag): Tab through the whole
# page and photograph the first of each kind, the playground's cards included.  Present's page and its slide
# controls are measured by the "present" helper's own tests.
KIND_JS = """() => {
  let el = document.activeElement, frame = '', host = null;
  for (;;) {  // into frames and shadow roots (a component's cards)
    if (el && el.tagName === 'IFRAME' && el.contentDocument) {
      frame = el.title || 'frame'; el = el.contentDocument.activeElement; }
    else if (el && el.shadowRoot && el.shadowRoot.activeElement) { host = el; el = el.shadowRoot.activeElement; }
    else break;
  }
  if (!el || el === document.body) return null;
  const tagged = el.closest('[data-testid]') || (host && host.closest('[data-testid]'));
  return {kind: [frame, tagged ? tagged.dataset.testid : '', el.getAttribute('role') || '', el.tagName].join('/'),
          frame, sortable: el.classList.contains('sortable-item') || el.classList.contains('card-body')};
}"""
FOCUS_PAGES = ["playground", "worked_examples", "variants", "match", "check", "practice", "topn", "rating", "roc",
               "run_files", "class", "join"]


#: More Tab stops than any page has controls (Run files, with its measures, significance, "Where did this number
#: come from?" and conformance sections, has well over 150): reaching it means the focus never left the page.
MAX_TAB_STOPS = 600


@pytest.mark.parametrize("path", FOCUS_PAGES)
def test_every_kind_of_control_shows_its_focus(make_page, app_url, path):
    pg = make_page(viewport={"width": 1280, "height": 900})
    problems, drag_cards = [], []
    pg.goto(f"{app_url}/{path}")
    rendered(pg)
    seen, stops = set(), 0
    while stops < MAX_TAB_STOPS:
        pg.keyboard.press("Tab")
        stops += 1
        now = pg.evaluate(KIND_JS)
        if now is None:          # past the last control: the focus left the page
            break
        if now["kind"] in seen:
            continue
        seen.add(now["kind"])
        found = focus_indicator(pg)
        if not found.visible and now["sortable"]:
            drag_cards.append(f"{path}: {found}")
        elif not found.visible:
            problems.append(f"{path}: {now['kind']}: {found}")
    assert stops < MAX_TAB_STOPS, f"{path}: Tab never left the page (a keyboard trap?)"
    assert len(seen) >= 3, (path, seen)  # the sweep reached the page's controls, not only the sidebar's
    assert not problems, "\n".join(problems)
    # The playground's cards (the "drag" helper's component, merged): measured like every control.
    assert drag_cards == [], drag_cards


def test_focus_on_presents_dark_theme(make_page, app_url):
    """Outside the slide (Present's own controls are the present helper's): the sidebar's open button and
    the page's link box keep a visible ring on the dark page."""
    pg = make_page()
    pg.goto(f"{app_url}/present?theme=dark")
    rendered(pg)
    for what in ("el => Boolean(el.closest('[data-testid=\"stExpandSidebarButton\"]'))",
                 "el => el.tagName === 'SUMMARY'"):
        tab_to(pg, what)
        ring(pg, f"present dark: {what}")


def test_run_files_significance_lesson_opened_and_read_by_keyboard(make_page, app_url):
    """The lesson is closed on arrival: Tab reaches its title, Enter opens it, and Tab then walks through
    everything focusable inside it (its three tables, its inner expander) with a visible ring at every stop,
    and leaves it again (no trap).  Its four charts are described for a screen reader."""
    title = catalogue("en")["significance.teach_title"]
    pg = make_page(viewport={"width": 1280, "height": 900})
    pg.goto(f"{app_url}/run_files")
    rendered(pg)
    tab_to(pg, f"el => el.tagName === 'SUMMARY' && el.innerText.includes({title!r})", limit=200)
    ring(pg, "the lesson's title")
    pg.keyboard.press("Enter")
    lesson = pg.locator("details", has=pg.locator("summary", has_text=title))
    pg.wait_for_function("(el) => el.open", arg=lesson.element_handle())
    rendered(pg)  # its charts are drawn once it is open
    inside = ("(title) => { const d = document.activeElement && document.activeElement.closest('details');"
              " return Boolean(d && d.querySelector('summary').innerText.includes(title)); }")
    grid = ("() => { const g = document.activeElement.closest('[data-testid=\"stDataFrame\"]');"
            " return g ? [...document.querySelectorAll('[data-testid=\"stDataFrame\"]')].indexOf(g) : -1; }")
    kinds, grids, stops = [], set(), 0
    while stops < 60:
        pg.keyboard.press("Tab")
        stops += 1
        if not pg.evaluate(inside, title):
            break
        now = pg.evaluate(KIND_JS)
        kinds.append(now["kind"])
        grids.add(pg.evaluate(grid))
        ring(pg, f"inside the lesson, stop {stops}: {now['kind']}")
    assert stops < 60, f"Tab never left the lesson: {kinds[-5:]}"
    assert len(grids - {-1}) == 3, kinds  # the data, the sign flips, the resamples
    names = lesson.locator('[data-testid="stVegaLiteChart"]').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label') || '')")
    assert len(names) == 4 and all(names), names
