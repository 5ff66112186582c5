"""Live use never breaks a page (issue 36 item 5), in Debian's Chromium against a server whose log is read.

Streamlit 1.67's option widgets (selectbox, radio, multiselect, pills, segmented control) send back the
*label* the browser shows, and the server maps it to an option with the labels of its latest run.  A label
that changes between runs (the cutoff's "Whole list (5)" once the list has 6 items; every translated name
after a language switch) came back unknown: the raw label reached the page (a ValueError from ``int()``)
or the widget fell back to its default (the visitor's choice lost).  ``ui.widgets.option_widget`` and
``ui.state.restore_choice`` fix that at the cause; AppTest cannot show it (it sends values, not labels).

The regression journeys below are the reported ones; the monkey drives every page that takes input through
seeded random sequences of typing, choosing and pressing (the seed is printed on failure) and fails on an
error box, an exception element or any traceback or ERROR in the server's log.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.conftest import page_problems, settled, streamlit_server
from tests.browser.journey import done, query
from ui.i18n import catalogue

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


@pytest.fixture(scope="module")
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
