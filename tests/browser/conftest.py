"""Real-browser fixtures: a Streamlit server for app.py and Debian's Chromium driven by Playwright.

Browser tests never skip: if Chromium is missing they fail with a message saying how to install it.
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
SCREENSHOTS = ROOT / "docs" / "screenshots"


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
    """Save a full-page screenshot to docs/screenshots/<name>.png and return the path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path
