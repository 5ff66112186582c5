"""CG / DCG / IDCG / NDCG: hand-derived values (documents 000-004), variants, invariants, properties.

Every expected value is written out from the formula (``3 + 2 / log2(3) + ...``), never obtained
from the function under test.  Position i is 1-based; the standard divisor is log_b(i + 1), the
Järvelin-Kekäläinen divisor max(1, log_b(i)).
"""
from __future__ import annotations

import itertools
import math
from math import log, log2, log10

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

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
from tests.conftest import examples
from tests.metrics.conftest import PROPERTY, RTOL, any_grades, close, float_grades, int_grades, ks, log_bases

approx = lambda x: pytest.approx(x, rel=RTOL, abs=0)  # noqa: E731


# --------------------------------------------------------------------------------------------
# Document 000: results 3, 2, 1, 3, 2 (Good=3, Fair=2, Bad=1)
# --------------------------------------------------------------------------------------------
DOC000 = [3, 2, 1, 3, 2]
# Document 000's first formula: DCG = rel_1 + sum_{i>=2} rel_i / log2(i)  (= Järvelin, base 2,
# since max(1, log2 1) = max(1, log2 2) = 1):
DOC000_DCG_JK = 3 + 2 / log2(2) + 1 / log2(3) + 3 / log2(4) + 2 / log2(5)  # 3+2+0.63+1.5+0.86 = 7.9923
# ideal order 3, 3, 2, 2, 1 under the same discount: 3 + 3 + 1.26 + 1 + 0.43
DOC000_IDCG_JK = 3 + 3 / log2(2) + 2 / log2(3) + 2 / log2(4) + 1 / log2(5)  # 8.6925
# standard linear: sum rel_i / log2(i + 1) = 3 + 1.26 + 0.5 + 1.29 + 0.77
DOC000_DCG_STD = 3 / log2(2) + 2 / log2(3) + 1 / log2(4) + 3 / log2(5) + 2 / log2(6)  # 6.82759


def test_doc000_jarvelin_dcg_idcg_ndcg():
    assert dcg(DOC000, discount="jarvelin") == approx(DOC000_DCG_JK)
    assert idcg(DOC000, discount="jarvelin") == approx(DOC000_IDCG_JK)
    assert ndcg(DOC000, discount="jarvelin") == approx(DOC000_DCG_JK / DOC000_IDCG_JK)
    # the four-decimal values quoted in the issue
    assert round(DOC000_DCG_JK, 4) == 7.9923
    assert round(DOC000_IDCG_JK, 4) == 8.6925
    assert round(DOC000_DCG_JK / DOC000_IDCG_JK, 5) == 0.91944


def test_doc000_document_values_are_truncations():
    # The document prints 7.99, 8.69 and nDCG "0.91": 7.99/8.69 = 0.9194..., which the document
    # truncates to 0.91 (rounded it would be 0.92).  Exact: 0.91944.
    exact = ndcg(DOC000, discount="jarvelin")
    assert math.floor(exact * 100) / 100 == 0.91
    assert round(exact, 2) == 0.92
    assert math.floor(dcg(DOC000, discount="jarvelin") * 100) / 100 == 7.99
    assert math.floor(idcg(DOC000, discount="jarvelin") * 100) / 100 == 8.69


def test_doc000_standard_linear_dcg():
    # Document 000 labels its second formula (2^rel - 1)/log2(1 + i) but its numbers
    # 3 + 1.26 + 0.5 + 1.29 + 0.77 and its code r / log2(i + 1) are the *linear* gain.
    # Exact value 6.827595 (4 d.p.: 6.8276; the "6.8278" is a typo); the document's 6.82 is
    # a truncation.
    assert dcg(DOC000) == approx(DOC000_DCG_STD)
    assert round(DOC000_DCG_STD, 4) == 6.8276
    assert math.floor(dcg(DOC000) * 100) / 100 == 6.82
    # The formula it names would give a different number:
    # (2^3-1)/1 + (2^2-1)/log2 3 + (2-1)/2 + 7/log2 5 + 3/log2 6 = 13.568
    expo = 7 / log2(2) + 3 / log2(3) + 1 / log2(4) + 7 / log2(5) + 3 / log2(6)
    assert dcg(DOC000, gain="exponential") == approx(expo)


def test_doc000_cg():
    # CG = 3 + 2 + 1 + 3 + 2 = 11 for both orders in the document; CG ignores order.
    assert cg(DOC000) == 11.0
    assert cg([3, 3, 2, 2, 1]) == 11.0
    # exponential CG@2: (2^3 - 1) + (2^2 - 1) = 10
    assert cg(DOC000, k=2, gain="exponential") == 10.0


@pytest.mark.parametrize("gain", ["linear", "binary", "exponential"])
def test_doc000_binary_hits(gain):
    # [1, 0, 0, 1, 0], Järvelin discount base 2: DCG = 1 + 1/log2(4) = 1.5;
    # ideal [1, 1, 0, 0, 0]: IDCG = 1 + 1/max(1, log2 2) = 2; nDCG = 1.5 / 2 = 0.75 (document: 0.75).
    # For 0/1 grades every gain (rel, [rel > 0], 2^rel - 1) is the same.
    assert dcg([1, 0, 0, 1, 0], discount="jarvelin", gain=gain) == 1.5
    assert idcg([1, 0, 0, 1, 0], discount="jarvelin", gain=gain) == 2.0
    assert ndcg([1, 0, 0, 1, 0], discount="jarvelin", gain=gain) == 0.75


