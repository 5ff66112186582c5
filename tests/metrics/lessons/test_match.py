"""match_number: which library and settings give a typed NDCG.

The staged engine must find exactly the combinations the naive loop over every convention finds;
values the real libraries return (scikit-learn, pytrec_eval, ranx, LightGBM, XGBoost), rounded to
2-6 decimals, must be matched back with that library among the results; near misses name the first
step that differs.
"""
from __future__ import annotations

import math
from decimal import Decimal
from itertools import product

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import metrics
from metrics.lessons.diagnose import MISTAKES, STEPS
from metrics.lessons.libraries import DIMENSIONS, LIBRARIES, evaluate_library
from metrics.lessons.match import EXTRA_MISTAKES, match_number, match_number_naive, read_value
from tests.conftest import examples
from tests.metrics.lessons.test_libraries import _ranx, _trec, lightgbm_ndcg, xgboost_ndcg

SMALL = settings(deadline=None, max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
# the naive loop evaluates up to ~10^5 conventions one by one: few, short examples
NAIVE = settings(deadline=None, max_examples=examples(12), suppress_health_check=[HealthCheck.too_slow])


def expand(result) -> set[tuple]:
    """Every combination a merged result stands for."""
    out = set()
    for m in result.matches:
        lists = [result.candidates[d] if m.settings[d] is None else m.settings[d] for d in DIMENSIONS]
        out.update(product(*lists))
    return out


# ---- precision of the typed value --------------------------------------------------------------------

def test_read_value_precision():
    assert read_value("0.8123").scale == 4
    assert read_value("0.80").scale == 2 and read_value(Decimal("0.80")).scale == 2
    assert read_value(0.80).scale == 1  # a float keeps only its shortest repr: "0.8"
    assert read_value("81.86%").value == 0.8186 and read_value("81.86%").scale == 4
    assert read_value(1).scale == 0
    for bad in ("x", "", True, None, Decimal("NaN"), [0.5]):
        with pytest.raises(ValueError):
            read_value(bad)


def test_rounding_window_is_half_a_unit():
    # 3,2,3,0,1,2: scikit-learn's 0.96081... matches 0.961 and 0.9608 but not 0.9609
    assert "sklearn" in match_number("0.961", [3, 2, 3, 0, 1, 2]).library_keys
    assert "sklearn" in match_number("96.08%", [3, 2, 3, 0, 1, 2]).library_keys
    assert "sklearn" not in match_number("0.9609", [3, 2, 3, 0, 1, 2]).library_keys


# ---- the engine equals the naive loop ----------------------------------------------------------------------

engine_case = st.integers(min_value=1, max_value=4).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from([0, 1, 2, 3, 2.5]), min_size=n, max_size=n),
    st.one_of(st.none(), st.lists(st.sampled_from([0.1, 0.5, 0.9, 0.5 + 1e-10]), min_size=n, max_size=n)),
    st.lists(st.sampled_from([0, 1, 3]), max_size=1),
    st.one_of(st.none(), st.integers(1, 5)),
    st.booleans(),
    st.integers(1, 4),
))


@NAIVE
@given(engine_case)
def test_engine_finds_exactly_what_the_naive_loop_finds(c):
    rel, scores, extra, k, use_map, decimals = c
    pool = rel + extra if extra else None
    gain_map = {2: 9, 4: 4.5, 1: 0.5} if use_map else None
    value = f"{metrics.ndcg(rel, k=k, gain='exponential'):.{decimals}f}"
    fast = match_number(value, rel, scores=scores, pool=pool, k=k, gain_map=gain_map)
    naive = match_number_naive(value, rel, scores=scores, pool=pool, k=k, gain_map=gain_map)
    assert expand(fast) == {tuple(d[x] for x in DIMENSIONS) for d in naive}


def test_every_library_is_inside_a_match():
    r = match_number("0.8184", [3, 2, 3, 0, 1, 2], pool=[3, 2, 3, 0, 1, 2, 3, 0], k=6)
    combos = expand(r)
    for m in r.libraries:
        s = LIBRARIES[m.key].convention.settings()
        s["grades"] = "as_is"  # integer grades: every reading (integer only, truncated, >= 1) is the grades as given
        s["ties"], s["scores_as"] = "stable", "float64"  # no scores: no ties to order
        if LIBRARIES[m.key].convention.default_k is None:
            assert tuple(s[d] for d in DIMENSIONS) in combos, m.key


