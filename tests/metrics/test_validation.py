"""Bad input: always ValueError, naming the bad value, where it is and what is accepted.

Covers metrics/_validation.py directly and every public NDCG function through it, plus hypothesis
fuzzing with arbitrary objects and text.
"""
from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics._validation import as_grades, as_scores, check_choice, check_k, check_log_base
from metrics.ndcg import (
    all_variants,
    breakdown,
    cg,
    dcg,
    idcg,
    ideal_ranking,
    ndcg,
    ndcg_from_scores,
    rank_by_scores,
)
from metrics.registry import DISCOUNTS, GAINS, TIES
from tests.metrics.conftest import FUZZ, PROPERTY

# every public function, called with relevances only (scores derived from them where needed)
CALLS = {
    "cg": lambda rel, **kw: cg(rel, **{k: v for k, v in kw.items() if k in ("k", "gain")}),
    "dcg": lambda rel, **kw: dcg(rel, **{k: v for k, v in kw.items() if k != "pool"}),
    "idcg": lambda rel, **kw: idcg(rel, **kw),
    "ndcg": lambda rel, **kw: ndcg(rel, **kw),
    "ndcg_from_scores": lambda rel, **kw: ndcg_from_scores(rel, list(range(len(rel))) if _sized(rel) else [], **kw),
    "breakdown": lambda rel, **kw: breakdown(rel, **kw),
    "all_variants": lambda rel, **kw: all_variants(
        rel, **{k: v for k, v in kw.items() if k in ("k", "log_base", "pool")}),
}


def _sized(x) -> bool:
    try:
        len(x)
        return not isinstance(x, (str, bytes, dict))
    except TypeError:
        return False


def raises(func, *args, match=None, **kwargs) -> str:
    """Call and require a ValueError (nothing else); return its message."""
    with pytest.raises(ValueError, match=match) as info:
        func(*args, **kwargs)
    return str(info.value)


# --------------------------------------------------------------------------------------------
# the grades list
# --------------------------------------------------------------------------------------------
BAD_ITEMS = [
    # (bad item at position 2, words the message must contain)
    ("x", ["'x'", "position 2", "not a number"]),
    (None, ["None", "position 2", "not a number"]),
    ([1], ["[1]", "position 2", "not a number"]),
    (True, ["True", "position 2", "boolean", "0/1"]),
    (np.bool_(False), ["False", "position 2", "boolean"]),
    (float("nan"), ["nan", "position 2", "finite"]),
    (float("inf"), ["inf", "position 2", "finite"]),
    (-float("inf"), ["-inf", "position 2", "finite"]),
    (-1, ["-1", "position 2", ">= 0"]),
    (-0.5, ["-0.5", "position 2", ">= 0"]),
    (1j, ["1j", "position 2", "not a number"]),
    (Decimal("1.5"), ["Decimal", "position 2", "not a number"]),
    (10**400, ["position 2", "too large"]),
    (Fraction(10**400, 3), ["position 2", "too large"]),
    (b"1", ["b'1'", "position 2", "not a number"]),
]


@pytest.mark.parametrize("func", CALLS.values(), ids=CALLS.keys())
@pytest.mark.parametrize("item,words", BAD_ITEMS, ids=[repr(b[0])[:20] for b in BAD_ITEMS])
def test_bad_grade_item(func, item, words):
    msg = raises(func, [3, item, 1])
    for word in words:
        assert word in msg, (word, msg)
    assert "relevances" in msg


@pytest.mark.parametrize("func", CALLS.values(), ids=CALLS.keys())
@pytest.mark.parametrize("value,words", [
    ([], ["empty", "at least one"]),
    ((), ["empty"]),
    (np.array([]), ["empty"]),
    ("3 2 1", ["sequence of numbers", "str"]),
    (b"321", ["sequence of numbers", "bytes"]),
    (None, ["sequence of numbers", "NoneType"]),
    (5, ["sequence of numbers", "int"]),
    ({"a": 1}, ["sequence of numbers", "dict"]),
    (np.array([[1, 2], [3, 4]]), ["one-dimensional", "(2, 2)"]),
    (np.array(3), ["one-dimensional"]),
], ids=["list", "tuple", "array", "str", "bytes", "None", "int", "dict", "2d", "0d"])
def test_bad_grade_container(func, value, words):
    msg = raises(func, value)
    for word in words:
        assert word in msg, (word, msg)


def test_as_grades_messages_exactly():
    assert raises(as_grades, [3, -1]) == "relevances at position 2 is -1.0; grades must be >= 0"
    assert raises(as_grades, [1, "a"]) == "relevances at position 2 is 'a', which is not a number"
    assert raises(as_grades, [], name="pool") == "pool is empty; give at least one grade"
    assert as_grades([], allow_empty=True).tolist() == []
    out = as_grades([1, 2.5, np.int64(3), Fraction(1, 2)])
    assert out.dtype == np.float64 and out.tolist() == [1.0, 2.5, 3.0, 0.5]


