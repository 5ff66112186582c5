"""Real-browser fixtures: a Streamlit server for app.py and Debian's Chromium driven by Playwright.

Browser tests never skip: if Chromium is missing they fail with a message saying how to install it.
Every test under tests/browser is marked ``browser`` here (``-m "not browser"`` deselects them all).
Screenshots go to test-artifacts/screenshots (git-ignored); the README's screenshots in
docs/screenshots are refreshed only by ``python scripts/screenshots.py``.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The browser tests run in Debian's Chromium built as the headless shell (package chromium-headless-shell: the
# same Chromium and Blink as the chromium package, without the desktop browser around them; Playwright's own
# default for headless Chromium).  Measured, the README's whole test command idle on 2 cores: 623 s with
# /usr/bin/chromium, 540 s with the shell (test_layout alone: 78.7 CPU-s against 69.6).  The full browser a
# visitor runs, /usr/bin/chromium, opens every page in tests/browser/test_full_chromium.py.  CHROMIUM_PATH
# runs every browser test in another build (CHROMIUM_PATH=/usr/bin/chromium: the full browser throughout).
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = os.environ.get("FULL_CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # The tabs of one browser context that show the same site share one renderer process, whose V8 keeps the
    # scripts it has compiled: a later visitor's tab (``make_page``) does not parse Streamlit's frontend again.
    "--process-per-site",
]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
PROJECTOR = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(script: Path | str = ROOT / "app.py", *, env: dict | None = None, log: Path | None = None):
    """Run ``streamlit run <script>`` (default app.py) on a free loopback port; yield its base URL.

    Each pytest-xdist worker starts its own servers.  A port found free can be taken by another worker
    before Streamlit binds it: the server is then started again on another port (up to 5 times).
    ``env`` adds environment variables (e.g. ``NDCG_LAB_DB_URL``); ``log`` is a file that receives the
    server's output (standard output and error; a test reads it for tracebacks)."""
    for attempt in range(5):
        port = _free_port()
        sink = log.open("ab") if log is not None else subprocess.PIPE
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
             "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", **(env or {})),
            stdout=sink, stderr=subprocess.STDOUT,
        )
        if log is not None:
            sink.close()  # the server has its own copy of the file
        url = f"http://127.0.0.1:{port}"
        try:
            if _healthy(proc, url, last_attempt=attempt == 4, log=log):
                break
        except BaseException:
            _stop(proc)
            raise
        _stop(proc)  # the port was taken: try another
    try:
        yield url
    finally:
        _stop(proc)


def _healthy(proc, url: str, *, last_attempt: bool, log: Path | None = None) -> bool:
    """Wait until the server answers its health check (True) or exits because its port is taken (False)."""
    deadline = time.monotonic() + 120
    while True:
        if proc.poll() is not None:
            if log is not None:
                out = log.read_text(errors="replace")
            else:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
            if "already in use" in out and not last_attempt:
                return False
            pytest.fail(f"streamlit exited early ({proc.returncode}):\n{out}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as r:
                if r.status == 200:
                    return True
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail("streamlit did not become healthy within 120 s")
            time.sleep(0.2)  # polling interval of the health check, not a wait for an outcome


def _stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="session")
def app_url():
    """One server for the whole browser session."""
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def warmed(browser, app_url):
    """The session's server after a first visitor (st.navigation has run in that process): for tests of what a
    later visitor sees.  Once per worker, not once per test (each is a page load in a new browser)."""
    from tests.browser.journey import warm

    warm(browser, app_url)
    return app_url


@pytest.fixture
def fresh_app_url():
    """A server that has served nothing yet (for first-request behaviour)."""
    with streamlit_server() as url:
        yield url


