"""Refresh the README's screenshots (docs/screenshots/*.png) on purpose, never as a side effect of tests.

    python scripts/screenshots.py            # every page
    python scripts/screenshots.py playground check

Starts `streamlit run app.py` on a free loopback port, opens each page's example link in Debian's
Chromium at 1280×800 and saves a full-page screenshot.  Look at them before committing.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# name -> the link shown (path and query), as a teacher would open it.
SHOTS = {
    "playground": "/?rels=3,2,1,3,2&discount=jarvelin",
    "worked_examples": "/worked_examples",
    "variants": "/variants",
    "check": "/check",
    "practice": "/practice?seed=1234&difficulty=medium",
    "topn": "/topn",
    "rating": "/rating",
    "roc": "/roc",
    "run_files": "/run_files",
    "match": "/match?rels=3,2,3,0,1,2&value=0.961",
    "present": "/present?doc=000&step=6",
    "class": "/class",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_app(pg) -> None:
    pg.wait_for_selector('[data-testid="stMainBlockContainer"] h1', timeout=60_000)
    pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)
    if pg.locator(".cards").count():  # the playground draws its tables and charts in a second run
        pg.wait_for_selector('[data-testid="stCode"]', timeout=60_000)
        pg.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=60_000)
    pg.wait_for_timeout(1500)  # charts and fonts settle


def main(names: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    unknown = [n for n in names if n not in SHOTS]
    if unknown:
        print(f"unknown screenshot(s): {', '.join(unknown)}; known: {', '.join(SHOTS)}", file=sys.stderr)
        return 2
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            for name in names or list(SHOTS):
                context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
                pg = context.new_page()
                pg.goto(base + SHOTS[name])
                _wait_for_app(pg)
                path = OUT / f"{name}.png"
                pg.screenshot(path=str(path), full_page=True)
                print(path.relative_to(ROOT))
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
