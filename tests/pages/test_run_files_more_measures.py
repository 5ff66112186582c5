"""Run files page, the "more measures by name" box (AppTest through app.py): ir_measures' names from a link and
typed, their means equal to metrics.runfiles (ir_measures' averaging), written back to the link; a bad name
is named with its value, never acts as Markdown, and the last valid names stay evaluated; diversity
measures are refused (this page reads ordinary qrels)."""
from __future__ import annotations

from pathlib import Path

import pytest

from metrics.runfiles import evaluate_measures, read_qrels, read_run
from tests.conftest import no_exceptions, one_language_each, open_page
from ui.escape import markdown
from ui.numbers import show

PAGE = "pages/run_files.py"
SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
QRELS = (SAMPLES / "qrels.txt").read_bytes()
RUNS = {p.name: p.read_bytes() for p in sorted(SAMPLES.glob("*.run"))}
MORE = "nDCG@10; P(rel=2)@5; RR(rel=2)@10; Judged@10"


def means_table(at):
    return next(d.value for d in at.dataframe if "nDCG@10" in d.value.columns)


def want(specs):
    q = read_qrels(QRELS, name="qrels.txt").table
    frame = evaluate_measures(q, [read_run(data, name=name).table for name, data in RUNS.items()], specs)
    return frame[frame.qid == "all"].pivot(index="run", columns="measure", values="value")


@one_language_each("query", [{"more": MORE}, {"more": MORE, "measures": ""}])
def test_names_from_a_link_give_ir_measures_means(lang, query):
    at = open_page(PAGE, lang=lang, query=query)
    no_exceptions(at)
    table = means_table(at)
    names = ["nDCG@10", "P(rel=2)@5", "RR(rel=2)@10", "Judged@10"]
    assert [c for c in table.columns if c in names] == names
    expected = want(names)
    run_col = table.columns[0]
    for name in names:
        got = table.set_index(run_col)[name].tolist()
        assert got == [float(show(v, 4)) for v in expected.loc[list(RUNS), name]], name
    assert at.query_params["more"] == [MORE] or at.query_params["more"] == MORE


def test_a_typed_bad_name_is_named_and_the_last_valid_names_stay():
    at = open_page(PAGE, query={"more": "nDCG@10"})
    no_exceptions(at)
    at.text_input(key="rf_more").set_value("nDCG@10; P(rel=**2**)@5").run()
    no_exceptions(at)
    error = " ".join(e.value for e in at.error)
    assert "expected a name at character 7" in error and "\\*\\*2\\*\\*" in error  # escaped, not bold
    assert "nDCG@10" in means_table(at).columns  # still evaluated
    assert at.text_input(key="rf_more").value == "nDCG@10; P(rel=**2**)@5"  # what was typed is kept


@pytest.mark.parametrize("bad, item", [("P@x", "expected a number"), ("alpha_nDCG@10", "diversity meas"),
                                       ("<b>x</b>@3", "unknown measure")])
def test_a_bad_link_is_named_and_the_default_used(bad, item):
    at = open_page(PAGE, query={"more": bad})
    no_exceptions(at)
    assert at.session_state["rf_more"] == ""
    message = next(w.value for w in at.warning if f"**{markdown('more')}**" in w.value)
    assert item in message and "<b>" not in message