# --------------------------------------------------------------------------------------------
# Documents 001 and 003: 3, 2, 3, 0, 1, 2 retrieved; 8 judged items (two more: grades 3 and 0)
# --------------------------------------------------------------------------------------------
WIKI = [3, 2, 3, 0, 1, 2]
WIKI_POOL = WIKI + [3, 0]
WIKI_DCG = 3 / log2(2) + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6) + 2 / log2(7)  # 6.8611
# ideal over all 8 judged: 3, 3, 3, 2, 2, 1, 0, 0; IDCG@6 keeps the first six
WIKI_IDCG_POOL6 = 3 / log2(2) + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6) + 1 / log2(7)  # 8.3841
# ideal from the list itself (document 002): 3, 3, 2, 2, 1, 0
WIKI_IDCG_LIST = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6) + 0 / log2(7)  # 7.1410


def test_doc001_003_pool_k6():
    assert dcg(WIKI, k=6) == approx(WIKI_DCG)
    assert idcg(WIKI, k=6, pool=WIKI_POOL) == approx(WIKI_IDCG_POOL6)
    assert ndcg(WIKI, k=6, pool=WIKI_POOL) == approx(WIKI_DCG / WIKI_IDCG_POOL6)
    assert (round(WIKI_DCG, 4), round(WIKI_IDCG_POOL6, 4), round(WIKI_DCG / WIKI_IDCG_POOL6, 5)) == (
        6.8611, 8.3841, 0.81835)
    # without k the ideal covers all 8 judged items; the two extra are 0s and 3 is already
    # in the top 6, so the value is the same here
    assert ndcg(WIKI, pool=WIKI_POOL) == approx(WIKI_DCG / WIKI_IDCG_POOL6)


def test_doc001_document_value_comes_from_rounded_dcg_and_idcg():
    # Document 001: "NDCG@6 = 6.86/8.38 = 81.86%": it divides the 2-d.p. roundings.
    # Exact: 81.835%.
    d, i = dcg(WIKI, k=6), idcg(WIKI, k=6, pool=WIKI_POOL)
    assert round(round(d, 2) / round(i, 2) * 100, 2) == 81.86
    assert round(d / i * 100, 2) == 81.84


def test_doc003_document_value_comes_from_truncated_terms():
    # Document 003 sums the ideal terms cut to 2 decimals: 3 + 1.89 + 1.5 + 0.86 + 0.77 + 0.35
    # = 8.37 (1/log2 7 = 0.356 is written 0.35), then 6.86/8.37 = 81.96%.
    t = breakdown(WIKI, k=6, pool=WIKI_POOL)
    truncated = [math.floor(x * 100) / 100 for x in t["ideal_discounted_gain"]]
    assert truncated == [3.0, 1.89, 1.5, 0.86, 0.77, 0.35]
    assert round(math.fsum(truncated), 2) == 8.37
    assert round(6.86 / 8.37 * 100, 2) == 81.96


def test_doc001_book_example():
    # Book table in document 001: grades 1, 1, 2, 0; ideal 2, 1, 1, 0.
    # linear:      DCG = 1 + 1/log2 3 + 2/2 + 0 = 2.6309;  IDCG = 2 + 1/log2 3 + 1/2 = 3.1309
    # exponential: DCG = 1 + 1/log2 3 + 3/2 + 0 = 3.1309;  IDCG = 3 + 1/log2 3 + 1/2 = 4.1309
    rel = [1, 1, 2, 0]
    lin_d, lin_i = 1 + 1 / log2(3) + 2 / 2, 2 + 1 / log2(3) + 1 / 2
    exp_d, exp_i = 1 + 1 / log2(3) + 3 / 2, 3 + 1 / log2(3) + 1 / 2
    assert dcg(rel) == approx(lin_d) and idcg(rel) == approx(lin_i)
    assert dcg(rel, gain="exponential") == approx(exp_d) and idcg(rel, gain="exponential") == approx(exp_i)
    assert ndcg(rel) == approx(lin_d / lin_i)
    assert ndcg(rel, gain="exponential") == approx(exp_d / exp_i)
    assert (round(lin_d / lin_i, 5), round(exp_d / exp_i, 5)) == (0.84030, 0.75792)
    # the document's percentages 84.03 and 75.79
    assert (round(ndcg(rel) * 100, 2), round(ndcg(rel, gain="exponential") * 100, 2)) == (84.03, 75.79)


def test_doc002_idcg_from_list():
    # Document 002 (Wikipedia): IDCG from the list re-sorted 3, 3, 2, 2, 1, 0 = 7.141; NDCG 0.961
    assert idcg(WIKI) == approx(WIKI_IDCG_LIST)
    assert ndcg(WIKI) == approx(WIKI_DCG / WIKI_IDCG_LIST)
    assert (round(WIKI_IDCG_LIST, 4), round(WIKI_DCG / WIKI_IDCG_LIST, 5)) == (7.141, 0.96081)
    assert ideal_ranking(WIKI).tolist() == [3, 3, 2, 2, 1, 0]
    assert round(ndcg(WIKI), 3) == 0.961


# --------------------------------------------------------------------------------------------
# Document 004: A=3, B=3, C=2, D=2, E=1, F=1, G=0; two systems recommend 5 items each
# --------------------------------------------------------------------------------------------
POOL004 = [3, 3, 2, 2, 1, 1, 0]
# ideal gain vector 3, 3, 2, 2, 1 | 1, 0: IDCG@5 = 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 7.1410
IDCG004 = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)
# rec_sys_1 = A, E, C, D, F -> 3, 1, 2, 2, 1: 3 + 1/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 5.8791
DCG004_1 = 3 / log2(2) + 1 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6)
# rec_sys_2 = A, B, C, G, E -> 3, 3, 2, 0, 1: 3 + 3/log2 3 + 2/2 + 0 + 1/log2 6 = 6.2796
DCG004_2 = 3 / log2(2) + 3 / log2(3) + 2 / log2(4) + 0 / log2(5) + 1 / log2(6)


