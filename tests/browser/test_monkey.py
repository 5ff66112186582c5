"""Live use never breaks a page (issue 36 item 5), in Debian's Chromium against a server whose log is read.

Streamlit 1.67's option widgets (selectbox, radio, multiselect, pills, segmented control) send back the
*label* the browser shows, and the server maps it to an option with the labels of its latest run.  A label
that changes between runs (the cutoff's "Whole list (5)" once the list has 6 items; every translated name
after a language switch) came back unknown: the raw label reached the page (a ValueError from ``int()``)
or the widget fell back to its default (the visitor's choice lost).  ``ui.widgets.option_widget`` and
``ui.state.restore_choice`` fix that at the cause; AppTest cannot show it (it sends values, not labels).

The regression journeys below are the reported ones; the monkey drives every page that takes input through
seeded random sequences of typing, choosing and pressing, keys, the language pressed up to three times
without a wait, the browser's back/forward/reload and the sidebar (the seed is printed on failure), and a
live class: the lecturer in two tabs of one dashboard and two students, one often acting while another's run
is still going.  It fails on an error box, an exception element or any traceback or ERROR in the server's
log.  MONKEY_SEED, MONKEY_ACTIONS and MONKEY_RUNS (seeds per page) reproduce or widen a run; the quick
double language switch that once broke the teacher's page is reproduced deterministically, without a
browser's timing, in tests/ui/test_option_widget_relabel.py.
"""
from __future__ import annotations

import ast
import os
import random
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import PHONE, PROJECTOR, page_problems, settled, streamlit_server
from tests.browser.journey import done, query
from tests.conftest import PROFILE, examples
from ui.i18n import LANGUAGES, catalogue

EN, ZH = catalogue("en"), catalogue("zh")

#: What a server's log must never hold after a visitor's actions.
LOG_PROBLEM = re.compile(r"Traceback|\bERROR\b|Exception|Error:|\bWARNING\b")
#: The generic box a visitor sees when a script raised (client.showErrorDetails = "none").
ERROR_BOX_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('[data-testid="stException"]')) out.push(el.innerText.slice(0, 200));
  const text = document.body.innerText;
  if (/This app has encountered an error/.test(text)) out.push('error box: This app has encountered an error');
  return out;
}"""


class ServerLog:
    """The server's output file; :meth:`problems` lists the lines since :meth:`mark` that report a problem."""

    def __init__(self, path: Path):
        self.path, self._offset = path, 0

    def mark(self) -> None:
        self._offset = self.path.stat().st_size

    def text(self) -> str:
        with self.path.open("rb") as fh:
            fh.seek(self._offset)
            return fh.read().decode(errors="replace")

    def problems(self) -> list[str]:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", self.text())
        return [line.strip() for line in plain.splitlines() if LOG_PROBLEM.search(line)]


@pytest.fixture(scope="session")
def logged(tmp_path_factory):
    """A server of its own whose log this module reads: (base URL, :class:`ServerLog`)."""
    log = tmp_path_factory.mktemp("monkey") / "server.log"
    with streamlit_server(log=log) as url:
        yield url, ServerLog(log)


def clean(pg, log: ServerLog, what: str) -> None:
    """No error box or exception on the page, nothing wrong in the server's log."""
    on_page = pg.evaluate(ERROR_BOX_JS) + page_problems(pg)
    in_log = log.problems()
    assert not on_page and not in_log, f"{what}: page {on_page}; server log {in_log[:20]}\n{log.text()[-3000:]}"


def after(pg, log: ServerLog, what: str) -> None:
    """Wait for the end of the run an action started; fail at once on an error box (the page then never draws
    its link box, which :func:`tests.browser.journey.done` waits for)."""
    settled(pg)
    clean(pg, log, what)
    done(pg)


def open_list(pg, combobox) -> None:
    """Open a 1.67 select's list of options (a click, again if the first one only gave it focus)."""
    combobox.scroll_into_view_if_needed()
    for _ in range(3):
        combobox.click()
        try:
            pg.wait_for_selector('[role="listbox"]', timeout=5_000)
            return
        except Exception:  # noqa: BLE001 - the click closed a list another select had open: click again
            pg.keyboard.press("Escape")
    raise AssertionError(f"the list of {combobox.get_attribute('aria-label')} never opened")