# --------------------------------------------------------------------------------------------
# k, log_base, names
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("func", CALLS.values(), ids=CALLS.keys())
@pytest.mark.parametrize("k,words", [
    (0, [">= 1", "0"]),
    (-3, [">= 1", "-3"]),
    (2.0, ["whole number", "2.0"]),
    (1.5, ["whole number", "1.5"]),
    ("5", ["whole number", "'5'"]),
    (True, ["whole number", "True"]),
    (float("nan"), ["whole number", "nan"]),
])
def test_bad_k(func, k, words):
    msg = raises(func, [3, 2, 1], k=k)
    for word in words:
        assert word in msg, (word, msg)
    assert msg.startswith("k ")


def test_good_k_types():
    assert check_k(None) is None
    assert check_k(np.int64(3)) == 3
    assert check_k(10**30) == 10**30
    assert ndcg([3, 2, 1], k=10**30) == ndcg([3, 2, 1])  # a huge k is just "everything"


@pytest.mark.parametrize("func", [f for n, f in CALLS.items() if n != "cg"], ids=[n for n in CALLS if n != "cg"])
@pytest.mark.parametrize("base", [0, -2, 1, 1.0, float("nan"), float("inf"), "2", None, True, 10**400, 1j])
def test_bad_log_base(func, base):
    msg = raises(func, [3, 2, 1], log_base=base)
    assert "log_base" in msg and "> 0" in msg and "!= 1" in msg


def test_good_log_bases():
    for base in [2, 10, math.e, 0.5, 1.5, Fraction(3, 2), np.float32(3.0), 1e-300, 1e300]:
        assert check_log_base(base) == float(base)


@pytest.mark.parametrize("func", [f for n, f in CALLS.items() if n not in ("all_variants",)],
                         ids=[n for n in CALLS if n != "all_variants"])
@pytest.mark.parametrize("gain", ["Linear", "exp", "", None, 3, ["linear"]])
def test_unknown_gain_lists_registry_names(func, gain):
    msg = raises(func, [3, 2, 1], gain=gain)
    assert "gain" in msg and repr(gain)[:10] in msg
    for name in GAINS:
        assert repr(name) in msg


@pytest.mark.parametrize("func", [f for n, f in CALLS.items() if n not in ("cg", "all_variants")],
                         ids=[n for n in CALLS if n not in ("cg", "all_variants")])
@pytest.mark.parametrize("discount", ["Standard", "log", "", None, 2])
def test_unknown_discount_lists_registry_names(func, discount):
    msg = raises(func, [3, 2, 1], discount=discount)
    assert "discount" in msg and repr(discount)[:10] in msg
    for name in DISCOUNTS:
        assert repr(name) in msg


def test_all_variants_unknown_names():
    msg = raises(all_variants, [3, 2, 1], gains=["linear", "nope"])
    assert "'nope'" in msg and all(repr(n) in msg for n in GAINS)
    msg = raises(all_variants, [3, 2, 1], discounts=["nope"])
    assert "'nope'" in msg and all(repr(n) in msg for n in DISCOUNTS)


@pytest.mark.parametrize("ties", ["Average", "random", "", None, 0])
def test_unknown_ties_lists_registry_names(ties):
    for func in (lambda: ndcg_from_scores([3, 2], [1, 1], ties=ties),
                 lambda: rank_by_scores([3, 2], [1, 1], ties=ties)):
        msg = raises(func)
        assert "ties" in msg and repr(ties)[:10] in msg
        for name in TIES:
            assert repr(name) in msg


def test_check_choice_builds_list_from_the_mapping():
    msg = raises(check_choice, "z", {"a": 1, "b": 2}, name="thing")
    assert msg == "unknown thing 'z'; valid names are 'a', 'b'"
    assert check_choice("b", {"a": 1, "b": 2}, name="thing") == 2


# --------------------------------------------------------------------------------------------
# scores, docnos, pools
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scores,words", [
    ([1, 2], ["2 values", "relevances has 3", "same length"]),
    ([1, 2, 3, 4], ["4 values", "relevances has 3"]),
    ([1, "a", 3], ["scores at position 2", "'a'", "not a number"]),
    ([1, float("nan"), 3], ["scores at position 2", "nan", "finite"]),
    ([1, 2, float("inf")], ["scores at position 3", "inf"]),
    ([1, True, 3], ["scores at position 2", "boolean"]),
    ([1, 10**400, 3], ["scores at position 2", "too large"]),
    ("abc", ["scores", "sequence of numbers"]),
    (None, ["scores", "sequence of numbers"]),
])
def test_bad_scores(scores, words):
    msg = raises(ndcg_from_scores, [3, 2, 1], scores)
    for word in words:
        assert word in msg, (word, msg)