# ---- documents' numbers and hand-derived cases ------------------------------------------------------------

def test_document_001_number_is_trec_eval_ndcg_cut():
    # 3,2,3,0,1,2 with two more judged items (3, 0), k = 6: DCG 6.8611 / IDCG 8.3841 = 0.8184
    r = match_number("0.8184", [3, 2, 3, 0, 1, 2], pool=[3, 2, 3, 0, 1, 2, 3, 0], k=6)
    assert {"trec_eval_ndcg_cut", "ranx_ndcg"} <= set(r.library_keys)
    assert "sklearn" not in r.library_keys
    miss = r.near_miss("sklearn")
    assert (miss.dimension, miss.step, miss.mistake) == ("idcg", "ideal_term", "ideal_source")
    assert miss.theirs == "list" and "judged" in miss.needed


def test_elasticsearch_default_is_a_dcg():
    # 3, 2, 3 with 2^rel - 1: 7 + 3/log2(3) + 7/2 = 12.3928 (Elasticsearch's dcg, normalize false)
    r = match_number("12.39", [3, 2, 3])
    assert "elasticsearch_dcg" in r.library_keys
    assert any(m.settings["quantity"] == ("dcg",) for m in r.matches)


def test_zero_idcg_one_is_lightgbm_and_xgboost():
    r = match_number("1", [0, 0, 0], scores=[3, 2, 1])
    assert {"lightgbm", "xgboost"} <= set(r.library_keys)
    assert "sklearn" not in r.library_keys
    assert r.near_miss("sklearn").dimension == "zero_idcg"
    r0 = match_number("0.0", [0, 0, 0], scores=[3, 2, 1])
    assert "sklearn" in r0.library_keys and "lightgbm" not in r0.library_keys


def test_gain_map_matches_and_the_ideal_order_matters():
    # LightGBM with label_gain 0,1,9,3,4.5 on [2, 4, 0]: its ideal sorts by label -> 1.1632; by gain -> 1
    r = match_number("1.1632", [2, 4, 0], k=3, gain_map={0: 0, 1: 1, 2: 9, 3: 3, 4: 4.5})
    assert any(m.settings["gain"] == ("map",) and m.settings["ideal_order"] == ("grade",) for m in r.matches)
    r1 = match_number("1.0000", [2, 4, 0], k=3, gain_map={0: 0, 1: 1, 2: 9, 3: 3, 4: 4.5})
    assert any("map" in (m.settings["gain"] or ("map",)) and (m.settings["ideal_order"] is None
                                                  or "gain" in m.settings["ideal_order"]) for m in r1.matches)


def test_truncated_not_rounded_is_a_near_miss():
    # scikit-learn gives 0.96081: "0.9608" matches, "0.960" (truncated 3 decimals) does not: every
    # library misses, and the linear/list ones are named as truncations
    r = match_number("0.960", [3, 2, 3, 0, 1, 2])
    assert "sklearn" not in r.library_keys
    assert r.near_miss("sklearn").mistake == "truncation"


def test_near_miss_vocabulary_is_diagnose_or_extra():
    r = match_number("0.8184", [3, 2, 3, 0, 1, 2], scores=[6, 5, 4, 3, 2, 1], pool=[3, 2, 3, 0, 1, 2, 3, 0], k=6)
    assert r.near_misses
    for m in r.near_misses:
        assert m.step in STEPS
        assert m.mistake in MISTAKES or m.mistake in EXTRA_MISTAKES.values()
        assert m.dimension is None or m.dimension in DIMENSIONS


def test_bad_input_is_value_error():
    with pytest.raises(ValueError, match="not a number"):
        match_number("abc", [1, 2])
    with pytest.raises(ValueError, match="scores has 1 values"):
        match_number("0.5", [1, 2], scores=[1])
    with pytest.raises(ValueError, match="docnos has 1 values"):
        match_number("0.5", [1, 2], docnos=["a"])
    with pytest.raises(ValueError, match="pool"):
        match_number("0.5", [3, 2], pool=[1])
    with pytest.raises(ValueError, match="k must be"):
        match_number("0.5", [1, 2], k=0)


