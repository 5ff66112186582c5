"""What the teacher reads on a projector (1024×768, the sidebar open) in en/zh/ko, measured in Chromium:

* the setup form with a ranking as the source: every select shows its whole chosen option, and every option of
  the two longest selects is whole in its open list;
* the dashboard's answer charts: every bar's label starts with its verdict's mark (✓ ✗ ↪ …), also the label
  of a long list of terms that the axis cuts, and a DCG carried forward from the student's own wrong terms is
  marked ↪, not ✗;
* the class grid's Student column holds every nickname whole (the longest ones at the end of the roster,
  where the data grid's own sizing never looks), measured with the browser's own text metrics at the grid's
  font.
"""
from __future__ import annotations

import pytest

from classroom.store import Client, Store
from classroom.tasks import FIELDS, example_task
from metrics.lessons.diagnose import MARKS
from tests.browser.conftest import PROJECTOR, page_problems, screenshot, wait_for_app
from tests.browser.test_classroom import clipped_text
from tests.classroom.servers import sqlite_app
from ui.i18n import catalogue
from ui.tables import name_column_px

LOCALES = {"en": "en-US", "zh": "zh-CN", "ko": "ko-KR"}

#: The tester's sheet (log2(i) for log2(i+1), position 1 undivided; built in tests/classroom/test_stats_carried.py)
#: and its exact sum; a long wrong list of terms; an unfinished one.
CARRIED_TERMS, CARRIED_DCG = "3 2 1.89 0 0.43 0.77", "8.09"
LONG_TERMS = "4.33 1.82 2.16 0 0.56 1.2"

#: Short names first (what the data grid sizes its column from), then the longest a nickname can be: 24
#: capitals, 24 CJK characters, 24 Hangul syllables, a link-like name, emoji families and flags.
NICKNAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo",
             "W" * 24, "漢字" * 12, "한국어" * 8, "[x](http://example.com/ab", "👨‍👩‍👧‍👦" * 5 + "🇰🇷🇨🇳🇫🇷🇩🇪🇯🇵"]

