"""Hostile links in a real browser: Markdown, LaTeX and HTML from a link render as plain text, and the
page makes no request outside the app's own address; a CSV download with formula labels is neutralised.

Every request the page makes is recorded (``page.on("request")``): an image or a link that Markdown or
HTML turned live would make the browser ask ``evil.example``.
"""
from __future__ import annotations

import csv
import io
import json
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import page_problems, screenshot, settled, streamlit_server, wait_for_app
from tests.browser.journey import done
from tests.gfm import links
from ui.escape import WORD_JOINER, markdown

# Two payloads carry the four kinds of markup (an image, a link, maths, HTML).  Each is at most 40 characters,
# so that a message echoing it (ui.escape.markdown shortens at 40) shows all of it: every kind is really drawn.
PAYLOADS = {
    "maths and html": "$\\huge PWN$<img src=//evil.example/z>",
    "image and link": "![](//evil.example/x)[x](//evil.example)",
}
MARKERS = {"maths and html": ("PWN", "evil"), "image and link": ("evil",)}

# page -> the link parameters that get the payload (the documented links of issue 13 and these pages')
LINKS = {
    "playground": lambda p: {"lang": p, "labels": f"{p},B", "rels": "1,2"},
    "worked_examples": lambda p: {"doc": p},
    "variants": lambda p: {"docnos": p},
    "check": lambda p: {"rels": p, "dcg": p},
    "practice": lambda p: {"seed": p, "difficulty": p},
    "topn": lambda p: {"users": f"{p}: A B | A\nbob: C | C", "user": p},
    "rating": lambda p: {"true": p, "pair": p},
    "roc": lambda p: {"labels": p, "step": p},
}


def _own(url: str, app_url: str) -> bool:
    return url.startswith(app_url) or url.startswith(("data:", "blob:", "about:"))


def _live_markup(pg) -> list[str]:
    return pg.evaluate(r"""() => {
      const out = [];
      // an image or a link to another host (links to the app's own pages may carry the text in their query)
      for (const el of document.querySelectorAll('img[src], a[href], source[src]'))
        if (new URL(el.getAttribute('src') || el.getAttribute('href'), location.href).host !== location.host)
          out.push(el.outerHTML.slice(0, 120));
      // KaTeX draws \huge / \Huge with the size10 / size11 classes; escaped text shows the backslash instead
      for (const el of document.querySelectorAll('.katex .size10, .katex .size11'))
        out.push('maths: ' + (el.closest('.katex').textContent || '').slice(0, 80));
      // ... and a formula whose source holds the command (escaped text holds \textbackslash{}huge)
      for (const el of document.querySelectorAll('.katex-mathml annotation'))
        if ((el.textContent || '').includes('\\huge')) out.push('maths source: ' + el.textContent.slice(0, 80));
      return out;
    }""")


def test_the_payloads_fit_one_message():
    assert all(len(p) <= 40 and "…" not in markdown(p) for p in PAYLOADS.values())  # shown whole


@pytest.mark.parametrize("kind", PAYLOADS)
def test_injection_links_render_as_text_and_fetch_nothing_outside(make_page, app_url, kind):
    payload = PAYLOADS[kind]
    found = {}
    for page, params in LINKS.items():
        pg = make_page()
        requests: list[str] = []
        pg.on("request", lambda r, seen=requests: seen.append(r.url))
        pg.goto(f"{app_url}/{page}?{urlencode(params(payload))}")
        done(pg)  # the whole page (the playground's first run stops after its cards; the rest comes next)
        settled(pg)  # an image the run drew has been requested (the browser asks when it is inserted)
        text = pg.evaluate("() => document.body.innerText + [...document.querySelectorAll('textarea, input')]"
                           ".map(e => e.value).join(' ')")
        problems = [f"request {u}" for u in requests if not _own(u, app_url)]
        problems += _live_markup(pg) + page_problems(pg)
        # the payload is shown as typed (in a warning, a text box or a formula's \text{}), markup characters and all
        problems += [f"payload not shown as text ({m!r} missing)" for m in MARKERS[kind] if m not in text]
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


# --- autolinks: what Chromium draws is what tests/gfm.py says, and no message carries a live link -----------
PROBE_SCRIPT = '''
import json, os
import streamlit as st
for i, text in enumerate(json.loads(os.environ["GFM_PROBE"])):
    with st.container(key=f"probe-{i}"):
        st.markdown(text)
'''


def _probe_texts() -> list[str]:
    from tests.ui.test_escape import AUTOLINKED, MARKUP, NOT_LINKED

    raw = [*AUTOLINKED, *MARKUP, *NOT_LINKED, "www.example.com and me@example.com", "x https://a.example/b y"]
    return raw + [markdown(t, 0) for t in raw]