def test_doc004_two_systems_against_ground_truth():
    assert idcg([3, 1, 2, 2, 1], k=5, pool=POOL004) == approx(IDCG004)
    assert ndcg([3, 1, 2, 2, 1], k=5, pool=POOL004) == approx(DCG004_1 / IDCG004)
    assert ndcg([3, 3, 2, 0, 1], k=5, pool=POOL004) == approx(DCG004_2 / IDCG004)
    assert (round(IDCG004, 4), round(DCG004_1, 4), round(DCG004_2, 4)) == (7.141, 5.8791, 6.2796)
    assert (round(DCG004_1 / IDCG004, 5), round(DCG004_2 / IDCG004, 5)) == (0.82329, 0.87938)
    # CG 3+1+2+2+1 = 9 and 3+3+2+0+1 = 9: CG cannot tell the two systems apart, NDCG can.
    assert cg([3, 1, 2, 2, 1]) == cg([3, 3, 2, 0, 1]) == 9.0


def test_doc004_code_is_binary_gain_natural_log_pool_without_cut():
    # Document 004's code: a hit scores 1/ln(i + 1) (i 1-based); IDCG sums 1/ln(i + 1) over
    # i = 1..min(len(gt), 100), whatever the list length.  With gt = {A..F} (G has grade 0, so it is
    # not in gt) rec_sys_1 hits at all 5 positions, rec_sys_2 at positions 1, 2, 3, 5.
    h = lambda n: math.fsum(1 / log(i + 1) for i in range(1, n + 1))  # noqa: E731
    expected_1 = h(5) / h(6)
    expected_2 = (h(3) + 1 / log(6)) / h(6)
    for rel, expected in [([3, 1, 2, 2, 1], expected_1), ([3, 3, 2, 0, 1], expected_2)]:
        opts = dict(gain="binary", log_base=math.e, pool=POOL004)
        assert ndcg(rel, **opts) == approx(expected)
        assert ndcg(rel, k=100, **opts) == approx(expected)  # its cap of 100 changes nothing here
        # and the natural log cancels: same with log2
        assert ndcg(rel, gain="binary", pool=POOL004) == approx(expected)


# --------------------------------------------------------------------------------------------
# Variants: gains, discounts, bases, cut-offs, pools
# --------------------------------------------------------------------------------------------
def test_log_base_10_and_e_dcg():
    # DCG with log10: 3/log10 2 + 2/log10 3 + 1/log10 4
    assert dcg([3, 2, 1], log_base=10) == approx(3 / log10(2) + 2 / log10(3) + 1 / log10(4))
    assert dcg([3, 2, 1], log_base=math.e) == approx(3 / log(2) + 2 / log(3) + 1 / log(4))
    assert dcg([3, 2, 1], log_base=3) == approx(3 / (log(2) / log(3)) + 2 / 1 + 1 / (log(4) / log(3)))


def test_jarvelin_does_not_cancel_log_base():
    # [1, 0, 0, 1, 0]: base 2 -> DCG 1 + 1/log2 4 = 1.5, IDCG 2, NDCG 0.75 (document 000).
    # base 10: every position <= 10 has divisor max(1, log10 i) = 1: DCG = IDCG = 2 -> 1.0.
    assert ndcg([1, 0, 0, 1, 0], discount="jarvelin", log_base=2) == 0.75
    assert ndcg([1, 0, 0, 1, 0], discount="jarvelin", log_base=10) == 1.0
    # base 3 on doc 000: divisors 1, 1, 1, log3 4, log3 5
    jk3 = 3 + 2 + 1 + 3 / (log(4) / log(3)) + 2 / (log(5) / log(3))
    jk3_ideal = 3 + 3 + 2 + 2 / (log(4) / log(3)) + 1 / (log(5) / log(3))
    assert ndcg(DOC000, discount="jarvelin", log_base=3) == approx(jk3 / jk3_ideal)
    assert not close(jk3 / jk3_ideal, DOC000_DCG_JK / DOC000_IDCG_JK, 1e-3)


def test_jarvelin_base_below_two_and_below_one():
    # base 1.5: divisors max(1, log1.5 i): 1, log1.5 2 = 1.7095, log1.5 3 = 2.7095
    l15 = lambda x: log(x) / log(1.5)  # noqa: E731
    assert dcg([1, 1, 1], discount="jarvelin", log_base=1.5) == approx(1 + 1 / l15(2) + 1 / l15(3))
    # base 0.5: log_0.5(i) <= 0 for i >= 1, so every divisor is 1: DCG = CG
    assert dcg([3, 2, 1], discount="jarvelin", log_base=0.5) == 6.0


def test_exponential_gain():
    # 2^rel - 1 on 3, 2, 3, 0, 1, 2: 7, 3, 7, 0, 1, 3
    expected = 7 / log2(2) + 3 / log2(3) + 7 / log2(4) + 0 + 1 / log2(6) + 3 / log2(7)
    assert dcg(WIKI, gain="exponential") == approx(expected)
    ideal = 7 / log2(2) + 7 / log2(3) + 3 / log2(4) + 3 / log2(5) + 1 / log2(6)
    assert ndcg(WIKI, gain="exponential") == approx(expected / ideal)


def test_binary_gain_ignores_grade():
    # [rel > 0]: 3, 0, 0.5 -> 1, 0, 1: DCG = 1 + 1/log2 4; ideal 1, 1, 0: 1 + 1/log2 3
    assert dcg([3, 0, 0.5], gain="binary") == approx(1 + 1 / 2)
    assert ndcg([3, 0, 0.5], gain="binary") == approx(1.5 / (1 + 1 / log2(3)))