# Streamlit's own progress, read from its websocket in the page (an init script in every context the
# ``browser`` fixture makes): each rerun request the page sends (BackMsg.rerun_script, field 11) and each
# script run the server reports finished (ForwardMsg.script_finished, field 6: 0 = successfully,
# 1 = compile error, 3 = fragment run; 2 = stopped early for a newer rerun, which is not an end).  The page
# is idle when a run has finished after the last request.  Tests wait on this, never on time.
RUN_TRACKER_JS = r"""
(() => {
  if (window.__stRuns) return;
  // log: the first 40 events in order ("request", "finish"), for tests of their order and failure messages
  const runs = window.__stRuns = {seq: 0, lastRequest: 0, lastFinish: 0, requests: 0, finishes: 0, log: []};
  const note = (what) => { if (runs.log.length < 40) runs.log.push(what); };
  function fields(bytes) {            // top-level protobuf fields: [number, wireType, value or [start, end]]
    const out = []; let i = 0;
    const varint = () => {
      let v = 0, m = 1, b;
      do { b = bytes[i++]; v += (b & 127) * m; m *= 128; } while (b & 128);
      return v;
    };
    while (i < bytes.length) {
      const key = varint(), n = Math.floor(key / 8), wt = key & 7;
      if (wt === 0) out.push([n, 0, varint()]);
      else if (wt === 2) { const len = varint(); out.push([n, 2, [i, i + len]]); i += len; }
      else if (wt === 1) i += 8; else if (wt === 5) i += 4; else break;
    }
    return out;
  }
  const Native = window.WebSocket;
  function Tracked(...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      for (const [n, wt, v] of fields(new Uint8Array(event.data)))
        if (n === 6 && wt === 0 && v !== 2) { runs.finishes++; runs.lastFinish = ++runs.seq; note('finish'); }
    });
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      try {
        const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
          : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
        if (bytes && fields(bytes).some(([n]) => n === 11)) {
          runs.requests++; runs.lastRequest = ++runs.seq; note('request');
        }
      } catch (e) { /* never break the app */ }
      return send(data);
    };
    return ws;
  }
  Tracked.prototype = Native.prototype;
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Tracked[k] = Native[k];
  window.WebSocket = Tracked;
})();
"""


class _TrackingBrowser:
    """The Playwright browser, whose every new context carries :data:`RUN_TRACKER_JS`."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.add_init_script(RUN_TRACKER_JS)
        return context

    def new_page(self, **kwargs):
        context = self.new_context(**kwargs)
        page = context.new_page()
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


def launch(p, executable: str = CHROMIUM):
    """Launch Debian's Chromium at ``executable`` (headless, the flags above) from a sync_playwright ``p``;
    fail, never skip, when it is not installed."""
    if not os.path.exists(executable):
        pytest.fail(
            f"Chromium not found at {executable}. Browser tests do not skip: install it with `apt-get install -y "
            "chromium chromium-headless-shell` (scripts/test.sh does this) or set CHROMIUM_PATH."
        )
    return _TrackingBrowser(p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, headless=True))


@pytest.fixture(scope="session")
def pw():
    """The worker's Playwright (sync API; one per process)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(pw):
    b = launch(pw)
    yield b
    b.close()


DESKTOP = {"width": 1400, "height": 1000}


class Visitors:
    """The worker's browser context for later visitors of the app: each gets a new tab, with no cookies and no
    site storage (local or session) from the visitor before; only the browser's caches (HTTP and compiled
    scripts) are shared, as for somebody who has opened the app before.  A keeper tab on the app's site holds
    the renderer process (and so its compiled scripts) between visitors.

    Measured (idle, ten loads of the five NDCG pages): a fresh context per load costs 33-34 CPU-s, a tab here
    20-21 CPU-s.  A brand-new browser (``make_page(fresh=True)``) stays for what depends on one: a first visit
    to a fresh server, a copied link opened elsewhere, cookies (the classroom), another locale, a throttled
    renderer."""

    def __init__(self, browser, app_url: str):
        self._browser, self._app_url = browser, app_url
        self._open()

    def _open(self) -> None:
        self.closed = False
        self.context = self._browser.new_context(viewport=DESKTOP, locale="en-US")
        self.context.on("close", lambda _: setattr(self, "closed", True))
        self._keeper = self.context.new_page()
        self._keeper.goto(f"{self._app_url}/_stcore/health")

    def new_page(self, viewport: dict | None = None):
        if self.closed:  # a test closed a tab's context: the next visitor still gets a clean one
            self._open()
        self.context.clear_cookies()
        pg = self.context.new_page()
        if viewport is not None and viewport != DESKTOP:
            pg.set_viewport_size(viewport)
        pg.set_default_timeout(30_000)
        return pg

    @staticmethod
    def leave(pg) -> None:
        """Close a visitor's tab, clearing the site storage of the page it shows (nothing reaches the next)."""
        if pg.is_closed():
            return
        try:
            if pg.url.startswith("http"):
                pg.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }")
        finally:
            pg.close()


