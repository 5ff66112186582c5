"""Library conventions: metrics.lessons.libraries must return what the installed libraries return.

scikit-learn (ndcg_score), pytrec_eval-terrier (trec_eval ndcg / ndcg_cut.k / -M / gain maps), ranx
(ndcg, ndcg_burges, with its numba tie order), LightGBM (ndcg@k through a Booster evaluating given
scores: init_score and no trees) and XGBoost (ndcg@k through a Booster evaluating base_margin) are
cross-checked on random graded lists with tied scores, unretrieved judged items and cutoffs: the tie
order and the IDCG source must really agree, not only the formula.  Elasticsearch, gdeval, Spark and
torchmetrics are not installable here: their rows are checked against values derived by hand from
their source (cited in each test).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from metrics.lessons.libraries import (
    DIMENSIONS,
    LIBRARIES,
    VARIANTS,
    Convention,
    NotApplicable,
    coincidences,
    compare_rankings,
    convention_value,
    evaluate_libraries,
    evaluate_library,
    find_flip,
    tie_spread,
    zero_idcg_means,
)
from metrics.ndcg import ndcg
from metrics.registry import DISCOUNTS, GAINS, TIES, ZERO_IDCG
from tests.conftest import examples
from tests.metrics.conftest import PROPERTY, close, ranx_ids

# ranx evaluates through numba: fewer examples keep the cross-check quick on a shared machine.
RANX = settings(deadline=None, max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
BOOSTERS = settings(deadline=None, max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])

# Ranked grades with scores drawn from a few values (so ties are common), unretrieved grades, k.
case = st.integers(min_value=2, max_value=8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.5, 0.5, 0.9, 2.0]), min_size=n, max_size=n),
    st.lists(st.integers(0, 3), max_size=3),
    st.one_of(st.none(), st.integers(1, 10)),
))


def docnos(n: int) -> list[str]:
    # ids whose byte order is not their position (d10 < d2), shuffled deterministically
    names = [f"d{i}" for i in range(1, n + 1)]
    return names[::2] + names[1::2]


def test_registry_is_consistent():
    for lib in LIBRARIES.values():
        c = lib.convention
        for name, dim in DIMENSIONS.items():
            assert c.settings()[name] in dim.choices, (lib.key, name)
        v = c.variant
        assert v.gain in GAINS and v.discount in DISCOUNTS and v.ties in TIES and v.zero_idcg in ZERO_IDCG
        assert lib.latex().startswith("\\mathrm{DCG}")
        # every convention cites the file and function it was read from, and its version
        assert ":" in lib.source and any(ch.isdigit() for ch in lib.source), lib.key
        assert lib.short and lib.call and lib.notes


# ---- scikit-learn -------------------------------------------------------------------------------

@PROPERTY
@given(case)
def test_sklearn_ndcg_score(c):
    from sklearn.metrics import ndcg_score

    grades, scores, unretrieved, k = c
    assume(sum(grades) > 0)  # scikit-learn returns 0 there too, but warns
    ours = evaluate_library("sklearn", grades, scores=scores, unretrieved=unretrieved, k=k)["ndcg"]
    theirs = ndcg_score([grades], [scores], k=k)
    assert close(ours, float(theirs), 1e-9), (grades, scores, k)


def test_sklearn_all_zero_is_zero():
    from sklearn.metrics import ndcg_score

    assert evaluate_library("sklearn", [0, 0, 0], scores=[1, 2, 3])["ndcg"] == ndcg_score([[0, 0, 0]], [[1, 2, 3]]) == 0


# ---- trec_eval through pytrec_eval ----------------------------------------------------------------

def _trec(grades, scores, unretrieved, k, names):
    import pytrec_eval

    qrel = {n: int(g) for n, g in zip(names, grades)}
    qrel.update({f"u{i}": int(g) for i, g in enumerate(unretrieved)})
    run = {n: float(s) for n, s in zip(names, scores)}
    measures = {"ndcg"} | ({f"ndcg_cut.{k}"} if k else set())
    return pytrec_eval.RelevanceEvaluator({"q": qrel}, measures).evaluate({"q": run})["q"]


@PROPERTY
@given(case)
def test_trec_eval_ndcg_and_ndcg_cut(c):
    grades, scores, unretrieved, k = c
    assume(sum(grades) + sum(unretrieved) > 0)
    names = docnos(len(grades))
    theirs = _trec(grades, scores, unretrieved, k, names)
    ours = evaluate_library("trec_eval_ndcg", grades, scores=scores, docnos=names, unretrieved=unretrieved)
    assert close(ours["ndcg"], theirs["ndcg"], 1e-9), (grades, scores, unretrieved)
    if k:
        cut = evaluate_library("trec_eval_ndcg_cut", grades, scores=scores, docnos=names,
                               unretrieved=unretrieved, k=k)
        assert close(cut["ndcg"], theirs[f"ndcg_cut_{k}"], 1e-9), (grades, scores, unretrieved, k)


def test_trec_eval_tie_order_is_docno_descending():
    # b and a tie; trec_eval puts "b" first, so the relevant "a" lands at rank 2: 1/log2(3)
    theirs = _trec([1, 0], [1.0, 1.0], [], None, ["a", "b"])["ndcg"]
    ours = evaluate_library("trec_eval_ndcg", [1, 0], scores=[1.0, 1.0], docnos=["a", "b"])["ndcg"]
    assert close(ours, theirs) and close(ours, 1 / math.log2(3))


def test_documents_001_003_are_trec_eval_ndcg_cut():
    # 3,2,3,0,1,2 with the 7th (3) and 8th (0) recalled items judged: exact 0.8184 (printed 81.86% / 81.96%)
    theirs = _trec([3, 2, 3, 0, 1, 2], [6, 5, 4, 3, 2, 1], [3, 0], 6, [f"d{i}" for i in range(6)])
    ours = evaluate_library("trec_eval_ndcg_cut", [3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6)["ndcg"]
    assert close(ours, theirs["ndcg_cut_6"]) and round(ours, 4) == 0.8184


# ---- ranx ---------------------------------------------------------------------------------------

def _ranx(grades, scores, unretrieved, k, names):
    from ranx import Qrels, Run, evaluate

    qrel = {n: int(g) for n, g in zip(names, grades) if g > 0}
    qrel.update({f"u{i}": int(g) for i, g in enumerate(unretrieved) if g > 0})
    run = {n: float(s) for n, s in zip(names, scores)}
    suffix = f"@{k}" if k else ""
    qrels, run = ranx_ids({"q": qrel}, {"q": run})
    return evaluate(Qrels(qrels), Run(run), [f"ndcg{suffix}", f"ndcg_burges{suffix}"])


@pytest.mark.slow
@pytest.mark.ranx
@RANX
@given(case)
def test_ranx_ndcg_and_burges(c):
    grades, scores, unretrieved, k = c
    assume(sum(grades) + sum(unretrieved) > 0)
    names = docnos(len(grades))
    theirs = _ranx(grades, scores, unretrieved, k, names)
    suffix = f"@{k}" if k else ""
    for key, metric in (("ranx_ndcg", "ndcg"), ("ranx_ndcg_burges", "ndcg_burges")):
        ours = evaluate_library(key, grades, scores=scores, docnos=names, unretrieved=unretrieved, k=k)["ndcg"]
        assert close(ours, float(theirs[metric + suffix]), 1e-9), (key, grades, scores, unretrieved, k)


# ---- hand-derived values and conventions ------------------------------------------------------------

def test_idcg_sources_by_hand():
    # Document 002's list with 001's two extra judged items (3 and 0), k = 6:
    # list source: IDCG of 3,3,2,2,1,0 = 7.1410 -> 0.9608; judged: 3,3,3,2,2,1 = 8.3841 -> 0.8184
    t = evaluate_libraries([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6).set_index("key")
    assert round(float(t.loc["sklearn", "ndcg"]), 4) == 0.9608
    assert round(float(t.loc["ranx_ndcg", "ndcg"]), 4) == 0.8184
    # natural log cancels: Microsoft Recommenders' raw = the log2 linear judged value
    assert close(float(t.loc["recommenders_raw", "ndcg"]), float(t.loc["ranx_ndcg", "ndcg"]))
    # but not in DCG: ln divides by ln(i+1) = log2(i+1) * ln 2
    assert close(float(t.loc["recommenders_raw", "dcg"]) * math.log(2), float(t.loc["ranx_ndcg", "dcg"]))


def test_binary_libraries_ignore_grades():
    # Spark / RecBole / Recommenders binary: 3,0,1 is hits 1,0,1 -> (1 + 1/log2 3... ) no: 1 + 0 + 1/2
    # over 1 + 1/log2(3): (1.5) / 1.6309 = 0.9197
    for key in ("spark", "recbole", "recommenders_binary"):
        assert round(evaluate_library(key, [3, 0, 1])["ndcg"], 4) == 0.9197


def test_trec_eval_ndcg_ignores_k():
    a = evaluate_library("trec_eval_ndcg", [0, 3], k=1)
    assert a["k"] is None and close(a["ndcg"], (3 / math.log2(3)) / 3)


def test_bad_input_is_value_error():
    with pytest.raises(ValueError, match="unknown library 'nope'"):
        evaluate_library("nope", [1, 2])
    with pytest.raises(ValueError, match="scores has 1 values"):
        evaluate_library("sklearn", [1, 2], scores=[1])
    with pytest.raises(ValueError, match="unretrieved at position 1"):
        evaluate_library("ranx_ndcg", [1, 2], unretrieved=[-1])
    with pytest.raises(ValueError, match="pool must hold"):
        compare_rankings([3], [3], pool=[1])


# ---- ties ---------------------------------------------------------------------------------------

def test_tie_spread_by_hand():
    # grades 0, 3, 1 with the first two tied; IDCG = 3 + 1/log2(3) = 3.6309
    t = tie_spread([0, 3, 1], [0.5, 0.5, 0.1], docnos=["a", "b", "c"]).set_index("ties")
    assert close(float(t.loc["optimistic", "ndcg"]), 3.5 / (3 + 1 / math.log2(3)))
    assert close(float(t.loc["pessimistic", "ndcg"]), (3 / math.log2(3) + 0.5) / (3 + 1 / math.log2(3)))
    assert t.loc["trec_eval", "ndcg"] == t.loc["optimistic", "ndcg"]  # "b" > "a": b (grade 3) first
    lo, hi = t["ndcg"].min(), t["ndcg"].max()
    assert lo <= t.loc["average", "ndcg"] <= hi and close(t.attrs["spread"], hi - lo)


@PROPERTY
@given(case)
def test_average_is_between_optimistic_and_pessimistic(c):
    grades, scores, _, k = c
    t = tie_spread(grades, scores, k=k).set_index("ties")
    eps = 1e-12
    assert t.loc["pessimistic", "ndcg"] - eps <= t.loc["average", "ndcg"] <= t.loc["optimistic", "ndcg"] + eps


# ---- does the choice matter? ----------------------------------------------------------------------

def test_document_004_winner_flips_with_binary_gain():
    t = compare_rankings([3, 1, 2, 2, 1], [3, 3, 2, 0, 1], pool=[3, 3, 2, 2, 1, 1, 0], k=5).set_index("variant")
    assert t.loc["linear/standard/judged", "winner"] == "b"
    assert t.loc["exponential/standard/judged", "winner"] == "b"
    assert t.loc["binary/standard/judged", "winner"] == "a"  # rec_sys_1 hits all five
    assert t.loc["spark", "winner"] == "a" and t.loc["sklearn", "winner"] == "b"
    assert t.loc["binary/standard/judged", "ndcg_a"] == 1.0


@pytest.mark.parametrize("first,second", [
    ("linear/standard/list", "exponential/standard/list"),
    ("exponential/standard/list", "linear/standard/list"),
    ("linear/standard/list", "linear/jarvelin/list"),
])
def test_find_flip_really_flips(first, second):
    a, b = find_flip(first, second)
    v1, v2 = VARIANTS[first], VARIANTS[second]
    assert sorted(a) == sorted(b)  # same items
    assert ndcg(a, gain=v1.gain, discount=v1.discount) > ndcg(b, gain=v1.gain, discount=v1.discount)
    assert ndcg(a, gain=v2.gain, discount=v2.discount) < ndcg(b, gain=v2.gain, discount=v2.discount)


def test_no_flip_between_linear_and_exponential_on_binary_grades():
    assert find_flip("linear/standard/list", "exponential/standard/list", grades=(1, 1, 0, 0, 1)) is None


def test_coincidences():
    c = coincidences(10, 2)
    assert c["same_weight_positions"] == [1]
    assert c["jarvelin_equal_weight_positions"] == [1, 2]
    assert c["same_gain_grades"] == [0, 1]
    # base 10: Järvelin does not discount ranks 1..10
    assert coincidences(12, 10)["jarvelin_equal_weight_positions"] == list(range(1, 11))
    with pytest.raises(ValueError, match="n must be"):
        coincidences(0)


def test_evaluate_libraries_covers_every_library():
    t = evaluate_libraries([3, 2, 1], scores=[0.3, 0.3, 0.1])
    assert list(t["key"]) == list(LIBRARIES)
    normalised = [LIBRARIES[key].convention.quantity == "ndcg" for key in t["key"]]
    values = t.loc[normalised, "ndcg"]
    assert np.all((values >= 0) & (values <= 1 + 1e-12))
    assert t.set_index("key").loc["elasticsearch_dcg", "ndcg"] > 1  # plain DCG: 7 + 3/log2(3) + 1/2


# ---- issue 16: scikit-learn's single document, ranx's long tie lists, trec_eval's options -------------

def test_sklearn_single_document_raises_like_ndcg_score():
    from sklearn.metrics import ndcg_score

    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg_score([[3]], [[1.0]])
    with pytest.raises(NotApplicable, match="more than 1 document"):
        evaluate_library("sklearn", [3], scores=[1.0])
    row = evaluate_libraries([3]).set_index("key").loc["sklearn"]
    assert math.isnan(row["ndcg"]) and "more than 1 document" in row["error"]
    assert evaluate_library("torchmetrics", [3])["ndcg"] == 1.0  # torchmetrics accepts one document


@pytest.mark.slow
@pytest.mark.ranx
def test_ranx_tie_order_for_long_lists():
    # 20 tied items, the relevant one first in the run: ranx's numba quicksort moves it (issue 16:
    # 0.5725 in ranx where input order gives 1.0 / the old row gave 0.4305 for its example).
    rng = np.random.default_rng(16)
    for n in (16, 20, 37):
        grades = rng.integers(0, 4, size=n).tolist()
        grades[0] = max(grades[0], 1)  # at least one relevant item
        scores = rng.choice([0.5, 1.0], size=n).tolist()
        names = [f"doc{i:03d}" for i in range(n)]
        theirs = _ranx(grades, scores, [], None, names)
        for key, metric in (("ranx_ndcg", "ndcg"), ("ranx_ndcg_burges", "ndcg_burges")):
            ours = evaluate_library(key, grades, scores=scores, docnos=names)["ndcg"]
            assert close(ours, float(theirs[metric]), 1e-9), (n, key)
    # all tied, 20 items: not the input order
    grades = [3] + [0] * 19
    theirs = float(_ranx(grades, [1.0] * 20, [], None, [f"d{i:02d}" for i in range(20)])["ndcg"])
    assert theirs < 1.0
    assert close(evaluate_library("ranx_ndcg", grades, scores=[1.0] * 20)["ndcg"], theirs)


def _trec_run(grades, scores, unretrieved, names, measure):
    from pytrec_eval_ext import RelevanceEvaluator  # the extension takes trec_eval's full measure syntax

    qrel = {n: int(g) for n, g in zip(names, grades)}
    qrel.update({f"u{i}": int(g) for i, g in enumerate(unretrieved)})
    run = {n: float(s) for n, s in zip(names, scores)}
    ev = RelevanceEvaluator(query_relevance={"q": qrel}, measures={measure}, relevance_level=1,
                            judged_docs_only_flag=False)
    return ev.evaluate({"q": run})["q"]


@PROPERTY
@given(case)
def test_trec_eval_M_cuts_the_run_not_the_ideal(c):
    # trec_eval -M k keeps the first k documents of the run (te_form_res_rels): evaluating ndcg on the
    # run truncated to its top k (in trec_eval's order) is what -M does.
    grades, scores, unretrieved, k = c
    assume(k is not None and sum(grades) + sum(unretrieved) > 0)
    names = docnos(len(grades))
    order = sorted(range(len(grades)), key=lambda i: (scores[i], names[i].encode()), reverse=True)[:k]
    theirs = _trec_run([grades[i] for i in order], [scores[i] for i in order],
                       unretrieved + [grades[i] for i in range(len(grades)) if i not in order],
                       [names[i] for i in order], "ndcg")["ndcg"]
    ours = evaluate_library("trec_eval_ndcg_M", grades, scores=scores, docnos=names, unretrieved=unretrieved, k=k)
    assert close(ours["ndcg"], theirs, 1e-9)


def test_trec_eval_truncates_fractional_grades():
    # trec_eval reads qrels with atol (get_qrels.c): 2.5 -> 2, 1.9 -> 1.  pytrec_eval refuses floats
    # ("Expected relevance to be integer"), so the truncated grades are what trec_eval sees.
    import pytrec_eval

    with pytest.raises(TypeError, match="integer"):
        pytrec_eval.RelevanceEvaluator({"q": {"a": 2.5}}, {"ndcg"})
    ours = evaluate_library("trec_eval_ndcg", [2.5, 1.9, 3], scores=[3, 2, 1], docnos=["a", "b", "c"])["ndcg"]
    theirs = _trec([2, 1, 3], [3, 2, 1], [], None, ["a", "b", "c"])["ndcg"]
    assert close(ours, theirs)
    assert not close(ours, ndcg([2.5, 1.9, 3]))


def test_trec_eval_relevance_level_does_not_change_ndcg():
    import pytrec_eval

    qrel = {"q": {"a": 1, "b": 2, "c": 0, "d": 3}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}
    values = {lvl: pytrec_eval.RelevanceEvaluator(qrel, {"ndcg"}, relevance_level=lvl).evaluate(run)["q"]["ndcg"]
              for lvl in (1, 2, 3)}
    assert values[1] == values[2] == values[3]
    assert close(values[1], evaluate_library("trec_eval_ndcg", [1, 2, 0, 3])["ndcg"])


def test_trec_eval_gain_map_through_the_extension():
    names = ["a", "b", "c", "d"]
    theirs = _trec_run([2, 1, 3, 4], [4, 3, 2, 1], [4], names, "ndcg.2=9,4=4.5")["ndcg"]
    # the gain map is used once the convention's gain is "map" (trec_eval -m ndcg.2=9,4=4.5)
    c = Convention.of({**LIBRARIES["trec_eval_ndcg"].convention.settings(), "gain": "map"}, gain_map={2: 9, 4: 4.5})
    assert close(convention_value(c, [2, 1, 3, 4], scores=[4, 3, 2, 1], docnos=names, pool=[2, 1, 3, 4, 4],
                                  gain_map={2: 9, 4: 4.5})["value"], theirs)


# ---- LightGBM and XGBoost: their own evaluation on given scores -------------------------------------------

def lightgbm_ndcg(grades, scores, k, **params):
    """LightGBM's ndcg@k of given scores: a Booster with no trees predicts its init_score."""
    import lightgbm as lgb

    y = np.asarray(grades, dtype=float)
    data = lgb.Dataset(np.zeros((y.size, 1)), label=y, group=[y.size], init_score=np.asarray(scores, dtype=float),
                       params={"verbose": -1})
    booster = lgb.Booster(params={"objective": "lambdarank", "metric": "ndcg", "eval_at": [k], "verbose": -1,
                                  **params}, train_set=data)
    return float(booster.eval_train()[0][2])