def test_k_cuts_dcg_and_idcg():
    # k = 2 on WIKI: DCG@2 = 3 + 2/log2 3; ideal top 2 = 3, 3: 3 + 3/log2 3
    assert dcg(WIKI, k=2) == approx(3 + 2 / log2(3))
    assert idcg(WIKI, k=2) == approx(3 + 3 / log2(3))
    assert ndcg(WIKI, k=2) == approx((3 + 2 / log2(3)) / (3 + 3 / log2(3)))
    # k = 1: 3 / 3
    assert ndcg(WIKI, k=1) == 1.0


def test_k_larger_than_list_is_fine():
    assert dcg(WIKI, k=100) == approx(WIKI_DCG)
    assert ndcg(WIKI, k=100) == approx(WIKI_DCG / WIKI_IDCG_LIST)
    # with a pool, k=100 covers the whole pool: 3,3,3,2,2,1,0,0
    assert idcg(WIKI, k=100, pool=WIKI_POOL) == approx(WIKI_IDCG_POOL6)


def test_pool_without_k_covers_whole_pool():
    # List [1], pool [1, 1, 1]: without k, IDCG = 1 + 1/log2 3 + 1/log2 4 (trec_eval `ndcg`);
    # with k = 1, IDCG@1 = 1.
    assert idcg([1], pool=[1, 1, 1]) == approx(1 + 1 / log2(3) + 1 / 2)
    assert ndcg([1], pool=[1, 1, 1]) == approx(1 / (1 + 1 / log2(3) + 1 / 2))
    assert ndcg([1], k=1, pool=[1, 1, 1]) == 1.0


def test_pool_may_omit_unjudged_zeros():
    # A retrieved but unjudged document counts as grade 0 and need not be in the pool.
    assert ndcg([0, 2], pool=[2]) == approx((2 / log2(3)) / 2)


def test_idcg_zero_gives_ndcg_zero():
    assert ndcg([0, 0, 0]) == 0.0
    assert ndcg([0, 0], pool=[0, 0, 0]) == 0.0
    assert ndcg_from_scores([0, 0], [1, 2]) == 0.0
    assert idcg([0, 0]) == 0.0
    assert breakdown([0, 0])["ndcg"].tolist() == [0.0, 0.0]


def test_accepts_numpy_and_pandas_inputs():
    expected = WIKI_DCG / WIKI_IDCG_LIST
    assert ndcg(np.array(WIKI)) == approx(expected)
    assert ndcg(pd.Series(WIKI, dtype="float64")) == approx(expected)
    assert ndcg(tuple(WIKI), k=np.int64(6)) == approx(expected)
    assert isinstance(ndcg(WIKI), float) and isinstance(dcg(WIKI), float)


def test_custom_gain_and_discount():
    # gain rel^2, discount i (so DCG = sum rel_i^2 / i): 9/1 + 4/2 + 1/3
    square = lambda r: r**2  # noqa: E731
    by_rank = lambda positions, base: np.asarray(positions, dtype=float)  # noqa: E731
    assert dcg([3, 2, 1], gain=square, discount=by_rank) == approx(9 + 4 / 2 + 1 / 3)
    assert ndcg([1, 3], gain=square, discount=by_rank) == approx((1 + 9 / 2) / (9 + 1 / 2))
    # the custom discount receives the log base
    seen = []

    def spy(positions, base):
        seen.append(base)
        return np.ones(len(positions))

    assert dcg([1, 2], discount=spy, log_base=7) == 3.0
    assert seen == [7.0]


# --------------------------------------------------------------------------------------------
# Scores and ties
# --------------------------------------------------------------------------------------------
def test_ties_hand_values():
    # grades 3, 0, 1; scores 0.5, 0.5, 0.1: items 1 and 2 tie for positions 1-2.
    rel, sc = [3, 0, 1], [0.5, 0.5, 0.1]
    ideal = 3 + 1 / log2(3)  # 3, 1, 0
    average = (3 + 0) / 2 * (1 + 1 / log2(3)) + 1 / log2(4)  # mean gain over the group's discounts
    optimistic = 3 + 0 / log2(3) + 1 / log2(4)  # 3, 0, 1
    pessimistic = 0 + 3 / log2(3) + 1 / log2(4)  # 0, 3, 1
    assert ndcg_from_scores(rel, sc) == approx(average / ideal)
    assert ndcg_from_scores(rel, sc, ties="average") == approx(average / ideal)
    assert ndcg_from_scores(rel, sc, ties="optimistic") == approx(optimistic / ideal)
    assert ndcg_from_scores(rel, sc, ties="pessimistic") == approx(pessimistic / ideal)
    assert ndcg_from_scores(rel, sc, ties="stable") == approx(optimistic / ideal)  # input order 3, 0
    # trec_eval: ties by docno descending: "b" > "a" so b comes first
    assert ndcg_from_scores(rel, sc, ties="trec_eval", docnos=["a", "b", "c"]) == approx(pessimistic / ideal)
    assert ndcg_from_scores(rel, sc, ties="trec_eval", docnos=["b", "a", "c"]) == approx(optimistic / ideal)
    # 2 d.p. shown in the docstring: 0.8115 and 0.659
    assert (round(average / ideal, 4), round(pessimistic / ideal, 4)) == (0.8115, 0.659)


def test_trec_eval_docno_order_is_bytewise_not_numeric():
    # "d10" < "d9" as strings, so with equal scores d9 comes first (trec_eval uses strcmp).
    order = rank_by_scores([1, 2], [0.0, 0.0], ties="trec_eval", docnos=["d10", "d9"])
    assert order.tolist() == [1, 0]
    # "B" (0x42) < "a" (0x61) bytewise: "a" first
    assert rank_by_scores([1, 2], [1, 1], ties="trec_eval", docnos=["a", "B"]).tolist() == [0, 1]


