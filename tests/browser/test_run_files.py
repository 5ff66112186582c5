"""Run-files page in Debian's Chromium: real uploads (Playwright set_input_files), the same file added again,
progress bars that go away, a CSV download with formula-like names, the journey of a shared link (a later
visitor opens it, changes a setting, leaves and comes back, a fresh browser opens the copied address), and
the layout at a projector's 1024×768 (sidebar open) and a 390×844 phone in English, Chinese and Korean."""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from tests.browser.a11y import axe_version, check_page, rendered
from tests.browser.conftest import PHONE, PROJECTOR, overflowing, page_problems, screenshot, wait_for_app

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
MAIN = '[data-testid="stMainBlockContainer"]'
CHARTS = '[data-testid="stVegaLiteChart"]'


def _open_uploaders(page, app_url):
    """The run-files page in upload mode (from its link); returns the two file inputs (qrels, runs)."""
    page.goto(f"{app_url}/run_files?data=upload")
    wait_for_app(page)
    inputs = page.locator('[data-testid="stFileUploader"] input[type="file"]')
    inputs.nth(1).wait_for(state="attached")
    return inputs


ABOUT = {"en": "How the values are computed", "zh": "数值是怎么算的", "ko": "값을 계산하는 방법"}


def _upload(page, box, files) -> None:
    """Give ``box`` (a file input) ``files`` like a user's file dialog and wait until the page has asked for the
    run that reads them and that run is over.  The uploader first sends the bytes over HTTP and only then asks
    for a rerun: until then the page looks idle, and a next step taken in that gap races the upload."""
    before = page.evaluate("() => window.__stRuns.requests")
    box.set_input_files(files)
    page.wait_for_function("(n) => window.__stRuns.requests > n", arg=before, timeout=120_000)
    wait_for_app(page, 120_000)


def _wait_for_results(page, text: str, lang: str = "en"):
    """Wait until ``text`` shows and the script run has finished (its last element, the "about" expander,
    is drawn; the address bar is written right after it)."""
    page.get_by_text(text).first.wait_for(timeout=120_000)
    page.get_by_text(ABOUT[lang]).wait_for(timeout=120_000)
    wait_for_app(page, 120_000)
    page.locator(CHARTS).nth(1).wait_for(timeout=30_000)  # the flip bars and the scatter drawn


def _navigate(page, path: str) -> None:
    """Go to another page through the sidebar's navigation (the same session), opening "View more" if the
    link is folded away."""
    link = page.locator(f'[data-testid="stSidebarNav"] a[href$="/{path}"]')
    if link.count() == 0:
        page.get_by_test_id("stSidebarNavViewButton").click()
    link.click()


def _body(page) -> str:
    return page.locator(MAIN).inner_text()


def test_upload_qrels_and_runs_then_see_which_choice_flips_the_winner(page, app_url):
    inputs = _open_uploaders(page, app_url)
    assert inputs.count() == 2
    assert "never your files" in _body(page)  # files are not in links, said on the page
    _upload(page, inputs.nth(0), str(SAMPLES / "qrels.txt"))
    _upload(page, inputs.nth(1), [str(p) for p in sorted(SAMPLES.glob("*.run"))])
    _wait_for_results(page, "The winner changes with the formula")
    body = _body(page)
    assert "bm25.run" in body and "hybrid.run" in body and "dense.run" in body
    assert "3 run(s) × 24 variant(s)" in body
    assert page.get_by_label("Cutoff k", exact=True).input_value() == "10"
    assert "Mean NDCG@10" in body and "Which choice flips the winner?" in body
    assert "linear/standard" not in body  # variants in words
    assert page.locator('[data-testid="stProgress"]').count() == 0  # no progress bar left at 100 %
    assert page_problems(page) == []
    # Streamlit scrolls inside the page, so a tall viewport is what captures the results.
    page.set_viewport_size({"width": 1400, "height": 3600})
    wait_for_app(page)
    path = screenshot(page, "run_files")
    assert path.stat().st_size > 50_000


def test_adding_the_same_run_again_does_not_make_another_system(page, app_url):
    inputs = _open_uploaders(page, app_url)
    _upload(page, inputs.nth(0), str(SAMPLES / "qrels.txt"))
    runs = [str(SAMPLES / "bm25.run"), str(SAMPLES / "dense.run")]
    _upload(page, inputs.nth(1), runs)
    _wait_for_results(page, "2 run(s) × 24 variant(s)")
    # the same file once more, as a visitor adding it again in the uploader would
    _upload(page, inputs.nth(1), str(SAMPLES / "bm25.run"))
    page.get_by_text("bm25.run was added twice: it is evaluated once.").wait_for(timeout=120_000)
    wait_for_app(page)
    body = _body(page)
    assert "2 run(s) × 24 variant(s)" in body and "bm25.run (2)" not in body
    assert page.locator('[data-testid="stProgress"]').count() == 0


def test_uploaded_files_are_still_used_after_a_visit_to_another_page(page, app_url):
    inputs = _open_uploaders(page, app_url)
    _upload(page, inputs.nth(0), str(SAMPLES / "qrels.txt"))
    _upload(page, inputs.nth(1), [str(SAMPLES / "bm25.run"), str(SAMPLES / "hybrid.run")])
    _wait_for_results(page, "2 run(s) × 24 variant(s)")
    _navigate(page, "roc")
    wait_for_app(page)
    _navigate(page, "run_files")
    _wait_for_results(page, "2 run(s) × 24 variant(s)")
    body = _body(page)
    assert "Still using the files you uploaded earlier: qrels.txt, bm25.run, hybrid.run" in body
    assert page_problems(page) == []
    page.get_by_role("button", name="Forget these files").click()
    page.get_by_text("Upload a qrels file and at least one run file").wait_for(timeout=120_000)


