"""trec_eval's measures for many queries at once: hand-derived values for every measure, the extras
(judged@k, ERR, RBP and its residual) from their papers' formulas, equality with pytrec_eval-terrier
(trec_eval 9.0.8's C code) on random qrels and runs (ties, negative grades, unjudged documents, queries
missing on either side, -l, -J, -M, gain maps), with the single-list functions of metrics.other.topn,
and the registry and ``-m`` parsing."""
from __future__ import annotations

import math
from math import log2

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given
from hypothesis import strategies as st
from pytrec_eval_ext import RelevanceEvaluator as TrecEvalExt

from metrics.other import topn
from metrics.runfiles import MEASURES, NICKNAMES, evaluate_measures, evaluate_runs, measure_names, parse_measures
from metrics.runfiles.measures import NONPOOL, UNJUDGED, Lists, evaluate_one, trec_sort_gains
from metrics.runfiles.trec import format_value
from tests.metrics.conftest import PROPERTY, RTOL
from tests.metrics.runfiles.reference import generate, tables, trec_ranked, truncated

approx = lambda x: pytest.approx(x, rel=RTOL, abs=1e-12)  # noqa: E731


# ------------------------------------------------------------------------------------------ hand-derived
# One query.  Ranked codes: grade 2, not in the qrels, grade 0, grade 1, a negative grade (pooled, unjudged).
# The qrels also judge a grade-1 document and a grade-3 document the run missed.
# Judged grades >= 0: 2, 1, 0, 1, 3 -> R = 4 relevant (grade >= 1), 1 judged non-relevant.
RANKED = [2, NONPOOL, 0, 1, UNJUDGED]
JUDGED = [2, 1, 0, 1, -1, 3]
EPS = 0.00001


def one(spec: str, **kw) -> list[float]:
    lists = Lists.from_codes([RANKED], judged=[JUDGED], **kw)
    (r,) = [r for r in parse_measures([spec]) if r.info.name == spec.split(".")[0]]
    return [float(v[0]) for v in r.compute(lists)]


HAND = {
    "num_ret": [5], "num_rel": [4], "num_rel_ret": [2], "num_nonrel_judged_ret": [1],
    "P.1,2,5,10": [1, 1 / 2, 2 / 5, 2 / 10],
    "recall.1,5": [1 / 4, 2 / 4],
    "success.1,10": [1, 1],
    "relative_P.2,5": [1 / 2, 2 / 4],                       # 1 / min(2, R); 2 / min(5, R)
    "map": [(1 / 1 + 2 / 4) / 4],                           # relevant at ranks 1 and 4
    "gm_map": [math.log((1 + 2 / 4) / 4)],
    "map_cut.1,3": [1 / 4, 1 / 4],
    "Rprec": [2 / 4],                                       # 2 relevant in the top R = 4
    "recip_rank": [1.0],
    "bpref": [(1 + (1 - 1 / 1)) / 4],                       # rank 4 has the judged non-relevant rank 3 above it
    "gm_bpref": [math.log(1 / 4)],
    # rank 1: 1; rank 4 (j = 3, rel_so_far 2, one judged non-relevant above, the unjudged one is below)
    "infAP": [(1 + 1 / 4 + (3 / 4) * ((1 + 1 + 0) / 3) * ((1 + EPS) / (1 + 1 + 2 * EPS))) / 4],
    "binG": [(1 / log2(2) + 1 / log2(2 + 2)) / 4],          # non-relevant above: 0, then 2
    # interpolated precision at the relevant ranks: 1/1 then 2/4; cutoffs (long)(f * 4 + 0.9) relevant docs
    "iprec_at_recall.0,0.1,0.3,0.6": [1, 1, 1 / 2, 0],      # 0 -> 0 docs, 1.3 -> 1, 2.1 -> 2, 3.3 -> 3 > 2 found
    "11pt_avg": [(1 + 1 + 1 + 0.5 + 0.5 + 0.5) / 11],       # f = 0, .1, .2 -> 1; .3, .4, .5 -> 2 docs; above: 0
    "Rprec_mult.0.5,2": [1 / 2, 2 / 8],                     # 2.9 -> 2 docs; 8.9 -> 8 docs (past the 5 retrieved)
    "utility": [1 * 2 - 1 * 3],
    "utility.1,-1,-0.5,0.1": [2 - 3 - 0.5 * 2 + 0.1 * (0 + 2 - 5 - 4)],
    "set_P": [2 / 5], "set_recall": [2 / 4], "set_relative_P": [2 / 4], "set_map": [2 * 2 / (5 * 4)],
    "set_F": [2 * 0.4 * 0.5 / (0.4 + 0.5)], "set_F.0.5": [1.5 * 0.4 * 0.5 / (0.5 * 0.4 + 0.5)],
    # DCG: 2/log2(2) + 1/log2(5); ideal 3, 2, 1, 1
    "ndcg": [(2 + 1 / log2(5)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))],
    "ndcg_cut.2,5": [2 / (3 + 2 / log2(3)), (2 + 1 / log2(5)) / (3 + 2 / log2(3) + 1 / log2(4) + 1 / log2(5))],
    # gain map 1=0, 3=1 (2 keeps 2): gains of the ranking 2, 0, 0, 0; ideal 2 (level 2) then 1 (level 3)
    "ndcg.1=0,3=1": [2 / (2 + 1 / log2(3))],
    # extras
    "judged.5,10": [3 / 5, 3 / 10],                         # grades >= 0 at ranks 1, 3, 4
    # ERR, gmax 3: R(2) = 3/8, R(1) = 1/8 (rank 4); (1/1)(3/8) + (1/4)(1/8)(1 - 3/8)
    "err.1,5": [3 / 8, 3 / 8 + (1 / 4) * (1 / 8) * (5 / 8)],
    "rbp.p=0.5": [0.5 * (1 + 0.5**3)],                      # relevant at ranks 1 and 4
    # residual: depth 5 -> p^5, unjudged ranks 2 and 5 -> (1 - p)(p + p^4)
    "rbp_resid.p=0.5": [0.5**5 + 0.5 * (0.5 + 0.5**4)],
    "rbp_resid": [0.9**5 + 0.1 * (0.9 + 0.9**4)],
}


