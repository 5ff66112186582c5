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
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
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
def streamlit_server():
    """Run `streamlit run app.py` on a free loopback port; yield its base URL."""
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    try:
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                pytest.fail(f"streamlit exited early ({proc.returncode}):\n{out}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if time.time() > deadline:
                    pytest.fail("streamlit did not become healthy within 90 s")
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def app_url():
    """One server for the whole browser session."""
    with streamlit_server() as url:
        yield url


@pytest.fixture
def fresh_app_url():
    """A server that has served nothing yet (for first-request behaviour)."""
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. Browser tests do not skip: install it with "
            "`apt-get install -y chromium` (scripts/test.sh does this) or set CHROMIUM_PATH."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


def wait_for_app(pg, timeout: float = 30_000) -> None:
    """Wait until Streamlit has rendered and finished running the script."""
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    # Every page starts with a title: its h1 exists once the script has run.
    pg.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=timeout)
    # The status widget shows "Running..." while the script runs.
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )
    pg.wait_for_timeout(300)


def screenshot(pg, name: str) -> Path:
    """Save a full-page screenshot to test-artifacts/screenshots/<name>.png and return the path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def make_page(browser):
    """A factory for pages in fresh browser contexts (no shared cookies or storage: a new visitor).

    ``make_page(viewport=PROJECTOR, locale="zh-CN")``; every context is closed after the test.
    """
    contexts = []

    def _make(viewport=None, locale="en-US"):
        context = browser.new_context(viewport=viewport or {"width": 1400, "height": 1000}, locale=locale)
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        return pg

    yield _make
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


def page_problems(pg) -> list[str]:
    """Exceptions, tracebacks and "Page not found" dialogs on the page (empty = clean)."""
    return pg.evaluate(PROBLEMS_JS)