def test_ties_average_with_cut_inside_tie_group():
    # grades 2, 0, 1 all tied, k = 2: every item has mean gain 1, weights 1 and 1/log2 3 (3rd cut).
    expected_dcg = 1 * (1 + 1 / log2(3))
    assert ndcg_from_scores([2, 0, 1], [1, 1, 1], k=2) == approx(expected_dcg / (2 + 1 / log2(3)))


def test_ties_with_pool_and_exponential():
    # grades 1, 2 tied; pool adds a 3: ideal 3, 2, 1 -> gains 7, 3, 1
    avg = (1 + 3) / 2 * (1 + 1 / log2(3))
    ideal = 7 + 3 / log2(3) + 1 / 2
    assert ndcg_from_scores([1, 2], [5, 5], gain="exponential", pool=[1, 2, 3]) == approx(avg / ideal)


def _tie_orders(scores):
    """Every order consistent with descending scores (all permutations inside tied groups)."""
    sc = np.asarray(scores, dtype=float)
    groups = [list(np.flatnonzero(sc == v)) for v in sorted(set(sc.tolist()), reverse=True)]
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [i for part in parts for i in part]


@PROPERTY
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=1, max_size=6), ks,
       st.sampled_from(["linear", "exponential"]), st.sampled_from(["standard", "jarvelin"]))
def test_average_ties_is_mean_over_all_tie_orders(items, k, gain, discount):
    # McSherry & Najork: averaging the gain within a tie equals averaging DCG over every order of
    # the tied items (IDCG does not depend on the order, so the same holds for NDCG).
    rel = [r for r, _ in items]
    sc = [s for _, s in items]
    values = [ndcg([rel[i] for i in order], k=k, gain=gain, discount=discount) for order in _tie_orders(sc)]
    got = ndcg_from_scores(rel, sc, k=k, gain=gain, discount=discount)
    assert math.isclose(got, math.fsum(values) / len(values), rel_tol=1e-12, abs_tol=1e-15)
    assert min(values) - 1e-12 <= got <= max(values) + 1e-12
    opts = dict(k=k, gain=gain, discount=discount)
    assert ndcg_from_scores(rel, sc, ties="optimistic", **opts) == pytest.approx(max(values), rel=1e-12, abs=1e-15)
    assert ndcg_from_scores(rel, sc, ties="pessimistic", **opts) == pytest.approx(min(values), rel=1e-12, abs=1e-15)


@PROPERTY
@given(st.lists(st.tuples(st.integers(0, 4), st.floats(-5, 5, allow_nan=False)), min_size=1, max_size=10,
                unique_by=lambda t: t[1]), ks)
def test_without_ties_every_rule_agrees(items, k):
    rel = [r for r, _ in items]
    sc = [s for _, s in items]
    order = np.argsort(-np.asarray(sc))
    expected = ndcg([rel[i] for i in order], k=k)
    docnos = [f"d{i}" for i in range(len(rel))]
    for rule in ["average", "optimistic", "pessimistic", "stable", "trec_eval"]:
        got = ndcg_from_scores(rel, sc, k=k, ties=rule, docnos=docnos)
        assert math.isclose(got, expected, rel_tol=1e-12, abs_tol=1e-15), rule


@PROPERTY
@given(int_grades, ks)
def test_scoring_by_the_grades_is_perfect(rel, k):
    assume(any(rel))
    for rule in ["average", "optimistic", "pessimistic", "stable"]:
        assert ndcg_from_scores(rel, rel, k=k, ties=rule) == pytest.approx(1.0, rel=1e-12), rule


# --------------------------------------------------------------------------------------------
# breakdown
# --------------------------------------------------------------------------------------------
COLUMNS = ["position", "relevance", "gain", "discount", "discounted_gain", "dcg", "ideal_relevance",
           "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg"]


def test_breakdown_doc000_table():
    t = breakdown(DOC000, discount="jarvelin")
    assert list(t.columns) == COLUMNS
    assert t["position"].tolist() == [1, 2, 3, 4, 5]
    assert t["relevance"].tolist() == DOC000
    assert t["ideal_relevance"].tolist() == [3, 3, 2, 2, 1]
    # divisors max(1, log2 i): 1, 1, log2 3, 2, log2 5
    assert t["discount"].tolist() == approx([1, 1, log2(3), 2, log2(5)])
    assert t["discounted_gain"].tolist() == approx([3, 2, 1 / log2(3), 1.5, 2 / log2(5)])
    # running sums: 3, 5, 5.63, 7.13, 7.99
    assert t["dcg"].tolist() == approx([3, 5, 5 + 1 / log2(3), 6.5 + 1 / log2(3), DOC000_DCG_JK])
    assert t["idcg"].iloc[-1] == approx(DOC000_IDCG_JK)
    # running ndcg at 1: 3/3; at 2: 5/6
    assert t["ndcg"].iloc[0] == 1.0 and t["ndcg"].iloc[1] == approx(5 / 6)


def test_breakdown_with_longer_pool_pads_the_list():
    # list [1] (1 row), pool [1, 1, 1]: three rows; rows 2-3 have no relevance and keep DCG = 1
    t = breakdown([1], pool=[1, 1, 1])
    assert len(t) == 3
    assert t["relevance"].isna().tolist() == [False, True, True]
    assert t["dcg"].tolist() == [1.0, 1.0, 1.0]
    assert t["idcg"].tolist() == approx([1, 1 + 1 / log2(3), 1 + 1 / log2(3) + 1 / 2])
    assert t["ndcg"].iloc[-1] == approx(ndcg([1], pool=[1, 1, 1]))


def test_breakdown_k():
    t = breakdown(WIKI, k=3, pool=WIKI_POOL)
    assert len(t) == 3
    assert t["ideal_relevance"].tolist() == [3, 3, 3]