@pytest.mark.parametrize("spec", list(HAND))
def test_hand_derived_values(spec):
    assert one(spec) == [approx(v) for v in HAND[spec]]


def test_relevance_level_0_and_2_hand_derived():
    # -l 0: every judged grade >= 0 is relevant: R = 5, relevant at ranks 1, 3, 4
    assert one("map", relevance_level=0) == [approx((1 + 2 / 3 + 3 / 4) / 5)]
    assert one("P.5", relevance_level=0) == [approx(3 / 5)]
    # -l 2: grades 2 and 3 relevant: R = 2, relevant at rank 1 only; 4 judged non-relevant (grades 0, 1, 1 ... )
    assert one("map", relevance_level=2) == [approx(1 / 2)]
    assert one("num_rel", relevance_level=2) == [2.0]
    # bpref at -l 2: rank 1 has nothing above it
    assert one("bpref", relevance_level=2) == [approx(1 / 2)]
    # ndcg does not depend on -l
    assert one("ndcg", relevance_level=2) == [approx(HAND["ndcg"][0])]
    with pytest.raises(ValueError, match="relevance_level must be a whole number >= 0, got -1"):
        one("map", relevance_level=-1)


def test_relstring_and_err_gmax():
    lists = Lists.from_codes([RANKED, [12, 0]], judged=[JUDGED, [12, 0]])
    (r,) = parse_measures(["relstring"])
    assert r.compute(lists)[0].tolist() == ["2-01.", ">0"]
    (r,) = parse_measures(["relstring.3"])
    assert r.compute(lists)[0].tolist() == ["2-0", ">0"] and r.names == ("relstring_3",)
    # ERR with the scale's top grade given: R(2) = 3/16 with gmax 4
    lists = Lists.from_codes([RANKED], judged=[JUDGED], gmax=4)
    assert evaluate_one(lists, "err.1")[0] == approx(3 / 16)


def test_err_with_huge_grades_does_not_overflow():
    lists = Lists.from_codes([[1100, 0]], judged=[[1100, 0]])
    assert evaluate_one(lists, "err.2")[0] == approx(1.0 - 2.0**-1100)


def test_empty_query_after_judged_only():
    # -J can leave a query with no documents: trec_eval divides 0 by 0 for iprec_at_recall_0.00 (nan)
    lists = Lists.from_codes([[]], judged=[[1]])
    assert math.isnan(evaluate_one(lists, "iprec_at_recall.0")[0])
    assert evaluate_one(lists, "map")[0] == 0.0 and evaluate_one(lists, "P.5")[0] == 0.0
    assert evaluate_one(lists, "rbp_resid")[0] == 1.0  # nothing judged: everything is residual


