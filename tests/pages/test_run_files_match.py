"""The Run files page's "Where did this number come from?": a reported mean found back (sample files and
uploads with repeated lines), its link parameters, bad and hostile values, the conformance table and its
downloads, in every language."""
from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest

from metrics.runfiles import evaluate_measures, read_qrels, read_run
from tests.conftest import LANGS, no_exceptions, one_language_each, open_page
from ui.i18n import MISSING_KEYS, t

PAGE = "pages/run_files.py"
SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
QRELS = (SAMPLES / "qrels.txt").read_bytes()


def trec_eval_mean(run: str, k: int = 10, *, complete: bool = False) -> float:
    """trec_eval's ndcg_cut mean of a sample run, from the engine's trec_eval measures (not the match code)."""
    frame = evaluate_measures(read_qrels(QRELS).table, [read_run((SAMPLES / run).read_bytes(), name=run).table],
                              [f"ndcg_cut.{k}"], complete=complete)
    return float(frame[(frame.qid == "all")]["value"].iloc[0])


def section_text(at) -> str:
    md = [m.value for m in at.markdown]
    start = next(i for i, v in enumerate(md) if v.startswith("**") and t("run_match.title") not in v and
                 "Libraries whose mean" in v or "均值等于" in v or "평균이" in v)
    return "\n".join(md[start:start + 8])


@pytest.mark.parametrize("lang", LANGS)
def test_a_trec_eval_mean_is_found_back(lang):
    mean = trec_eval_mean("bm25.run")
    typed = f"{mean:.4f}"
    at = open_page(PAGE, lang=lang, query={"match": typed})
    no_exceptions(at)
    assert not MISSING_KEYS
    assert t("run_match.title", lang=lang) in [s.value for s in at.subheader]
    body = " ".join(m.value for m in at.markdown)
    assert t("run_match.libraries", lang=lang, value=typed) in body
    assert "trec\\_eval 9.0.8" in body and f"{mean:.6f}" in body
    # the conformance table: every library that gives a number, trec_eval first
    names = [d.value for d in at.dataframe if t("run_match.col_library", lang=lang) in d.value.columns]
    assert names and names[0][t("run_match.col_library", lang=lang)].iloc[0] == "trec_eval 9.0.8"


def test_a_cut_off_mean():
    for run in ("bm25.run", "dense.run", "hybrid.run"):
        mean = trec_eval_mean(run)
        for p in (2, 3, 4):
            cut = f"{mean:.12f}"[:2 + p]  # cut off after p decimals
            if cut != f"{mean:.{p}f}":  # rounding would give another number
                break
        else:
            continue
        at = open_page(PAGE, query={"match": cut, "runs": run})
        no_exceptions(at)
        body = " ".join(m.value for m in at.markdown)
        assert f"trec\\_eval 9.0.8 gives {mean:.{p + 2}f} over" in body and f"cut off (not rounded) to {cut}" in body
        return
    pytest.fail("no sample run's mean cuts off differently from how it rounds")


def test_the_run_is_chosen_and_the_measure_typed():
    at = open_page(PAGE, query={"match": "0.5"})
    no_exceptions(at)
    at.selectbox(key="rf_match_run").set_value("hybrid.run").run()
    at.text_input(key="rf_match_measure").set_value("ndcg_cut.5").run()
    no_exceptions(at)
    mean = trec_eval_mean("hybrid.run", 5)
    at.text_input(key="rf_match_value").set_value(f"{mean:.5f}").run()
    no_exceptions(at)
    assert f"{mean:.7f}" in " ".join(m.value for m in at.markdown)
    assert at.query_params["match_measure"] in ("ndcg_cut.5", ["ndcg_cut.5"])


@one_language_each("value, measure", [("abc", "nDCG@10"), ("![x](http://example.invalid/a.png)", "nDCG@10"),
                                      ("0.5", "map"), ("0.5", "<b>nDCG</b>")])
def test_bad_values_are_named_and_inert(lang, value, measure):
    at = open_page(PAGE, lang=lang)
    at.text_input(key="rf_match_value").set_value("0.4").run()
    at.text_input(key="rf_match_measure").set_value(measure).run()
    at.text_input(key="rf_match_value").set_value(value).run()
    no_exceptions(at)
    errors = " ".join(e.value for e in at.error)
    assert errors, "a bad value is named"
    assert "![x](http" not in errors and "<b>" not in errors
    if measure == "nDCG@10":  # the last valid value is kept: its libraries are still listed
        assert t("run_match.libraries", lang=lang, value="0.4") in " ".join(m.value for m in at.markdown)


