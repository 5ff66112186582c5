"""Run-files page (AppTest): sample data, the verdict, charts, links, bad input, languages.

AppTest cannot drive st.file_uploader, so uploads are simulated by putting the files into
``st.session_state["rf_files"]`` exactly as the uploaders' callback does; the real upload is
tested in the browser (tests/browser/test_run_files.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from metrics.runfiles.batch import evaluate, make_variants
from metrics.runfiles.read import read_qrels, read_run
from tests.conftest import LANGS, no_exceptions, open_page

PAGE = "pages/run_files.py"
SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
QRELS = (SAMPLES / "qrels.txt").read_bytes()
RUNS = {p.name: p.read_bytes() for p in sorted(SAMPLES.glob("*.run"))}


def uploaded(qrels=("qrels.txt", QRELS), runs=None) -> dict:
    return {"rf_source": "upload",
            "rf_files": {"origin": "upload", "qrels": qrels, "runs": list((runs or RUNS).items())}}


def dataframes(at):
    return [d.value for d in at.dataframe]


def test_sample_data_shows_the_verdict_table_and_charts():
    at = open_page(PAGE)
    no_exceptions(at)
    assert at.title[0].value.startswith("Run files")
    # the sample runs are built so that the winner changes
    assert any("The winner changes" in w.value for w in at.warning)
    charts = at.get("vega_lite_chart")  # (the brief's "arrow_vega_lite_chart" is this element in streamlit 1.67)
    assert len(charts) == 2  # tau heat map and the scatter
    specs = [json.loads(c.proto.spec) for c in charts]
    assert '"rect"' in json.dumps(specs[0]) and '"circle"' in json.dumps(specs[1])
    assert all("tooltip" in json.dumps(s) for s in specs)


def test_means_equal_the_metrics_package():
    at = open_page(PAGE)
    no_exceptions(at)
    ev = at.session_state["rf_ev"]
    q = read_qrels(QRELS, name="qrels.txt").table
    runs = [read_run(data, name=name).table for name, data in RUNS.items()]
    want = evaluate(q, runs, k=10, variants=make_variants(ties=["trec_eval", "average"])).means()
    got = ev.means()
    assert list(got.index) == list(want.index) and sorted(got.columns) == sorted(want.columns)
    assert (abs(got - want[got.columns]) < 1e-12).all().all()
    table = next(d for d in dataframes(at) if "bm25.run" in d.columns and "dense.run" in d.columns)
    assert len(table) == 24
    assert table["bm25.run"].tolist() == pytest.approx(want.loc["bm25.run", ev.labels].tolist(), rel=1e-12)


def test_disagreement_links_open_the_playground_on_that_query():
    at = open_page(PAGE)
    no_exceptions(at)
    table = next(d for d in dataframes(at) if "Playground" in d.columns)
    assert len(table) == 10
    link = table["Playground"].iloc[0]
    parsed = urlparse(link)
    assert parsed.path == "playground"
    q = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
    assert "rels" in q and q.get("k") == "10"
    # the grades in the link are the run's ranked list for that query, unjudged = 0
    run, qid = table.iloc[0, 0], table.iloc[0, 1]
    lines = [ln.split() for ln in RUNS[run].decode().splitlines() if ln.split()[0] == qid]
    assert len(q["rels"].split(",")) == len(lines)
    # ... and the playground reads every parameter of it without a problem
    from ui.links import read_playground_query

    link_state = read_playground_query(q)
    assert link_state.problems == [] and link_state.k == 10 and link_state.idcg is None  # judged: the default
    assert len(link_state.labels) == len(lines) + len(link_state.unretrieved or [])


def test_changing_the_options_recomputes():
    at = open_page(PAGE)
    at.session_state["rf_k"] = 0
    at.session_state["rf_gains"] = ["linear"]
    at.session_state["rf_discounts"] = ["standard"]
    at.session_state["rf_idcg"] = ["judged"]
    at.session_state["rf_ties"] = ["trec_eval"]
    at.run()
    no_exceptions(at)
    ev = at.session_state["rf_ev"]
    assert ev.labels == ["linear/standard/judged/trec_eval"] and ev.k is None
    assert not any("winner changes" in w.value for w in at.warning)
    assert any("wins under all 1 variants" in s.value for s in at.success)


def test_empty_choice_asks_for_one_of_each():
    at = open_page(PAGE)
    at.session_state["rf_gains"] = []
    at.run()
    no_exceptions(at)
    assert any("at least one gain" in w.value for w in at.warning)


def test_upload_with_bad_lines_needs_consent_then_evaluates_the_rest():
    broken = (SAMPLES / "broken_gbk.txt").read_bytes()
    at = open_page(PAGE, state=uploaded(runs={"bm25.run": RUNS["bm25.run"], "broken_gbk.txt": broken}))
    no_exceptions(at)
    text = " ".join(e.label for e in at.expander).replace("\\", "")  # labels are Markdown: _ is escaped
    assert "Problems in broken_gbk.txt" in text
    problems = next(d for d in dataframes(at) if "Message" in d.columns)
    assert problems["Line"].tolist()[:3] == ["3", "4", "5"]
    assert "line 3: score 'abc' is not a number" in problems["Message"].iloc[0]
    assert at.session_state["rf_ev"].runs == ["bm25.run"]  # left out until the user agrees
    at.checkbox(key="rf_accept_bad").check().run()
    no_exceptions(at)
    assert at.session_state["rf_ev"].runs == ["bm25.run", "broken_gbk.txt"]


def test_fatal_files_are_reported_and_nothing_crashes():
    at = open_page(PAGE, state=uploaded(qrels=("run_as_qrels.txt", RUNS["bm25.run"])))
    no_exceptions(at)
    assert any("looks like a run file" in str(d.values) for d in dataframes(at))
    assert any("qrels file cannot be used" in w.value for w in at.warning)
    bad = uploaded(runs={"latin.run": "101 Q0 D1\xff 1 1.0 x\n".encode("latin-1") + b"\xff\xfe\xfa\n"})
    at = open_page(PAGE, state=bad)
    no_exceptions(at)
    assert any("neither UTF-8 nor GBK" in str(d.values) for d in dataframes(at))


def test_gbk_and_bom_uploads_are_read():
    gbk = RUNS["dense.run"].decode().replace("dense", "密集").encode("gbk")
    bom = b"\xef\xbb\xbf" + RUNS["bm25.run"]
    at = open_page(PAGE, state=uploaded(runs={"dense_gbk.run": gbk, "bm25_bom.run": bom}))
    no_exceptions(at)
    files = next(d for d in dataframes(at) if "Encoding" in d.columns)
    assert files.set_index("File")["Encoding"].to_dict() == {"qrels.txt": "utf-8", "dense_gbk.run": "gbk",
                                                             "bm25_bom.run": "utf-8-sig"}


def test_upload_without_files_asks_for_them():
    at = open_page(PAGE, state={"rf_source": "upload"})
    no_exceptions(at)
    assert any("Upload a qrels file" in i.value for i in at.info)


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_renders(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert at.title[0].value
    if lang != "en":
        assert not at.title[0].value.startswith("Run files")


def test_file_names_and_ids_are_not_rendered_as_markdown():
    evil = "![x](http://example.invalid/a.png)"
    runs = {f"{evil}.run": RUNS["bm25.run"] + f"999 Q0 {evil} 1 1.0 x\n".encode(), "dense.run": RUNS["dense.run"]}
    at = open_page(PAGE, state=uploaded(runs=runs))
    no_exceptions(at)
    shown = [c.value for c in at.caption] + [w.value for w in at.warning] + [s.value for s in at.success]
    joined = " ".join(shown)
    assert "999" in joined  # the query that is not in the qrels is reported...
    assert "![x](http" not in joined and "\\!\\[x\\]" in joined  # ...with the file name escaped


def test_the_large_file_path_shows_the_same_page(monkeypatch):
    """Files of a million lines and more keep their document ids as plain strings (numba kernels compare
    their bytes); forced here on the sample data, the page shows the same numbers and playground links."""
    pytest.importorskip("numba")
    import pyarrow as pa

    import metrics.runfiles._kernels as kernels

    want = open_page(PAGE)
    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)
    at = open_page(PAGE)
    no_exceptions(at)
    parsed = list(at.session_state["rf_cache"].values())
    assert parsed and all(pa.types.is_string(p.table.docno.type) for p in parsed)  # the large-file path ran
    assert (at.session_state["rf_ev"].means() == want.session_state["rf_ev"].means()).all().all()
    links = [d for d in dataframes(at) if "Playground" in d.columns]
    assert links and links[0].equals(next(d for d in dataframes(want) if "Playground" in d.columns))