# ------------------------------------------------------------------------------------------ pytrec_eval
def _check(qrels, run, measures, *, relevance_level=1, judged_only=False, gain_spec=None, max_docs=None):
    qt, rt = tables(qrels, run)
    res = evaluate_runs(qt, [rt], measures, relevance_level=relevance_level, judged_only=judged_only,
                        max_docs=max_docs)
    rv = res.runs[0]
    ref_run = truncated(qrels, run, max_docs) if max_docs else run
    if gain_spec is None:
        want = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=relevance_level,
                                              judged_docs_only_flag=judged_only).evaluate(ref_run)
    else:
        want = TrecEvalExt(qrels, set(measures), relevance_level, int(judged_only)).evaluate(ref_run)
    assert want, "pytrec_eval evaluated nothing"
    assert sorted(res.queries[rv.present]) == sorted(want)
    names = [n for r in res.requested for n in r.names]
    index = {q: i for i, q in enumerate(res.queries)}
    checked = 0
    for q, values in want.items():
        for key, v in values.items():
            if key in ("runid", "relstring"):
                continue
            name = key if key in rv.values else next(n for n in names if n.startswith(key))
            got = rv.values[name][index[q]]
            assert (math.isnan(got) and math.isnan(v)) or got == approx(v), (q, key, got, v)
            checked += 1
    return checked


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level, judged_only", [(1, False), (2, False), (1, True), (3, True)])
def test_all_trec_equals_pytrec_eval(seed, level, judged_only):
    qrels, run = generate(seed, ties=seed % 2 == 0, prefix="d" if seed < 3 else "document-")
    assert _check(qrels, run, ["all_trec"], relevance_level=level, judged_only=judged_only) > 1000


@pytest.mark.parametrize("seed", range(3))
def test_max_docs_equals_pytrec_eval_on_the_cut_run(seed):
    qrels, run = generate(seed + 10)
    for m in (1, 3, 10):
        _check(qrels, run, ["all_trec"], max_docs=m)


@pytest.mark.parametrize("spec", [
    "ndcg.1=0,2=1", "ndcg.0=1,1=3,2=7,3=15", "G.1=2,3=1", "Rndcg.1=3,2=2,3=1", "ndcg_rel.1=5,3=0",
    "ndcg.1=0.5,2=0.7",  # gains closer than 1: trec_eval's (int)(g1 - g2) comparator (see trec_sort_gains)
    "Rndcg.2=0.5", "G.1=1.5,2=2.25", "P.3,7", "recall.1,2,50", "iprec_at_recall.0.05,0.33,0.9",
    "Rprec_mult.0.5,1.5,3", "utility.2,-1,-0.5,0.1", "set_F.0.5", "11pt_avg.0.2,0.5,0.8", "map_cut.1,3",
    "ndcg_cut.1,2,3", "success.2,3", "relative_P.2,4",
])
@pytest.mark.parametrize("seed", range(3))
def test_parameters_equal_pytrec_eval(spec, seed):
    qrels, run = generate(seed + 20)
    _check(qrels, run, [spec], gain_spec=spec)


grades = st.integers(-1, 4)
docs = st.sampled_from([f"d{i}" for i in range(12)])


@st.composite
def qrels_and_run(draw):
    qrels, run = {}, {}
    for i in range(draw(st.integers(1, 4))):
        q = f"q{i}"
        qrels[q] = draw(st.dictionaries(docs, grades, min_size=1, max_size=10))
        if all(g < 0 for g in qrels[q].values()):
            # pytrec_eval-terrier 0.5.11 crashes (segfault, or a hang inside the test process) on a query
            # whose judged documents are all negative: give the query one grade-0 judgment.
            qrels[q][next(iter(qrels[q]))] = 0
        if draw(st.booleans()) or i == 0:
            run[q] = draw(st.dictionaries(docs, st.integers(0, 4).map(lambda x: x / 2), min_size=1, max_size=12))
    return qrels, run


@PROPERTY
@given(data=qrels_and_run(), level=st.integers(1, 3), judged_only=st.booleans())
def test_property_all_trec_equals_pytrec_eval(data, level, judged_only):
    qrels, run = data
    _check(qrels, run, ["all_trec"], relevance_level=level, judged_only=judged_only)