@PROPERTY
@given(any_grades, ks, st.sampled_from(["linear", "exponential", "binary"]),
       st.sampled_from(["standard", "jarvelin"]), log_bases)
def test_breakdown_agrees_with_functions(rel, k, gain, discount, base):
    opts = dict(k=k, gain=gain, discount=discount, log_base=base)
    t = breakdown(rel, **opts)
    n = len(rel) if k is None else min(k, len(rel))
    assert len(t) == n  # one row per position (no pool: the ideal has the list's length)
    assert t["position"].tolist() == list(range(1, n + 1))
    assert math.isclose(t["dcg"].iloc[-1], dcg(rel, **opts), rel_tol=1e-12, abs_tol=0)
    assert math.isclose(t["idcg"].iloc[-1], idcg(rel, **opts), rel_tol=1e-12, abs_tol=0)
    assert math.isclose(t["ndcg"].iloc[-1], ndcg(rel, **opts), rel_tol=1e-12, abs_tol=0)
    # each row's running dcg is the DCG of the prefix: dcg(rel, k=i)
    for i in range(1, n + 1):
        assert math.isclose(t["dcg"].iloc[i - 1], dcg(rel, **{**opts, "k": i}), rel_tol=1e-12, abs_tol=1e-300)
    # discounted_gain = gain / discount row by row
    np.testing.assert_allclose(t["discounted_gain"], t["gain"] / t["discount"], rtol=1e-15)


# --------------------------------------------------------------------------------------------
# Invariants (hand examples and hypothesis properties)
# --------------------------------------------------------------------------------------------
@PROPERTY
@given(any_grades, ks, st.sampled_from(["linear", "exponential"]), st.sampled_from(["standard", "jarvelin"]),
       log_bases)
def test_perfect_ranking_is_one(rel, k, gain, discount, base):
    ideal = sorted(rel, reverse=True)
    opts = dict(k=k, gain=gain, discount=discount, log_base=base)
    # IDCG = 0 gives 0 by definition; note 2^x - 1 underflows to 0 for tiny grades (x ~ 1e-38)
    assume(idcg(ideal, **opts) != 0)
    assert ndcg(ideal, **opts) == 1.0


@PROPERTY
@given(any_grades, ks, st.sampled_from(["linear", "exponential", "binary"]),
       st.sampled_from(["standard", "jarvelin"]), log_bases)
def test_ndcg_between_0_and_1_without_pool(rel, k, gain, discount, base):
    value = ndcg(rel, k=k, gain=gain, discount=discount, log_base=base)
    # Exact for integer grades; for float grades the terms are rounded independently, so DCG may
    # exceed IDCG by an ulp when two nearly equal grades are swapped.
    assert 0.0 <= value <= 1.0 + 1e-12


@PROPERTY
@given(int_grades, st.lists(st.integers(0, 4), max_size=8), ks,
       st.sampled_from(["linear", "exponential"]), st.sampled_from(["standard", "jarvelin"]))
def test_ndcg_between_0_and_1_with_pool(rel, extra, k, gain, discount):
    pool = rel + extra  # the judged items: the list's own plus unretrieved ones
    value = ndcg(rel, k=k, pool=pool, gain=gain, discount=discount)
    assert 0.0 <= value <= 1.0
    # a pool can only raise the ideal: NDCG with a pool <= NDCG without
    assert value <= ndcg(rel, k=k, gain=gain, discount=discount) + 1e-15


@PROPERTY
@given(any_grades, ks, st.sampled_from(["linear", "exponential"]), log_bases)
def test_log_base_cancels_in_ndcg_for_standard_discount(rel, k, gain, base):
    # log_b(x) = ln(x)/ln(b): every divisor scales by 1/ln(b), DCG and IDCG alike.
    assert math.isclose(ndcg(rel, k=k, gain=gain, log_base=base), ndcg(rel, k=k, gain=gain),
                        rel_tol=1e-12, abs_tol=0)
    # but not in DCG: DCG_b = DCG_2 * ln(b)/ln(2).  Subnormal DCGs (grades like 5e-324) carry too few
    # significant bits for a relative comparison: compare those absolutely.
    d2 = dcg(rel, k=k, gain=gain)
    assert math.isclose(dcg(rel, k=k, gain=gain, log_base=base), d2 * log(base) / log(2), rel_tol=1e-12,
                        abs_tol=1e-300)


def test_log_base_scales_dcg_by_hand():
    # DCG_10 = sum rel/log10(i+1) = DCG_2 * ln 10 / ln 2 = DCG_2 * log2(10)
    assert dcg(WIKI, log_base=10) == approx(WIKI_DCG * log2(10))


@PROPERTY
@given(st.lists(st.integers(0, 1), min_size=1, max_size=12), ks, st.sampled_from(["standard", "jarvelin"]), log_bases)
def test_binary_grades_make_gains_equal(rel, k, discount, base):
    # for rel in {0, 1}: rel == 2^rel - 1 == [rel > 0]
    opts = dict(k=k, discount=discount, log_base=base)
    lin = dcg(rel, gain="linear", **opts)
    assert dcg(rel, gain="exponential", **opts) == lin
    assert dcg(rel, gain="binary", **opts) == lin
    assert ndcg(rel, gain="exponential", **opts) == ndcg(rel, gain="linear", **opts)


@PROPERTY
@given(any_grades, st.integers(0, 10), st.sampled_from(["linear", "exponential"]),
       st.sampled_from(["standard", "jarvelin"]))
def test_k_at_least_length_equals_no_k(rel, extra, gain, discount):
    k = len(rel) + extra
    opts = dict(gain=gain, discount=discount)
    assert dcg(rel, k=k, **opts) == dcg(rel, **opts)
    assert idcg(rel, k=k, **opts) == idcg(rel, **opts)
    assert ndcg(rel, k=k, **opts) == ndcg(rel, **opts)