#: Each chart's answer labels: the axis labels that are not the count axis's numbers.
LABELS_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg')].map(svg =>
  [...svg.querySelectorAll('.role-axis-label text')].map(t => t.textContent).filter(t => !/^[0-9]+$/.test(t)))"""

#: The class grid (the data grid whose first column is the Student column).
GRID_JS = """(student) => [...document.querySelectorAll('[data-testid="stDataFrame"]')].find(
  g => (g.querySelector('th[aria-colindex="1"]') || {}).textContent === student)"""

TEXT_WIDTHS_JS = """([names, student]) => {
  const grid = (GRID)(student);
  const style = getComputedStyle(grid.querySelector('[style*="--gdg-base-font-style"]'));
  const prop = (name) => style.getPropertyValue(name).trim();
  const font = `${prop("--gdg-base-font-style")} ${prop("--gdg-font-family")}`;
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = font;
  return {font, widths: names.map(n => ctx.measureText(n).width)};
}""".replace("GRID", GRID_JS)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with sqlite_app(tmp_path_factory.mktemp("chart")) as running:
        yield running


def _options_cut(pg, label: str) -> list[str]:
    """Open the select labelled ``label``; the options whose text is cut in the open list."""
    pg.get_by_role("combobox", name=label).click()
    options = pg.get_by_role("option")
    options.first.wait_for()
    cut = options.evaluate_all("""(els) => els.filter(e => {
        const inner = e.querySelector('div, span') || e;
        return inner.scrollWidth > inner.clientWidth + 1 || e.scrollWidth > e.clientWidth + 1;
      }).map(e => e.innerText)""")
    pg.keyboard.press("Escape")
    return cut


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_the_setup_form_the_answer_charts_and_the_grid_are_whole_on_a_projector(make_page, server, lang):
    url, db_url, log = server
    cat = catalogue(lang)
    pg = make_page(viewport=PROJECTOR, fresh=True, locale=LOCALES[lang])

    # The setup form, a ranking as the source: the longest options chosen, so that each select shows them.
    pg.goto(f"{url}/class?source=ranking&discount=jarvelin&gain=exponential&idcg=judged&lang={lang}")
    wait_for_app(pg)
    assert pg.get_by_role("combobox", name=cat["classroom.idcg"]).is_visible()
    assert clipped_text(pg) == [], "setup"
    cut = _options_cut(pg, cat["common.discount"]) + _options_cut(pg, cat["classroom.idcg"])
    assert cut == [], cut
    screenshot(pg, f"classroom_setup_ranking_{lang}")

    # A class: the tester's carried-forward student, one who writes her DCG alone, a long wrong list, an
    # unfinished one; names shown.
    store = Store(db_url)
    info, key = store.create(example_task("003-blog"), fields=FIELDS)
    teacher = store.teacher(info.code, key)
    teacher.set_show_names(True)
    seats = [store.join(info.code, name, client=Client(f"chart-{lang}-{i}", f"198.51.100.{i + 1}"))[0]
             for i, name in enumerate(NICKNAMES)]
    seats[0].submit(1, "terms", CARRIED_TERMS, submission_id="a1")
    seats[0].submit(1, "dcg", CARRIED_DCG, submission_id="a2")
    seats[1].submit(1, "dcg", CARRIED_DCG, submission_id="b1")
    seats[2].submit(1, "terms", LONG_TERMS, submission_id="c1")
    seats[3].submit(1, "terms", "3 1.26", submission_id="d1")
    seats[4].submit(1, "dcg", "6.86", submission_id="e1")

    pg.goto(f"{url}/class?code={info.code}&key={teacher.new_link()}&lang={lang}")
    wait_for_app(pg)
    student = cat["classroom.col.student"]
    pg.wait_for_function(f"(student) => ({LABELS_JS})().length >= 2 && ({GRID_JS})(student)", arg=student,
                         timeout=60_000)
    wait_for_app(pg)

    labels = [label for chart in pg.evaluate(LABELS_JS) for label in chart]
    unmarked = [label for label in labels if label[:1] not in MARKS.values()]
    assert labels and unmarked == [], labels
    assert f"{MARKS['carried_forward']} {CARRIED_DCG}" in labels and f"{MARKS['wrong']} {CARRIED_DCG}" in labels
    long_label = next(label for label in labels if label.startswith(f"{MARKS['wrong']} {LONG_TERMS[:8]}"))
    assert long_label.startswith(MARKS["wrong"])  # cut or not, the mark stays
    assert any(label.startswith(f"{MARKS['unfinished']} 3 1.26") for label in labels), labels
    described = pg.locator('[data-testid="stVegaLiteChart"]')  # the chart's accessible name: its description
    names = " ".join(described.evaluate_all("els => els.map(e => e.getAttribute('aria-label') || '')"))
    assert f"{MARKS['carried_forward']} {CARRIED_DCG} ({cat['classroom.chart.carried_forward']})" in names, names

    pg.locator('[data-testid="stVegaLiteChart"]').first.scroll_into_view_if_needed()
    screenshot(pg, f"classroom_chart_{lang}")

    # The grid: each nickname, measured at the grid's own font, fits the Student column set for them.
    pg.evaluate_handle(GRID_JS, student).as_element().scroll_into_view_if_needed()
    pg.evaluate("() => document.fonts.ready.then(() => true)")
    measured = pg.evaluate(TEXT_WIDTHS_JS, [[*NICKNAMES, student], student])
    too_wide = {n: (w, name_column_px([n])) for n, w in zip([*NICKNAMES, student], measured["widths"])
                if w + 16 > name_column_px([n])}  # each name's own estimate holds it, padding included
    assert "Source Sans" in measured["font"] and too_wide == {}, (measured["font"], too_wide)

    assert clipped_text(pg) == [], "dashboard"
    screenshot(pg, f"classroom_grid_{lang}")
    assert page_problems(pg) == []
    assert "Traceback" not in log.read_text(errors="replace")
    pg.close()
