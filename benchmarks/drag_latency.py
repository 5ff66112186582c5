"""Time in Chromium from a card drop to the new NDCG on screen: the playground beside a bare page that holds
only the same drag component (streamlit-sortables) and one number (its NDCG), in the same run.

Run: python benchmarks/drag_latency.py [--drops 12] [--grades 5]

Each drop is a keyboard move (dnd-kit's keyboard sensor: Space to pick a card up, an arrow, Space to drop;
a plain mouse ``drag_to`` does not start a dnd-kit drag).  The drop's time is taken inside the component's
iframe by a keydown listener (the Space that drops), the arrival of the new number in the page by a
MutationObserver on the NDCG value; both read ``Date.now()`` (same machine clock, ms resolution).  The card
goes one place right, then back left, so every drop changes the ranking and its NDCG.  Each server runs in
its own process; both are warmed up first (a few drops not timed).  Prints the median and quartiles of each
and the ratio of the medians (the aim: the playground within 1.5x of the bare page).
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SORTABLE = 'iframe[title="streamlit_sortables.sortable_items"]'

BARE = '''
import sys
sys.path.insert(0, {root!r})
import streamlit as st
from streamlit_sortables import sort_items
from metrics.ndcg import ndcg

GRADES = {grades!r}
cards = [f"D{{i + 1}} · {{g}}" for i, g in enumerate(GRADES)]
value = sort_items([{{"header": "Ranked list", "items": cards}}, {{"header": "Not retrieved", "items": []}}],
                   multi_containers=True, direction="horizontal", key="bare_sort")
order = [float(card.split(" · ")[1]) for card in value[0]["items"]] or [0.0]
st.metric("NDCG", f"{{ndcg(order):.4f}}")
'''

# In the page: remember when the NDCG value's text last changed.
OBSERVE = """() => {
  const m = [...document.querySelectorAll('[data-testid="stMetric"]')].find(e => e.innerText.trim().startsWith('NDCG'));
  const v = m.querySelector('[data-testid="stMetricValue"]');
  window.__ndcg = {text: v.innerText, changed: 0};
  new MutationObserver(() => {
    const now = [...document.querySelectorAll('[data-testid="stMetric"]')]
      .find(e => e.innerText.trim().startsWith('NDCG')).querySelector('[data-testid="stMetricValue"]').innerText;
    if (now !== window.__ndcg.text) { window.__ndcg = {text: now, changed: Date.now()}; }
  }).observe(document.querySelector('[data-testid="stMain"]'), {subtree: true, childList: true, characterData: true});
}"""
# In the component's iframe: remember when the dropping Space was pressed.
DROP = """() => {
  window.__drop = 0;
  document.addEventListener('keydown', e => { if (e.code === 'Space') window.__drop = Date.now(); }, true);
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(script: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port), "--server.address",
         "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return proc, url
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise SystemExit(f"{script} did not start")


def wait_idle(page) -> None:
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=120_000)


def drops(page, url: str, n: int, warmup: int) -> list[float]:
    """Milliseconds from each drop to the new NDCG on screen."""
    page.goto(url)
    page.wait_for_selector('[data-testid="stMetric"]', timeout=120_000)
    page.frame_locator(SORTABLE).locator("li.sortable-item").first.wait_for(timeout=120_000)
    wait_idle(page)
    page.wait_for_timeout(1500)
    frame = page.frame_locator(SORTABLE)
    out = []
    for i in range(warmup + n):
        page.evaluate(OBSERVE)
        frame.locator("body").evaluate(f"({DROP})()")
        card = frame.locator("li.sortable-item").nth(0 if i % 2 == 0 else 1)
        card.focus()
        page.keyboard.press("Space")  # pick up
        page.wait_for_timeout(250)
        page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
        page.wait_for_timeout(250)
        page.keyboard.press("Space")  # drop: the listener records the time
        page.wait_for_function("() => window.__ndcg.changed > 0", timeout=60_000)
        dropped = frame.locator("body").evaluate("() => window.__drop")
        changed = page.evaluate("() => window.__ndcg.changed")
        if i >= warmup:
            out.append(changed - dropped)
        wait_idle(page)
        page.wait_for_timeout(500)
    return out


def summary(ms: list[float]) -> str:
    q = statistics.quantiles(ms, n=4) if len(ms) >= 2 else [ms[0]] * 3
    return f"median {statistics.median(ms):.0f} ms (quartiles {q[0]:.0f}–{q[2]:.0f}, n = {len(ms)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--drops", type=int, default=12)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--grades", type=int, default=5, help="length of the ranking (3, 2, 1, 3, 2, ... repeated)")
    args = ap.parse_args()
    grades = [[3, 2, 1, 3, 2][i % 5] for i in range(args.grades)]

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        bare_script = Path(tmp) / "bare_drag.py"
        bare_script.write_text(BARE.format(root=str(ROOT), grades=grades))
        app, app_url = serve(ROOT / "app.py")
        bare, bare_url = serve(bare_script)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                rels = ",".join(str(g) for g in grades)
                play = drops(page, f"{app_url}/playground?rels={rels}", args.drops, args.warmup)
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                base = drops(page, bare_url, args.drops, args.warmup)
                browser.close()
        finally:
            for proc in (app, bare):
                proc.terminate()
                proc.wait(timeout=20)
    print(f"grades: {len(grades)}")
    print(f"playground: {summary(play)}")
    print(f"bare page (same component, one NDCG): {summary(base)}")
    print(f"ratio of medians: {statistics.median(play) / statistics.median(base):.2f}x (aim <= 1.5x)")


if __name__ == "__main__":
    main()