def test_exported_from_metrics():
    assert metrics.match_number is match_number
    assert metrics.lessons.match_number is match_number


# ---- thousands of random lists: the real libraries' values are matched back ------------------------------

def _random_lists(seed: int, count: int, max_n: int = 12):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, max_n + 1))
        grades = rng.integers(0, 4, size=n).tolist()
        if sum(grades) == 0:
            grades[int(rng.integers(0, n))] = int(rng.integers(1, 4))
        scores = rng.choice([0.1, 0.3, 0.5, 0.7, 0.9, 1.1], size=n).tolist()
        extra = rng.integers(0, 4, size=int(rng.integers(0, 3))).tolist()
        k = None if rng.random() < 0.3 else int(rng.integers(1, n + 3))
        decimals = int(rng.integers(2, 7))
        yield grades, scores, extra, k, decimals


@pytest.mark.slow
def test_sklearn_and_trec_eval_values_are_matched_back():
    from sklearn.metrics import ndcg_score

    names_for = {}
    checked = 0
    for grades, scores, extra, k, decimals in _random_lists(1, 400):
        names = names_for.setdefault(len(grades), [f"d{i}" for i in range(1, len(grades) + 1)])
        pool = grades + extra
        sk = float(ndcg_score([grades], [scores], k=k))
        r = match_number(f"{sk:.{decimals}f}", grades, scores=scores, docnos=names, pool=pool, k=k)
        assert "sklearn" in r.library_keys, (grades, scores, k, decimals)
        trec = _trec(grades, scores, extra, k, names)
        key, value = ("trec_eval_ndcg_cut", trec[f"ndcg_cut_{k}"]) if k else ("trec_eval_ndcg", trec["ndcg"])
        if sum(pool) > 0:
            r = match_number(f"{value:.{decimals}f}", grades, scores=scores, docnos=names, pool=pool, k=k)
            assert key in r.library_keys, (grades, scores, extra, k, decimals)
        checked += 1
    assert checked == 400


@pytest.mark.slow
@pytest.mark.ranx
def test_ranx_values_are_matched_back():
    for grades, scores, extra, k, decimals in _random_lists(2, 200, max_n=24):
        names = [f"doc{i:03d}" for i in range(len(grades))]
        value = float(_ranx(grades, scores, extra, k, names)[f"ndcg@{k}" if k else "ndcg"])
        r = match_number(f"{value:.{decimals}f}", grades, scores=scores, docnos=names, pool=grades + extra, k=k)
        assert "ranx_ndcg" in r.library_keys, (grades, scores, extra, k, decimals)


@pytest.mark.slow
def test_lightgbm_and_xgboost_values_are_matched_back():
    for grades, scores, _, k, decimals in _random_lists(3, 120):
        kk = k or len(grades)
        lg = lightgbm_ndcg(grades, scores, kk)
        r = match_number(f"{lg:.{decimals}f}", grades, scores=scores, k=kk)
        assert "lightgbm" in r.library_keys, (grades, scores, kk, decimals)
        xg = xgboost_ndcg(grades, scores, f"ndcg@{kk}")
        r = match_number(f"{xg:.{decimals}f}", grades, scores=scores, k=kk)
        assert "xgboost" in r.library_keys, (grades, scores, kk, decimals)


@SMALL
@given(st.lists(st.integers(0, 3), min_size=2, max_size=10), st.integers(2, 6))
def test_every_library_value_matches_itself(grades, decimals):
    assume(sum(grades) > 0)
    for key in LIBRARIES:
        try:
            v = evaluate_library(key, grades)["ndcg"]
        except ValueError:
            continue
        if math.isfinite(v):
            assert key in match_number(f"{v:.{decimals}f}", grades).library_keys, key


# ---- every finite input: float32 libraries say they cannot represent it, the others answer -----------------

FLOAT32_KEYS = {key for key, lib in LIBRARIES.items() if lib.convention.scores_as == "float32"}