def xgboost_ndcg(grades, scores, metric, **params):
    """XGBoost's eval of given predictions: a Booster with no trees predicts the base_margin."""
    import xgboost as xgb

    y = np.asarray(grades, dtype=float)
    dm = xgb.DMatrix(np.zeros((y.size, 1)), label=y, base_margin=np.asarray(scores, dtype=float))
    dm.set_group([y.size])
    text = xgb.Booster({"objective": "rank:ndcg", "eval_metric": metric, **params}, [dm]).eval(dm)
    return float(text.rsplit(":", 1)[1])


booster_case = st.integers(min_value=1, max_value=40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 4), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.5, 0.5, 0.9, 2.0, 1e-9, 0.0]), min_size=n, max_size=n),
    st.integers(1, 45),
))


@BOOSTERS
@given(booster_case)
def test_lightgbm_ndcg_at_k(c):
    grades, scores, k = c
    theirs = lightgbm_ndcg(grades, scores, k)
    ours = evaluate_library("lightgbm", grades, scores=scores, k=k)["ndcg"]
    assert close(ours, theirs, 1e-9), (grades, scores, k)


def test_lightgbm_by_hand():
    assert lightgbm_ndcg([0, 0, 0], [3, 2, 1], 2) == evaluate_library("lightgbm", [0, 0, 0], k=2)["ndcg"] == 1.0
    # a label_gain that is not increasing: LightGBM's ideal sorts by label, so [2, 4] scores above 1:
    # (9 + 4.5/log2 3) / (4.5 + 9/log2 3) = 1.1632 (trec_eval's ideal, by gain, gives 1.0)
    theirs = lightgbm_ndcg([2, 4, 0], [3, 2, 1], 3, label_gain=[0, 1, 9, 3, 4.5])
    ours = convention_value(Convention.of({**LIBRARIES["lightgbm"].convention.settings(), "gain": "map"},
                                          gain_map={0: 0, 1: 1, 2: 9, 3: 3, 4: 4.5}),
                            [2, 4, 0], gain_map={0: 0, 1: 1, 2: 9, 3: 3, 4: 4.5}, k=3)["value"]
    assert close(ours, theirs) and round(theirs, 4) == 1.1632
    with pytest.raises(NotApplicable, match="integer grades only"):
        evaluate_library("lightgbm", [2.5, 1])