@pytest.fixture(scope="session")
def visitors(browser, app_url):
    v = Visitors(browser, app_url)
    yield v
    if not v.closed:
        v.context.close()


@pytest.fixture
def page(visitors):
    """A later visitor's tab (:class:`Visitors`) at 1400×1000."""
    pg = visitors.new_page()
    yield pg
    Visitors.leave(pg)


#: True when the page is idle: every rerun it asked for has finished (RUN_TRACKER_JS, counted when the
#: request leaves and the answer arrives) and the frontend has processed that end (``data-test-script-state``
#: on stApp, the attribute Streamlit's own end-to-end tests wait on), nothing on the main area is stale or
#: still a skeleton (a component whose JavaScript a fresh context is still downloading),
#: web fonts are loaded, and the main area's size and its charts' sizes are the same as one frame earlier
#: (charts, KaTeX and the sidebar that move after a run or a resize have settled).  Polled on every frame.
IDLE_JS = r"""
() => {
  const runs = window.__stRuns;
  if (runs && !(runs.finishes > 0 && runs.lastFinish > runs.lastRequest)) return false;
  // the frontend has processed the end of the run (messages are handled in order, some fetched first)
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (app.getAttribute('data-test-connection-state') !== 'CONNECTED') return false;
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  if (document.querySelector('[data-testid="stMain"] [data-stale="true"]')) return false;
  // an element whose code-split component is still downloading shows Suspense's skeleton meanwhile
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  if (document.fonts && document.fonts.status !== 'loaded') return false;
  // a CSS transition or finite animation still playing (the sidebar sliding shut takes ~0.3 s, and two
  // frames of a slowed page can show the same width before it starts); spinners loop forever: not waited on
  if (document.getAnimations().some(a => a.playState !== 'finished' && a.playState !== 'idle'
      && Number.isFinite(a.effect?.getComputedTiming().endTime))) return false;
  const main = document.querySelector('[data-testid="stMain"]');
  const parts = [window.innerWidth, window.innerHeight, main ? main.scrollHeight : -1, main ? main.scrollWidth : -1];
  const watched = '[data-testid="stVegaLiteChart"], .katex-display, iframe, [data-testid="stSidebar"]';
  for (const el of document.querySelectorAll(watched))
    { const r = el.getBoundingClientRect(); parts.push(Math.round(r.width), Math.round(r.height)); }
  const layout = parts.join(',');
  const same = window.__stLayout === layout;
  window.__stLayout = layout;
  return same;
}
"""


def settled(pg, timeout: float = 60_000) -> None:
    """Wait until the page is idle (:data:`IDLE_JS`): no rerun pending, nothing stale, layout still."""
    pg.wait_for_function(IDLE_JS, timeout=timeout, polling="raf")


def wait_for_app(pg, timeout: float = 60_000) -> None:
    """Wait until Streamlit has rendered and finished running the script (after a load or an action)."""
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    # Every page starts with a title: its h1 exists once the script has run.
    pg.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=timeout)
    settled(pg, timeout)