def test_a_score_beyond_float32_leaves_the_float64_libraries_answering():
    # 3, 2, 1 scored 1e308, 0.5, 2 ranks as 3, 1, 2: linear DCG = 3 + 1/log2(3) + 2/2 = 4.630930,
    # IDCG (3, 2, 1) = 3 + 2/log2(3) + 1/2 = 4.761860, NDCG = 0.972504 (scikit-learn, trec_eval, ranx).
    # float32 holds at most 3.4028235e38: XGBoost's cast makes 1e308 infinite, so it has no number.
    r = match_number("0.9725", [3, 2, 1], scores=[1e308, 0.5, 2])
    assert {"sklearn", "trec_eval_ndcg", "ranx_ndcg"} <= set(r.library_keys)
    assert FLOAT32_KEYS == {"xgboost", "xgboost_minus", "xgboost_linear"}
    assert r.not_applicable == {key: "float32_range" for key in FLOAT32_KEYS}
    assert all(m.key not in FLOAT32_KEYS for m in r.near_misses)
    # the settings found read "scores as float64" (float32 gives no ranking here), not "any precision"
    assert r.matches and all(m.settings["scores_as"] in (("float64",), None) for m in r.matches)
    assert any(m.settings["scores_as"] == ("float64",) for m in r.matches)
    # 3e38 still fits float32 (XGBoost's linear-gain convention answers); 3.5e38 does not
    assert "xgboost_linear" in match_number("0.9725", [3, 2, 1], scores=[3e38, 0.5, 2]).library_keys
    assert "xgboost_linear" in match_number("0.9725", [3, 2, 1], scores=[3.5e38, 0.5, 2]).not_applicable


def test_the_float32_refusal_names_the_score():
    from metrics.lessons.libraries import NotApplicable, as_float32_scores

    with pytest.raises(NotApplicable, match=r"score at position 3 is -1e\+300; float32") as info:
        as_float32_scores([1.0, 2.0, -1e300])
    assert info.value.reason == "float32_range"
    # values float32 rounds to its largest number are representable (no infinity): 3.4028235e38 itself
    assert as_float32_scores([3.4028235e38]).tolist() == [float(np.finfo(np.float32).max)]


def test_grades_beyond_the_exponential_gain_leave_linear_libraries_answering():
    # 1100, 2: 2^1100 - 1 overflows float64, so every 2^rel - 1 convention cannot represent the input;
    # linear gain: DCG = 1100 + 2/log2(3), already ideal, NDCG = 1 (scikit-learn, trec_eval)
    r = match_number("1", [1100, 2])
    assert {"sklearn", "trec_eval_ndcg"} <= set(r.library_keys)
    assert r.not_applicable["tf_ranking"] == "float64_range"
    assert r.not_applicable["ranx_ndcg_burges"] == "float64_range"


def test_extreme_scores_engine_equals_naive_loop():
    for rel, scores in (([3, 2, 1], [1e308, -1e308, 5e-324]), ([1, 0, 2], [3.5e38, 3.4e38, -3.5e38])):
        value = f"{metrics.ndcg_from_scores(rel, scores):.4f}"
        fast = match_number(value, rel, scores=scores)
        naive = match_number_naive(value, rel, scores=scores)
        assert fast.libraries and expand(fast) == {tuple(d[x] for x in DIMENSIONS) for d in naive}


finite = st.floats(allow_nan=False, allow_infinity=False)
extreme = st.sampled_from([1e308, -1e308, 3.5e38, -3.5e38, 3.4e38, 5e-324, -5e-324, 2.2e-308, 1e-300, 0.0])


@SMALL
@given(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=2, max_size=6).flatmap(
    lambda g: st.tuples(st.just(g), st.lists(st.one_of(extreme, finite), min_size=len(g), max_size=len(g)))))
def test_every_finite_score_is_answered(case):
    grades, scores = case
    assume(sum(grades) > 0)
    value = f"{metrics.ndcg_from_scores(grades, scores):.6f}"  # scikit-learn's convention, stable ties
    r = match_number(value, grades, scores=scores)
    with np.errstate(over="ignore"):
        beyond = bool(np.any(~np.isfinite(np.asarray(scores, dtype=np.float64).astype(np.float32))))
    assert {k for k, why in r.not_applicable.items() if why == "float32_range"} == (FLOAT32_KEYS if beyond else set())
    assert "trec_eval_ndcg" in r.library_keys or "sklearn" in r.library_keys or "torchmetrics" in r.library_keys
    # every other library answers: a finite number, shown as a near miss
    for key in set(LIBRARIES) - set(r.not_applicable) - set(r.library_keys):
        miss = r.near_miss(key)
        assert miss is not None and math.isfinite(miss.value), key