@PROPERTY
@given(data=qrels_and_run(), level=st.integers(0, 2))
def test_property_left_out_unjudged_rows_change_nothing(data, level):
    """The engine keeps only the documents the qrels list; every measure must give the same values as on
    the complete ranking (rows outside the qrels included)."""
    qrels, run = data
    ranked = [trec_ranked(qrels[q], run[q]) for q in run]
    judged = [list(qrels[q].values()) for q in run]
    full = Lists.from_codes(ranked, judged=judged, relevance_level=level)
    keep = full.code != NONPOOL
    sparse = Lists(q=full.q[keep], pos=full.pos[keep], code=full.code[keep], n=full.n, levels=full.levels,
                   num_ret=full.num_ret, relevance_level=level)
    specs = ["all_trec", "extras", "ndcg.1=0,2=3", "G.0=1,2=0.5", "Rndcg.1=2", "ndcg_rel.2=0"]
    for r in parse_measures(specs):
        if r.info.compute is None:  # runid: the run's tag, not computed from the lists
            continue
        for a, b, name in zip(r.compute(full), r.compute(sparse), r.names):
            if r.info.value == "text":
                assert a.tolist() == b.tolist(), name
            else:
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=name)


# ------------------------------------------------------------------------------------------ topn
@PROPERTY
@given(ranked=st.lists(st.booleans(), min_size=1, max_size=15), missed=st.integers(0, 3), k=st.integers(1, 20))
def test_equal_to_the_single_list_functions_of_topn(ranked, missed, k):
    """metrics.other.topn already matches trec_eval on single lists (its own tests); the engine must agree."""
    items = [f"i{j}" for j in range(len(ranked))]
    relevant = [it for it, r in zip(items, ranked) if r] + [f"missed{j}" for j in range(missed)]
    judged = [0] * ranked.count(False) + [1] * len(relevant)
    lists = Lists.from_codes([[1 if r else 0 for r in ranked]], judged=[judged])
    assert evaluate_one(lists, f"P.{k}")[0] == approx(topn.precision_at_n(items, relevant, n=k, denominator="n"))
    assert evaluate_one(lists, f"recall.{k}")[0] == approx(topn.recall_at_n(items, relevant, n=k))
    assert evaluate_one(lists, "recip_rank")[0] == approx(topn.reciprocal_rank(items, relevant))
    assert evaluate_one(lists, f"success.{k}")[0] == (topn.first_hit(items, relevant, n=k) is not None)
    if relevant:
        assert evaluate_one(lists, "map")[0] == approx(topn.average_precision(items, relevant, denominator="relevant"))


# ------------------------------------------------------------------------------------------ registry, parsing
def test_registry_covers_trec_eval_all_trec_and_names_sources():
    assert set(NICKNAMES["all_trec"]) == set(pytrec_eval.supported_nicknames["all_trec"])
    assert set(NICKNAMES["official"]) == set(pytrec_eval.supported_nicknames["official"])
    assert set(NICKNAMES["set"]) == set(pytrec_eval.supported_nicknames["set"])
    for name, m in MEASURES.items():
        assert m.name == name and m.help and m.source and m.origin in ("trec_eval", "extra", "variant")
        if m.origin == "trec_eval":
            assert m.source.startswith("trec_eval 9.0.8 m_") and m.source.endswith(".c")
    assert set(NICKNAMES["extras"]) == {"judged", "err", "rbp", "rbp_resid"}
    assert [name for name, m in MEASURES.items() if m.origin == "variant"] == ["nDCG"]  # in no set


def test_parse_measures_in_trec_eval_order_with_first_parameters_winning():
    got = parse_measures(["P.10", "map", "P.5", "official"])
    assert [r.info.name for r in got] == list(NICKNAMES["official"])  # trec_eval's order, not the command's
    p = next(r for r in got if r.info.name == "P")
    assert p.names == ("P_10",)  # -m P.10 -m P.5: trec_eval keeps the first
    assert measure_names(["iprec_at_recall.0.5,0.25", "set_F.0.5", "11pt_avg", "rbp.p=0.8"]) == [
        "iprec_at_recall_0.25", "iprec_at_recall_0.50", "11pt_avg", "set_F_0.5", "rbp_p=0.8"]