@BOOSTERS
@given(booster_case)
def test_xgboost_ndcg_at_k_and_minus(c):
    grades, scores, k = c
    for key, metric in (("xgboost", f"ndcg@{k}"), ("xgboost_minus", f"ndcg@{k}-")):
        ours = evaluate_library(key, grades, scores=scores, k=k)["ndcg"]
        assert close(ours, xgboost_ndcg(grades, scores, metric), 1e-9), (key, grades, scores, k)
    lin = evaluate_library("xgboost_linear", grades, scores=scores, k=k)["ndcg"]
    assert close(lin, xgboost_ndcg(grades, scores, f"ndcg@{k}", ndcg_exp_gain=False), 1e-9)


def test_xgboost_by_hand():
    # no @k: ndcg@32 (LambdaRankParam::DefaultK); 40 items with labels 0,1,2,3,... tied
    grades = [i % 4 for i in range(40)]
    assert close(evaluate_library("xgboost", grades, scores=[1.0] * 40)["ndcg"],
                 xgboost_ndcg(grades, [1.0] * 40, "ndcg"))
    assert close(evaluate_library("xgboost", grades, scores=[1.0] * 40)["ndcg"], ndcg(grades, k=32, gain="exponential"))
    # float32 predictions: 1 and 1 + 1e-9 tie, so input order decides
    assert close(evaluate_library("xgboost", [1, 0, 2], scores=[1.0, 1.0 + 1e-9, 0.5])["ndcg"],
                 xgboost_ndcg([1, 0, 2], [1.0, 1.0 + 1e-9, 0.5], "ndcg"))
    assert xgboost_ndcg([0, 0], [1, 2], "ndcg@2") == 1.0 and xgboost_ndcg([0, 0], [1, 2], "ndcg@2-") == 0.0
    # fractional labels: an error with the exponential gain, accepted with the linear one
    with pytest.raises(Exception, match="integer"):
        xgboost_ndcg([2.5, 1], [1, 2], "ndcg@2")
    assert close(evaluate_library("xgboost_linear", [2.5, 1, 0], scores=[3, 2, 1])["ndcg"],
                 xgboost_ndcg([2.5, 1, 0], [3, 2, 1], "ndcg@3", ndcg_exp_gain=False))


