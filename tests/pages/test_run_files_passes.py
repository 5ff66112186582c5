"""The Run files page evaluates once per files and settings (issue 38 item 2).

Counters around the engine -- its passes (:func:`metrics.runfiles.result.passes`) and its ranker
(:func:`metrics.runfiles.engine.rank`, called once per run per pass) -- while a visitor opens the page with
the three sample runs, the variants and five of trec_eval's measures chosen, then changes a setting, then
does something that changes no setting.  Before, every render ranked each run twice (the variants and the
measures were two evaluations, with two qrels indexes).
"""
from __future__ import annotations

import pytest

import metrics.runfiles.engine as engine
from metrics.runfiles import result as result_module
from tests.conftest import no_exceptions, open_page
from ui.pages.run_files import view as runfiles_view

PAGE = "pages/run_files.py"


@pytest.fixture
def counted(monkeypatch):
    """Record each pass of the engine (the runs it ranked) and start from empty caches."""
    passes: list[list[str]] = []
    real = engine.evaluate_tables

    def evaluate_tables(qi, runs, *args, **kwargs):
        passes.append([run.name for run in runs])
        return real(qi, runs, *args, **kwargs)

    monkeypatch.setattr(result_module, "evaluate_tables", evaluate_tables)
    runfiles_view._read_cached.clear()
    runfiles_view._result_cached.clear()
    yield passes
    runfiles_view._result_cached.clear()


def page_passes(passes: list[list[str]]) -> list[list[str]]:
    """The passes over the page's runs: all but the "where did this number come from?" section's, which
    evaluates its one chosen run under every library's settings (its own grid, cached per file and measure)."""
    return [p for p in passes if len(p) > 1]


def test_one_pass_per_render_each_run_ranked_once(counted):
    runs = runfiles_view.SAMPLE_RUNS
    assert len(runs) == 3
    before = result_module.passes()
    at = open_page(PAGE)
    no_exceptions(at)
    # the page shows both the variants table and the measures (so both were asked for)
    assert any("Winner" in d.value.columns for d in at.dataframe)
    assert any("map" in d.value.columns for d in at.dataframe)
    assert page_passes(counted) == [runs]  # one pass, each run once (the variants and the measures)
    # the rest: the match section's grid, one run (its chosen one, which it reads as "input") under each library
    assert all(p == ["input"] for p in counted if len(p) == 1), counted
    assert result_module.passes() - before == len(counted)  # nothing else evaluates

    # a new setting (another cutoff for the measures): one new pass, each run ranked once more
    at.session_state["rf_cutoffs"] = [5, 10]
    at.run()
    no_exceptions(at)
    assert any("P_5" in d.value.columns for d in at.dataframe)
    assert page_passes(counted) == [runs, runs]

    # a rerun that changes no file and no evaluated setting (the table of disagreements' length): no pass
    seen = len(counted)
    at.session_state["rf_top"] = 3
    at.run()
    no_exceptions(at)
    assert len(counted) == seen


def test_the_variants_and_the_measures_come_from_one_result(counted):
    """What the page shows for ndcg_cut_10 (trec_eval's measure) and for the linear/standard/judged/trec_eval
    variant at k = 10 is the same number (both are trec_eval's ndcg_cut.10), read from one Result."""
    at = open_page(PAGE)
    no_exceptions(at)
    means = next(d.value for d in at.dataframe if "ndcg_cut_10" in d.value.columns and "qid" not in d.value.columns)
    means = means.set_index(means.columns[0])
    verdict = next(d.value for d in at.dataframe if "Winner" in d.value.columns)
    row = verdict[(verdict["Gain"] == "Linear gain") & (verdict["Discount"] == "Standard discount")
                  & (verdict["IDCG source"] == "all judged documents")
                  & verdict["Tie rule"].str.startswith("trec_eval")]
    assert len(row) == 1
    assert len(page_passes(counted)) == 1
    for run in runfiles_view.SAMPLE_RUNS:
        assert float(row[run].iloc[0]) == pytest.approx(float(means.loc[run, "ndcg_cut_10"]), abs=5e-5)
