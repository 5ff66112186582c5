"""Server-side rerun time of the playground at 10 / 100 / 1,000 / 10,000 grades beside a bare
one-widget page, and the time from `streamlit run app.py` to the first render in Chromium.

Run: python benchmarks/playground_rerun.py [--repeat 7] [--no-startup]
Reruns are timed with AppTest (the script runs in-process, as on the server; no browser):
"rerun" repeats a run with nothing changed (e.g. a click elsewhere), "edit" types a new ranking
of the same size first (parsing, checks and every number recomputed).
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

BARE = "import streamlit as st\nst.number_input('x', key='x')\n"


def timed(fn, repeat: int) -> float:
    """Median seconds of `repeat` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bare_rerun(repeat: int) -> float:
    at = AppTest.from_string(BARE, default_timeout=60)
    at.run()
    return timed(at.run, repeat)


def grades(n: int) -> list[int]:
    return [(i * 7 + i // 3) % 4 for i in range(n)]


def playground(n: int, repeat: int) -> tuple[float, float]:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["lang"] = "en"
    at.query_params["rels"] = ",".join(map(str, grades(n)))  # up to 10,000: the link holds them (MAX_ITEMS)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    rerun = timed(at.run, repeat)
    texts = [" ".join(map(str, grades(n)[::-1])), " ".join(map(str, grades(n)))]
    state = {"i": 0}

    def edit():
        state["i"] += 1
        at.text_area(key="pg_rels").input(texts[state["i"] % 2]).run()

    return rerun, timed(edit, repeat)


def startup() -> tuple[float, float]:
    """Seconds from `streamlit run` to a healthy server, and to the playground's title in Chromium."""
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.headless", "true", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false"))
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.05)
            healthy = time.perf_counter() - t0
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector('[data-testid="stMetricValue"]', timeout=120_000)
            rendered = time.perf_counter() - t0
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return healthy, rendered


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-startup", action="store_true")
    ap.add_argument("--sizes", default="10,100,1000,10000")
    args = ap.parse_args()
    bare = bare_rerun(args.repeat)
    print(f"bare one-widget page: rerun {bare * 1000:.1f} ms (median of {args.repeat})")
    print("| grades | rerun (ms) | × bare | edit: new ranking typed (ms) |")
    print("|---:|---:|---:|---:|")
    for n in (int(x) for x in args.sizes.split(",")):
        rerun, edit = playground(n, args.repeat)
        print(f"| {n:,} | {rerun * 1000:.1f} | {rerun / bare:.1f} | {edit * 1000:.1f} |", flush=True)
    if not args.no_startup:
        healthy, rendered = startup()
        print(f"startup: server healthy after {healthy:.2f} s, playground rendered in Chromium after {rendered:.2f} s")


if __name__ == "__main__":
    main()