# ---- not installable: checked against their source, derivations by hand ---------------------------------

def test_elasticsearch_rank_eval_by_hand():
    # DiscountedCumulativeGain.java (8.x), evaluate/computeDCG: gain 2^r - 1, divided by log2(rank + 1).
    # Hits 3, 2, 0 (k = 10, three hits), rated docs 3, 2, 0, 3 (one rated doc not returned).
    dcg_ = 7 + 3 / math.log2(3)  # = 8.8928
    r = evaluate_library("elasticsearch_dcg", [3, 2, 0], unretrieved=[3])
    assert close(r["ndcg"], dcg_)  # normalize false (default): the DCG itself
    # normalize true: ideal = all ratings sorted 3, 3, 2, 0 cut at the number of hits (3, not k = 10)
    idcg_ = 7 + 7 / math.log2(3) + 3 / 2
    assert close(evaluate_library("elasticsearch_ndcg", [3, 2, 0], unretrieved=[3])["ndcg"], dcg_ / idcg_)
    # trec_eval's ndcg_cut.10 would cut the ideal at 10 and include the 4th rated doc's gain (0 here) -> same;
    # with a 4th relevant rated doc it differs:
    es = evaluate_library("elasticsearch_ndcg", [3, 2, 0], unretrieved=[3, 1])["ndcg"]
    assert close(es, dcg_ / idcg_)
    cut = ndcg([3, 2, 0], k=10, gain="exponential", pool=[3, 2, 0, 3, 1])
    assert cut < es


