"""Run-files page (AppTest through app.py): sample data, the verdict, which choice flips the winner, the
comparison of two variants, uploads (through the real uploader widgets and through the kept files in
``st.session_state["rf_files"]``), the size cap, duplicates, every link parameter good and bad, state kept
across page switches, downloads, escaping and languages.  The browser side is tests/browser/test_run_files.py.
"""
from __future__ import annotations

import io
import itertools
import json
import tomllib
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pyarrow as pa
import pytest

from metrics.registry import TIES
from metrics.runfiles import evaluate_measures, make_variants, read_qrels, read_run
from metrics.runfiles.batch import evaluate  # the variants table (a view of the one Result)
from tests.conftest import LANGS, no_exceptions, open_page
from ui.escape import markdown
from ui.numbers import show
from ui.pages.run_files import view as runfiles_view

PAGE = "pages/run_files.py"
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"
QRELS = (SAMPLES / "qrels.txt").read_bytes()
RUNS = {p.name: p.read_bytes() for p in sorted(SAMPLES.glob("*.run"))}
CHOICE_COLUMNS = ["Gain", "Discount", "IDCG source", "Tie rule"]




def displayed(values, digits: int = 4) -> list[float]:
    """What a table holds for screen readers: each exact value at its display precision (ui.numbers.for_table)."""
    return [float(show(v, digits)) for v in values]

def uploaded(qrels=("qrels.txt", QRELS), runs=None, *, query=None, lang="en"):
    """The page in upload mode with files already received (what the uploaders' callbacks keep)."""
    runs = RUNS if runs is None else runs
    files = {"qrels": qrels, "runs": list(runs.items()) if isinstance(runs, dict) else list(runs)}
    return open_page(PAGE, lang=lang, query={"data": "upload", **(query or {})}, state={"rf_files": files})


def frames(at) -> list[pd.DataFrame]:
    return [d.value for d in at.dataframe]


def table_with(at, column: str) -> pd.DataFrame:
    return next(d for d in frames(at) if column in d.columns)


def run_columns(table: pd.DataFrame) -> list[str]:
    """The runs' mean columns of the verdict table (between the choices and the order of runs)."""
    cols = [c for c in table.columns if c != "Significant?"]
    return cols[cols.index("Tie rule") + 1: cols.index("Order of runs")]


def has_results(at) -> bool:
    """Whether the page evaluated anything (the verdict table is drawn)."""
    return any("Winner" in d.columns for d in frames(at))


def chart_specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def chart_data(chart) -> list[pd.DataFrame]:
    return [pa.ipc.open_stream(d.data.data).read_pandas() for d in chart.proto.datasets]


def link(at) -> dict[str, str]:
    """The address bar's query after the run."""
    return {k: v[-1] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}


def texts(at, *kinds) -> str:
    return " ".join(x.value for kind in kinds for x in getattr(at, kind))


def want_means(variants=None, k=10) -> pd.DataFrame:
    q = read_qrels(QRELS, name="qrels.txt").table
    runs = [read_run(data, name=name).table for name, data in RUNS.items()]
    variants = variants or make_variants(idcg=["judged", "list"], ties=["trec_eval", "average"])  # the page's order
    return evaluate(q, runs, k=k, variants=variants).means()


# ----------------------------------------------------------------------------------------- sample data
def test_sample_data_shows_the_verdict_the_flips_and_the_comparison():
    at = open_page(PAGE)
    no_exceptions(at)
    assert at.title[0].value.startswith("Run files")
    assert any("The winner changes" in w.value for w in at.warning)  # the samples are built so that it does
    # which choice flips the winner (bars), two variants query by query (points), then the significance
    # section's and the lesson's charts
    specs = chart_specs(at)
    assert len(specs) >= 4
    assert '"bar"' in json.dumps(specs[0]) and '"circle"' in json.dumps(specs[1])
    assert all("tooltip" in json.dumps(s) for s in specs)
    assert not at.get("progress")  # the progress bars are gone once everything is read and evaluated


def test_means_equal_the_metrics_package_row_by_row():
    at = open_page(PAGE)
    no_exceptions(at)
    want = want_means()
    table = table_with(at, "Winner")
    assert len(table) == 24
    for run in RUNS:
        assert table[run].tolist() == displayed(want.loc[run])
    # the choices are in words, in the variants' order: linear/standard/judged/trec_eval first
    assert table.loc[0, CHOICE_COLUMNS].tolist() == ["Linear gain", "Standard discount", "all judged documents",
                                                     TIES["trec_eval"].name]
    assert table["Winner"].tolist() == [want[label].idxmax() for label in want.columns]