@pytest.mark.parametrize("spec, message", [
    ("nope", "unknown measure 'nope'"),
    ("ndcg_cut_10", "did you mean 'ndcg_cut.10'?"),
    ("mAP", "did you mean 'map'?"),
    ("P.0", "cutoff 0 must be between 1 and 10^12"),
    ("P.5,5", "cutoff 5 is given twice"),
    ("P.-1", "cutoff '-1' is not a whole number >= 1"),
    ("map.5", "map takes no parameters"),
    ("official.5", "the set 'official' takes no parameters"),
    ("set_F.1,2", "set_F takes 1 parameter(s), got 2"),
    ("iprec_at_recall.x", "parameter 'x' is not a number"),
    ("11pt_avg.0.5,0.2", "recall fractions must be in increasing order"),
    ("ndcg.1=2,1=3", "level 1 in '1=3' (pair 2) is already given"),
    ("ndcg.1.5=2", "levels must be whole grades"),
    ("rbp.q=0.5", "write the persistence as rbp.p=0.8"),
    ("rbp.p=0", "persistence p=0 must be between 0 and 1"),
    ("all_prefs", "preference or judgment-group qrels formats"),
    ("P.", "nothing after the '.'"),
])
def test_bad_measure_specs_are_value_errors_naming_them(spec, message):
    with pytest.raises(ValueError) as exc:
        parse_measures([spec])
    assert message in str(exc.value)


def test_trec_sort_gains_is_a_stable_merge_sort_with_truncated_comparisons():
    assert trec_sort_gains([(0, 0.0), (1, 1.0), (2, 2.0)]) == [(0, 0.0), (1, 1.0), (2, 2.0)]
    assert trec_sort_gains([(2, 5.0), (1, 5.0), (0, 0.0)]) == [(0, 0.0), (2, 5.0), (1, 5.0)]  # stable
    assert trec_sort_gains([(1, 0.9), (0, 0.0)]) == [(1, 0.9), (0, 0.0)]  # (int)(0.9 - 0) == 0: "equal"


# ------------------------------------------------------------------------------------------ the API
def test_evaluate_measures_frame_summary_and_complete():
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2}, "q3": {"d": 1}}
    run = {"q1": {"a": 2.0, "x": 1.0}, "q2": {"x": 1.0, "c": 0.5}}
    qt, rt = tables(qrels, run, name="r")
    frame = evaluate_measures(qt, [rt], ["map", "gm_map", "num_rel", "num_q", "relstring", "runid"])
    assert list(frame.columns) == ["run", "measure", "qid", "value"]
    per = frame[frame.qid != "all"]
    assert sorted(set(per.measure)) == ["map", "num_rel"]  # gm_map, num_q: summary only; text measures left out
    assert per[per.measure == "map"].set_index("qid").value.to_dict() == {"q1": 1.0, "q2": 0.5}
    summary = frame[frame.qid == "all"].set_index("measure").value.to_dict()
    assert summary["map"] == 0.75 and summary["num_rel"] == 2 and summary["num_q"] == 2
    assert summary["gm_map"] == approx(math.exp((math.log(1.0) + math.log(0.5)) / 2))
    # -c: means over the 3 qrels queries (q3 counts 0, 0.00001 in geometric means); num_q counts the 3 qrels
    # queries (trec_eval 9.0.8 m_num_q.c) and num_rel the qrels lines graded > 0 of every query: a, c, d = 3
    # (m_num_rel.c, te_calc_avg_num_rel), q3's included although the run skipped it
    complete = evaluate_measures(qt, [rt], ["map", "gm_map", "num_rel", "num_q"], complete=True)
    summary = complete[complete.qid == "all"].set_index("measure").value.to_dict()
    assert summary["map"] == 0.5 and summary["num_rel"] == 3 and summary["num_q"] == 3
    assert set(complete[complete.qid != "all"].qid) == {"q1", "q2"}  # trec_eval 9: no per-query lines for q3
    assert summary["gm_map"] == approx(math.exp((math.log(0.5) + math.log(0.00001)) / 3))
    result = evaluate_runs(qt, [rt], ["relstring", "runid"])
    assert result.runs[0].texts["relstring"].tolist() == ["1-", "-2", ""] and result.summary(result.runs[0]) == {
        "runid": "tag"}
    assert "missing_in_run" in {p.kind for p in result.problems}


