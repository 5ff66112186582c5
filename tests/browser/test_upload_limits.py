"""Uploads on a real server, in Debian's Chromium: a big run with one bad line stops being read once its
visitor closes the tab (the server's log says so; no traceback), and a Parquet "bomb" of a few KB is refused
on the page with a message naming the file while the server's memory stays where it was.  The server is
started here (not the shared one) so that its log and its memory are this test's alone."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.browser.conftest import overflowing, page_problems, screenshot, wait_for_app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def logged_server(tmp_path):
    """``streamlit run app.py`` with its output in a file; yields (url, pid, log path)."""
    log = tmp_path / "server.log"
    for _attempt in range(5):
        port = _free_port()
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                 "--server.address", "127.0.0.1", "--server.headless", "true", "--server.fileWatcherType", "none",
                 "--browser.gatherUsageStats", "false", "--logger.level", "info"],
                cwd=ROOT, env=dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false"), stdout=out,
                stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        healthy = False
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as r:
                    healthy = r.status == 200
                    break
            except OSError:
                time.sleep(0.2)  # the health check's polling interval, not a wait for an outcome
        if healthy:
            break
        proc.terminate()
        proc.wait(timeout=20)
        if "already in use" not in log.read_text(errors="replace"):
            pytest.fail(f"streamlit did not start:\n{log.read_text(errors='replace')[-3000:]}")
    try:
        yield url, proc.pid, log
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_for_log(log: Path, text: str, timeout: float = 180) -> str:
    """Poll the server's log until ``text`` is in it (a condition; the poll interval is not a wait for it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = log.read_text(errors="replace")
        if text in content:
            return content
        time.sleep(0.25)
    pytest.fail(f"{text!r} never appeared in the server's log:\n{log.read_text(errors='replace')[-3000:]}")


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _open_uploaders(page, url):
    page.goto(f"{url}/run_files?data=upload")
    wait_for_app(page, 120_000)
    inputs = page.locator('[data-testid="stFileUploader"] input[type="file"]')
    inputs.nth(1).wait_for(state="attached")
    return inputs


def _upload(page, box, files) -> None:
    before = page.evaluate("() => window.__stRuns.requests")
    box.set_input_files(files)
    page.wait_for_function("(n) => window.__stRuns.requests > n", arg=before, timeout=120_000)


def test_reading_a_big_upload_stops_when_its_tab_is_closed(browser, logged_server, tmp_path):
    url, _pid, log = logged_server
    # 1.5 million lines (~60 MB), one of them bad: read line by line, several seconds of work
    lines = 1_500_000
    q = np.arange(lines) // 100
    run = tmp_path / "big_bad.run"
    with open(run, "w") as fh:
        for start in range(0, lines, 100_000):
            fh.write("".join(f"q{q[i]} Q0 D{i:07d} {i % 100 + 1} {1000 - i % 100}.5 tag\n"
                             for i in range(start, min(start + 100_000, lines))))
        fh.write("q1 Q0 broken\n")
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    inputs = _open_uploaders(page, url)
    _upload(page, inputs.nth(0), str(SAMPLES / "qrels.txt"))
    wait_for_app(page, 120_000)
    _upload(page, inputs.nth(1), str(run))
    page.get_by_text("Reading big_bad.run").wait_for(timeout=120_000)  # the read has started
    context.close()  # the visitor leaves
    content = _wait_for_log(log, "stopped reading big_bad.run: its visitor left")
    assert "Traceback" not in content