def test_which_choice_flips_the_winner_counts_pairs_differing_in_one_choice():
    """Re-derived here from the means table itself: every pair of rows that differ in exactly one of the
    four choice columns is one change of that choice; it flips when the two rows' winners differ."""
    at = open_page(PAGE)
    no_exceptions(at)
    table = table_with(at, "Winner")
    counts = {c: [0, 0] for c in CHOICE_COLUMNS}
    for (_, a), (_, b) in itertools.combinations(table.iterrows(), 2):
        differ = [c for c in CHOICE_COLUMNS if a[c] != b[c]]
        if len(differ) == 1:
            counts[differ[0]][0] += 1
            counts[differ[0]][1] += a["Winner"] != b["Winner"]
    bars = chart_data(at.get("vega_lite_chart")[0])
    data = next(d for d in bars if "changes" in d.columns).set_index("name")
    # 3 gains: 3 pairs for each of the 2 x 2 x 2 other combinations = 24; 2 options elsewhere: 12 pairs.
    assert {c: n for c, (n, _) in counts.items()} == {"Gain": 24, "Discount": 12, "IDCG source": 12, "Tie rule": 12}
    assert {c: [int(data.loc[c, "changes"]), int(data.loc[c, "flips"])] for c in CHOICE_COLUMNS} == counts
    flips = table_with(at, "Winner before")
    assert len(flips) == sum(f for _, f in counts.values())
    assert (flips["Winner before"] != flips["Winner after"]).all()


def test_charts_and_tables_name_variants_in_words_in_every_language():
    for lang, words in (("en", "Linear gain"), ("zh", "线性增益"), ("ko", "선형 이득")):
        at = open_page(PAGE, lang=lang)
        no_exceptions(at)
        blob = json.dumps(chart_specs(at), ensure_ascii=False)
        blob += " ".join(df.to_json(force_ascii=False) for c in at.get("vega_lite_chart") for df in chart_data(c))
        assert "linear/standard" not in blob and "/judged/" not in blob  # no raw variant ids in any chart
        markdown = texts(at, "markdown")
        assert words in markdown  # the x and y variants above the scatter, in words
        shown = [d for d in frames(at) if "run" not in d.columns]  # (the per-query data table keeps ids)
        assert not any("/judged/" in str(v) for d in shown for v in d.columns)
        assert words in " ".join(str(v) for d in shown for v in d.to_numpy().ravel())


def test_disagreement_links_open_the_playground_on_that_query():
    at = open_page(PAGE)
    no_exceptions(at)
    table = table_with(at, "Playground")
    assert len(table) == 10
    parsed = urlparse(table["Playground"].iloc[0])
    assert parsed.path == "playground"
    q = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
    assert "rels" in q and q.get("k") == "10"
    # the grades in the link are the run's ranked list for that query, unjudged = 0
    run, qid = table.iloc[0, 0], table.iloc[0, 1]
    lines = [ln.split() for ln in RUNS[run].decode().splitlines() if ln.split()[0] == qid]
    assert len(q["rels"].split(",")) == len(lines)
    from ui.links import read_playground_query

    link_state = read_playground_query(q)
    assert link_state.problems == [] and link_state.k == 10 and link_state.idcg is None  # judged: the default
    assert len(link_state.labels) == len(lines) + len(link_state.unretrieved or [])


def test_changing_the_options_recomputes_and_reaches_the_link():
    at = open_page(PAGE)
    at.session_state["rf_k"] = None  # empty box: the whole list
    at.session_state["rf_gains"] = ["linear"]
    at.session_state["rf_discounts"] = ["standard"]
    at.session_state["rf_idcg"] = ["judged"]
    at.session_state["rf_ties"] = ["trec_eval"]
    at.run()
    no_exceptions(at)
    table = table_with(at, "Winner")
    variant = make_variants(gains="linear", discounts="standard", idcg="judged", ties="trec_eval")
    want = want_means(variant, k=None)
    assert len(table) == 1 and table["bm25.run"].iloc[0] == displayed([want.loc["bm25.run"].iloc[0]])[0]
    assert "Mean NDCG under each variant" in texts(at, "subheader")  # no @k
    assert not any("winner changes" in w.value for w in at.warning)
    assert any("wins under all 1 variants" in s.value for s in at.success)
    # (with one variant, y can only be that variant too: it joins the link)
    assert link(at) == {"k": "all", "gain": "linear", "discount": "standard", "idcg": "judged", "ties": "trec_eval",
                        "y": "linear/standard/judged/trec_eval"}