def test_bad_link_parameters_warn_and_use_the_defaults():
    at = open_page(PAGE, query={"match": "x1", "match_measure": "P@10"})
    no_exceptions(at)
    warnings = " ".join(w.value for w in at.warning)
    assert "match" in warnings and "match\\_measure" in warnings or "match_measure" in warnings
    assert at.session_state["rf_match_measure"] == "nDCG@10"
    assert t("run_match.need_value") in " ".join(i.value for i in at.info)


def test_uploaded_run_with_repeated_lines_is_tried_every_way():
    qrels = b"1 0 a 2\n1 0 b 1\n2 0 c 1\n3 0 d 1\n"
    run = b"1 Q0 b 1 2 r\n1 Q0 a 2 1 r\n2 Q0 x 1 1 r\n2 Q0 c 2 1 r\n2 Q0 c 3 0.5 r\n"
    files = {"qrels": ("qrels.txt", qrels), "runs": [("dup.run", run)]}
    at = open_page(PAGE, query={"data": "upload", "accept": "true", "match": "0.4969"}, state={"rf_files": files})
    no_exceptions(at)
    body = " ".join(m.value for m in at.markdown)
    assert "ir\\_measures" in body and "0.496883" in body
    captions = " ".join(c.value for c in at.caption)
    assert "trec\\_eval 9.0.8 gives no number" in captions and "duplicate docs" in captions


def test_downloads_are_inert_csv_and_escaped_markdown():
    qrels = b"=cmd() 0 a 1\n+x 0 b 1\n[l](http://e.x) 0 c 1\n"
    run = b"=cmd() Q0 a 1 2 r\n=cmd() Q0 z 2 1 r\n+x Q0 b 1 2 r\n+x Q0 y 2 1 r\n[l](http://e.x) Q0 c 1 1 r\n" \
          b"[l](http://e.x) Q0 w 2 0.5 r\n"
    files = {"qrels": ("qrels.txt", qrels), "runs": [("r.run", run)]}
    at = open_page(PAGE, query={"data": "upload"}, state={"rf_files": files})
    no_exceptions(at)
    labels = [b.proto.label for b in at.get("download_button")]
    for key in ("download_per_query", "download_means", "download_markdown"):
        assert t(f"run_match.{key}") in labels
    # the ids are data in the table, shown as typed
    table = next(d.value for d in at.dataframe if "trec_eval_9" in d.value.columns)
    assert set(table["Query"]) == {"=cmd()", "+x", "[l](http://e.x)"}


def test_conformance_markdown_has_no_link_and_no_broken_columns():
    from markdown_it import MarkdownIt

    from tests.gfm import links
    from ui.pages.run_files.match import conformance_markdown

    frame = pd.DataFrame({"Query": ["[l](http://e.x)", "a|b", "www.x.org", "=1+1"], "v": [0.5, 0.25, float("nan"), 1]})
    md = conformance_markdown(frame)
    html = MarkdownIt("commonmark").enable("table").render(md)
    assert not links(md) and "<a " not in html
    assert html.count("<tr>") == 5 and html.count("<td") == 8
    csv_like = io.StringIO(md)
    assert all(line.startswith("| ") for line in csv_like)


def test_files_too_large_for_the_app_point_to_the_command_line(monkeypatch):
    import ui.pages.run_files.match as rm

    monkeypatch.setattr(rm, "MAX_VALUES", 10)
    rm._grid_cached.clear()
    at = open_page(PAGE, query={"match": "0.5"})
    no_exceptions(at)
    assert any("more than the 10 the app computes" in w.value for w in at.warning)
    assert any("--match VALUE -m nDCG@10" in c.value for c in at.code)
    rm._grid_cached.clear()


def test_a_whole_ranking_mean_shows_calls_a_library_accepts():
    # Found by a tester: measure "ndcg" (no cutoff) showed "trec_eval -m ndcg_cut. qrels run" and
    # "{'ndcg_cut.'}", which neither tool accepts; trec_eval's whole-ranking measure is ``ndcg``.
    frame = evaluate_measures(read_qrels(QRELS).table, [read_run((SAMPLES / "bm25.run").read_bytes(),
                                                                  name="bm25.run").table], ["ndcg"])
    mean = float(frame[(frame.qid == "all")]["value"].iloc[0])
    at = open_page(PAGE, query={"match": f"{mean:.4f}", "runs": "bm25.run", "match_measure": "ndcg"})
    no_exceptions(at)
    body = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert "trec_eval -m ndcg qrels run" in body and "{'ndcg'}" in body
    assert "ndcg_cut." not in body and "@K" not in body