def test_a_bad_upload_is_reported_with_its_line(page, app_url):
    inputs = _open_uploaders(page, app_url)
    _upload(page, inputs.nth(0), str(SAMPLES / "qrels.txt"))
    _upload(page, inputs.nth(1), str(SAMPLES / "broken_gbk.txt"))
    page.get_by_text("Problems in broken_gbk.txt").wait_for(timeout=120_000)
    wait_for_app(page)
    page.get_by_text("Evaluate the readable lines of files with bad lines").click()
    page.get_by_text("1 run(s) × 24 variant(s)").wait_for(timeout=120_000)
    wait_for_app(page)
    assert page_problems(page) == []
    page.wait_for_url(re.compile(r"[?&]accept=1(&|$)"), timeout=120_000)  # a setting: it reaches the link


def test_csv_download_neutralises_formula_like_names_and_ids(page, app_url, tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes((SAMPLES / "qrels.txt").read_bytes().replace(b"101 ", b"=1+1 "))
    evil = tmp_path / "@SUM(1).run"
    evil.write_bytes((SAMPLES / "bm25.run").read_bytes().replace(b"101 ", b"=1+1 "))
    inputs = _open_uploaders(page, app_url)
    _upload(page, inputs.nth(0), str(qrels))
    _upload(page, inputs.nth(1), [str(evil), str(SAMPLES / "dense.run")])
    _wait_for_results(page, "2 run(s) × 24 variant(s)")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download per-query values (CSV)").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    cells = [c for row in rows for c in row]
    assert "'=1+1" in cells and "'@SUM(1).run" in cells
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    first = text.splitlines()[1]  # "run","qid",value,...: text quoted, numbers bare (numbers stay numbers)
    assert first.count('"') == 4 and float(first.split(",")[2]) == float(rows[1][2])


def test_a_shared_link_survives_a_page_switch_and_opens_the_same_in_a_fresh_browser(make_page, app_url):
    """The journey: a later visitor opens a shared link, changes a setting, leaves the page and comes back,
    then the address is opened in a fresh browser context (a student receiving the link)."""
    page = make_page()
    page.goto(f"{app_url}/run_files?k=5&gain=exponential,linear&ties=average&top=3")
    _wait_for_results(page, "variant(s) over")
    assert page_problems(page) == []
    cutoff = page.get_by_label("Cutoff k", exact=True)
    assert cutoff.input_value() == "5"
    assert "Mean NDCG@5" in _body(page)
    # change something: k = 7
    cutoff.fill("7")
    cutoff.press("Enter")
    page.get_by_text("Mean NDCG@7").wait_for(timeout=120_000)
    page.wait_for_url(re.compile(r"[?&]k=7(&|$)"), timeout=120_000)  # written at the end of the run
    wait_for_app(page)
    # leave for another page and come back through the navigation
    _navigate(page, "variants")
    wait_for_app(page)
    _navigate(page, "run_files")
    _wait_for_results(page, "Mean NDCG@7")
    assert page.get_by_label("Cutoff k", exact=True).input_value() == "7"
    assert page_problems(page) == []
    copied = page.url
    for part in ("k=7", "gain=exponential%2Clinear", "ties=average", "top=3"):
        assert part in copied or part.replace("%2C", ",") in copied
    # the copied address in a fresh browser: the same view
    fresh = make_page(fresh=True)
    fresh.goto(copied)
    _wait_for_results(fresh, "Mean NDCG@7")
    assert fresh.get_by_label("Cutoff k", exact=True).input_value() == "7"
    assert page_problems(fresh) == []
    # 2 gains (exponential, linear) × 2 discounts × 2 IDCG sources × 1 tie rule (average)
    assert "3 run(s) × 8 variant(s)" in _body(fresh)
    table = fresh.get_by_text("Queries where the two variants disagree most")
    assert table.count() == 1


EVALUATED = {"en": "3 run(s) × 24 variant(s)", "zh": "3 个 run × 24 个变体", "ko": "런 3개 × 변형 24개"}


@pytest.mark.parametrize("lang", ["en", "zh", "ko"])
def test_nothing_is_cut_off_on_a_projector_or_a_phone(make_page, app_url, lang):
    for name, viewport in (("projector", PROJECTOR), ("phone", PHONE)):
        page = make_page(viewport=viewport)
        page.goto(f"{app_url}/run_files?lang={lang}")
        _wait_for_results(page, EVALUATED[lang], lang)
        # The closed expanders (the significance lesson): once opened, their charts are drawn and their formulas
        # fit, one step per line (and axe below reads them too).
        closed = page.locator('[data-testid="stExpander"] details:not([open])').filter(
            has=page.locator('[data-testid="stVegaLiteChart"]'))
        assert closed.count() >= 1
        for _ in range(closed.count()):  # each click opens the first one still closed
            closed.first.locator("summary").click()
        assert closed.count() == 0
        rendered(page)
        if name == "projector":
            assert page.locator('[data-testid="stSidebar"]').bounding_box()["width"] > 200  # sidebar open
            # the same load serves tests/browser/test_a11y.py's checks
            a11y = check_page(page, "run_files", lang, f"run_files [{lang}]")
            assert not a11y, f"axe-core {axe_version()}:\n" + "\n".join(a11y)
        assert overflowing(page) == [], (name, lang)
        assert page_problems(page) == []
        page.set_viewport_size({"width": viewport["width"], "height": 4200})
        wait_for_app(page)
        screenshot(page, f"run_files_{name}_{lang}")