def test_no_sample_run_asks_for_one():
    at = open_page(PAGE, query={"runs": ""})
    no_exceptions(at)
    assert any("Pick at least one sample run" in i.value for i in at.info) and not has_results(at)
    assert link(at) == {"runs": ""}  # an empty choice is a choice: the link keeps it


def test_empty_choice_asks_for_one_of_each():
    at = open_page(PAGE)
    at.session_state["rf_gains"] = []
    at.run()
    no_exceptions(at)
    assert any("at least one gain" in w.value for w in at.warning)
    assert not has_results(at)


# ----------------------------------------------------------------------------------------- links
GOOD_LINKS = [
    ({"k": "5"}, "rf_k", 5),
    ({"k": "all"}, "rf_k", None),
    ({"gain": "exponential,linear"}, "rf_gains", ["exponential", "linear"]),
    ({"discount": "jarvelin"}, "rf_discounts", ["jarvelin"]),
    ({"idcg": "list"}, "rf_idcg", ["list"]),
    ({"ties": "average,optimistic"}, "rf_ties", ["average", "optimistic"]),
    ({"missing": "zero"}, "rf_missing", "zero"),
    ({"runs": "bm25.run,dense.run"}, "rf_sample_runs", ["bm25.run", "dense.run"]),
    ({"data": "upload"}, "rf_source", "upload"),
    ({"accept": "1"}, "rf_accept_bad", True),
    ({"x": "binary/standard/list/average"}, "rf_x", "binary/standard/list/average"),
    ({"y": "linear/jarvelin/judged/trec_eval"}, "rf_y", "linear/jarvelin/judged/trec_eval"),
    ({"top": "3"}, "rf_top", 3),
    ({"measures": "map,P,err"}, "rf_measures", ["map", "P", "err"]),
    ({"measures": ""}, "rf_measures", []),
    ({"cutoffs": "5,20"}, "rf_cutoffs", [5, 20]),
    ({"sig_measure": "map"}, "rf_sig_measure", "map"),
    ({"sig_measure": "y"}, "rf_sig_measure", "y"),
    ({"sig_test": "t"}, "rf_sig_test", "t"),
    ({"sig_conf": "99"}, "rf_sig_conf", "99"),
    ({"sig_corr": "bonferroni"}, "rf_sig_corr", "bonferroni"),
    ({"sig_ci": "bca"}, "rf_sig_ci", "bca"),
]