def test_a_parquet_bomb_is_refused_on_the_page_and_the_server_keeps_its_memory(browser, logged_server, tmp_path):
    url, pid, log = logged_server
    rows = 30_000_000  # ~300 KB: before, the server went to ~5.6 GB decoding them
    zeros = pa.array(np.zeros(rows, np.int32))
    same = pa.DictionaryArray.from_arrays(zeros, pa.array(["x"]))
    bomb = tmp_path / "bomb.parquet"
    pq.write_table(pa.table({"qid": same, "docno": same, "score": np.zeros(rows)}), bomb, compression="zstd",
                   row_group_size=1 << 22)
    assert bomb.stat().st_size < 400_000
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    inputs = _open_uploaders(page, url)
    _upload(page, inputs.nth(0), str(SAMPLES / "qrels.txt"))
    wait_for_app(page, 120_000)
    before = _rss_mb(pid)
    _upload(page, inputs.nth(1), [str(SAMPLES / "bm25.run"), str(bomb)])
    said = page.get_by_test_id("stAlert").filter(has_text="bomb.parquet has 30,000,000 rows; the limit here is "
                                                      "13,107,200. Use the command line for bigger files")
    said.wait_for(timeout=120_000)  # whole and visible (the problems table below cuts it to its column)
    page.get_by_text("1 run(s) × 24 variant(s)").wait_for(timeout=120_000)  # bm25.run is evaluated
    wait_for_app(page, 120_000)
    said.scroll_into_view_if_needed()
    said.screenshot(path=str(screenshot(page, "upload_limits_bomb").with_name("upload_limits_bomb_message.png")))
    assert overflowing(page) == []
    assert page_problems(page) == []
    assert _rss_mb(pid) - before < 300  # the evaluation of bm25.run; never the bomb's gigabytes
    context.close()
    assert "Traceback" not in log.read_text(errors="replace")


def test_refusals_and_warnings_are_whole_in_the_page_s_language(browser, logged_server, tmp_path):
    # F13: a column of the wrong type was refused in English on the Chinese page; the evaluation's warnings too.
    # Chinese on a phone (390 px), Korean at 1024x768 with the sidebar open: said in the language, nothing cut off.
    url, _pid, log = logged_server
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes((SAMPLES / "qrels.txt").read_bytes() + b"101 0 D900 2000\n101 0 D901 1.5\n")
    struct = tmp_path / "t_struct.parquet"
    pq.write_table(pa.table({"qid": [{"a": 1}], "docno": ["d1"], "score": [1.0]}), struct)
    said = {"zh": ["t_struct.parquet：列“qid”（qid）的类型是 struct<a: int64>，可接受的是字符串或整数",
                   "等级 2000 对指数增益来说太大", "有 1 个等级不是整数（第一个是第 56 行的 1.5）"],
            "ko": ["t_struct.parquet: 'qid' 열(qid)의 자료형이 struct<a: int64>입니다. 받을 수 있는 것은 문자열이나 "
                   "정수",
                   "등급 2000은 지수 이득에 너무 큽니다", "등급 1개가 정수가 아닙니다(첫 번째는 56행의 1.5)"]}
    for lang, viewport in (("zh", {"width": 390, "height": 844}), ("ko", {"width": 1024, "height": 768})):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{url}/run_files?data=upload&lang={lang}")
        wait_for_app(page, 120_000)
        inputs = page.locator('[data-testid="stFileUploader"] input[type="file"]')
        inputs.nth(1).wait_for(state="attached")
        _upload(page, inputs.nth(0), str(qrels))
        wait_for_app(page, 120_000)
        _upload(page, inputs.nth(1), [str(SAMPLES / "bm25.run"), str(struct)])
        for text in said[lang]:
            shown = page.get_by_text(text, exact=False).filter(visible=True).first  # (a data grid holds it hidden too)
            shown.wait_for(timeout=120_000)
        wait_for_app(page, 120_000)
        box = page.get_by_test_id("stAlert").filter(has_text=said[lang][0])
        box.scroll_into_view_if_needed()
        box.screenshot(path=str(screenshot(page, f"upload_type_{lang}").with_name(f"upload_type_{lang}_box.png")))
        edge = box.evaluate("(el) => [el.getBoundingClientRect().right, document.documentElement.clientWidth, "
                            "el.scrollWidth - el.clientWidth]")
        assert edge[0] <= edge[1] and edge[2] <= 1, (lang, edge)  # the box within the page, its text wrapped
        assert overflowing(page) == [], lang
        assert page_problems(page) == [], lang
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "accepted: strings" not in body and "too large for the" not in body, lang
        context.close()
    assert "Traceback" not in log.read_text(errors="replace")
