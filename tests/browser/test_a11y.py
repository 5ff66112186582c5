"""WCAG 2.1 A/AA in a real browser: axe-core on every page in English, Chinese and Korean and on Present in
both themes (inside the component frames too), each page's own title and ``<html lang>``, every chart
named by its description (not "Vega visualization"), every headline number (st.metric) announced as one
group named by its label and the value shown.

What axe still reports is listed below by rule and count, each with the reason and its owner, so a new
violation fails: the app's own pages have none left.  One server for the session (``app_url``), one
browser context per language, one load per page.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.browser.a11y import axe, axe_version, rendered
from ui.i18n import catalogue
from ui.shell import APP_NAME, HTML_LANG

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

# Violations that are not this page's own markup, allowed by rule and node count so that any new one fails.
# Owners fix them; the lead tightens this table after merging their work.
ALLOWED: dict[str, dict[str, int]] = {
}
# Charts without a description, per page: Present's charts (ui/charts/present.py) are the "present" helper's.
UNDESCRIBED_CHARTS = {"present": None}  # None: not counted here (the slide's charts change with the step)

METRICS_JS = """() => [...document.querySelectorAll('[data-testid="stMetric"]')].map((m) => ({
  label: (m.querySelector('[data-testid="stMetricLabel"]') || {}).innerText || '',
  value: (m.querySelector('[data-testid="stMetricValue"]') || {}).innerText || ''}))"""


def url(app_url: str, page: str, lang: str, extra: str = "") -> str:
    path = LINKS.get(page, page)
    params = [p for p in ((path.split("?", 1)[1] if "?" in path else ""), extra,
                          f"lang={lang}" if lang != "en" else "") if p]
    return f"{app_url}/{path.split('?', 1)[0]}" + ("?" + "&".join(params) if params else "")


def check_page(pg, page: str, lang: str, where: str) -> list[str]:
    """Title, language and axe on the page as drawn; a list of problems (empty = clean)."""
    problems = []
    title = f"{catalogue(lang)[f'common.nav.{page}']} · {APP_NAME}"
    if pg.title() != title:
        problems.append(f"{where}: title {pg.title()!r}, expected {title!r}")
    html_lang = pg.evaluate("() => document.documentElement.lang")
    if html_lang != HTML_LANG[lang]:
        problems.append(f"{where}: <html lang={html_lang!r}>, expected {HTML_LANG[lang]!r}")
    charts = pg.eval_on_selector_all('[data-testid="stVegaLiteChart"]',
                                     "els => els.map(e => e.getAttribute('aria-label') || '')")
    bare = [c for c in charts if not c.strip() or c == "Vega visualization"]
    if bare and page not in UNDESCRIBED_CHARTS:
        problems.append(f"{where}: {len(bare)} of {len(charts)} charts without a description")
    metrics = pg.get_by_test_id("stMetric")
    shown = pg.evaluate(METRICS_JS)
    for i, m in enumerate(shown):
        snap = metrics.nth(i).aria_snapshot().splitlines()[0]
        found = re.search(r'group "(.*)"', snap)
        announced = found.group(1) if found else snap
        expected = f"{m['label'].strip()} {m['value'].strip()}"
        if " ".join(announced.split()) != " ".join(expected.split()):
            problems.append(f"{where}: metric announced as {announced!r}, shown as {expected!r}")
    report = axe(pg)
    counts = report.counts()
    allowed = ALLOWED.get(page, {})
    for rule, n in counts.items():
        if n != allowed.get(rule, 0):
            problems.append(f"{where}: axe {rule} on {n} node(s), {allowed.get(rule, 0)} allowed\n{report.text()}")
    for rule, n in allowed.items():
        if rule not in counts:
            problems.append(f"{where}: allowed {rule} ({n}) no longer found: tighten ALLOWED")
    return problems


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_every_page_passes_axe_with_its_own_title_and_language(make_page, app_url, lang):
    pg = make_page(locale={"en": "en-US", "zh": "zh-CN", "ko": "ko-KR"}[lang])
    problems = []
    for page in PAGES:
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
