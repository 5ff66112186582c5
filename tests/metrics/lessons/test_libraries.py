"""Library conventions: metrics.lessons.libraries must return what the installed libraries return.

scikit-learn (ndcg_score), pytrec_eval-terrier (trec_eval ndcg / ndcg_cut.k) and ranx (ndcg,
ndcg_burges) are cross-checked on random graded lists with tied scores, unretrieved judged items
and cutoffs: the tie order and the IDCG source must really agree, not only the formula.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics.lessons.libraries import (
    LIBRARIES,
    VARIANTS,
    coincidences,
    compare_rankings,
    evaluate_libraries,
    evaluate_library,
    find_flip,
    tie_spread,
)
from metrics.ndcg import ndcg
from metrics.registry import DISCOUNTS, GAINS, TIES
from tests.metrics.conftest import PROPERTY, close

# ranx evaluates through numba: fewer examples keep the cross-check quick on a shared machine.
RANX = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])

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
        assert lib.gain in GAINS and lib.discount in DISCOUNTS and lib.ties in TIES
        assert lib.idcg_source in ("list", "judged")
        assert lib.latex().startswith("\\mathrm{DCG}")


# ---- scikit-learn -------------------------------------------------------------------------------

@PROPERTY
@given(case)
def test_sklearn_ndcg_score(c):
    from sklearn.metrics import ndcg_score

    grades, scores, unretrieved, k = c
    if sum(grades) == 0:
        return  # scikit-learn returns 0 there too, but warns
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
    if sum(grades) + sum(unretrieved) == 0:
        return
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
    return evaluate(Qrels({"q": qrel}), Run({"q": run}), [f"ndcg{suffix}", f"ndcg_burges{suffix}"])


@pytest.mark.slow
@RANX
@given(case)
def test_ranx_ndcg_and_burges(c):
    grades, scores, unretrieved, k = c
    if sum(grades) + sum(unretrieved) == 0:
        return
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
    assert np.all((t["ndcg"] >= 0) & (t["ndcg"] <= 1 + 1e-12))