@PROPERTY
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=8), st.data(), ks,
       st.sampled_from(["linear", "exponential"]), st.sampled_from(["standard", "jarvelin"]))
def test_swapping_items_of_equal_grade_changes_nothing(items, data, k, gain, discount):
    # Items i and j have the same grade; exchanging their scores exchanges their places, so the
    # ranked grade sequence -- and DCG/NDCG -- is unchanged for every order-free tie rule
    # (average, optimistic, pessimistic).  Scores have ties on purpose.
    rel = [r for r, _ in items]
    sc = [s for _, s in items]
    i = data.draw(st.integers(0, len(rel) - 1))
    same = [j for j in range(len(rel)) if j != i and rel[j] == rel[i]]
    assume(same)
    j = data.draw(st.sampled_from(same))
    swapped = list(sc)
    swapped[i], swapped[j] = sc[j], sc[i]
    opts = dict(k=k, gain=gain, discount=discount)
    for rule in ["average", "optimistic", "pessimistic"]:
        before = ndcg_from_scores(rel, sc, ties=rule, **opts)
        assert math.isclose(ndcg_from_scores(rel, swapped, ties=rule, **opts), before, rel_tol=1e-12, abs_tol=0)
    # and the items' input order does not matter to these rules either
    perm = data.draw(st.permutations(range(len(rel))))
    for rule in ["average", "optimistic", "pessimistic"]:
        before = ndcg_from_scores(rel, sc, ties=rule, **opts)
        after = ndcg_from_scores([rel[p] for p in perm], [sc[p] for p in perm], ties=rule, **opts)
        assert math.isclose(after, before, rel_tol=1e-12, abs_tol=0)


@PROPERTY
@given(any_grades, st.randoms(use_true_random=False), ks, st.sampled_from(["linear", "exponential"]))
def test_idcg_is_invariant_to_the_order_of_the_list(rel, rnd, k, gain):
    shuffled = list(rel)
    rnd.shuffle(shuffled)
    assert idcg(shuffled, k=k, gain=gain) == idcg(rel, k=k, gain=gain)
    assert idcg(shuffled, k=k, gain=gain, pool=rel + [1]) == idcg(rel, k=k, gain=gain, pool=rel + [1])


@PROPERTY
@given(any_grades, st.data(), ks, st.sampled_from(["linear", "exponential", "binary"]),
       st.sampled_from(["standard", "jarvelin"]), log_bases)
def test_moving_a_higher_grade_earlier_never_lowers_dcg(rel, data, k, gain, discount, base):
    assume(len(rel) >= 2)
    i = data.draw(st.integers(0, len(rel) - 2))
    j = data.draw(st.integers(i + 1, len(rel) - 1))
    assume(rel[j] > rel[i])
    swapped = list(rel)
    swapped[i], swapped[j] = rel[j], rel[i]
    opts = dict(k=k, gain=gain, discount=discount, log_base=base)
    before, after = dcg(rel, **opts), dcg(swapped, **opts)
    # The exact change is (g_j - g_i)(1/d_i - 1/d_j) >= 0 when divisors grow with the position
    # (base > 1); allow for the independent rounding of terms.  For a base < 1 the standard
    # divisors are negative (DCG scales by 1/ln b < 0) so DCG *falls*, but NDCG still rises.
    if base > 1:
        assert after >= before - 1e-12 * abs(after)
    assert ndcg(swapped, **opts) >= ndcg(rel, **opts) - 1e-12


def test_moving_a_higher_grade_earlier_hand_example():
    # [1, 3] -> [3, 1]: 1 + 3/log2 3 = 2.893 < 3 + 1/log2 3 = 3.631
    assert dcg([1, 3]) == approx(1 + 3 / log2(3))
    assert dcg([3, 1]) == approx(3 + 1 / log2(3))
    assert dcg([3, 1]) > dcg([1, 3])


@PROPERTY
@given(float_grades, ks)
def test_dcg_idcg_ordering(rel, k):
    # DCG <= IDCG; IDCG with a pool >= IDCG without; CG >= DCG for the standard base-2 discount
    # (every divisor log2(i + 1) >= 1).
    assert dcg(rel, k=k) <= idcg(rel, k=k) * (1 + 1e-12)
    assert idcg(rel, k=k, pool=rel + [5.0]) >= idcg(rel, k=k)
    assert cg(rel, k=k) >= dcg(rel, k=k) * (1 - 1e-15)


# --------------------------------------------------------------------------------------------
# all_variants and ideal_ranking
# --------------------------------------------------------------------------------------------
def test_all_variants_rows_match_functions():
    t = all_variants(WIKI, k=6, pool=WIKI_POOL)
    assert len(t) == 2 * 2 * 2  # gains x discounts x IDCG sources
    for row in t.itertuples():
        pool = WIKI_POOL if row.idcg_source == "judged" else None
        opts = dict(k=6, gain=row.gain, discount=row.discount)
        assert row.dcg == dcg(WIKI, **opts)
        assert row.idcg == idcg(WIKI, pool=pool, **opts)
        assert row.ndcg == ndcg(WIKI, pool=pool, **opts)
        assert row.cg == cg(WIKI, k=6, gain=row.gain)
    row = t[(t.gain == "linear") & (t.discount == "standard") & (t.idcg_source == "judged")].iloc[0]
    assert row.ndcg == approx(WIKI_DCG / WIKI_IDCG_POOL6)


def test_ideal_ranking_pool():
    assert ideal_ranking([1, 0], pool=[0, 2, 1]).tolist() == [2, 1, 0]