def test_text_output_of_several_runs_and_no_common_query():
    qt, rt = tables({"q1": {"a": 1}}, {"q1": {"a": 1.0}}, name="one")
    _, other = tables({"q1": {"a": 1}}, {"zz": {"a": 1.0}}, name="two")
    result = evaluate_runs(qt, [rt, other], ["P.1"])
    assert result.text(per_query=True).splitlines() == [
        "# run one", "P_1                   \tq1\t1.0000", "P_1                   \tall\t1.0000", "# run two"]
    assert {(p.file, p.kind) for p in result.problems} >= {("two", "no_queries"), ("two", "missing_in_qrels")}
    assert result.text(summary=False, per_query=False) == "# run one\n# run two"


def test_format_value_is_trec_eval_printf():
    assert format_value(0.123449) == "0.1234" and format_value(-2.0) == "-2.0000" and format_value(12.5) == "12.5000"
    assert format_value(3.0, "long") == "3" and format_value(0.5, digits=2) == "  0.50"
    assert format_value(float("nan")) == "   nan" and format_value(-float("nan")) == "  -nan"


@pytest.mark.parametrize("kwargs, message", [
    ({"relevance_level": 1.5}, "relevance_level must be a whole number >= 0, got 1.5"),
    ({"max_docs": 0}, "max_docs must be a whole number >= 1 or None, got 0"),
    ({"num_docs_in_coll": -1}, "num_docs_in_coll must be a whole number >= 0, got -1"),
    # beyond int64 they were an OverflowError deep in numpy (issue 38: one validation module)
    ({"max_docs": 10**20}, "max_docs must be at most 10^15, got 100000000000000000000"),
    ({"relevance_level": 10**20}, "relevance_level must be at most 10^15, got 100000000000000000000"),
    ({"complete": "yes"}, "complete must be True or False, got 'yes'"),
    ({"err_gmax": float("inf")}, "err_gmax must be a finite number >= 0 or None, got inf"),
])
def test_bad_options_are_value_errors(kwargs, message):
    qt, rt = tables({"q": {"a": 1}}, {"q": {"a": 1.0}})
    with pytest.raises(ValueError) as exc:
        evaluate_runs(qt, [rt], ["map"], **kwargs)
    assert message in str(exc.value)
    with pytest.raises(ValueError, match="runs must be a list of run tables"):
        evaluate_runs(qt, rt, ["map"])
    with pytest.raises(ValueError, match="run 1 is not the table of a run file"):
        evaluate_runs(qt, [qt], ["map"])
    with pytest.raises(ValueError, match="qrels must be a table read by read_qrels"):
        evaluate_runs("qrels.txt", [rt], ["map"])


def test_fractional_grades_are_read_as_trec_eval_reads_them():
    from metrics.runfiles.read import read_qrels, read_run

    qt = read_qrels(b"q 0 a 1.7\nq 0 b 2\n", name="qrels").table
    rt = read_run(b"q Q0 a 1 2 r\nq Q0 b 2 1 r\n", name="r").table
    result = evaluate_runs(qt, [rt], ["ndcg"])
    (problem,) = result.problems
    assert problem.kind == "whole_grades" and "first 1.7 at line 1" in problem.message and "as 1" in problem.message
    assert result.runs[0].values["ndcg"][0] == approx((1 + 2 / log2(3)) / (2 + 1 / log2(3)))


def test_evaluate_one_refuses_a_measure_set_by_name():
    lists = Lists.from_codes([[0, 3]], judged=[[0, 3, 2]])
    with pytest.raises(ValueError, match="takes one measure .* got 'official'"):
        evaluate_one(lists, "official")


def test_a_query_judged_only_negative_scores_zero():
    # pytrec_eval crashes on this input (see qrels_and_run); trec_eval's definitions give 0 for every
    # averaged measure when no document is relevant (map = sum of precisions / R with R = 0 -> 0).
    from metrics.runfiles import read_qrels, read_run
    from metrics.runfiles.trec import evaluate_runs

    qrels = read_qrels(b"q0 0 d11 -1\n", name="qrels").table
    run = read_run(b"q0 Q0 d2 1 1.5 tag\n", name="run").table
    text = evaluate_runs(qrels, [run], ["map", "P.5", "ndcg", "num_rel", "bpref"]).text()
    lines = {line.split("\t")[0].strip(): line.split("\t")[2] for line in text.splitlines()}
    assert lines == {"num_rel": "0", "map": "0.0000", "bpref": "0.0000", "P_5": "0.0000", "ndcg": "0.0000"}