def test_gdeval_by_hand():
    # gdeval.pl 1.2: dcg = sum (2^g - 1) / log(i + 2) (natural log), ideal from the qrels cut at K = 20,
    # topics without a relevant judgment are skipped (NaN here), judgments must be integers <= 4.
    r = evaluate_library("gdeval", [3, 0, 1], unretrieved=[2])
    top = 7 / math.log(2) + 1 / math.log(4)
    best = 7 / math.log(2) + 3 / math.log(3) + 1 / math.log(4)
    assert close(r["ndcg"], top / best)
    assert math.isnan(evaluate_library("gdeval", [0, 0])["ndcg"])
    with pytest.raises(NotApplicable):
        evaluate_library("gdeval", [5, 1])


def test_spark_ideal_walks_labels_in_given_order():
    # RankingMetrics.scala ndcgAt, relevance branch: maxDcg sums (2^rel(lab(i)) - 1)/ln(i + 2) over the
    # labels in the order given.  Labels: the list's relevant items in ranked order (0, 3, 2 -> 3, 2).
    r = evaluate_library("spark_graded", [0, 3, 2], k=3)
    top = 7 / math.log(3) + 3 / math.log(4)
    best = 7 / math.log(2) + 3 / math.log(3)
    assert close(r["ndcg"], top / best)
    # a ground truth given in ascending order gives an IDCG below the ideal one, and NDCG above 1
    asc = convention_value(LIBRARIES["spark_graded"].convention, [3, 1], pool=[1, 3], k=2)["value"]
    assert asc > 1