def pick(pg, log: ServerLog, name: str, option: str) -> None:
    """Choose ``option`` of the select labelled ``name`` like a visitor (open the list, click the option)."""
    open_list(pg, pg.get_by_role("combobox", name=name, exact=True))
    pg.get_by_role("option", name=option, exact=True).click()
    after(pg, log, f"{name} := {option}")


def type_in(pg, log: ServerLog, label: str, text: str) -> None:
    """Type into a text field like a visitor (fill, Tab away)."""
    box = pg.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Tab")
    after(pg, log, f"{label} := {text!r}")


def shown(pg, name: str) -> str:
    return pg.get_by_role("combobox", name=name, exact=True).input_value()


def test_playground_settings_after_the_list_grew(make_page, logged):
    """The reported crash: 6 grades typed over the default 5, then the discount, the gain and the unretrieved
    grades changed; the whole list stays the cutoff and its label follows the list."""
    url, log = logged
    pg = make_page()
    log.mark()
    pg.goto(f"{url}/playground")
    done(pg)
    type_in(pg, log, EN["common.grades"], "3 2 3 0 1 2")
    clean(pg, log, "typed 6 grades")
    pick(pg, log, EN["common.discount"], "Järvelin–Kekäläinen discount")
    clean(pg, log, "discount after the list grew")
    pick(pg, log, EN["common.gain"], "Exponential gain")
    clean(pg, log, "gain after the list grew")
    type_in(pg, log, EN["playground.unretrieved"], "3 0")
    clean(pg, log, "unretrieved grades after the list grew")
    assert shown(pg, EN["common.k"]) == EN["common.k_whole"].format(n=8)  # 6 ranked and 2 judged, not retrieved
    assert "k" not in query(pg) and query(pg)["discount"] == "jarvelin"
    # and shorter again: k = 6 chosen, the list cut to 4 grades, then another setting
    pick(pg, log, EN["common.k"], "k = 6")
    type_in(pg, log, EN["common.grades"], "1 0 2 3")
    pick(pg, log, EN["common.discount"], "Standard discount")
    clean(pg, log, "a setting after the list shrank below k")
    assert query(pg)["k"] == "6"


def test_check_cutoff_after_the_list_grew(make_page, logged):
    url, log = logged
    pg = make_page()
    log.mark()
    pg.goto(f"{url}/check")
    done(pg)
    # document 003's sheet: 6 ranked grades and 2 judged but not retrieved, k = 6; the whole list instead
    pick(pg, log, EN["common.k"], EN["common.k_whole"].format(n=8))
    type_in(pg, log, EN["common.grades"], "3 2 3 0 1 2 1 1")
    pick(pg, log, EN["common.discount"], "Järvelin–Kekäläinen discount")
    clean(pg, log, "check: discount after the list grew")
    type_in(pg, log, EN["check.unretrieved"], "2")
    pick(pg, log, EN["common.gain"], "Exponential gain")
    clean(pg, log, "check: gain after the unretrieved grade")
    assert query(pg)["discount"] == "jarvelin" and query(pg)["gain"] == "exponential" and query(pg)["k"] == "all"
    assert shown(pg, EN["common.k"]) == EN["common.k_whole"].format(n=9)


def test_a_choice_survives_a_language_switch(make_page, logged):
    """Every translated option label changes with the language: the choice stays, shown in the new language,
    and the next change of another setting neither resets it nor breaks the page."""
    url, log = logged
    pg = make_page()
    log.mark()
    pg.goto(f"{url}/playground")
    done(pg)
    pick(pg, log, EN["common.discount"], "Järvelin–Kekäläinen discount")
    pg.get_by_test_id("stSidebar").get_by_role("radio", name="简体中文").click()
    pg.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    done(pg)
    assert shown(pg, ZH["common.discount"]) == ZH["registry.discount.jarvelin.name"]
    assert shown(pg, ZH["common.k"]) == ZH["common.k_whole"].format(n=5)
    pick(pg, log, ZH["common.log_base"], "10")
    clean(pg, log, "a setting after the language switch")
    assert query(pg)["discount"] == "jarvelin" and query(pg)["base"] == "10"
    assert shown(pg, ZH["common.discount"]) == ZH["registry.discount.jarvelin.name"]



