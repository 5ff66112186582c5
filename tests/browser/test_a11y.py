"""WCAG 2.1 A/AA in a real browser: axe-core on every page in English, Simplified and Traditional Chinese and
Korean, and on Present in both themes (inside the component frames too), each page's own title and
``<html lang>``, every chart named by its description (not "Vega visualization"), every headline number
(st.metric) announced as one group named by its label and the value shown.

Any axe violation fails (:func:`tests.browser.a11y.check_page`).  The views the layout tests open on a
projector in every language are checked there, on that same load (tests/browser/test_layout.py: the five
NDCG pages; tests/browser/test_every_page.py: every other page, the classroom's with a class going on); this
module opens what they do not: the classroom's two forms before a class exists (the teacher's setup, the
student's code entry) and Present's dark theme.  One server for the session (``app_url``), one browser
context per language, one load per view.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.browser.a11y import axe_version, check_page, rendered

ROOT = Path(__file__).resolve().parents[2]


def app_pages() -> list[str]:
    """The page keys of app.py's PAGES table, in menu order (read from the source: one list of pages)."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "PAGES" for t in node.targets):
            return [row[1] for row in ast.literal_eval(node.value)]
    raise AssertionError("app.py has no PAGES table")


PAGES = app_pages()
LANGS = ["en", "zh", "zh-Hant", "ko"]
LOCALES = {"en": "en-US", "zh": "zh-CN", "zh-Hant": "zh-TW", "ko": "ko-KR"}
# Where a page needs a link to show its content (the rest open with their defaults).
LINKS = {"present": "present?step=9"}
# The forms a teacher and a student see before a class exists (the layout sweep opens both with a class on).
HERE = ["class", "join"]


def test_every_page_is_checked_in_every_language():
    """Each page of app.py is checked by axe on a projector load in the four languages: here, in the layout
    test of the NDCG pages or in the sweep of the others (their LANGS)."""
    from tests.browser import test_every_page, test_layout

    assert set(test_layout.PAGES) | set(test_every_page.PAGES) | set(HERE) == set(PAGES)
    assert test_every_page.LANGS == LANGS
    layout_langs = next(m.args[1] for m in test_layout.test_nothing_is_cut_off.pytestmark if m.args[0] == "lang")
    assert layout_langs == LANGS


def url(app_url: str, page: str, lang: str, extra: str = "") -> str:
    path = LINKS.get(page, page)
    params = [p for p in ((path.split("?", 1)[1] if "?" in path else ""), extra,
                          f"lang={lang}" if lang != "en" else "") if p]
    return f"{app_url}/{path.split('?', 1)[0]}" + ("?" + "&".join(params) if params else "")


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_passes_axe_with_its_own_title_and_language(make_page, app_url, lang):
    pg = make_page(locale=LOCALES[lang])
    problems = []
    for page in HERE:
        pg.goto(url(app_url, page, lang))
        rendered(pg)
        problems += check_page(pg, page, lang, f"{page} [{lang}]")
    assert not problems, f"axe-core {axe_version()}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_present_in_the_dark_theme(make_page, app_url, lang):
    pg = make_page()
    pg.goto(url(app_url, "present", lang, "theme=dark"))
    rendered(pg)
    problems = check_page(pg, "present", lang, f"present dark [{lang}]")
    assert not problems, f"axe-core {axe_version()}:\n" + "\n".join(problems)