def _rounds(cases: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The cases in as few links as possible, each parameter at most once per link (ui.state reads every
    field on its own, so one run checks several bad parameters, each named in its own warning)."""
    rounds: list[list[tuple[str, str]]] = []
    for name, bad in cases:
        target = next((r for r in rounds if all(n != name for n, _ in r)), None)
        if target is None:
            rounds.append(target := [])
        target.append((name, bad))
    return rounds


# Settings read on their own, several to a link (each parameter at most once per link); those that decide
# what is evaluated (gains, ties, the data, the measures) and those that follow them (x, y, the compared
# measure) get a link each.
TOGETHER = ("k", "discount", "idcg", "missing", "runs", "accept", "top", "cutoffs", "sig_test", "sig_conf",
            "sig_corr", "sig_ci")
GOOD_CASES = [[case for _, case in r] for r in _rounds(
    [(next(iter(q)), (q, k, v)) for q, k, v in GOOD_LINKS if next(iter(q)) in TOGETHER])]
GOOD_CASES += [[c] for c in GOOD_LINKS if next(iter(c[0])) not in TOGETHER]


@pytest.mark.parametrize("cases", GOOD_CASES, ids=["+".join(next(iter(q)) for q, _, _ in c) for c in GOOD_CASES])
def test_every_link_parameter_is_read_and_written_back(cases):
    query = {k: v for q, _, _ in cases for k, v in q.items()}
    at = open_page(PAGE, query=query)
    no_exceptions(at)
    assert not at.warning or "winner" in at.warning[0].value  # no complaint about the link
    for _, key, value in cases:
        assert at.session_state[key] == value, key
    written = link(at)
    # the address bar keeps it, exactly; x, y and the compared measure join it when their defaults are no
    # longer evaluated
    followers = ("x", "y", "sig_measure")
    assert {k: v for k, v in written.items() if k not in followers or k in query} == query
    assert set(written) - set(query) <= set(followers)


def test_link_settings_drive_the_numbers():
    at = open_page(PAGE, query={"k": "5", "gain": "exponential", "discount": "jarvelin", "idcg": "list",
                                "ties": "average", "runs": "bm25.run,dense.run", "top": "3"})
    no_exceptions(at)
    variant = make_variants(gains="exponential", discounts="jarvelin", idcg="list", ties="average")
    want = want_means(variant, k=5)
    table = table_with(at, "Winner")
    assert run_columns(table) == ["bm25.run", "dense.run"]
    assert table["dense.run"].iloc[0] == displayed([want.loc["dense.run"].iloc[0]])[0]
    assert len(table_with(at, "Playground")) == 3
    assert "Mean NDCG@5 under each variant" in texts(at, "subheader")


BAD_LINKS = [  # (parameter, link text); for lists the message quotes the bad item (after "|")
    ("k", "①"), ("k", "0"), ("k", "10001"), ("k", "9" * 400), ("gain", "cubic"), ("gain", ""),
    ("discount", "linear"), ("idcg", "pool"), ("ties", "random"), ("missing", "maybe"), ("runs", "../qrels.txt"),
    ("data", "url"), ("accept", "perhaps"), ("x", "linear/standard"), ("y", "![x](//example.invalid/a.png)"),
    ("top", "51"), ("top", "-1"), ("k", "$\\huge PWN$"), ("measures", "map,ndcg@10|ndcg@10"), ("cutoffs", "7"),
    ("cutoffs", "①"), ("sig_measure", "P_7"), ("sig_measure", "=HYPERLINK(1)"), ("sig_test", "z"),
    ("sig_conf", "50"),
]


BAD_ROUNDS = _rounds(BAD_LINKS)


@pytest.mark.parametrize("cases", BAD_ROUNDS, ids=[f"round{i}" for i in range(len(BAD_ROUNDS))])
def test_a_bad_link_parameter_is_named_with_its_value_and_the_default_used(cases):
    at = open_page(PAGE, query={name: bad.partition("|")[0] for name, bad in cases})
    no_exceptions(at)
    written = link(at)
    for name, raw in cases:
        bad, _, item = raw.partition("|")
        field = next(f for f in runfiles_view.FIELDS if f.param == name)
        assert at.session_state[field.key] == field.default, name
        message = next(w.value for w in at.warning if f"**{markdown(name)}**" in w.value)
        assert markdown(item or bad, 40) in message  # escaped: shown as typed, never acting as Markdown
        assert name not in written  # the bad value leaves the address bar


def test_a_link_naming_a_variant_that_is_not_evaluated_falls_back():
    at = open_page(PAGE, query={"x": "binary/jarvelin/list/optimistic", "gain": "linear"})
    no_exceptions(at)
    assert at.session_state["rf_x"] == "linear/standard/judged/trec_eval"
    assert at.session_state["rf_y"] != at.session_state["rf_x"]
    assert [at.selectbox(key=f"rf_x_{c}").value for c in runfiles_view.CHOICES] == [
        "linear",
        "standard",
        "judged",
        "trec_eval",
    ]


def test_the_four_selects_of_an_axis_make_its_variant():
    at = open_page(PAGE)
    at.selectbox(key="rf_x_gain").set_value("binary").run()
    at.selectbox(key="rf_x_ties").set_value("average").run()
    no_exceptions(at)
    assert at.session_state["rf_x"] == "binary/standard/judged/average"
    assert link(at) == {"x": "binary/standard/judged/average"}
    assert "**x** = Binary gain · Standard discount · IDCG from all judged documents · Average over ties" in \
        texts(at, "markdown")
    scatter = chart_data(at.get("vega_lite_chart")[1])
    points = next(d for d in scatter if "qid" in d.columns)
    want = evaluate(read_qrels(QRELS, name="q").table, [read_run(RUNS["bm25.run"], name="bm25.run").table], k=10,
                    variants=make_variants(gains="binary", discounts="standard", idcg="judged", ties="average"))
    assert points[points["run"] == "bm25.run"]["x"].tolist() == pytest.approx(want.values[0, 0].tolist(), rel=1e-12)


def test_settings_survive_a_visit_to_another_page():
    at = open_page(PAGE)
    at.session_state["rf_gains"] = ["exponential"]
    at.session_state["rf_k"] = 3
    at.session_state["rf_top"] = 4
    at.run()
    at.switch_page("pages/worked_examples.py").run()
    assert "rf_gains" not in at.query_params
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.session_state["rf_gains"] == ["exponential"] and at.session_state["rf_k"] == 3
    assert len(table_with(at, "Playground")) == 4
    assert link(at) == {"k": "3", "gain": "exponential", "top": "4", "x": "exponential/standard/judged/trec_eval"}


# ----------------------------------------------------------------------------------------- measures, significance
def sample_measures(specs, **kw) -> pd.DataFrame:
    q = read_qrels(QRELS, name="qrels.txt").table
    return evaluate_measures(q, [read_run(data, name=name).table for name, data in RUNS.items()], specs, **kw)


def test_trec_eval_measures_equal_the_metrics_package():
    at = open_page(PAGE)
    no_exceptions(at)
    want = sample_measures(["ndcg_cut.10", "map", "P.10", "recall.10", "recip_rank"])
    means = table_with(at, "recip_rank")
    assert list(means.columns) == ["Run", "map", "recip_rank", "P_10", "recall_10", "ndcg_cut_10"]  # trec_eval's order
    summary = want[want["qid"] == "all"].pivot(index="run", columns="measure", values="value")
    for _, row in means.iterrows():
        for m in means.columns[1:]:
            assert row[m] == displayed([summary.loc[row["Run"], m]])[0]
    per = next(d for d in frames(at) if "qid" in d.columns and "map" in d.columns)
    assert len(per) == 3 * 6
    got = per.set_index(["run", "qid"])["map"]
    rows = want[(want["measure"] == "map") & (want["qid"] != "all")].set_index(["run", "qid"])["value"]
    assert got.sort_index().tolist() == displayed(rows.sort_index())
    # trec_eval's ndcg_cut_10 is the NDCG variant linear / standard / judged / trec_eval at k = 10
    verdict = table_with(at, "Winner").set_index(CHOICE_COLUMNS)
    first = verdict.loc[("Linear gain", "Standard discount", "all judged documents", TIES["trec_eval"].name)]
    for _, row in means.iterrows():
        assert row["ndcg_cut_10"] == first[row["Run"]]  # both tables show the same rounded value
    assert "-m ndcg_cut.10 -m map -m P.10 -m recall.10 -m recip_rank" in texts(at, "caption").replace("\\", "")


def test_measures_and_cutoffs_from_the_link_and_missing_queries_as_zero():
    at = open_page(PAGE, query={"measures": "P,err,gm_map,num_q", "cutoffs": "5,20", "missing": "zero"})
    no_exceptions(at)
    means = table_with(at, "err_5")
    assert list(means.columns) == ["Run", "num_q", "gm_map", "P_5", "P_20", "err_5", "err_20"]
    want = sample_measures(["P.5,20", "err.5,20", "gm_map", "num_q"], complete=True)
    summary = want[want["qid"] == "all"].pivot(index="run", columns="measure", values="value")
    assert means.set_index("Run")["err_20"].tolist() == displayed(summary.loc[list(RUNS), "err_20"])
    captions = texts(at, "caption").replace("\\", "")  # (Markdown-escaped)
    assert "trec_eval -m P.5,20 -m err.5,20 -m gm_map -m num_q -c qrels run" in captions


@pytest.mark.parametrize("lang", ["zh", "ko"])
def test_every_measure_is_explained_in_every_language(lang):
    from ui.i18n import catalogue

    helps = {m: catalogue(lang).get(f"registry.measure.{m}.help") for m in runfiles_view.MEASURE_CHOICES}
    assert all(helps.values()), [m for m, h in helps.items() if not h]
    at = open_page(PAGE, lang=lang, query={"measures": "map,bpref,err"})
    no_exceptions(at)
    shown = texts(at, "markdown")
    assert all(helps[m].split("（")[0].split("(")[0][:12] in shown for m in ("map", "bpref", "err"))


def test_no_measure_chosen_says_so_and_the_rest_of_the_page_works():
    at = open_page(PAGE, query={"measures": ""})
    no_exceptions(at)
    assert any("Pick at least one measure" in i.value for i in at.info)
    assert len(table_with(at, "Winner")) == 24
    assert at.selectbox(key="rf_sig_measure").value == "x"  # NDCG under the x-axis variant


def test_significance_compares_every_pair_under_the_chosen_measure():
    at = open_page(PAGE, query={"sig_measure": "map", "sig_test": "t"})
    no_exceptions(at)
    pairs = table_with(at, "Pair (A vs B)")
    assert len(pairs) == 3  # three runs: three pairs
    means = table_with(at, "recip_rank").set_index("Run")["map"]
    from scipy.stats import ttest_rel

    exact = sample_measures(["map"])
    wide = exact[exact["qid"] != "all"].pivot(index="qid", columns="run", values="value")
    for _, row in pairs.iterrows():
        a, b = (name.strip() for name in row["Pair (A vs B)"].split(" vs "))
        assert row["Mean A"] == means[a] and row["Mean B"] == means[b]  # both tables show the same rounding
        assert row["p"] == displayed([ttest_rel(wide[a], wide[b]).pvalue])[0]
    assert at.get("vega_lite_chart")  # the per-query differences and the null distribution are drawn
    assert link(at) == {"sig_measure": "map", "sig_test": "t"}


def test_winner_significance_is_shown_for_every_variant():
    at = open_page(PAGE)
    no_exceptions(at)
    table = table_with(at, "Winner")
    captions = texts(at, "caption").replace("\\", "")  # (Markdown-escaped)
    assert "Winner significant? (Randomization (sign flips), 0.05)" in captions  # the test and the level
    for text in table["Significant?"]:
        mark, p = text.split()[0], float(text.split("p = ")[1].split()[0])
        assert (mark == "✓") == (p < 0.05)  # corrected p against the closest rival


def test_the_teaching_example_is_on_the_page_in_every_language():
    for lang in LANGS:
        at = open_page(PAGE, lang=lang)
        no_exceptions(at)
        assert any("A" in d.columns and "B" in d.columns and len(d) == 10 for d in frames(at))


# ----------------------------------------------------------------------------------------- uploads
def test_real_uploads_through_the_widgets_are_kept_after_a_page_switch():
    at = open_page(PAGE, query={"data": "upload"})
    no_exceptions(at)
    assert any("Upload a qrels file" in i.value for i in at.info)
    assert any("never your files" in c.value for c in at.caption)  # files are not in links, said plainly
    uploaders = at.get("file_uploader")
    uploaders[0].set_value(("qrels.txt", QRELS, "text/plain"))
    uploaders[1].set_value([(n, d, "text/plain") for n, d in RUNS.items()])
    at.run()
    no_exceptions(at)
    assert run_columns(table_with(at, "Winner")) == list(RUNS)
    kept = at.session_state["rf_files"]
    assert kept["qrels"][0] == "qrels.txt" and kept["qrels"][2] == runfiles_view.digest_of(QRELS)
    at.switch_page("pages/worked_examples.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.radio(key="rf_source").value == "upload"
    assert any("Still using the files you uploaded earlier" in i.value for i in at.info)
    assert run_columns(table_with(at, "Winner")) == list(RUNS)
    at.button(key="rf_forget").click().run()
    no_exceptions(at)
    assert any("Upload a qrels file" in i.value for i in at.info) and not has_results(at)


def test_uploader_limit_and_config_state_the_same_cap():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == runfiles_view.UPLOAD_CAP_MB
    at = open_page(PAGE, query={"data": "upload"})
    assert [u.proto.max_upload_size_mb for u in at.get("file_uploader")] == [runfiles_view.UPLOAD_CAP_MB] * 2
    assert any(f"Up to {runfiles_view.UPLOAD_CAP_MB} MB for all files together" in c.value for c in at.caption)


def test_files_over_the_total_cap_are_refused_before_anything_is_read(monkeypatch):
    def never(src):
        raise AssertionError(f"{src.name} was read")

    monkeypatch.setattr(runfiles_view, "UPLOAD_CAP_BYTES", len(QRELS) + len(RUNS["bm25.run"]) + 10)
    monkeypatch.setattr(runfiles_view, "read_cached", never)
    at = uploaded()  # qrels + three runs: more than the cap
    no_exceptions(at)
    error = " ".join(e.value for e in at.error)
    assert "These 4 files hold" in error and f"the limit is {runfiles_view.UPLOAD_CAP_MB} MB" in error
    assert not has_results(at)


def test_the_same_file_added_again_is_evaluated_once_and_said_so():
    runs = [("bm25.run", RUNS["bm25.run"]), ("dense.run", RUNS["dense.run"]), ("bm25.run", RUNS["bm25.run"]),
            ("copy.run", RUNS["dense.run"])]
    at = uploaded(runs=runs)
    no_exceptions(at)
    info = texts(at, "info")
    assert "bm25.run was added twice: it is evaluated once." in info
    assert "copy.run has the same content as dense.run" in info
    table = table_with(at, "Winner")
    assert run_columns(table) == ["bm25.run", "dense.run"]  # no "bm25.run (2)", no copy.run


def test_two_different_files_with_one_name_are_both_evaluated_and_said_so():
    at = uploaded(runs=[("bm25.run", RUNS["bm25.run"]), ("bm25.run", RUNS["dense.run"])])
    no_exceptions(at)
    info = texts(at, "info").replace("\\", "")  # (Markdown-escaped)
    assert "Two different files are named bm25.run; the second one is shown as bm25.run (2)" in info
    table = table_with(at, "Winner")
    assert run_columns(table) == ["bm25.run", "bm25.run (2)"]
    assert table["bm25.run (2)"].tolist() == displayed(want_means().loc["dense.run"])


def test_upload_with_bad_lines_needs_consent_then_evaluates_the_rest():
    broken = (SAMPLES / "broken_gbk.txt").read_bytes()
    at = uploaded(runs={"bm25.run": RUNS["bm25.run"], "broken_gbk.txt": broken})
    no_exceptions(at)
    text = " ".join(e.label for e in at.expander).replace("\\", "")  # labels are Markdown: _ is escaped
    assert "Problems in broken_gbk.txt" in text
    problems = table_with(at, "Message")
    assert problems["Line"].tolist()[:3] == ["3", "4", "5"]
    assert "line 3: score 'abc' is not a number" in problems["Message"].iloc[0]
    assert "broken_gbk.txt" not in table_with(at, "Winner").columns  # left out until the user agrees
    assert any("is left out until you agree" in c.value for c in at.caption)
    at.checkbox(key="rf_accept_bad").check().run()
    no_exceptions(at)
    assert "broken_gbk.txt" in table_with(at, "Winner").columns
    assert link(at) == {"data": "upload", "accept": "1"}


def test_fatal_files_are_reported_and_nothing_crashes():
    at = uploaded(qrels=("run_as_qrels.txt", RUNS["bm25.run"]))
    no_exceptions(at)
    assert any("looks like a run file" in str(d.values) for d in frames(at))
    assert any("qrels file cannot be used" in w.value for w in at.warning)
    at = uploaded(runs={"latin.run": "101 Q0 D1\xff 1 1.0 x\n".encode("latin-1") + b"\xff\xfe\xfa\n"})
    no_exceptions(at)
    assert any("neither UTF-8 nor GBK" in str(d.values) for d in frames(at))
    assert any("No run file can be evaluated" in w.value for w in at.warning)


def test_gbk_and_bom_uploads_are_read():
    gbk = RUNS["dense.run"].decode().replace("dense", "密集").encode("gbk")
    bom = b"\xef\xbb\xbf" + RUNS["bm25.run"]
    at = uploaded(runs={"dense_gbk.run": gbk, "bm25_bom.run": bom})
    no_exceptions(at)
    files = table_with(at, "Encoding")
    assert files.set_index("File")["Encoding"].to_dict() == {"qrels.txt": "utf-8", "dense_gbk.run": "gbk",
                                                             "bm25_bom.run": "utf-8-sig"}


def test_upload_without_files_asks_for_them():
    at = open_page(PAGE, query={"data": "upload"})
    no_exceptions(at)
    assert any("Upload a qrels file" in i.value for i in at.info)


def test_file_names_and_ids_are_not_rendered_as_markdown():
    evil = "![x](http://example.invalid/a.png)"
    runs = {f"{evil}.run": RUNS["bm25.run"] + f"999 Q0 {evil} 1 1.0 x\n".encode(), "dense.run": RUNS["dense.run"]}
    at = uploaded(runs=runs)
    no_exceptions(at)
    joined = texts(at, "caption", "warning", "success", "info", "markdown")
    joined += " ".join(e.label for e in at.expander)
    assert "999" in joined  # the query that is not in the qrels is reported...
    assert "![x](http" not in joined and "\\!\\[x\\]" in joined  # ...with the file name escaped


def test_downloads_neutralise_formula_like_names_and_ids(monkeypatch):
    written: list[bytes] = []
    original = runfiles_view.csv_bytes

    def capture(frame, **kw):  # what the page hands to its download buttons
        written.append(original(frame, **kw))
        return written[-1]

    monkeypatch.setattr(runfiles_view, "csv_bytes", capture)
    qrels = QRELS.replace(b"101 ", b"=1+1 ")
    run = RUNS["bm25.run"].replace(b"101 ", b"=1+1 ")
    at = uploaded(qrels=("qrels.txt", qrels), runs={"@SUM(1).run": run, "+cmd.run": RUNS["dense.run"]})
    no_exceptions(at)
    assert len(written) == 4  # NDCG per query and means, trec_eval's measures per query and summary
    per_query, means, measures_per_query, measures_means = (w.decode() for w in written)
    for csv_text in (per_query, measures_per_query):
        assert "\"'=1+1\"" in csv_text and "\"=1+1\"" not in csv_text
        assert "\"'@SUM(1).run\"" in csv_text
    assert "\"'+cmd.run\"" in means and "\"'+cmd.run\"" in measures_means
    for csv_text in written:
        assert not any(line.startswith(("=", "+", "@", "-")) for line in csv_text.decode().splitlines())
    values = pd.read_csv(io.StringIO(per_query))
    assert values.select_dtypes("number").shape[1] == 24  # numbers stay numbers
    assert pd.read_csv(io.StringIO(measures_per_query)).select_dtypes("number").shape[1] == 5


# ----------------------------------------------------------------------------------------- languages, big files
@pytest.mark.parametrize("lang", LANGS)
def test_every_language_renders(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert at.title[0].value
    if lang != "en":
        assert not at.title[0].value.startswith("Run files")


def test_the_large_file_path_shows_the_same_page(monkeypatch):
    """Files of a million lines and more keep their document ids as plain strings (numba kernels compare
    their bytes); forced here on the sample data, the page shows the same numbers and playground links."""
    import metrics.runfiles._kernels as kernels

    want = open_page(PAGE)
    runfiles_view._read_cached.clear()
    runfiles_view._result_cached.clear()
    monkeypatch.setattr(kernels, "NUMBA_MIN_ROWS", 0)
    try:
        at = open_page(PAGE)
        no_exceptions(at)
        qrels, runs = runfiles_view.sample_sources(list(RUNS))
        # that path ran
        assert all(pa.types.is_string(runfiles_view.read_cached(s).table.docno.type) for s in [qrels, *runs])
        assert table_with(at, "Winner").equals(table_with(want, "Winner"))
        assert table_with(at, "Playground").equals(table_with(want, "Playground"))
    finally:
        runfiles_view._read_cached.clear()
        runfiles_view._result_cached.clear()


def test_a_scatter_of_more_queries_than_it_draws_says_how_many_it_shows():
    # 2,001 queries x 2 runs = 4,002 points, two more than the chart draws (SCATTER_POINTS = 4,000)
    from ui.charts.runfiles import SCATTER_POINTS

    queries = range(1, 2002)
    qrels = "".join(f"{q} 0 d1 1\n{q} 0 d2 0\n" for q in queries).encode()
    run_a = "".join(f"{q} Q0 d1 1 2.0 a\n{q} Q0 d2 2 1.0 a\n" for q in queries).encode()
    run_b = "".join(f"{q} Q0 d2 1 2.0 b\n{q} Q0 d1 2 1.0 b\n" for q in queries).encode()
    at = uploaded(("qrels.txt", qrels), {"a.run": run_a, "b.run": run_b})
    no_exceptions(at)
    assert 2 * len(queries) == SCATTER_POINTS + 2
    assert any(f"draws {SCATTER_POINTS:,} of the {SCATTER_POINTS + 2:,} points" in c.value for c in at.caption)
    small = uploaded()  # the samples draw every point and say nothing
    assert not any("points: the queries" in c.value for c in small.caption)


def test_significance_counts_a_missing_query_as_0_when_the_means_do():
    # Found by a tester: with "count as 0 (trec_eval -c)" the means counted A's missing q3 as 0 but the paired
    # test left q3 out ("1 of 3 queries are left out"). By hand (linear gain, log2(i + 1), ideal from the qrels):
    # A: q1 (1 + 2/log2 3) / (2 + 1/log2 3), q2 2 / (2 + 1/log2 3), q3 0; B: 1 on every query.
    import math
    qrels = b"q1 0 d1 2\nq1 0 d2 1\nq2 0 d1 1\nq2 0 d3 2\nq3 0 d5 1\n"
    a = b"q1 Q0 d2 1 3 A\nq1 Q0 d1 2 2 A\nq2 Q0 d3 1 3 A\nq2 Q0 d9 2 2 A\n"
    b = b"q1 Q0 d1 1 3 B\nq1 Q0 d2 2 2 B\nq2 Q0 d3 1 3 B\nq2 Q0 d1 2 2 B\nq3 Q0 d5 1 1 B\n"
    ideal = 2 + 1 / math.log2(3)
    diffs = [1 - (1 + 2 / math.log2(3)) / ideal, 1 - 2 / ideal, 1.0]
    for missing, used in (("zero", diffs), (None, diffs[:2])):
        query = {"measures": "ndcg_cut.10", **({"missing": missing} if missing else {})}
        at = uploaded(("qrels.txt", qrels), {"A.run": a, "B.run": b}, query=query)
        no_exceptions(at)
        said = " ".join([c.value for c in at.caption] + [m.value for m in at.markdown])
        n = len(used)
        assert f"**B.run** beats A.run on {n} of {n} queries (0 ties), by {sum(used) / n:.4f} on average" in said
        assert ("of 3 queries are left out" in said) == (missing is None)
