"""Run-files page in Debian's Chromium: a real upload (Playwright set_input_files) of a qrels file and
three runs, the verdict, the playground link, and the README screenshot."""
from __future__ import annotations

from pathlib import Path

from tests.browser.conftest import screenshot, wait_for_app

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"



def _open_uploaders(page, app_url):
    """The run-files page in upload mode; returns the two file inputs (qrels, runs)."""
    page.goto(f"{app_url}/run_files")
    wait_for_app(page)
    page.get_by_text("Upload files", exact=True).click()
    wait_for_app(page)
    inputs = page.locator('[data-testid="stFileUploader"] input[type="file"]')
    inputs.nth(1).wait_for(state="attached")
    return inputs


def test_upload_qrels_and_runs_then_see_whether_the_winner_changes(page, app_url):
    inputs = _open_uploaders(page, app_url)
    assert inputs.count() == 2
    inputs.nth(0).set_input_files(str(SAMPLES / "qrels.txt"))
    wait_for_app(page)
    inputs.nth(1).set_input_files([str(p) for p in sorted(SAMPLES.glob("*.run"))])
    page.get_by_text("The winner changes with the formula").wait_for(timeout=60_000)
    wait_for_app(page)
    body = page.locator('[data-testid="stMainBlockContainer"]').inner_text()
    assert "bm25.run" in body and "hybrid.run" in body and "dense.run" in body
    assert "3 run(s) × 24 variant(s)" in body
    # the options kept their values through the upload (k = 10, every gain)
    assert page.get_by_label("Cutoff k", exact=True).input_value() == "10"
    assert "Mean NDCG@10" in body
    # charts: the tau heat map and the scatter are drawn
    page.locator('[data-testid="stVegaLiteChart"]').nth(1).wait_for(timeout=30_000)  # at least 2 charts
    # Streamlit scrolls inside the page, so a tall viewport is what captures the results.
    page.set_viewport_size({"width": 1400, "height": 3400})
    wait_for_app(page)
    path = screenshot(page, "run_files")
    assert path.stat().st_size > 50_000


def test_a_bad_upload_is_reported_with_its_line(page, app_url):
    inputs = _open_uploaders(page, app_url)
    inputs.nth(0).set_input_files(str(SAMPLES / "qrels.txt"))
    wait_for_app(page)
    inputs.nth(1).set_input_files(str(SAMPLES / "broken_gbk.txt"))
    page.get_by_text("Problems in broken_gbk.txt").wait_for(timeout=60_000)
    wait_for_app(page)
    page.get_by_text("Evaluate the readable lines of files with bad lines").click()
    page.get_by_text("1 run(s) × 24 variant(s)").wait_for(timeout=60_000)
    wait_for_app(page)
    assert page.locator('[data-testid="stException"]').count() == 0