def test_regression_breakdown_ndcg_with_log_base_below_one():
    # Regression: breakdown's running ndcg was 0 whenever IDCG <= 0, but a log base in (0, 1)
    # makes every standard divisor log_b(i + 1) negative, so DCG and IDCG are both negative and
    # their ratio is the usual NDCG (the base cancels).  [1]: DCG = IDCG = 1/log_0.5(2) = -1 -> 1.
    t = breakdown([1], log_base=0.5)
    assert t["dcg"].tolist() == [-1.0] and t["idcg"].tolist() == [-1.0]
    assert t["ndcg"].tolist() == [1.0]
    # [1, 3]: NDCG = (1 + 3/log2 3) / (3 + 1/log2 3), whatever the base
    assert breakdown([1, 3], log_base=0.5)["ndcg"].iloc[-1] == approx((1 + 3 / log2(3)) / (3 + 1 / log2(3)))


@pytest.mark.parametrize("grade", [1.9598890197728416, 2.5, 0.1, 3.3])
def test_regression_perfect_ranking_exactly_one_with_exponential_float_grades(grade):
    # Regression (found by hypothesis): the ideal ranking was a reversed view of a sorted array;
    # numpy computes exp2 on such a strided array with its scalar code and on the (contiguous) list
    # with SIMD code, which can differ by one ulp, so ndcg([1.9598890197728416], gain="exponential")
    # was 0.9999999999999999 instead of 1.
    assert ndcg([grade], gain="exponential") == 1.0
    assert ndcg([grade, grade / 2, 0.0], gain="exponential") == 1.0
    assert ndcg_from_scores([grade, 0.0], [2, 1], gain="exponential") == 1.0


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False),
                min_size=1, max_size=40))
def test_running_sums_are_exact_prefix_sums(values):
    # breakdown's running dcg/idcg columns come from an O(n) running exact sum; every entry
    # must equal math.fsum of its prefix (correctly rounded), as dcg()/idcg() compute it.
    import math

    from metrics.ndcg import _running_fsum

    out = _running_fsum(np.array(values))
    assert out.tolist() == [math.fsum(values[: j + 1]) for j in range(len(values))]


# ---- gain maps: the ideal ranking is sorted by gain (issue 16) ---------------------------------------

def test_gain_map_ideal_is_sorted_by_gain_not_grade():
    # grade 2 is worth 9, grade 4 only 4.5: [2, 4] is already ideal, so NDCG is 1 (it was 1.1632 when
    # the ideal was sorted by grade: (9 + 4.5/log2 3) / (4.5 + 9/log2 3)).
    assert ndcg([2, 4], gain={2: 9, 4: 4.5}) == 1.0
    # reversed: (4.5 + 9/log2 3) / (9 + 4.5/log2 3)
    assert close(ndcg([4, 2], gain={2: 9, 4: 4.5}), (4.5 + 9 / log2(3)) / (9 + 4.5 / log2(3)))
    assert idcg([4, 2], gain={2: 9, 4: 4.5}) == idcg([2, 4], gain={2: 9, 4: 4.5})


def test_gain_map_matches_trec_eval_parameters():
    # trec_eval -m ndcg.2=9,4=4.5 through pytrec_eval's extension (its Python wrapper's measure regex
    # only passes numbers, so the gain-map syntax goes to the extension directly).
    from pytrec_eval_ext import RelevanceEvaluator

    grades = [2, 1, 3, 4, 0, 2]
    qrel = {"q": {f"d{i}": g for i, g in enumerate(grades)} | {"u1": 4, "u2": 2}}
    run = {"q": {f"d{i}": float(10 - i) for i in range(len(grades))}}
    theirs = RelevanceEvaluator(query_relevance=qrel, measures={"ndcg.2=9,4=4.5"}, relevance_level=1,
                                judged_docs_only_flag=False).evaluate(run)["q"]["ndcg"]
    ours = ndcg(grades, gain={2: 9, 4: 4.5}, pool=grades + [4, 2])
    assert close(ours, theirs)


@PROPERTY
@given(int_grades, ks)
def test_increasing_gain_map_equals_the_registered_gain(rel, k):
    # a map giving every grade 0..4 its 2^g - 1 is the exponential gain
    exp_map = {g: 2.0 ** g - 1 for g in range(5)}
    assert close(ndcg(rel, k=k, gain=exp_map), ndcg(rel, k=k, gain="exponential"))


def test_negative_map_gains_do_not_enter_the_ideal():
    # trec_eval's ideal stops at the first gain <= 0 (m_ndcg.c): grade 1 -> -2 adds nothing to IDCG
    assert idcg([1, 3], gain={1: -2}) == 3.0
    assert close(ndcg([1, 3], gain={1: -2}), (-2 + 3 / log2(3)) / 3)


def test_zero_idcg_policies():
    assert ndcg([0, 0]) == 0.0 and ndcg([0, 0], zero_idcg="one") == 1.0
    assert math.isnan(ndcg([0, 0], zero_idcg="nan"))
    assert ndcg([1, 0], zero_idcg="nan") == 1.0  # only IDCG = 0 is affected
    assert ndcg_from_scores([0, 0], [1, 2], zero_idcg="one") == 1.0
    t = all_variants([0, 0], zero_idcg="nan")
    assert t["ndcg"].isna().all()
    with pytest.raises(ValueError, match="unknown zero_idcg 'skip'"):
        ndcg([1], zero_idcg="skip")


def test_ranx_tie_rule_reproduces_numba_beyond_15_items():
    # 20 tied items: numba's quicksort moves them, so the order is not the input order
    rel = [1.0] + [0.0] * 19
    stable = ndcg_from_scores(rel, [1.0] * 20, ties="stable")
    ranx = ndcg_from_scores(rel, [1.0] * 20, ties="ranx")
    assert stable == 1.0 and ranx < 1.0
    assert ndcg_from_scores(rel[:15], [1.0] * 15, ties="ranx") == 1.0  # 15 items: insertion sort, stable