def test_negative_scores_are_fine():
    # scores have any sign; -1 > -2: grades 1, 3 ranked 1 then 3
    assert ndcg_from_scores([1, 3], [-1, -2]) == ndcg([1, 3])
    assert as_scores([-1.5, 0], n=2).tolist() == [-1.5, 0.0]


@pytest.mark.parametrize("docnos,words", [
    (None, ["docnos"]),
    ("abc", ["docnos"]),
    (5, ["docnos", "5"]),
    (["a"], ["docnos has 1", "relevances has 2"]),
    (["a", "b", "c"], ["docnos has 3"]),
])
def test_bad_docnos(docnos, words):
    msg = raises(ndcg_from_scores, [3, 2], [1, 1], ties="trec_eval", docnos=docnos)
    for word in words:
        assert word in msg, (word, msg)


@pytest.mark.parametrize("func", [idcg, ndcg, breakdown, ideal_ranking, all_variants])
def test_pool_that_cannot_contain_the_list(func):
    # the list has two 3s, the pool one: the pool must hold every judged grade of the list
    msg = raises(func, [3, 3, 1], pool=[3, 1, 0])
    assert "pool has 1 item(s) of grade 3" in msg and "relevances has 2" in msg
    # a grade the pool lacks entirely
    msg = raises(func, [2.5], pool=[3])
    assert "grade 2.5" in msg and "pool has 0" in msg
    # bad pool items are named with their position in the pool
    msg = raises(func, [1], pool=[1, -2])
    assert msg.startswith("pool at position 2")
    assert "pool is empty" in raises(func, [0], pool=[])
    assert "pool must be a sequence" in raises(func, [1], pool="1 2")


def test_ndcg_from_scores_pool_checked_too():
    assert "pool has 0" in raises(ndcg_from_scores, [2, 1], [1, 0], pool=[1])


# --------------------------------------------------------------------------------------------
# custom callables
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("gain", [
    lambda r: "x",
    lambda r: r[:1],  # wrong shape
    lambda r: r * np.nan,
    lambda r: r * np.inf,
    lambda r: 1 / (r - r),  # division by zero -> inf/nan (numpy) is not finite
    lambda r, extra: r,  # wrong signature -> TypeError inside
])
def test_bad_custom_gain(gain):
    with np.errstate(all="ignore"):
        msg = raises(dcg, [3, 2, 1], gain=gain)
    assert "custom gain" in msg


@pytest.mark.parametrize("discount", [
    lambda p, b: p * 0.0,  # zero divisors
    lambda p, b: -np.asarray(p, dtype=float),  # negative
    lambda p, b: p[:1],  # wrong shape
    lambda p: p,  # wrong signature
    lambda p, b: "x",
])
def test_bad_custom_discount(discount):
    msg = raises(dcg, [3, 2, 1], discount=discount)
    assert "custom discount" in msg
    assert "divisor > 0" in msg or "failed" in msg


# --------------------------------------------------------------------------------------------
# overflow (regressions: these raised OverflowError or returned inf/nan)
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: ndcg([10**400, 1]),  # float(10**400) -> OverflowError
    lambda: ndcg([Fraction(10**400, 1), 1]),
    lambda: ndcg([1, 2], log_base=10**400),
    lambda: ndcg_from_scores([1, 2], [10**400, 1]),
    lambda: cg([1e308, 1e308, 1e308]),  # math.fsum -> OverflowError
    lambda: breakdown([1e308, 1e308, 1e308]),
    lambda: dcg([1e308, 1e308, 1e308]),
    lambda: ndcg([1100, 1], gain="exponential"),  # 2^1100 = inf -> nan
    lambda: dcg([1100, 1], gain="exponential"),  # inf
    lambda: idcg([1, 1100], gain="exponential"),
    lambda: cg([1100], gain="exponential"),
    lambda: ndcg_from_scores([1100, 1], [1, 1], gain="exponential"),
    lambda: ndcg_from_scores([1e308, 1e308], [1, 1]),  # tie-average: mean overflows
    lambda: dcg([1e306], log_base=1e300),  # 1e306 / log_1e300(2) > max float
    lambda: ndcg_from_scores([1, 2], [1, 1], ties="trec_eval", docnos=5),  # was TypeError
], ids=["hugeint", "hugefraction", "hugebase", "hugescore", "cg_fsum", "breakdown_fsum", "dcg_fsum",
        "exp_ndcg", "exp_dcg", "exp_idcg", "exp_cg", "exp_scores", "tie_mean", "tiny_divisor",
        "docnos_int"])
