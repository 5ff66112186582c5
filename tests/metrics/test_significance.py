"""metrics.significance: hand-derived numbers, scipy / statsmodels / ranx cross-checks, brute-force
enumeration of the randomization test, Monte Carlo error, properties, validation.

Zero differences in Wilcoxon: the default ``zero_method="wilcox"`` (drop them) is Wilcoxon's own rule
and the default of scipy and R's ``wilcox.test``; "pratt" and "zsplit" are checked against scipy too.
"""
from __future__ import annotations

import math
import warnings
from itertools import product

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

from metrics import significance as sig
from metrics.significance import (
    TEACHING_EXAMPLE,
    TIE_TOLERANCE,
    all_pairs,
    bonferroni,
    bootstrap_ci,
    cohens_dz,
    correct,
    holm,
    paired_t,
    randomization,
    resample_batch,
    wilcoxon,
    winners,
)
from tests.conftest import examples

from .conftest import PROPERTY, ranx_ids

# For properties that call every test several times (scipy's Wilcoxon permutation test takes ~1 s at
# n = 12 on this shared machine): fewer examples.
HEAVY = settings(deadline=None, max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])

TINY_A = [0.5, 0.7, 0.3, 0.9]
TINY_B = [0.3, 0.4, 0.4, 0.5]  # differences 0.2, 0.3, -0.1, 0.4


def close(x, y, tol=1e-12):
    return math.isclose(float(x), float(y), rel_tol=tol, abs_tol=tol)


# Strategies: "continuous" scores (ties improbable), "discrete" grades (ties and zero differences common,
# like NDCG of short lists) and "dyadic" ones whose sums are exact in binary (floating-point ties are
# then real ties, for scipy as for us).
def _pairs(elements, min_size=2, max_size=12):
    return st.integers(min_size, max_size).flatmap(
        lambda n: st.tuples(st.lists(elements, min_size=n, max_size=n), st.lists(elements, min_size=n, max_size=n)))


continuous = _pairs(st.floats(0, 1, allow_nan=False, allow_infinity=False))
discrete = _pairs(st.sampled_from([0.0, 0.2, 0.25, 0.5, 0.6, 0.75, 1.0]))
dyadic = _pairs(st.integers(-8, 8).map(lambda k: k / 8))
any_pair = st.one_of(continuous, discrete, dyadic)


def _brute_force_p(d) -> tuple[int, float]:
    """Every sign pattern with itertools.product; sums by math.fsum; the module's documented tie rule."""
    d = [float(x) for x in d]
    n = len(d)
    observed = abs(math.fsum(d)) / n
    tol = TIE_TOLERANCE * max(abs(x) for x in d)
    count = sum(abs(math.fsum(s * x for s, x in zip(signs, d))) / n >= observed - tol
                for signs in product((1, -1), repeat=n))
    return count, count / 2**n


# ------------------------------------------------------------------------------------------------ teaching

def test_teaching_example_is_what_its_provenance_says():
    ex = TEACHING_EXAMPLE
    a, b = np.array(ex.a), np.array(ex.b)
    d = a - b
    assert len(ex.queries) == len(ex.a) == len(ex.b) == 10 and ex.systems == ("A", "B")
    assert np.all((a >= 0) & (a <= 1) & (b >= 0) & (b <= 1))
    assert np.allclose(np.round(a, 2), a, rtol=0, atol=1e-15) and np.allclose(np.round(b, 2), b, rtol=0, atol=1e-15)
    assert int((d < 0).sum()) == 7 and int((d > 0).sum()) == 3  # B beats A on 7 of 10
    assert np.unique(np.round(np.abs(d), 6)).size == 10 and np.all(d != 0)  # distinct sizes, no zero
    assert paired_t(a, b).p_value < 0.05 and randomization(a, b).p_value < 0.05 < wilcoxon(a, b).p_value
    frame = ex.frame()
    assert list(frame.columns) == ["A", "B"] and list(frame.index) == list(ex.queries)


def test_teaching_example_by_hand():
    a, b = TEACHING_EXAMPLE.a, TEACHING_EXAMPLE.b
    # d = a - b = -0.16, 0.02, -0.22, -0.06, 0.07, -0.01, -0.24, 0.03, -0.21, -0.23; sum -1.01, mean -0.101.
    t = paired_t(a, b)
    assert np.allclose(t.differences, [-0.16, 0.02, -0.22, -0.06, 0.07, -0.01, -0.24, 0.03, -0.21, -0.23])
    assert close(t.mean, -0.101)
    # squared deviations from -0.101: 0.003481 0.014641 0.014161 0.001681 0.029241 0.008281 0.019321
    # 0.017161 0.011881 0.016641 -> sum 0.13649; sd = sqrt(0.13649 / 9) = 0.1231485
    assert close(t.sd, math.sqrt(0.13649 / 9), 1e-9)
    assert close(t.t, -0.101 / (math.sqrt(0.13649 / 9) / math.sqrt(10)), 1e-9) and t.df == 9
    # Wilcoxon: sizes ranked 0.01->1, 0.02->2, 0.03->3, 0.06->4, 0.07->5, 0.16->6, 0.21->7, 0.22->8,
    # 0.23->9, 0.24->10; A wins the queries ranked 2, 5, 3: W+ = 10, W- = 55 - 10 = 45.
    w = wilcoxon(a, b)
    assert w.ranks.tolist() == [6, 2, 8, 4, 5, 1, 10, 3, 7, 9]
    assert (w.w_plus, w.w_minus, w.statistic, w.method) == (10, 45, 10, "exact")
    # Subsets of {1..10} with sum <= 10: 1,1,1,2,2,3,4,5,6,8,10 for sums 0..10 -> 43; p = 2 × 43 / 1024.
    assert w.p_value == 2 * 43 / 1024
    # Randomization: 2^10 = 1024 <= 10,000 relabellings -> exact.
    r = randomization(a, b)
    assert r.method == "exact" and r.n_resamples == 1024
    assert (r.n_extreme, r.p_value) == _brute_force_p(t.differences)