def screenshot(pg, name: str) -> Path:
    """Save a full-page screenshot to test-artifacts/screenshots/<name>.png and return the path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def make_page(browser, visitors):
    """A factory for a new visitor's page: ``make_page(viewport=PROJECTOR)``.

    By default a later visitor's tab (:class:`Visitors`: no cookies or storage from before, warm caches).
    ``fresh=True`` or a locale other than en-US gives a brand-new browser context instead (nothing shared at
    all, every script downloaded and compiled again).  Everything is closed after the test."""
    contexts, tabs = [], []

    def _make(viewport=None, locale="en-US", *, fresh=False):
        if not fresh and locale == "en-US":
            tabs.append(visitors.new_page(viewport))
            return tabs[-1]
        context = browser.new_context(viewport=viewport or DESKTOP, locale=locale)
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        return pg

    yield _make
    for pg in tabs:
        Visitors.leave(pg)
    for context in contexts:
        context.close()


# Text a user reads, in boxes that clip it: metric values and labels, buttons, selects, radio and
# checkbox labels, widget labels, tabs, table headers (glide grid headers are canvas: not checked here).
OVERFLOW_JS = r"""
() => {
  const sel = [
    '[data-testid="stMetricValue"]', '[data-testid="stMetricLabel"]', '[data-testid="stMetricDelta"]',
    'button', '[data-baseweb="select"] [value], [data-baseweb="select"] div[title]',
    '[data-baseweb="select"] > div > div:first-child', '[data-testid="stWidgetLabel"]',
    '[data-baseweb="tab"]', '[data-testid="stRadio"] label', '[data-testid="stCheckbox"] label',
    '[data-testid="stMarkdownContainer"] p', '[data-testid="stCaptionContainer"]', 'h1, h2, h3',
    '.katex-display', '[data-testid="stAlertContentInfo"], [data-testid="stAlertContentWarning"]',
    // Streamlit 1.67 selects are comboboxes: the chosen option is the value of an <input> (it cannot wrap).
    '[data-testid="stSelectbox"] input', '[data-testid="stSidebarNavLink"] span',
  ].join(',');
  const out = [];
  const vw = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const side = el.closest('[data-testid="stSidebar"]');
    if (side && side.getAttribute('aria-expanded') === 'false') continue;
    // Inside a horizontally scrollable container (code blocks, wide tables), scrolling is the design.
    let scroller = el.parentElement, scrolls = false;
    while (scroller && scroller !== document.body) {
      const cs = getComputedStyle(scroller);
      const scrollable = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
      if (scrollable && scroller.scrollWidth > scroller.clientWidth) { scrolls = true; break; }
      scroller = scroller.parentElement;
    }
    const text = ((el.tagName === 'INPUT' ? el.value : el.innerText) || '').trim().slice(0, 60);
    if (!text) continue;
    if (scrolls) continue;
    if (el.scrollWidth > el.clientWidth + 1) out.push(`clipped: ${text} (${el.scrollWidth} > ${el.clientWidth})`);
    else if (r.right > vw + 1) out.push(`off the right edge: ${text} (right ${Math.round(r.right)} > ${vw})`);
  }
  return out;
}
"""


# Tables and formulas a student reads (issue 36, 41): whole, not scrolled or cut (a formula's box or a table's
# column narrower than its content; anything past the right edge), and no word broken across lines ("정/확",
# "精/确": a Korean or English word, or a short Chinese cell, on more than one line).  Measured in the page.
WHOLE_JS = r"""
() => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return out;
  const lang = document.documentElement.lang || 'en';
  const text = (el) => (el.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  for (const el of main.querySelectorAll('.katex-display')) {
    if (!shown(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) out.push(`formula scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    else if (el.getBoundingClientRect().right > vw + 1) out.push('formula past the right edge');
  }
  for (const el of main.querySelectorAll('[data-testid="stDataFrame"]')) {
    if (!shown(el)) continue;
    const sc = el.querySelector('.dvn-scroller');
    if (sc && sc.scrollWidth > sc.clientWidth + 1)
      out.push(`data grid scrolls sideways: ${sc.scrollWidth} > ${sc.clientWidth}`);
  }
  const tables = [...main.querySelectorAll('.nl-tbl, [data-testid="stTable"], table.nl-table')];
  for (const el of tables) {
    if (!shown(el)) continue;
    const table = el.tagName === 'TABLE' ? el : el.querySelector('table');
    const box = el.getBoundingClientRect(), t = table.getBoundingClientRect();
    const name = el.dataset.testid || el.getAttribute('data-testid') || 'table';
    if (el.scrollWidth > el.clientWidth + 1 || t.right > box.right + 1)
      out.push(`table cut off: ${name} ${Math.round(t.width)} > ${Math.round(box.width)}`);
    if (t.right > vw + 1) out.push(`table past the right edge: ${name}`);
    for (const cell of table.querySelectorAll('td, th')) {
      if (!shown(cell)) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const lines = (start, end) => {
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, end);
          const rects = [...range.getClientRects()].filter((r) => r.width > 0);
          return new Set(rects.map((r) => Math.round(r.top))).size;
        };
        const whole = node.textContent;
        if (lang.startsWith('zh')) {
          // Chinese wraps between characters: only a column squeezed to one or two characters a line is wrong
          const chars = [...whole.matchAll(/\S/g)];
          const perLine = new Map();
          for (const m of chars) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const r = [...range.getClientRects()].find((x) => x.width > 0);
            if (r) perLine.set(Math.round(r.top), (perLine.get(Math.round(r.top)) || 0) + 1);
          }
          if (perLine.size > 1 && Math.max(...perLine.values()) <= 2)
            out.push(`characters one by one in ${name}: "${whole.trim().slice(0, 12)}"`);
          continue;
        }
        // English and Korean: a word (letters only, between spaces; Hangul runs) is never split across lines
        const words = lang.startsWith('ko') ? /[가-힣]{2,}/g : /(?<=^|\s)[A-Za-z]{2,}(?=[.,;:!?)]*(?:\s|$))/g;
        for (const m of whole.matchAll(words)) {
          if (lines(m.index, m.index + m[0].length) > 1) out.push(`word split across lines in ${name}: "${m[0]}"`);
        }
      }
    }
  }
  return out;
}
"""


def not_whole(pg) -> list[str]:
    """Every formula or table cut off or scrolled sideways, and every word split across lines (empty = whole)."""
    return pg.evaluate(WHOLE_JS)


def overflowing(pg) -> list[str]:
    """Every piece of text a user reads that is cut off or runs off the right edge (empty = all fits)."""
    return pg.evaluate(OVERFLOW_JS)


PROBLEMS_JS = r"""
() => {
  const out = [];
  for (const el of document.querySelectorAll('[data-testid="stException"]')) {
    out.push('exception: ' + el.innerText.slice(0, 300));
  }
  for (const el of document.querySelectorAll('[role="dialog"]')) {
    const text = el.innerText || '';
    const notFound = /page not found/i.test(text) || /running the app's main page/i.test(text);
    if (notFound) out.push('dialog: ' + text.slice(0, 200));
  }
  if (/Traceback \(most recent call last\)/.test(document.body.innerText)) out.push('traceback in page text');
  return out;
}
"""


#: Where a page is, for a timeout's message: Streamlit's script and connection state, the status widget, stale
#: elements, the code blocks (an NDCG page ends with its copy-link box), the run tracker, the address and text.
PAGE_STATE_JS = """() => {
  const codes = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stCode"]')];
  const app = document.querySelector('[data-testid="stApp"]');
  return {script_state: app && app.getAttribute('data-test-script-state'),
          connection: app && app.getAttribute('data-test-connection-state'),
          status_widget: Boolean(document.querySelector('[data-testid="stStatusWidget"]')),
          stale: document.querySelectorAll('[data-testid="stMain"] [data-stale="true"]').length,
          code_blocks: codes.length, last_code: codes.length ? codes[codes.length - 1].innerText.slice(0, 80) : null,
          runs: window.__stRuns || null, url: location.href, visibility: document.visibilityState,
          cards: [...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => {
            const c = e.shadowRoot.querySelector('.cards');
            return c ? {ready: c.dataset.cardsReady || null, seq: c.dataset.serverSeq || null} : 'no box';
          }),
          text: (document.querySelector('[data-testid="stMain"]') || document.body).innerText.slice(0, 1500)};
}"""


def page_state(pg) -> dict:
    """What the page shows and where its runs are (:data:`PAGE_STATE_JS`), for a failure's message."""
    return pg.evaluate(PAGE_STATE_JS)


def page_problems(pg) -> list[str]:
    """Exceptions, tracebacks and "Page not found" dialogs on the page (empty = clean)."""
    return pg.evaluate(PROBLEMS_JS)


# Everything a user reads, measured as drawn (the screens sweep, tests/browser/test_every_page.py): each text
# node's lines, each field's value and each formula against every box that clips them (an ancestor whose
# overflow is not visible) and against the window.  Cut off: a line that reaches past a clipping box that
# offers no scrollbar (overflow hidden or clip, or a scrollbar hidden by CSS), or past the window's left or
# right edge outside a scroller whose bar the user can reach; a field whose value is wider than the field; a
# chart label Vega shortened with "…".  Not read here: what is hidden on purpose (closed expanders and
# sidebar, screen-reader-only text, zero-size or invisible boxes), the data grid's canvas (its cells are
# pixels; its own scrollbars are reachable) and the insides of component frames.
CUT_JS = r"""
() => {
  const out = [];
  const seen = new Set();
  const vw = document.documentElement.clientWidth;
  const px = (a, b) => `${Math.round(a)}..${Math.round(b)}`;
  const say = (what, el, text, detail) => {
    const key = what + '|' + text;
    if (seen.has(key) || out.length >= 60) return;
    seen.add(key);
    const tag = (el.closest('[data-testid]') || el).getAttribute('data-testid') || el.tagName.toLowerCase();
    out.push(`${what}: "${text.replace(/\s+/g, ' ').trim().slice(0, 50)}" in ${tag} (${detail})`);
  };
  const hiddenOnPurpose = (el) => {
    if (el.closest('[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"], .stDataFrame')) return true;
    if (el.closest('details:not([open]) > :not(summary)')) return true;
    const side = el.closest('[data-testid="stSidebar"]');
    if (side && (side.getAttribute('aria-expanded') === 'false' || side.getAttribute('data-collapsed') === 'true'
                 || side.getBoundingClientRect().right <= 0)) return true;
    if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) return true;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      const cs = getComputedStyle(a);
      const r = a.getBoundingClientRect();
      if ((cs.clip && cs.clip !== 'auto') || (cs.clipPath && cs.clipPath !== 'none')) return true;
      if ((r.width <= 2 || r.height <= 2) && cs.overflow !== 'visible') return true;  // screen-reader-only
    }
    return false;
  };
  // the boxes that clip ``el``: [element, scrolls sideways with a reachable bar, scrolls up/down]
  const clippers = (el) => {
    const list = [];
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      // the page itself scrolling sideways is never the design: only an inner box's bar counts
      const page = a.matches('body, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stMain"]');
      const barHidden = cs.scrollbarWidth === 'none';
      const x = (cs.overflowX === 'auto' || cs.overflowX === 'scroll') && !barHidden && !page;
      const y = cs.overflowY === 'auto' || cs.overflowY === 'scroll';
      list.push([a, x, y, cs.overflowX !== 'visible', cs.overflowY !== 'visible']);
    }
    return list;
  };
  const inner = (a) => {
    const r = a.getBoundingClientRect();
    const left = r.left + a.clientLeft, top = r.top + a.clientTop;
    return {left, top, right: left + a.clientWidth, bottom: top + a.clientHeight};
  };
  const check = (el, rects, text) => {
    if (!rects.length) return;
    const box = {left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
                 top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom))};
    let scrollerOnScreen = false, doneX = false, doneY = false;
    // a line's box is taller than its glyphs: a line cut above or below by less than this still reads whole
    const slack = Math.max(2, 0.25 * Math.min(...rects.map((r) => r.height)));
    for (const [a, sx, sy, cx, cy] of clippers(el)) {
      const c = inner(a);
      if (!doneX && cx && (box.right > c.right + 1 || box.left < c.left - 1)) {
        if (sx) { const r = a.getBoundingClientRect(); scrollerOnScreen = r.left >= -1 && r.right <= vw + 1; }
        else return say('cut off sideways', el, text, `${px(box.left, box.right)} outside ${px(c.left, c.right)}`);
      }
      // a line cut through above or below by a box that does not scroll that way (a line clamp, a fixed height)
      if (!doneY && cy && !sy && (box.bottom > c.bottom + slack && box.top < c.bottom - slack
                                  || box.top < c.top - slack && box.bottom > c.top + slack))
        return say('cut off above or below', el, text, `${px(box.top, box.bottom)} across ${px(c.top, c.bottom)}`);
      // past a box that scrolls, what the outer boxes clip is that box's view, not the text
      doneX = doneX || sx;
      doneY = doneY || sy;
    }
    if (!scrollerOnScreen && (box.right > vw + 1 || box.left < -1))
      say('past the window edge', el, text, `${px(box.left, box.right)} of ${vw}`);
  };
  const roots = [...document.querySelectorAll('[data-testid="stMain"], [data-testid="stSidebar"]')];
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      if (!text.trim()) continue;
      const el = node.parentElement;
      if (!el || el.closest('script, style, noscript, .katex-mathml, svg') || hiddenOnPurpose(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      check(el, [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0), text);
    }
    const fields = 'input:not([type=hidden], [type=checkbox], [type=radio], [type=range], [type=file]), textarea';
    for (const el of root.querySelectorAll(fields)) {
      const value = el.value || el.placeholder || '';
      if (!value.trim() || hiddenOnPurpose(el)) continue;
      if (el.tagName === 'INPUT' && el.scrollWidth > el.clientWidth + 1)
        say('field value cut off', el, value, `${el.scrollWidth} > ${el.clientWidth}`);
      else check(el, [el.getBoundingClientRect()], value);
    }
    for (const el of root.querySelectorAll('.katex-display, .katex')) {
      if (hiddenOnPurpose(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width && r.height) check(el, [r], (el.querySelector('annotation') || el).textContent);
    }
    // a data grid (a canvas) that scrolls sideways: its scrollbar must be drawn (Streamlit paints it transparent
    // until the pointer is over the grid: on a projector nothing says that columns are missing)
    for (const sc of root.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')) {
      const grid = sc.closest('[data-testid="stDataFrame"]');
      if (hiddenOnPurpose(grid) || sc.scrollWidth <= sc.clientWidth + 1) continue;
      const colour = getComputedStyle(sc).scrollbarColor;
      const thumb = (colour.match(/rgba?\([^)]*\)|#[0-9a-f]+|[a-z]+/gi) || [])[0] || 'auto';
      const alpha = /rgba\(/.test(thumb) ? parseFloat(thumb.split(',')[3]) : (thumb === 'transparent' ? 0 : 1);
      const name = (grid.getAttribute('aria-label') || 'data grid').slice(0, 40);
      if (!(alpha > 0))
        say('data grid scrolls sideways, its scrollbar not drawn', sc, name, `${sc.scrollWidth} > ${sc.clientWidth}`);
      const r = sc.getBoundingClientRect();
      if (r.right > vw + 1 || r.left < -1)
        say('data grid past the window edge', sc, name, `${px(r.left, r.right)} of ${vw}`);
    }
    // a chart's words (axis titles and labels, legends, marks' text): inside the chart's box and the window, whole
    // (Vega shortens a label longer than its labelLimit and ends it with "…")
    for (const t of root.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')) {
      if (!t.textContent.trim() || hiddenOnPurpose(t)) continue;
      const r = t.getBoundingClientRect();
      if (!r.width) continue;
      if (t.textContent.endsWith('…')) say('chart label shortened', t, t.textContent, 'labelLimit');
      else {  // the <svg> clips what is outside its own box; a glyph's box is larger than its ink: a fifth of
        // the font size of slack on every side
        const d = 0.2 * parseFloat(getComputedStyle(t).fontSize || '10');
        check(t, [new DOMRect(r.left + d, r.top + d, r.width - 2 * d, r.height - 2 * d)], t.textContent);
      }
    }
  }
  return out;
}
"""


def cut_off(pg) -> list[str]:
    """Everything a user reads that is cut off, in the window and the sidebar (:data:`CUT_JS`; empty = all of
    it can be read, scrolled to where a scrollbar offers it)."""
    return pg.evaluate(CUT_JS)
