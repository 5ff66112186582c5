"""Hostile links in a real browser: Markdown, LaTeX and HTML from a link render as plain text, and the
page makes no request outside the app's own address; a CSV download with formula labels is neutralised.

Every request the page makes is recorded (``page.on("request")``): an image or a link that Markdown or
HTML turned live would make the browser ask ``evil.example``.
"""
from __future__ import annotations

import csv
import io
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import page_problems, screenshot, settled, wait_for_app

PAYLOADS = {
    "image": "![](//evil.example/x.png)",
    "link": "[x](//evil.example/y)",
    "latex": "$\\huge PWN$",
    "html": "<img src=//evil.example/z.png>",
}

# page -> the link parameters that get the payload (the documented links of issue 13 and these pages')
LINKS = {
    "playground": lambda p: {"lang": p},
    "practice": lambda p: {"seed": p, "difficulty": p},
    "check": lambda p: {"rels": p},
    "topn": lambda p: {"users": f"{p}: A B | A\nbob: C | C", "user": p},
    "rating": lambda p: {"true": p, "pair": p},
    "roc": lambda p: {"labels": p, "step": p},
}


def _own(url: str, app_url: str) -> bool:
    return url.startswith(app_url) or url.startswith(("data:", "blob:", "about:"))


def _live_markup(pg) -> list[str]:
    return pg.evaluate(r"""() => {
      const out = [];
      for (const el of document.querySelectorAll('img[src*="evil"], a[href*="evil"], source[src*="evil"]'))
        out.push(el.outerHTML.slice(0, 120));
      // KaTeX draws \huge / \Huge with the size10 / size11 classes; escaped text shows the backslash instead
      for (const el of document.querySelectorAll('.katex .size10, .katex .size11'))
        out.push('maths: ' + (el.closest('.katex').textContent || '').slice(0, 80));
      // ... and a formula whose source holds the command (escaped text holds \textbackslash{}huge)
      for (const el of document.querySelectorAll('.katex-mathml annotation'))
        if ((el.textContent || '').includes('\\huge')) out.push('maths source: ' + el.textContent.slice(0, 80));
      return out;
    }""")


@pytest.mark.parametrize("kind", PAYLOADS)
def test_injection_links_render_as_text_and_fetch_nothing_outside(make_page, app_url, kind):
    payload = PAYLOADS[kind]
    found = {}
    for page, params in LINKS.items():
        pg = make_page()
        requests: list[str] = []
        pg.on("request", lambda r, seen=requests: seen.append(r.url))
        pg.goto(f"{app_url}/{page}?{urlencode(params(payload))}")
        wait_for_app(pg)
        settled(pg)  # an image the run drew has been requested (the browser asks when it is inserted)
        text = pg.evaluate("() => document.body.innerText + [...document.querySelectorAll('textarea, input')]"
                           ".map(e => e.value).join(' ')")
        problems = [f"request {u}" for u in requests if not _own(u, app_url)]
        problems += _live_markup(pg) + page_problems(pg)
        # the payload is shown as typed (in a warning, a text box or a formula's \text{}), markup characters and all
        marker = "PWN" if kind == "latex" else "evil"
        if marker not in text:
            problems.append(f"payload not shown as text ({marker!r} missing)")
        found[page] = problems
        if problems:
            screenshot(pg, f"injection_{kind}_{page}")
    assert found == {page: [] for page in LINKS}


def test_csv_download_neutralises_formula_labels(make_page, app_url, tmp_path):
    labels = ['=HYPERLINK("//evil.example")', "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3"]
    pg = make_page()
    pg.goto(f"{app_url}/playground?" + urlencode({"rels": "3,2,1,0", "labels": ",".join(labels)}))
    wait_for_app(pg)
    button = pg.locator(".st-key-pg_dl_csv button")
    button.wait_for()
    with pg.expect_download() as info:
        button.click()
    path = tmp_path / "download.csv"
    info.value.save_as(path)
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    header, body = rows[0], rows[1:]
    cells = [cell for row in body for cell in row]
    # every formula label starts with the apostrophe that makes a spreadsheet read it as text
    for label in labels:
        assert "'" + label in cells, (label, body)
        assert label not in cells, (label, body)
    # no other cell starts a formula, and the grades stay numbers
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or (c[:1] == "-" and not _number(c))]
    grades = [row[2] for row in body]
    assert [float(g) for g in grades] == [3.0, 2.0, 1.0, 0.0], header


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