def test_regression_overflow_and_types_raise_valueerror(call):
    with np.errstate(all="raise"):  # and no numpy warning escapes either
        raises(call)


def test_overflow_message_names_position():
    msg = raises(dcg, [1, 1100], gain="exponential")
    assert "position 2" in msg and "1100" in msg and "overflows" in msg


def test_large_but_finite_grades_still_work():
    # 2^1000 - 1 is finite: NDCG of the perfect ranking is 1
    assert ndcg([1000, 999], gain="exponential") == 1.0
    assert ndcg([1e300, 0, 1e300]) == pytest.approx((1e300 + 1e300 / 2) / (1e300 + 1e300 / math.log2(3)))


# --------------------------------------------------------------------------------------------
# fuzzing
# --------------------------------------------------------------------------------------------
anything = st.one_of(
    st.integers(), st.floats(), st.text(max_size=5), st.booleans(), st.none(), st.binary(max_size=3),
    st.fractions(), st.decimals(), st.complex_numbers(), st.lists(st.integers(), max_size=2),
    st.just(float("nan")), st.just(10**400),
)
numbers_or_junk = st.one_of(st.integers(0, 5), st.floats(0, 5), anything)


def _ok_or_valueerror(call):
    """The call returns a float in [0, 1] (for NDCG), or raises ValueError: nothing else."""
    try:
        return call()
    except ValueError:
        return None


@FUZZ
@given(st.one_of(st.lists(numbers_or_junk, max_size=6), anything, st.text(), st.dictionaries(st.text(), st.integers())))
def test_fuzz_relevances(values):
    with np.errstate(all="ignore"):
        for name, func in CALLS.items():
            out = _ok_or_valueerror(lambda func=func: func(values))
            if out is not None and name in ("ndcg", "ndcg_from_scores"):
                assert 0.0 <= out <= 1.0 + 1e-12


@FUZZ
@given(st.lists(st.integers(0, 4), min_size=1, max_size=5), numbers_or_junk | st.none(), anything,
       st.one_of(st.sampled_from(list(GAINS)), anything), st.one_of(st.sampled_from(list(DISCOUNTS)), anything),
       st.one_of(st.none(), st.lists(numbers_or_junk, max_size=8), anything))
def test_fuzz_options(rel, k, log_base, gain, discount, pool):
    with np.errstate(all="ignore"):
        for func in (dcg, idcg, ndcg, breakdown):
            kw = dict(k=k, log_base=log_base, gain=gain, discount=discount)
            if func is not dcg:
                kw["pool"] = pool
            out = _ok_or_valueerror(lambda func=func, kw=kw: func(rel, **kw))
            if out is not None and func is ndcg:
                assert 0.0 <= out <= 1.0 + 1e-12


@FUZZ
@given(st.lists(st.integers(0, 4), min_size=1, max_size=5), st.one_of(st.lists(numbers_or_junk, max_size=6), anything),
       st.one_of(st.sampled_from(list(TIES)), anything), st.one_of(st.none(), st.lists(anything, max_size=6), anything))
def test_fuzz_scores_ties_docnos(rel, scores, ties, docnos):
    with np.errstate(all="ignore"):
        out = _ok_or_valueerror(lambda: ndcg_from_scores(rel, scores, ties=ties, docnos=docnos))
        if out is not None:
            assert 0.0 <= out <= 1.0 + 1e-12
        _ok_or_valueerror(lambda: rank_by_scores(rel, scores, ties=ties, docnos=docnos))


@PROPERTY
@given(st.lists(st.floats(min_value=0, max_value=1e308), min_size=1, max_size=6),
       st.sampled_from(list(GAINS)), st.sampled_from(list(DISCOUNTS)),
       st.floats(min_value=1e-300, max_value=1e300).filter(lambda b: b != 1))
def test_fuzz_extreme_but_valid_numbers(rel, gain, discount, base):
    # huge grades and extreme bases: a finite NDCG in [0, 1] or a ValueError (overflow), never
    # inf/nan or OverflowError
    with np.errstate(all="ignore"):
        for func in (dcg, idcg, ndcg, cg, breakdown):
            kw = {} if func is cg else dict(discount=discount, log_base=base)
            out = _ok_or_valueerror(lambda func=func, kw=kw: func(rel, gain=gain, **kw))
            if isinstance(out, float):
                assert math.isfinite(out)
                if func is ndcg:
                    assert 0.0 <= out <= 1.0 + 1e-12
            elif isinstance(out, pd.DataFrame):
                assert np.isfinite(out[["dcg", "idcg", "ndcg"]].to_numpy()).all()


def test_unordered_set_is_refused():
    # A ranking needs an order; a set has none.
    import metrics

    with pytest.raises(ValueError, match="unordered set"):
        metrics.ndcg({3, 2, 1})