def test_torchmetrics_follows_sklearn():
    # torchmetrics/functional/retrieval/ndcg.py (1.9.0) ports scikit-learn's _tie_average_dcg and takes the
    # ideal from the target sorted; all-irrelevant targets give 0.
    t = evaluate_libraries([3, 0, 1, 2], scores=[0.5, 0.5, 0.2, 0.1], k=3).set_index("key")
    assert t.loc["torchmetrics", "ndcg"] == t.loc["sklearn", "ndcg"]
    assert evaluate_library("torchmetrics", [0, 0])["ndcg"] == 0.0


def test_zero_idcg_policies_in_libraries_and_their_effect_on_a_mean():
    t = evaluate_libraries([0, 0, 0], scores=[3, 2, 1]).set_index("key")["ndcg"]
    assert t["sklearn"] == 0.0 and t["lightgbm"] == 1.0 and t["xgboost"] == 1.0 and t["xgboost_minus"] == 0.0
    assert math.isnan(t["recbole"]) and math.isnan(t["gdeval"])
    means = zero_idcg_means([0.8, 0.6, 0.0], [3.0, 2.0, 0.0]).set_index("zero_idcg")
    assert close(means.loc["zero", "mean"], 1.4 / 3) and close(means.loc["one", "mean"], 0.8)
    assert close(means.loc["nan", "mean"], 0.7) and means.loc["nan", "counted"] == 2