def test_the_markdown_renderer_agrees_with_chromium(browser, tmp_path):
    """tests/gfm.py stands in for the browser in the AppTest sweeps: for every payload, raw and escaped,
    Chromium draws exactly the links it predicts; an escaped payload reads and measures as the raw text."""
    texts = _probe_texts()
    script = tmp_path / "gfm_probe.py"
    script.write_text(PROBE_SCRIPT, encoding="utf-8")
    with streamlit_server(script, env={"GFM_PROBE": json.dumps(texts)}) as url:
        pg = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        # the raw payloads' images point outside: nothing leaves the machine
        pg.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url) else route.abort())
        pg.goto(url)
        pg.wait_for_selector(f".st-key-probe-{len(texts) - 1}")
        settled(pg)
        drawn = pg.evaluate("""(n) => [...Array(n).keys()].map(i => {
            const box = document.querySelector('.st-key-probe-' + i);
            const p = box.querySelector('[data-testid="stMarkdownContainer"]');
            // the same text without joiners, in the same place and style: the widths must match
            const range = document.createRange(); range.selectNodeContents(p);
            const width = range.getBoundingClientRect().width;
            const twin = p.cloneNode(true); twin.style.position = 'absolute'; twin.style.visibility = 'hidden';
            const walk = document.createTreeWalker(twin, NodeFilter.SHOW_TEXT);
            while (walk.nextNode()) walk.currentNode.nodeValue = walk.currentNode.nodeValue.replace(/\\u2060/g, '');
            p.parentElement.appendChild(twin);
            const r2 = document.createRange(); r2.selectNodeContents(twin);
            const twinWidth = r2.getBoundingClientRect().width; twin.remove();
            const drawn = [...box.querySelectorAll('a[href], img[src]')];
            return {links: drawn.map(a => a.getAttribute('href') || a.getAttribute('src')),
                    text: p.innerText, width, twinWidth};
        })""", len(texts))
        pg.close()
    half = len(texts) // 2
    disagree = {text: (seen["links"], links(text)) for text, seen in zip(texts, drawn)
                if len(seen["links"]) != len(links(text))}
    # The port may only be stricter (predict a link Chromium does not draw), never miss one: that keeps the
    # AppTest sweep's "no link" sound.  Known: remark-gfm does not link an address after "mailto:".
    assert disagree == {"mailto:me@example.com": ([], ["mailto:me@example.com"])}
    for i, (text, seen) in enumerate(zip(texts, drawn)):
        if i >= half:  # escaped: no link, the raw text as read, the same width
            assert seen["links"] == [], (text, seen)
            assert seen["text"].replace(WORD_JOINER, "").strip() == texts[i - half], (text, seen)
            assert abs(seen["width"] - seen["twinWidth"]) < 0.5, (text, seen)
    assert sum(1 for seen in drawn[:half] if seen["links"]) >= len(AUTOLINK_SAMPLE)  # the probe saw links


AUTOLINK_SAMPLE = ("www.example.com", "https://example.com/a", "me@example.com")
# a sample of pages whose warnings and errors echo link values: the exhaustive sweep is the AppTest one
# (tests/pages/test_fuzz.py::test_no_message_carries_a_live_link), with tests/gfm.py standing in for Chromium
AUTOLINK_LINKS = {
    "check": lambda p: {"dcg": p, "ndcg": p, "rels": p},
    "match": lambda p: {"value": p, "scores": p},
    "playground": lambda p: {"lang": p, "gain_map": p},
    "topn": lambda p: {"n": p},
}


def test_messages_echo_autolink_values_as_text(make_page, app_url):
    found = {}
    for page, params in AUTOLINK_LINKS.items():
        pg = make_page()
        pg.goto(f"{app_url}/{page}?{urlencode(params(AUTOLINK_SAMPLE[len(found) % len(AUTOLINK_SAMPLE)]))}")
        wait_for_app(pg)
        alerts = pg.locator('[data-testid="stAlert"]')
        texts = alerts.all_inner_texts()
        problems = [f"link {h}" for h in pg.evaluate(
            "() => [...document.querySelectorAll('[data-testid=\"stAlert\"] a')].map(a => a.href)")]
        if not any("example" in t for t in texts):
            problems.append(f"the value is not echoed: {texts}")
        found[page] = problems + page_problems(pg)
        if found[page]:
            screenshot(pg, f"autolink_{page}")
    assert found == {page: [] for page in AUTOLINK_LINKS}
