"""WCAG 2.1 A/AA in a real browser: axe-core on every page in English, Chinese and Korean and on Present in
both themes (inside the component frames too), each page's own title and ``<html lang>``, every chart
named by its description (not "Vega visualization"), every headline number (st.metric) announced as one
group named by its label and the value shown.

Any axe violation fails (:func:`tests.browser.a11y.check_page`).  The pages the layout tests open on a
projector in every language are checked there, on that same load; this module opens the others.  One server
for the session (``app_url``), one browser context per language, one load per page.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.browser import test_layout, test_other_metrics_layout
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
# Where a page needs a link to show its content (the rest open with their defaults).
LINKS = {"present": "present?step=9"}
# Checked by the layout tests, on their projector load in en, zh and ko (test_run_files: the Run files page).
IN_LAYOUT_TESTS = {*test_layout.PAGES, *test_other_metrics_layout.PAGES, "run_files"}
HERE = [page for page in PAGES if page not in IN_LAYOUT_TESTS]


def test_the_layout_tests_check_real_pages():
    assert IN_LAYOUT_TESTS <= set(PAGES), IN_LAYOUT_TESTS - set(PAGES)
    assert HERE == ["match", "diversity", "present", "class", "join"]


def url(app_url: str, page: str, lang: str, extra: str = "") -> str:
    path = LINKS.get(page, page)
    params = [p for p in ((path.split("?", 1)[1] if "?" in path else ""), extra,
                          f"lang={lang}" if lang != "en" else "") if p]
    return f"{app_url}/{path.split('?', 1)[0]}" + ("?" + "&".join(params) if params else "")


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_every_page_passes_axe_with_its_own_title_and_language(make_page, app_url, lang):
    pg = make_page(locale={"en": "en-US", "zh": "zh-CN", "ko": "ko-KR"}[lang])
    problems = []
    for page in HERE:
        pg.goto(url(app_url, page, lang))
        rendered(pg)
        problems += check_page(pg, page, lang, f"{page} [{lang}]")
    assert not problems, f"axe-core {axe_version()}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_present_in_the_dark_theme(make_page, app_url, lang):
    pg = make_page()
    pg.goto(url(app_url, "present", lang, "theme=dark"))
    rendered(pg)
    problems = check_page(pg, "present", lang, f"present dark [{lang}]")
    assert not problems, f"axe-core {axe_version()}:\n" + "\n".join(problems)