# ------------------------------------------------------------------------------------------------- t-test

def test_tiny_example_t_by_hand():
    # mean 0.2, deviations 0, 0.1, -0.3, 0.2 -> 0.14; sd sqrt(0.14/3); se sd/2; t = 0.2/se on 3 df.
    r = paired_t(TINY_A, TINY_B)
    sd = math.sqrt(0.14 / 3)
    assert close(r.mean, 0.2) and close(r.sd, sd, 1e-9) and close(r.se, sd / 2, 1e-9)
    assert close(r.t, 0.2 / (sd / 2), 1e-9) and r.df == 3
    assert close(r.p_value, 2 * stats.t.sf(0.2 / (sd / 2), 3), 1e-9)
    assert close(r.ci_low, 0.2 - stats.t.ppf(0.975, 3) * sd / 2, 1e-9)
    assert close(r.d_z, 0.2 / sd, 1e-9) and close(cohens_dz(TINY_A, TINY_B).d_z, r.d_z)
    assert close(r.d_z, r.t / math.sqrt(r.n), 1e-9)


@PROPERTY
@given(any_pair, st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_paired_t_equals_scipy(pair, confidence):
    a, b = pair
    d = np.subtract(a, b)
    assume(np.ptp(d) > 0)
    r = paired_t(a, b, confidence=confidence)
    assert math.isclose(r.t, r.mean / r.se, rel_tol=1e-9, abs_tol=1e-12)  # the hand formula
    ref = stats.ttest_rel(a, b)
    if not 2.0**-500 < np.max(np.abs(d)) < 2.0**500:
        # scipy's squares underflow (differences below ~1e-154, e.g. 2.2e-311): it says ±inf, p = 0.
        # Ours keeps the textbook value; see test_paired_t_extreme_differences.
        assert math.isfinite(r.t) and r.note == ""
        return
    ci = ref.confidence_interval(confidence_level=confidence)
    assert close(r.t, ref.statistic) and close(r.p_value, ref.pvalue) and r.df == ref.df
    assert close(r.ci_low, ci.low) and close(r.ci_high, ci.high)


def test_paired_t_extreme_differences():
    # Differences 0 and -x: mean -x/2, sd x/sqrt(2), se x/2, t = -1 on 1 df, p = 0.5, whatever x is.
    # scipy 1.x squares x = 2.225e-311 to 0 (t = -inf, p = 0) and 1e300 to inf (t = 0); ours is scale-free.
    for x in (0.5, 1e-200, 2.225073858507e-311, 1e300):
        r = paired_t([0.0, 0.0], [0.0, x])
        assert close(r.t, -1.0, 1e-9) and close(r.p_value, 0.5, 1e-9) and r.note == ""
        assert math.isclose(r.sd, x / math.sqrt(2), rel_tol=1e-9) and r.se > 0
        assert math.isclose(cohens_dz([0.0, 0.0], [0.0, x]).d_z, -1 / math.sqrt(2), rel_tol=1e-9)


def test_paired_t_degenerate():
    same = paired_t([0.1, 0.4, 0.3], [0.1, 0.4, 0.3])
    assert same.note == "identical" and math.isnan(same.t) and same.p_value == 1.0
    assert (same.ci_low, same.ci_high) == (0.0, 0.0)
    const = paired_t([0.5, 0.75, 1.0], [0.25, 0.5, 0.75])  # every difference 0.25
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = stats.ttest_rel([0.5, 0.75, 1.0], [0.25, 0.5, 0.75])
    assert const.note == "constant" and const.t == ref.statistic == math.inf and const.p_value == ref.pvalue == 0
    assert const.ci_low == const.ci_high == 0.25 and const.d_z == math.inf


def test_t_null_distribution():
    r = paired_t(TINY_A, TINY_B)
    nd = r.null_distribution()
    assert nd.kind == "density" and nd.statistic == "t" and nd.observed == (-abs(r.t), abs(r.t))
    x, y = nd.frame["x"].to_numpy(), nd.frame["density"].to_numpy()
    assert np.allclose(y, stats.t.pdf(x, 3)) and (nd.frame["extreme"] == (np.abs(x) >= abs(r.t))).all()


# ----------------------------------------------------------------------------------------------- Wilcoxon

def test_tiny_example_wilcoxon_by_hand():
    r = wilcoxon(TINY_A, TINY_B)
    assert r.ranks.tolist() == [2, 3, 1, 4] and r.signed_ranks.tolist() == [2, 3, -1, 4]
    assert (r.w_plus, r.w_minus, r.statistic) == (9, 1, 1)
    # 16 sign patterns; W+ <= 1 for {} and {1}; W+ >= 9 for {2,3,4} and {1,2,3,4}: p = 4/16.
    assert r.p_value == 0.25 and r.method == "exact"
    assert (r.n_positive, r.n_negative, r.n_zero, r.n_ranked) == (3, 1, 0, 4)


def test_wilcoxon_zero_methods_by_hand():
    # d = 0, 0.5, -0.25, 0.75, 0.5 (a zero and a tie).
    a, b = [1.0, 1.0, 0.25, 1.0, 0.75], [1.0, 0.5, 0.5, 0.25, 0.25]
    w = wilcoxon(a, b)  # drop the zero; |d| 0.5, 0.25, 0.75, 0.5 -> ranks 2.5, 1, 4, 2.5
    assert np.isnan(w.ranks[0]) and w.ranks[1:].tolist() == [2.5, 1, 4, 2.5]
    assert (w.w_plus, w.w_minus, w.n_ranked, w.has_ties, w.method) == (9, 1, 4, True, "permutation")
    p = wilcoxon(a, b, zero_method="pratt")  # rank the zero too (rank 1), then drop its rank
    assert p.ranks.tolist() == [1, 3.5, 2, 5, 3.5] and (p.w_plus, p.w_minus) == (12, 2)
    z = wilcoxon(a, b, zero_method="zsplit")  # the zero's rank 1 split: 0.5 to each side
    assert (z.w_plus, z.w_minus) == (12.5, 2.5)


@HEAVY
@given(any_pair, st.sampled_from(["wilcox", "pratt", "zsplit"]))
def test_wilcoxon_equals_scipy(pair, zero_method):
    a, b = pair
    d = np.subtract(a, b)
    assume(np.any(d != 0))
    r = wilcoxon(a, b, zero_method=zero_method)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = stats.wilcoxon(a, b, zero_method=zero_method, correction=False, method="auto")
        asym = stats.wilcoxon(a, b, zero_method=zero_method, correction=False, method="asymptotic")
        if r.method == "exact":
            by_method = stats.wilcoxon(a, b, zero_method=zero_method, correction=False, method="exact").pvalue
        elif r.method == "normal":
            by_method = asym.pvalue
        else:  # scipy's "auto" ran permutation_test over all 2^n flips; ours counted the same distribution
            assert len(a) <= 13 and (r.n_zero or r.has_ties)
            by_method = ref.pvalue
    assert close(r.statistic, ref.statistic) and close(r.p_value, ref.pvalue)
    assert close(by_method, ref.pvalue)  # our label names the method scipy's "auto" chose
    assert close(abs(r.z), abs(asym.zstatistic)) and close(2 * stats.norm.sf(abs(r.z)), asym.pvalue)
    # W+ + W- is the sum of the ranks that count: all ranked ones, except the zeros' under Pratt.
    counted = r.ranks[d != 0] if zero_method == "pratt" else r.ranks[~np.isnan(r.ranks)]
    assert close(r.w_plus + r.w_minus, counted.sum())


@HEAVY
@given(st.one_of(discrete, dyadic))
def test_wilcoxon_null_distribution_holds_the_p_value(pair):
    a, b = pair
    r = wilcoxon(a, b)
    assume(r.note == "" and r.method != "normal")
    nd = r.null_distribution()
    probs = nd.frame["probability"].to_numpy()
    assert close(probs.sum(), 1.0, 1e-9)
    assert close(probs[nd.frame["extreme"].to_numpy()].sum(), min(r.p_value, 1.0), 1e-9)


def test_wilcoxon_permutation_case_at_13_queries_equals_scipy():
    # 13 queries with ties and zeros: scipy enumerates 2^13 sign flips; we count the distribution.
    a = [0.0, 0.2, 0.5, 0.5, 1.0, 0.25, 0.75, 0.6, 0.2, 0.5, 1.0, 0.0, 0.4]
    b = [0.2, 0.2, 0.25, 0.75, 0.5, 0.0, 1.0, 0.2, 0.6, 0.25, 0.5, 0.6, 0.0]
    for zero_method in ("wilcox", "pratt", "zsplit"):
        r = wilcoxon(a, b, zero_method=zero_method)
        ref = stats.wilcoxon(a, b, zero_method=zero_method, method=stats.PermutationMethod())
        assert r.method == "permutation" and close(r.p_value, ref.pvalue) and close(r.statistic, ref.statistic)


def test_wilcoxon_identical_and_normal():
    same = wilcoxon([0.5] * 20, [0.5] * 20)
    assert same.note == "identical" and same.p_value == 1.0 and same.n_ranked == 0
    rng = np.random.default_rng(3)
    a, b = rng.random(60), rng.random(60)
    r = wilcoxon(a, b)
    assert r.method == "normal" and close(r.mean_w, 60 * 61 / 4) and close(r.sd_w, math.sqrt(60 * 61 * 121 / 24))
    assert r.null_distribution().kind == "density"


# ----------------------------------------------------------------------------------------- randomization

@PROPERTY
@given(any_pair.filter(lambda p: len(p[0]) <= 10))
def test_exact_randomization_equals_brute_force(pair):
    a, b = pair
    r = randomization(a, b)
    assert r.method == "exact" and r.n_resamples == 2 ** len(a)
    assert (r.n_extreme, r.p_value) == _brute_force_p(np.subtract(a, b))
    assert r.null_means.size == r.n_resamples and r.standard_error == 0


@PROPERTY
@given(dyadic.filter(lambda p: len(p[0]) <= 10))
def test_exact_randomization_equals_scipy_permutation_test(pair):
    # Dyadic scores: every sum is exact, so scipy's floating-point comparisons see the true ties.
    a, b = pair
    d = np.subtract(a, b)
    assume(np.any(d != 0))
    ref = stats.permutation_test((d,), lambda x, axis: np.mean(x, axis=axis), permutation_type="samples",
                                 vectorized=True, n_resamples=np.inf, alternative="two-sided")
    assert close(randomization(a, b).p_value, ref.pvalue)


def test_tiny_example_randomization_by_hand():
    r = randomization(TINY_A, TINY_B)
    assert (r.method, r.n_resamples, r.n_extreme, r.p_value) == ("exact", 16, 4, 0.25)
    # Row k flips query i when bit i of k is set: k = 0 is the observed labelling, k = 15 flips all.
    assert close(r.null_means[0], 0.2) and close(r.null_means[15], -0.2) and close(r.null_means[4], 0.25)


def test_monte_carlo_is_reproducible_and_within_standard_error():
    rng = np.random.default_rng(7)
    a = rng.random(14)
    b = a - rng.normal(0.08, 0.2, 14)
    exact = randomization(a, b, n_resamples=2**14)
    assert exact.method == "exact"
    R = 2000
    ps = []
    for seed in range(20):
        mc = randomization(a, b, n_resamples=R, seed=seed)
        again = randomization(a, b, n_resamples=R, seed=seed)
        assert mc.method == "monte_carlo" and mc.n_resamples == R
        assert mc.p_value == again.p_value and np.array_equal(mc.null_means, again.null_means)
        assert mc.p_value == (mc.n_extreme + 1) / (R + 1)
        ps.append(mc.p_value)
    se = math.sqrt(exact.p_value * (1 - exact.p_value) / R)
    deviations = np.abs(np.array(ps) - exact.p_value)
    assert np.all(deviations <= 3 * se + 1 / R), (exact.p_value, ps)
    assert len(set(ps)) > 1  # different seeds, different draws
    # 20 seeds of a p near exact.p_value: the mean is within 3 standard errors of the mean (se / sqrt 20).
    assert abs(np.mean(ps) - exact.p_value) <= 3 * se / math.sqrt(20) + 1 / R


def test_monte_carlo_patterns_do_not_depend_on_the_block_size(monkeypatch):
    rng = np.random.default_rng(8)
    a, b = rng.random(100), rng.random(100)
    first = randomization(a, b, n_resamples=3000, seed=5)
    monkeypatch.setattr(sig, "_CHUNK_CELLS", 1000)  # 10 patterns per block instead of 41,943
    second = randomization(a, b, n_resamples=3000, seed=5)
    # Same patterns; the matrix product may round the last bit differently for another block shape.
    assert np.allclose(first.null_means, second.null_means, rtol=0, atol=1e-15)
    assert first.n_extreme == second.n_extreme


def test_randomization_null_distribution():
    r = randomization(TEACHING_EXAMPLE.a, TEACHING_EXAMPLE.b)
    nd = r.null_distribution(bins=40)
    probs = nd.frame["probability"].to_numpy()
    assert close(probs.sum(), 1.0, 1e-9) and close(probs[nd.frame["extreme"].to_numpy()].sum(), r.p_value, 1e-9)
    assert nd.observed == (-abs(r.observed), abs(r.observed))


# --------------------------------------------------------------------------------------------- bootstrap

def _scipy_bootstrap(d, method, confidence=0.95, n_resamples=2000, seed=0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stats.bootstrap((np.asarray(d),), np.mean, n_resamples=n_resamples, batch=resample_batch(len(d)),
                               vectorized=True, confidence_level=confidence, method=method,
                               rng=np.random.default_rng(seed))


@PROPERTY
@given(st.one_of(continuous, dyadic), st.sampled_from(["percentile", "bca"]), st.integers(0, 2**32),
       st.sampled_from([0.8, 0.95]))
def test_bootstrap_equals_scipy(pair, method, seed, confidence):
    a, b = pair
    d = np.subtract(a, b)
    assume(np.ptp(d) > 0)
    r = bootstrap_ci(a, b, confidence=confidence, n_resamples=2000, seed=seed, method=method)
    ref = _scipy_bootstrap(d, "BCa" if method == "bca" else method, confidence, 2000, seed)
    if method == "bca" and not np.all(d * 8 == np.round(d * 8)):
        # A resample that is a reordering of the queries has the observed mean; scipy's sum of it may
        # differ in the last bit and count it as below or above (BCa's z0).  Our tie rule counts it as
        # equal.  Away from such ties the two agree; on dyadic data (exact sums) they agree always.
        assume(not np.any(np.abs(r.resample_means - r.mean) <= 1e-9))
    assert np.array_equal(r.resample_means, ref.bootstrap_distribution)
    tol = 1e-12 * max(1.0, float(np.max(np.abs(d))))
    assert math.isclose(r.low, ref.confidence_interval.low, abs_tol=tol)
    assert math.isclose(r.high, ref.confidence_interval.high, abs_tol=tol)
    assert close(r.standard_error, ref.standard_error)


def test_bootstrap_intermediate_numbers():
    r = bootstrap_ci(TINY_A, TINY_B, n_resamples=500, seed=3)
    d = np.subtract(TINY_A, TINY_B)
    # The first resamples, recomputed from their query positions, are the first resample means.
    assert np.allclose(d[r.first_resamples].mean(axis=1), r.resample_means[:5], rtol=0, atol=1e-15)
    assert close(r.lower_level, 0.025) and close(r.upper_level, 0.975) and math.isnan(r.z0)
    assert close(r.low, np.quantile(r.resample_means, 0.025)) and close(r.high, np.quantile(r.resample_means, 0.975))
    bca = bootstrap_ci(TINY_A, TINY_B, n_resamples=500, seed=3, method="bca")
    # a = sum (d - 0.2)^3 / (6 (sum (d - 0.2)^2)^1.5) = (0 + 0.001 - 0.027 + 0.008) / (6 × 0.14^1.5)
    assert close(bca.acceleration, -0.018 / (6 * 0.14**1.5), 1e-9)
    below = np.mean(r.resample_means < 0.2 - 1e-12) / 2 + np.mean(r.resample_means <= 0.2 + 1e-12) / 2
    assert close(bca.z0, stats.norm.ppf(below), 1e-9)
    assert close(bca.low, np.quantile(r.resample_means, bca.lower_level))
    nd = bca.null_distribution()
    assert close(nd.frame["probability"].sum(), 1.0, 1e-9) and nd.observed == (bca.low, bca.high)


def test_bootstrap_degenerate_differences():
    for method in ("percentile", "bca"):
        r = bootstrap_ci([0.5, 0.75, 1.0], [0.25, 0.5, 0.75], n_resamples=200, method=method)
        assert r.low == r.high == 0.25


# ------------------------------------------------------------------------------------------- corrections

def test_holm_and_bonferroni_by_hand():
    # Sorted 0.01, 0.02, 0.03, 0.04, 0.2 (m = 5). Holm: ×5 ×4 ×3 ×2 ×1 = 0.05, 0.08, 0.09, 0.08, 0.2;
    # running max -> 0.05, 0.08, 0.09, 0.09, 0.2. Bonferroni: ×5 -> 0.05, 0.1, 0.15, 0.2, 1 (capped).
    p = [0.04, 0.01, 0.2, 0.03, 0.02]
    h = holm(p)
    assert h.order.tolist() == [1, 4, 3, 0, 2] and h.multipliers.tolist() == [5, 4, 3, 2, 1]
    assert np.allclose(h.stepwise, [0.05, 0.08, 0.09, 0.08, 0.2])
    assert np.allclose(h.adjusted, [0.09, 0.05, 0.2, 0.09, 0.08])
    assert h.rejected.tolist() == [False, True, False, False, False]
    bf = bonferroni(p)
    assert np.allclose(bf.adjusted, [0.2, 0.05, 1.0, 0.15, 0.1]) and bf.m == 5
    none = correct(p, method="none")
    assert np.array_equal(none.adjusted, np.array(p))


@HEAVY
@given(st.lists(st.floats(0, 1), min_size=1, max_size=30), st.sampled_from([0.01, 0.05, 0.1]))
def test_corrections_equal_statsmodels(p, alpha):
    for method in ("holm", "bonferroni"):
        ours = correct(p, method=method, alpha=alpha)
        reject, adjusted, _, _ = multipletests(p, alpha=alpha, method=method)
        assert np.allclose(ours.adjusted, adjusted, rtol=1e-12, atol=1e-15)
        assert ours.rejected.tolist() == reject.tolist()
    h, b = holm(p, alpha=alpha), bonferroni(p, alpha=alpha)
    assert np.all(h.adjusted >= np.array(p) - 1e-15) and np.all(h.adjusted <= b.adjusted + 1e-15)
    assert np.all(h.rejected >= b.rejected)  # Holm rejects everything Bonferroni rejects
    assert np.all(np.diff(h.adjusted[h.order]) >= 0)


# ---------------------------------------------------------------------------------------------- properties

@HEAVY
@given(any_pair)
def test_antisymmetry(pair):
    a, b = pair
    assume(np.any(np.subtract(a, b) != 0))
    t1, t2 = paired_t(a, b), paired_t(b, a)
    if math.isfinite(t1.t):
        assert close(t1.t, -t2.t)
    assert close(t1.p_value, t2.p_value)
    w1, w2 = wilcoxon(a, b), wilcoxon(b, a)
    assert (w1.w_plus, w1.w_minus) == (w2.w_minus, w2.w_plus) and close(w1.p_value, w2.p_value)
    for n_resamples in (10_000, 100):  # exact and Monte Carlo
        r1, r2 = randomization(a, b, n_resamples=n_resamples), randomization(b, a, n_resamples=n_resamples)
        assert r1.n_extreme == r2.n_extreme and r1.p_value == r2.p_value
    c1, c2 = bootstrap_ci(a, b, n_resamples=300), bootstrap_ci(b, a, n_resamples=300)
    assert math.isclose(c1.low, -c2.high, abs_tol=1e-12) and math.isclose(c1.high, -c2.low, abs_tol=1e-12)


@HEAVY
@given(any_pair, st.randoms(use_true_random=False))
def test_invariant_to_query_order(pair, random):
    a, b = pair
    assume(np.any(np.subtract(a, b) != 0))
    order = list(range(len(a)))
    random.shuffle(order)
    a2, b2 = [a[i] for i in order], [b[i] for i in order]
    assert close(paired_t(a, b).p_value, paired_t(a2, b2).p_value, 1e-9)
    assert wilcoxon(a, b).w_plus == wilcoxon(a2, b2).w_plus and close(wilcoxon(a, b).p_value, wilcoxon(a2, b2).p_value)
    assert randomization(a, b).p_value == randomization(a2, b2).p_value  # exact for n <= 12


@HEAVY
@given(any_pair, st.sampled_from([0.5, 2.0, 8.0]))
def test_p_values_in_range_and_scale_free(pair, scale):
    a, b = pair
    assume(np.any(np.subtract(a, b) != 0))
    results = [paired_t(a, b), wilcoxon(a, b), randomization(a, b), randomization(a, b, n_resamples=50)]
    for r in results:
        assert 0 <= r.p_value <= 1
    scaled = [paired_t(np.multiply(a, scale), np.multiply(b, scale)).p_value,
              wilcoxon(np.multiply(a, scale), np.multiply(b, scale)).p_value,
              randomization(np.multiply(a, scale), np.multiply(b, scale)).p_value]
    assert all(close(x.p_value, y, 1e-9) for x, y in zip(results, scaled))


@PROPERTY
@given(st.lists(st.floats(0.01, 1), min_size=1, max_size=8), st.floats(-0.5, 0.5))
def test_ci_contains_the_mean_for_symmetric_differences(half, centre):
    # d = centre ± each value: symmetric about its mean `centre`.
    d = np.array([centre + x for x in half] + [centre - x for x in half])
    for method in ("percentile", "bca"):
        r = bootstrap_ci(d, np.zeros_like(d), n_resamples=1000, method=method)
        assert r.low <= r.mean <= r.high


# ----------------------------------------------------------------------------------------------- all pairs

def _systems(n_queries=40, n_systems=4, seed=1, discrete_values=False):
    rng = np.random.default_rng(seed)
    base = rng.random(n_queries)
    cols = {f"s{i}": np.clip(base + rng.normal(0.03 * i, 0.1, n_queries), 0, 1) for i in range(n_systems)}
    frame = pd.DataFrame(cols, index=pd.Index([f"q{i}" for i in range(n_queries)], name="qid"))
    return frame.round(1) if discrete_values else frame


@pytest.mark.parametrize("discrete_values", [False, True])
@pytest.mark.parametrize("test", ["t", "wilcoxon", "randomization"])
def test_all_pairs_equals_the_single_pair_functions(test, discrete_values):
    frame = _systems(discrete_values=discrete_values)
    table = all_pairs(frame, test=test, n_resamples=800, seed=4, correction="holm", bootstrap="bca")
    assert len(table) == 6 and list(table["system_a"]) == ["s0", "s0", "s0", "s1", "s1", "s2"]
    for row in table.itertuples():
        a, b = frame[row.system_a], frame[row.system_b]
        single = {"t": paired_t(a, b), "wilcoxon": wilcoxon(a, b),
                  "randomization": randomization(a, b, n_resamples=800, seed=4)}[test]
        assert close(row.p_value, single.p_value)
        if test == "randomization":
            assert row.n_extreme == single.n_extreme
        ci = bootstrap_ci(a, b, n_resamples=800, seed=4, method="bca")
        assert math.isclose(row.ci_low, ci.low, abs_tol=1e-12) and math.isclose(row.ci_high, ci.high, abs_tol=1e-12)
        assert close(row.mean_difference, a.mean() - b.mean(), 1e-12)
        d = a.to_numpy() - b.to_numpy()
        assert (row.wins_a, row.wins_b, row.ties) == ((d > 0).sum(), (d < 0).sum(), (d == 0).sum())
        assert row.better == (row.system_a if row.mean_a > row.mean_b else row.system_b)
    assert np.allclose(table["p_corrected"], holm(table["p_value"]).adjusted)
    assert (table["significant"] == (table["p_corrected"] <= 0.05)).all()


def test_all_pairs_columns_and_corrections():
    frame = _systems(n_queries=12, n_systems=3)
    t = all_pairs(frame, test="t", correction="bonferroni", n_resamples=100)
    assert list(t.columns) == ["system_a", "system_b", "n", "mean_a", "mean_b", "mean_difference", "ci_low",
                               "ci_high", "statistic", "p_value", "p_corrected", "significant", "wins_a",
                               "wins_b", "ties", "better", "d_z", "test", "method", "n_resamples", "n_extreme",
                               "correction"]
    assert t["n_extreme"].isna().all()
    assert np.allclose(t["p_corrected"], np.minimum(3 * t["p_value"], 1))
    none = all_pairs(frame, test="randomization", correction="none", n_resamples=100)
    assert (none["p_value"] == none["p_corrected"]).all() and (none["method"] == "monte_carlo").all()
    small = all_pairs(frame.iloc[:5], n_resamples=100)  # 2^5 = 32 <= 100: exact
    assert (small["method"] == "exact").all() and (small["n_resamples"] == 32).all()


def test_winners():
    clear = _systems(n_queries=60, n_systems=3, seed=2)
    clear["s2"] = np.clip(clear["s1"] + 0.2, 0, 2)  # s2 clearly best
    close_call = clear.copy()
    close_call["s2"] = close_call["s1"] + np.where(np.arange(60) % 2 == 0, 0.01, -0.0099)  # barely ahead
    table = winners({"clear": clear, "close": close_call}, n_resamples=2000)
    assert list(table["variant"]) == ["clear", "close"]
    assert list(table["winner"]) == ["s2", "s2"] and list(table["closest"]) == ["s1", "s1"]
    assert list(table["significant"]) == [True, False] and (table["n_comparisons"] == 2).all()
    pairs = all_pairs(clear[["s2", "s0", "s1"]], n_resamples=2000, correction="none")
    vs = pairs[(pairs["system_a"] == "s2") & (pairs["system_b"] == "s1")].iloc[0]
    assert close(table["p_value"].iloc[0], vs["p_value"])  # same relabellings
    assert math.isclose(table["ci_low"].iloc[0], vs["ci_low"], abs_tol=1e-12)
    # Variants of different lengths, and without intervals: each as if alone.
    short = close_call.iloc[:30]
    mixed = winners({"clear": clear, "short": short, "close": close_call}, n_resamples=2000, intervals=False)
    alone = winners({"short": short}, n_resamples=2000)
    assert mixed["p_value"].tolist()[0::2] == table["p_value"].tolist()
    assert mixed["p_value"].iloc[1] == alone["p_value"].iloc[0] and mixed["ci_low"].isna().all()
    no_ci = all_pairs(clear, n_resamples=500, intervals=False)
    assert no_ci["ci_low"].isna().all() and (no_ci["p_value"] == all_pairs(clear, n_resamples=500)["p_value"]).all()


# -------------------------------------------------------------------------------------------------- ranx

def _ranx_inputs(n_queries=30, seed=11):
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {"alpha": {}, "beta": {}}
    for q in range(n_queries):
        qid = f"q{q:02d}"
        docs = [f"d{i}" for i in range(12)]
        qrels[qid] = {d: int(g) for d, g in zip(docs, rng.integers(0, 4, 12)) if g > 0} or {"d0": 1}
        for name, skill in (("alpha", 1.0), ("beta", 0.6)):
            scores = np.array([qrels[qid].get(d, 0) * skill + rng.random() * 2 for d in docs])
            runs[name][qid] = dict(zip(docs, scores.tolist()))
    return qrels, runs


@pytest.mark.slow
@pytest.mark.ranx
def test_ranx_compare_on_the_same_per_query_values():
    import ranx

    qrels_dict, runs_dict = _ranx_inputs()
    qrels_dict, *run_dicts = ranx_ids(qrels_dict, runs_dict["alpha"], runs_dict["beta"])
    qrels = ranx.Qrels(qrels_dict)
    runs = [ranx.Run(d, name=name) for d, name in zip(run_dicts, ("alpha", "beta"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per = [ranx.evaluate(qrels, run, "ndcg@10", return_mean=False) for run in runs]
        student = ranx.compare(qrels, runs, "ndcg@10", stat_test="student", max_p=0.05)
        R = 5000
        fisher = ranx.compare(qrels, runs, "ndcg@10", stat_test="fisher", n_permutations=R, max_p=0.05,
                              random_seed=42)
    a, b = np.asarray(per[0], dtype=float), np.asarray(per[1], dtype=float)
    # Student's t: ranx calls scipy.stats.ttest_rel, as we do: equal.
    assert close(student.comparisons[("alpha", "beta")]["ndcg@10"]["p_value"], paired_t(a, b).p_value)
    # Fisher: ranx shuffles each query's pair with numba's RNG (its own stream) and reports count / R;
    # ours reports (count + 1) / (R + 1) over our own patterns.  Same test, so the two Monte Carlo
    # estimates differ by sampling error only: within 4 standard errors of their difference.
    theirs = fisher.comparisons[("alpha", "beta")]["ndcg@10"]["p_value"]
    ours = randomization(a, b, n_resamples=R, seed=42)
    exact_ish = randomization(a, b, n_resamples=200_000, seed=1).p_value
    se = math.sqrt(max(exact_ish * (1 - exact_ish), 1 / R) * 2 / R)
    assert abs(theirs - ours.p_value) <= 4 * se + 2 / R, (theirs, ours.p_value, exact_ish)
    assert 0.0 < exact_ish < 0.5  # a comparison where the p-value is neither 0 nor 1: the check has teeth
    win = fisher.win_tie_loss[("alpha", "beta")]["ndcg@10"]
    row = all_pairs(pd.DataFrame({"alpha": a, "beta": b}), n_resamples=R).iloc[0]
    assert (win["W"], win["T"], win["L"]) == (row.wins_a, row.ties, row.wins_b)


# ---------------------------------------------------------------------------------------------- validation

@pytest.mark.parametrize("call, words", [
    (lambda: paired_t([1, 2, 3], [1, 2]), ["a has 3 values", "b has 2"]),
    (lambda: paired_t([1], [2]), ["at least 2 queries"]),
    (lambda: paired_t([], []), ["at least 2 queries"]),
    (lambda: wilcoxon([1, float("nan"), 3], [1, 2, 3]), ["a at position 2", "nan"]),
    (lambda: randomization([1, 2, 3], [1, float("inf"), 3]), ["b at position 2", "inf"]),
    (lambda: paired_t([1e308, 1], [-1e308, 0]), ["a - b at position 1", "inf"]),
    (lambda: paired_t([1, "x"], [1, 2]), ["a at position 2", "'x'"]),
    (lambda: paired_t([True, False], [1, 2]), ["a at position 1", "boolean"]),
    (lambda: paired_t([1, 2], [1, 2], confidence=1.0), ["confidence", "1.0"]),
    (lambda: bootstrap_ci([1, 2], [1, 3], confidence=0), ["confidence", "0"]),
    (lambda: bootstrap_ci([1, 2], [1, 3], confidence="95%"), ["confidence", "'95%'"]),
    (lambda: randomization([1, 2], [1, 3], n_resamples=0), ["n_resamples", "0"]),
    (lambda: randomization([1, 2], [1, 3], n_resamples=2.5), ["n_resamples", "2.5"]),
    (lambda: randomization([1, 2], [1, 3], n_resamples=10**7), ["n_resamples", "10000000"]),
    (lambda: bootstrap_ci([1, 2], [1, 3], seed=-1), ["seed", "-1"]),
    (lambda: bootstrap_ci([1, 2], [1, 3], method="bc"), ["method", "'bc'", "'percentile'"]),
    (lambda: wilcoxon([1, 2], [1, 3], zero_method="drop"), ["zero_method", "'drop'", "'wilcox'"]),
    (lambda: holm([0.1, 1.5]), ["pvalues at position 2", "1.5"]),
    (lambda: holm([]), ["empty"]),
    (lambda: holm([0.1], alpha=0), ["alpha", "0"]),
    (lambda: correct([0.1], method="fdr"), ["method", "'fdr'"]),
    (lambda: all_pairs([[1, 2]]), ["DataFrame", "list"]),
    (lambda: all_pairs(pd.DataFrame({"a": [1.0, 2.0]})), ["1 system column"]),
    (lambda: all_pairs(pd.DataFrame({"a": [1.0], "b": [2.0]})), ["1 query row"]),
    (lambda: all_pairs(pd.DataFrame([[1.0, 2.0], [3.0, 4.0]], columns=["x", "x"])), ["'x' more than once"]),
    (lambda: all_pairs(pd.DataFrame({"a": [1.0, np.nan], "b": [1.0, 2.0]}, index=["q1", "q7"])),
     ["column 'a'", "query 'q7'", "nan"]),
    (lambda: all_pairs(pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "2"]})), ["column 'b'", "'x'"]),
    (lambda: all_pairs(pd.DataFrame({"a": [True, False], "b": [1.0, 2.0]})), ["column 'a'", "booleans"]),
    (lambda: all_pairs(_systems(5, 2), test="z"), ["test", "'z'", "'randomization'"]),
    (lambda: all_pairs(_systems(5, 2), correction="fdr"), ["correction", "'fdr'"]),
    (lambda: all_pairs(_systems(5, 2), bootstrap="basic"), ["bootstrap", "'basic'"]),
    (lambda: winners({}), ["non-empty mapping"]),
    (lambda: all_pairs(_systems(5, 2), intervals="no"), ["intervals", "'no'"]),
    (lambda: winners({"v": pd.DataFrame({"a": [1.0, 2.0]})}), ["per_query['v']", "1 system column"]),
])
def test_bad_input_raises_value_error_naming_it(call, words):
    with pytest.raises(ValueError) as info:
        call()
    message = str(info.value)
    assert all(w in message for w in words), message


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        randomization([1, 2], [1, 3], 100)  # type: ignore[misc]
    with pytest.raises(TypeError):
        bootstrap_ci([1, 2], [1, 3], 0.9)  # type: ignore[misc]
    with pytest.raises(TypeError):
        holm([0.1], 0.05)  # type: ignore[misc]


def test_results_are_frozen_and_read_only():
    r = randomization(TINY_A, TINY_B)
    with pytest.raises(AttributeError):
        r.p_value = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        r.null_means[0] = 1.0