# ---------------------------------------------------------------------------------------------
# The monkey
# ---------------------------------------------------------------------------------------------
def app_pages() -> tuple[str, ...]:
    """The url paths of app.py's PAGES (read from its source: importing app.py would run the app)."""
    tree = ast.parse((Path(__file__).resolve().parents[2] / "app.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "PAGES" for t in node.targets):
            return tuple(ast.literal_eval(node.value)[i][1] for i in range(len(node.value.elts)))
    raise AssertionError("app.py has no PAGES")


#: Every page of the app (each takes input: a link, a field, a button or a key).
PAGES = app_pages()
#: Actions per page: 24 under the ``ci`` profile (scripts/test.sh), 6 in the everyday ``dev`` loop, 240 with
#: ``thorough``; MONKEY_ACTIONS overrides.
ACTIONS = int(os.environ.get("MONKEY_ACTIONS", examples(24)))

#: What a visitor types, from a model of visitors (not from the app's parsers): rankings of other lengths in
#: every separator people use, hand-computed numbers, blanks, and junk.
SEPARATORS = (" ", ",", ", ", "，", "\t", "\n", "、", "  ")
JUNK = ("abc", "3 2 x", "-1", "1e999", "nan", "inf", "３，２，１", "<b>bold</b>", "[x](http://evil.example)",
        "$$\\huge x$$", "1,,2", "9" * 400, "10000", "0.5.5", "∞", "😀", "?", "81.96%", "3=7,1=1", "=1+2",
        "A: x y | x", "'; DROP TABLE x;--", "\u202e12", "0x1F", "1_000", "－３")


def typed_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:  # a ranking of another length: grades, sometimes decimals
        n = rng.choice((0, 1, 2, 3, 5, 6, 8, 12, 30))
        grades = [str(rng.choice((0, 1, 2, 3))) if rng.random() < 0.85 else f"{rng.uniform(0, 4):.{rng.randint(1, 3)}f}"
                  for _ in range(n)]
        return rng.choice(SEPARATORS).join(grades)
    if roll < 0.6:  # a hand-computed number as students write it
        x = rng.uniform(0, 12)
        return rng.choice((f"{x:.2f}", f"{x:.4f}", f"{x / 12:.3f}", f"{100 * x / 12:.2f}%", str(rng.randint(0, 20))))
    if roll < 0.7:
        return rng.choice(("", "   "))
    return rng.choice(JUNK)


#: Candidates for an action, each tagged ``data-monkey=<n>``: [n, kind, name].
CANDIDATES_JS = r"""
() => {
  for (const e of document.querySelectorAll('[data-monkey]')) e.removeAttribute('data-monkey');
  const main = document.querySelector('[data-testid="stMain"]');
  const out = [];
  if (!main) return out;
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[inert]');
  };
  const tag = (el, kind, name) => {
    if (!shown(el) || el.disabled || el.getAttribute('aria-disabled') === 'true') return;
    el.setAttribute('data-monkey', String(out.length));
    out.push([String(out.length), kind, (name || '').trim().slice(0, 60)]);
  };
  const name = (el) => el.getAttribute('aria-label') || el.innerText || el.value || '';
  for (const el of main.querySelectorAll('[data-testid="stTextInput"] input, [data-testid="stTextArea"] textarea'))
    tag(el, 'type', name(el));
  for (const el of main.querySelectorAll('[data-testid="stNumberInput"] input')) tag(el, 'number', name(el));
  for (const el of main.querySelectorAll('[role="combobox"]')) tag(el, 'select', name(el));
  for (const el of main.querySelectorAll('[data-testid="stRadio"] label')) tag(el, 'press', 'radio ' + name(el));
  for (const el of main.querySelectorAll('[data-testid="stCheckbox"] label')) tag(el, 'press', 'toggle ' + name(el));
  for (const el of main.querySelectorAll('[role="slider"]')) tag(el, 'slide', name(el));
  for (const el of main.querySelectorAll('[role="tab"]')) tag(el, 'press', 'tab ' + name(el));
  for (const el of main.querySelectorAll('details > summary')) tag(el, 'press', 'expander ' + name(el));
  for (const el of main.querySelectorAll('button')) {
    // the copy buttons of code boxes, the toolbars of tables and charts, a select's arrow and the help icons are
    // Streamlit's, not the app's
    if (el.closest('[data-testid="stCode"], [data-testid="stElementToolbar"], [data-testid="stDataFrame"], '
                   + '[data-testid="stFileUploader"], [data-testid="stSelectbox"], [data-testid="stMultiSelect"], '
                   + '[data-testid="stTooltipIcon"], summary, [data-testid="stNumberInput"]')
        || /^Help for /.test(el.getAttribute('aria-label') || ''))
      continue;
    tag(el, el.closest('[data-testid="stDownloadButton"]') ? 'download' : 'press', 'button ' + name(el));
  }
  return out;
}
"""


#: How often each kind of action is chosen (among the kinds the page offers at that moment).
KIND_WEIGHTS = {"type": 30, "number": 10, "select": 25, "press": 30, "slide": 5, "download": 3, "drag": 7}


#: Runs per page (each its own seed): MONKEY_RUNS, 1 by default.
RUNS = int(os.environ.get("MONKEY_RUNS", 1))


def monkey_seed(page: str, run: int = 0) -> int:
    """MONKEY_SEED (+ the run's number), else a fixed seed per page under the ``ci`` profile (reproducible
    runs), else a new one."""
    if os.environ.get("MONKEY_SEED"):
        return int(os.environ["MONKEY_SEED"]) + run
    if PROFILE == "ci":
        return 20261128 + PAGES.index(page) + 1000 * run
    return random.SystemRandom().randrange(2**32)


def on_app(pg) -> bool:
    """Whether the tab shows a page of the app (back can leave it: the tab's first entry is about:blank)."""
    return pg.url.startswith("http")


def act(pg, rng: random.Random, start: str) -> str:
    """One random action of a visitor on the page as it is now; returns what was done (for the failure's log).
    ``start`` is the page's address (the tab goes back to it when back or forward left the app)."""
    roll = rng.random()
    if roll < 0.07:  # the language, from the sidebar (every translated label changes); often twice quickly
        side = pg.get_by_test_id("stSidebar")
        if side.get_attribute("aria-expanded") == "false" or not side.is_visible():
            return "language (sidebar closed: nothing)"
        langs = [rng.choice(list(LANGUAGES)) for _ in range(rng.choice((1, 1, 2, 3)))]
        for lang in langs:  # no wait between the clicks: the next is sent while the first run is drawn
            side.get_by_role("radio", name=LANGUAGES[lang], exact=True).click(timeout=ACTION_TIMEOUT)
        return f"language {' then '.join(langs)}"
    if roll < 0.12:  # keys a presenter's clicker or a keyboard user sends to the page
        key = rng.choice(("ArrowRight", "ArrowLeft", "PageDown", "PageUp", "Space", "Home", "End"))
        pg.locator("body").press(key)
        return f"key {key}"
    if roll < 0.17:  # the browser's own buttons
        how = rng.choice(("reload", "back", "forward", "back"))
        getattr(pg, "go_back" if how == "back" else "go_forward" if how == "forward" else "reload")()
        if not on_app(pg):
            pg.goto(start)
            return f"{how} (left the app: {start} again)"
        return how
    if roll < 0.20:  # the sidebar folded or opened (the page's width changes under the visitor)
        expand = pg.get_by_test_id("stExpandSidebarButton")
        if expand.count() and expand.is_visible():
            expand.click(timeout=ACTION_TIMEOUT)
            return "sidebar opened"
        fold = pg.get_by_test_id("stSidebarCollapseButton")
        if not fold.count():
            return "sidebar (no button: nothing)"
        fold.locator("button").first.click(timeout=ACTION_TIMEOUT, force=True)  # shown on hover
        return "sidebar folded"
    candidates = pg.evaluate(CANDIDATES_JS)
    cards = pg.locator(".card-body")  # the playground's and Present's cards (in a shadow root)
    if cards.count():
        candidates.append(["", "drag", "a card"])
    if not candidates:
        return "nothing to act on"
    # a kind first (typing and choosing are what breaks pages), then one of its elements
    kinds = sorted({c[1] for c in candidates})
    kind = rng.choices(kinds, weights=[KIND_WEIGHTS[k] for k in kinds])[0]
    ident, kind, name = rng.choice([c for c in candidates if c[1] == kind])
    if kind == "drag":  # by keyboard: lift, move, drop (or put back)
        i = rng.randrange(cards.count())
        moves = [rng.choice(("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp")) for _ in range(rng.randint(1, 4))]
        end = rng.choice(("Space", "Enter", "Escape"))
        card = cards.nth(i)
        card.focus()
        for key in ("Space", *moves, end):
            card.page.keyboard.press(key)
        return f"card {i + 1}: Space {' '.join(moves)} {end}"
    try:
        return on_element(pg, rng, pg.locator(f'[data-monkey="{ident}"]'), kind, name)
    except PlaywrightTimeout:
        # the page redrew it between the look and the action (a fragment's refresh, a run's late elements)
        return f"{kind} {name!r}: gone or disabled before the action"


#: How long an action waits for its element (the page was idle when it was found).
ACTION_TIMEOUT = 5_000


def on_element(pg, rng: random.Random, el, kind: str, name: str) -> str:
    """Act on one element of the page found by :data:`CANDIDATES_JS`."""
    el.wait_for(state="visible", timeout=ACTION_TIMEOUT)
    if kind == "type":
        text = typed_text(rng)
        el.fill(text, timeout=ACTION_TIMEOUT)
        el.press("Tab", timeout=ACTION_TIMEOUT)
        return f"type {name!r} := {text[:60]!r}"
    if kind == "number":  # a number field takes only what a browser lets through: numbers, blanks
        text = rng.choice(("", "0", "1", "2", "3", "5", "-1", "-7", "2.5", "1e3", "10001", "99999999999999999999",
                           str(rng.randint(1, 50))))
        el.fill(text, timeout=ACTION_TIMEOUT)
        el.press(rng.choice(("Tab", "Enter")), timeout=ACTION_TIMEOUT)
        return f"number {name!r} := {text!r}"
    if kind == "select":
        el.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)
        el.click(timeout=ACTION_TIMEOUT)
        try:
            pg.wait_for_selector('[role="listbox"] [role="option"]', timeout=ACTION_TIMEOUT)
        except Exception:  # noqa: BLE001 - the click only closed another list: nothing chosen
            pg.keyboard.press("Escape")
            return f"select {name!r}: the list did not open"
        options = pg.locator('[role="listbox"] [role="option"]')
        n = options.count()
        if n == 0:  # the list closed again between the wait and the count (a rerun redrew the select)
            pg.keyboard.press("Escape")
            return f"select {name!r}: the list closed before a choice"
        i = rng.randrange(n)
        choice = options.nth(i).inner_text()
        options.nth(i).click(timeout=ACTION_TIMEOUT)
        return f"select {name!r} := {choice!r}"
    if kind == "slide":
        key = rng.choice(("ArrowRight", "ArrowLeft", "End", "Home"))
        el.press(key, timeout=ACTION_TIMEOUT)
        return f"slider {name!r} {key}"
    if kind == "download":
        with pg.expect_download(timeout=120_000) as download:  # a PDF handout is made when asked for
            el.click(timeout=ACTION_TIMEOUT)
        assert download.value.failure() is None, f"download {name!r} failed: {download.value.failure()}"
        return f"download {name!r}"
    el.click(timeout=ACTION_TIMEOUT)
    return f"press {name!r}"


@pytest.mark.parametrize("run", range(RUNS))
@pytest.mark.parametrize("page_key", PAGES)
def test_monkey(make_page, logged, page_key, run):
    """Random visitors' sequences on each page: never an error box, an exception or a traceback in the log."""
    url, log = logged
    seed = monkey_seed(page_key, run)
    rng = random.Random(seed)
    lang = rng.choice(list(LANGUAGES))
    viewport = rng.choice((PROJECTOR, PHONE, None))
    pg = make_page(viewport=viewport)
    start = f"{url}/{page_key}" + ("" if lang == "en" else f"?lang={lang}")
    steps = [f"open {start} at {viewport or 'desktop'}"]
    log.mark()
    try:
        pg.goto(start)
        settled(pg)
        clean(pg, log, "opened")
        for _ in range(ACTIONS):
            if f"/{page_key}" not in pg.url:  # an action opened another page: back to this one
                pg.goto(start)
                steps.append(f"back to {start}")
            steps.append(act(pg, rng, start))
            settled(pg)
            clean(pg, log, steps[-1])
    except Exception as exc:
        raise AssertionError(
            f"monkey on {page_key}, seed {seed} (MONKEY_SEED={seed} MONKEY_ACTIONS={ACTIONS} reproduces it):\n  "
            + "\n  ".join(steps) + f"\n{type(exc).__name__}: {exc}") from None
    finally:
        pg.close()
    print(f"monkey on {page_key}, seed {seed}:", *steps, sep="\n  ")  # shown with -s or -rP


# ---------------------------------------------------------------------------------------------
# The monkey in a live class: a lecturer with two tabs of the dashboard, students answering meanwhile
# ---------------------------------------------------------------------------------------------
#: Who acts how often in a live class (name, weight): the lecturer mostly on the projector's tab.
CLASS_ACTORS = (("teacher", 35), ("teacher's second tab", 15), ("student Ana", 25), ("student Bo", 25))


@pytest.mark.parametrize("run", range(RUNS))
def test_monkey_in_a_live_class(make_page, logged, run):
    """A class started from the worked example; the lecturer (projector, and a second tab of the same
    dashboard) and two students (phones, each their own browser) act at random — typing, choosing, pressing,
    reveal, next, the language, back/forward/reload — and often one acts while another's action is still
    running (a reveal while a student types).  Never an error box, an exception or a traceback in the log."""
    from tests.browser.test_classroom import join, start_class

    url, log = logged
    seed = monkey_seed("class", run)
    rng = random.Random(seed)
    log.mark()
    teacher = make_page(viewport=PROJECTOR, fresh=True)
    code = start_class(teacher, url)
    dashboard = teacher.url
    second = teacher.context.new_page()
    second.set_default_timeout(30_000)
    second.goto(dashboard)
    settled(second)
    joined = f"{url}/join?code={code}"
    students = []
    for name in ("Ana", "Bo"):
        pg = make_page(viewport=PHONE, fresh=True)
        join(pg, url, code, name)
        students.append(pg)
    actors = {"teacher": (teacher, dashboard), "teacher's second tab": (second, dashboard),
              "student Ana": (students[0], joined), "student Bo": (students[1], joined)}
    names, weights = zip(*CLASS_ACTORS)
    steps = [f"class {code}: teacher {dashboard}, students at {joined}"]
    try:
        for pg, _ in actors.values():
            clean(pg, log, "opened")
        for _ in range(ACTIONS):
            who = rng.choices(names, weights=weights)[0]
            pg, start = actors[who]
            if not on_app(pg) or urlsplit(pg.url).path != urlsplit(start).path:
                pg.goto(start)  # an action opened another page: back to the class
                steps.append(f"{who}: back to {start}")
            steps.append(f"{who}: {act(pg, rng, start)}")
            if rng.random() < 0.4:  # someone else acts before that action's run has finished
                other = rng.choice([n for n in names if n != who])
                opg, ostart = actors[other]
                if on_app(opg) and urlsplit(opg.url).path == urlsplit(ostart).path:
                    steps.append(f"  meanwhile {other}: {act(opg, rng, ostart)}")
            for name, (apg, _) in actors.items():
                settled(apg)
                clean(apg, log, f"{steps[-1]} (seen by {name})")
    except Exception as exc:
        raise AssertionError(
            f"monkey in a live class, seed {seed} (MONKEY_SEED={seed} MONKEY_ACTIONS={ACTIONS} reproduces it):\n  "
            + "\n  ".join(steps) + f"\n{type(exc).__name__}: {exc}") from None
    print(f"monkey in a live class, seed {seed}:", *steps, sep="\n  ")
