r"""Is the difference real?  Paired significance tests, bootstrap confidence intervals and
multiple-comparison corrections for per-query scores, with every number a student needs to redo them.

Two systems A and B are scored on the same queries (NDCG@10 of each query, say).  Everything here works
on the per-query differences :math:`d_i = a_i - b_i` (A minus B, the order of the arguments):

* :func:`paired_t` — Student's paired t-test (:func:`scipy.stats.ttest_rel`): differences, mean, sd,
  standard error, t, degrees of freedom, p, and the t confidence interval;
* :func:`wilcoxon` — Wilcoxon's signed-rank test (:func:`scipy.stats.wilcoxon`): signs, ranks, W+, W-,
  W, and how the p-value was found (exact distribution, all sign flips, or the normal approximation);
* :func:`randomization` — Fisher's randomization (sign-flip permutation) test of the mean difference:
  every one of the :math:`2^n` relabellings when :math:`2^n \le` ``n_resamples`` (exact), otherwise
  ``n_resamples`` random ones (Monte Carlo, reproducible by ``seed``);
* :func:`bootstrap_ci` — the bootstrap confidence interval of the mean difference
  (:func:`scipy.stats.bootstrap`; percentile or BCa interval);
* :func:`cohens_dz` — the effect size :math:`d_z = \bar d / s_d`;
* :func:`holm` / :func:`bonferroni` (:func:`correct`) — p-values corrected for several comparisons;
* :func:`all_pairs` — every pair of several systems at once (vectorised: the same random relabellings
  and bootstrap resamples serve every pair), as a tidy table; :func:`winners` — is each winner
  significantly better than every other system?

Every test is two-sided.  Results are frozen dataclasses holding the intermediate numbers.

**Ties in floating point.**  Whether a relabelled (or resampled) mean difference is "at least as
extreme" as the observed one should not depend on the order in which a computer added the numbers:
``0.1 + 0.2 + 0.7`` and ``0.7 + 0.2 + 0.1`` differ in the last bit.  Two mean differences closer than
:data:`TIE_TOLERANCE` × max |d_i| count as equal (far below any real difference, far above rounding).
scipy compares its floating-point sums as they come out, so on data whose sums are exact in binary
(``0.25``, ``0.5``, ...) it agrees with ours exactly; elsewhere an exact tie may land either side there.

This module never imports streamlit or anything in ``ui/``.  Import it on demand
(``from metrics import significance``): scipy takes a moment to load.

>>> a = [0.5, 0.7, 0.3, 0.9]   # system A on four queries
>>> b = [0.3, 0.4, 0.4, 0.5]   # system B on the same queries
>>> paired_t(a, b).differences.round(2).tolist()
[0.2, 0.3, -0.1, 0.4]
>>> round(randomization(a, b).p_value, 4)   # 4 of the 16 sign flips are as extreme
0.25
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import special, stats

from ._numbers import as_reals
from ._validation import check_choice, check_flag, check_fraction, check_whole, describe

__all__ = [
    "TESTS", "CORRECTIONS", "BOOTSTRAP_METHODS", "ZERO_METHODS", "MAX_RESAMPLES", "TIE_TOLERANCE",
    "TeachingExample", "TEACHING_EXAMPLE",
    "PairedT", "Wilcoxon", "Randomization", "BootstrapCI", "EffectSize", "Correction", "NullDistribution",
    "paired_t", "wilcoxon", "randomization", "bootstrap_ci", "cohens_dz", "holm", "bonferroni", "correct",
    "all_pairs", "winners", "resample_batch", "check_settings",
]

TESTS = ("t", "wilcoxon", "randomization")
"""Test names accepted by :func:`all_pairs` and :func:`winners`."""
CORRECTIONS = ("holm", "bonferroni", "none")
"""Multiple-comparison corrections accepted by :func:`correct`, :func:`all_pairs` and :func:`winners`."""
BOOTSTRAP_METHODS = ("percentile", "bca")
"""Bootstrap intervals: ``percentile`` (the middle of the resample means) or ``bca`` (bias-corrected
and accelerated: the same resample means, read at shifted percentiles)."""
ZERO_METHODS = ("wilcox", "pratt", "zsplit")
"""How :func:`wilcoxon` treats queries where both systems score the same (see there)."""
MAX_RESAMPLES = 1_000_000
"""Upper limit of ``n_resamples`` (memory: the null distribution of one pair is kept)."""
TIE_TOLERANCE = 1e-9
"""Mean differences closer than this × max |d_i| are equal (see the module docstring)."""

_CHUNK_CELLS = 1 << 22  # cells of one random block (rows × queries): ~32 MB as float64


# --------------------------------------------------------------------------------------- teaching data

@dataclass(frozen=True)
class TeachingExample:
    """A small paired example a class can follow by hand."""

    systems: tuple[str, str]
    queries: tuple[str, ...]
    a: tuple[float, ...]
    b: tuple[float, ...]
    measure: str
    provenance: str

    def frame(self) -> pd.DataFrame:
        """One row per query, one column per system (the shape :func:`all_pairs` takes)."""
        return pd.DataFrame({self.systems[0]: self.a, self.systems[1]: self.b},
                            index=pd.Index(self.queries, name="query"))


TEACHING_EXAMPLE = TeachingExample(
    systems=("A", "B"),
    queries=tuple(f"q{i}" for i in range(1, 11)),
    a=(0.42, 0.65, 0.31, 0.58, 0.77, 0.49, 0.36, 0.81, 0.27, 0.54),
    b=(0.58, 0.63, 0.53, 0.64, 0.70, 0.50, 0.60, 0.78, 0.48, 0.77),
    measure="NDCG@10",
    provenance=(
        "Constructed for this lesson, not measured: NDCG@10 of two imagined systems A and B on ten "
        "queries, written with two decimals so that every step can be done by hand. Chosen so that B "
        "beats A on 7 of the 10 queries, no difference is zero and no two differences have the same size "
        "(the Wilcoxon ranks are 1 to 10 without ties), and the tests disagree a little, as they do on "
        "real runs: the t-test and the randomization test find the difference significant at 5 %, "
        "while the more cautious Wilcoxon test just misses it."
    ),
)
"""Ten queries, two systems: the step-by-step lesson of the significance page (provenance inside)."""


# ------------------------------------------------------------------------------------------ validation

def _values(x, name: str) -> np.ndarray:
    if isinstance(x, pd.Series):
        x = x.to_numpy()
    return as_reals(x, name)


def _pair(a, b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xa, xb = _values(a, "a"), _values(b, "b")
    if xa.size != xb.size:
        raise ValueError(f"a has {xa.size} values and b has {xb.size}; a paired test needs one value per "
                         "query from each system, in the same query order")
    if xa.size < 2:
        raise ValueError(f"a and b have {xa.size} value{'s' if xa.size != 1 else ''}; a paired test needs "
                         "at least 2 queries")
    with np.errstate(over="ignore", invalid="ignore"):
        d = xa - xb
    bad = np.flatnonzero(~np.isfinite(d))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"a - b at position {i + 1} is {d[i]!r} (a = {xa[i]!r}, b = {xb[i]!r}); "
                         "the difference must be a finite float")
    return xa, xb, d


def _check_confidence(confidence) -> float:
    conf = check_fraction(confidence, name="confidence", example=0.95)
    alpha = _alpha_of(conf)
    if not 0.0 < alpha < 1.0:  # 5e-324 or 0.9999999999999: 1 - confidence rounds to 1 or 0 (12 decimals)
        raise ValueError(f"confidence must be a number between 0 and 1 (exclusive), e.g. 0.95, whose significance "
                         f"level 1 - confidence is above 0 and below 1 at 12 decimals; got {describe(confidence)}")
    return conf


def _check_resamples(n_resamples) -> int:
    return check_whole(n_resamples, name="n_resamples", minimum=1, maximum=MAX_RESAMPLES)


def _check_seed(seed) -> int:
    return check_whole(seed, name="seed", minimum=0, maximum=2**63 - 1)


def _check_alpha(alpha) -> float:
    return check_fraction(alpha, name="alpha", example=0.05)


def _alpha_of(confidence: float) -> float:
    """The significance level that goes with a confidence level: 1 - 0.95 is 0.05 (not 0.05000000000000004)."""
    return round(1.0 - confidence, 12)


def check_settings(*, test=None, confidence=None, correction=None, n_resamples=None, seed=None,
                   bootstrap=None) -> dict:
    """The settings of :func:`all_pairs` checked as :func:`all_pairs` checks them, before any data is seen.

    What a caller (the command line, a page) calls to refuse a setting up front, before it prints or
    computes anything; the tests themselves check the same way (one check per setting).

    Parameters
    ----------
    test, confidence, correction, n_resamples, seed, bootstrap : optional
        As for :func:`all_pairs`; the ones left None are not checked.

    Returns
    -------
    dict
        The settings given, by name, checked (float, int or str).

    Raises
    ------
    ValueError
        Naming the setting and the value: e.g. a confidence whose significance level rounds to 1.

    Examples
    --------
    >>> check_settings(confidence=0.9, n_resamples=500)
    {'confidence': 0.9, 'n_resamples': 500}

    A confidence of 5e-324 is above 0, but its significance level 1 - 5e-324 is 1:

    >>> check_settings(confidence=5e-324)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: confidence must be a number between 0 and 1 (exclusive), e.g. 0.95, whose ...; got 5e-324
    """
    checks = {"test": lambda v: _choice(v, TESTS, "test"), "confidence": _check_confidence,
              "correction": lambda v: _choice(v, CORRECTIONS, "correction"), "n_resamples": _check_resamples,
              "seed": _check_seed, "bootstrap": lambda v: _choice(v, BOOTSTRAP_METHODS, "bootstrap")}
    given = {"test": test, "confidence": confidence, "correction": correction, "n_resamples": n_resamples,
             "seed": seed, "bootstrap": bootstrap}
    return {name: checks[name](value) for name, value in given.items() if value is not None}


def _choice(value, choices, name: str) -> str:
    return check_choice(value, {c: c for c in choices}, name=name)


def _readonly(x) -> np.ndarray:
    out = np.array(x, dtype=float, copy=True)
    out.flags.writeable = False
    return out


_SQUARE_SAFE = (2.0**-500, 2.0**500)  # magnitudes whose squares (and sums of 12,000 of them) stay normal


def _moments(d: np.ndarray) -> tuple[float, float, float]:
    """Mean, sample sd (n - 1) and sum of squared deviations, computed on ``d`` scaled by a power of two so
    that its largest magnitude lies in [0.5, 1): exact scaling, so ordinary values give the textbook result
    bit for bit, while squares of tiny differences (1e-311) no longer underflow to an sd of 0 and huge ones
    no longer overflow."""
    n = d.size
    top = float(np.max(np.abs(d))) if n else 0.0
    if top == 0 or not math.isfinite(top):
        mean = math.fsum(d) / n
        return (mean, 0.0, 0.0) if top == 0 else (mean, math.nan, math.nan)
    e = math.frexp(top)[1]
    ds = np.ldexp(d, -e)
    mean = math.fsum(ds) / n
    dev = ds - mean
    squares = math.fsum(dev * dev)
    try:
        total_squares = math.ldexp(squares, 2 * e)
    except OverflowError:  # the true sum of squares is past the largest float (differences near 1e300)
        total_squares = math.inf
    return math.ldexp(mean, e), math.ldexp(math.sqrt(squares / (n - 1)), e), total_squares


def _dz(mean: float, sd: float) -> float:
    if sd > 0:
        return mean / sd
    return math.nan if mean == 0 else math.copysign(math.inf, mean)


# ------------------------------------------------------------------------------------------ null charts

@dataclass(frozen=True, eq=False)
class NullDistribution:
    """What a statistic looks like when the two systems are interchangeable, ready to draw.

    ``kind`` is ``"density"`` (a curve: columns ``x``, ``density``, ``extreme``) or ``"bars"``
    (columns ``x_low``, ``x_high``, ``probability``, ``extreme``, ``bottom``, ``top``; a bar per value
    or per bin, split in two when part of a bin is at least as extreme as the observation: that part
    is stacked on the other, from ``bottom`` to ``top``).  ``observed`` holds the
    values marking "as extreme" on the x axis (both tails); ``statistic`` names the x axis
    (``"t"``, ``"W+"`` or ``"mean difference"``).
    """

    kind: str
    statistic: str
    frame: pd.DataFrame
    observed: tuple[float, ...]


def _split_histogram(values: np.ndarray, extreme: np.ndarray, edges: np.ndarray) -> pd.DataFrame:
    """Histogram rows per bin and part (extreme or not), the extreme part stacked on the other."""
    total = values.size
    other, _ = np.histogram(values[~extreme], bins=edges)
    ext, _ = np.histogram(values[extreme], bins=edges)
    rows = []
    for flag, counts, bottom in ((False, other, np.zeros(other.size)), (True, ext, other)):
        rows.append(pd.DataFrame({"x_low": edges[:-1], "x_high": edges[1:], "probability": counts / total,
                                  "extreme": flag, "bottom": bottom / total, "top": (bottom + counts) / total}))
    frame = pd.concat(rows, ignore_index=True)
    return frame[frame["probability"] > 0].reset_index(drop=True)


# ---------------------------------------------------------------------------------------------- t-test

@dataclass(frozen=True, eq=False)
class EffectSize:
    r"""Cohen's :math:`d_z = \bar d / s_d` of paired differences (see :func:`cohens_dz`)."""

    differences: np.ndarray
    n: int
    mean: float
    sd: float
    d_z: float


def cohens_dz(a, b) -> EffectSize:
    r"""Cohen's :math:`d_z`: the mean difference in units of the differences' standard deviation.

    Unlike the p-value it does not grow with the number of queries: it says how large the difference
    is compared with how much it varies from query to query, :math:`d_z = t / \sqrt{n}`.
    (Cohen's rough labels 0.2 small, 0.5 medium, 0.8 large were made for other designs; use them
    with care.)

    Parameters
    ----------
    a, b : sequence of float
        The two systems' scores, one per query, in the same query order (at least 2 queries).

    Returns
    -------
    EffectSize
        ``differences`` (a - b), ``n``, ``mean``, ``sd`` (n - 1 in the denominator) and ``d_z``
        (±inf when every difference is the same non-zero number, NaN when all are 0).

    Examples
    --------
    Differences 0.2, 0.3, -0.1, 0.4: mean 0.8 / 4 = 0.2; squared deviations 0 + 0.01 + 0.09 + 0.04
    = 0.14, sd = sqrt(0.14 / 3) = 0.2160; d_z = 0.2 / 0.2160 = 0.9258.

    >>> e = cohens_dz([0.5, 0.7, 0.3, 0.9], [0.3, 0.4, 0.4, 0.5])
    >>> round(e.mean, 4), round(e.sd, 4), round(e.d_z, 4)
    (0.2, 0.216, 0.9258)
    """
    _, _, d = _pair(a, b)
    mean, sd, _ = _moments(d)
    return EffectSize(_readonly(d), d.size, mean, sd, _dz(mean, sd))


@dataclass(frozen=True, eq=False)
class PairedT:
    r"""Student's paired t-test, with the numbers to redo it by hand (see :func:`paired_t`)."""

    differences: np.ndarray
    n: int
    total: float          # sum of the differences
    sum_squares: float    # sum of squared deviations from the mean
    mean: float
    sd: float
    se: float
    t: float
    df: int
    p_value: float
    confidence: float
    t_critical: float
    ci_low: float
    ci_high: float
    d_z: float
    note: str  # "" or "identical" (every difference 0) or "constant" (every difference the same, not 0)

    def null_distribution(self, *, points: int = 241) -> NullDistribution:
        """Student's t density with ``df`` degrees of freedom; ``extreme`` where |x| >= |t|."""
        observed = abs(self.t) if math.isfinite(self.t) else math.inf
        half = max(4.0, min(observed * 1.15, 60.0)) if not math.isnan(observed) else 4.0
        x = np.linspace(-half, half, int(points))
        with np.errstate(invalid="ignore"):
            extreme = np.abs(x) >= observed if not math.isnan(observed) else np.zeros(x.size, bool)
        frame = pd.DataFrame({"x": x, "density": stats.t.pdf(x, self.df), "extreme": extreme})
        marks = () if math.isnan(self.t) else (-observed, observed)
        return NullDistribution("density", "t", frame, marks)


def paired_t(a, b, *, confidence=0.95) -> PairedT:
    r"""Student's paired t-test of the mean difference (two-sided), as :func:`scipy.stats.ttest_rel`.

    .. math::
        \bar d = \frac{1}{n}\sum_i d_i, \quad
        s_d = \sqrt{\frac{\sum_i (d_i - \bar d)^2}{n-1}}, \quad
        t = \frac{\bar d}{s_d/\sqrt{n}}, \quad
        p = 2\,P(T_{n-1} \ge |t|)

    Parameters
    ----------
    a, b : sequence of float
        The two systems' scores, one per query, in the same query order (at least 2 queries).
    confidence : float, keyword-only
        Level of the t confidence interval :math:`\bar d \pm t_{crit}\, s_d/\sqrt n` (0 < c < 1).

    Returns
    -------
    PairedT
        ``differences`` (a - b), ``n``, ``total`` (their sum), ``sum_squares`` (of the deviations from
        the mean), ``mean``, ``sd``, ``se``, ``t``, ``df`` (n - 1), ``p_value``,
        ``t_critical``, ``ci_low``, ``ci_high``, ``d_z`` and ``note``.  ``t`` and ``p_value`` are
        scipy's.  When every difference is 0 the systems cannot be told apart: scipy's t and p are
        NaN (0 / 0); here t stays NaN, p is 1 and ``note`` is ``"identical"``.  When every difference
        is the same non-zero number, t is ±inf and p is 0 (scipy's answer; ``note="constant"``): the
        t-test has no spread to compare with.

    Raises
    ------
    ValueError
        Different lengths, fewer than 2 queries, a value that is not a finite number, a bad confidence.

    Examples
    --------
    Differences 0.2, 0.3, -0.1, 0.4: mean 0.2, sd 0.2160 (see :func:`cohens_dz`),
    se = 0.2160 / sqrt(4) = 0.1080, t = 0.2 / 0.1080 = 1.8516 on 3 degrees of freedom,
    p = 2 P(T_3 >= 1.8516) = 0.1612; t_crit(0.975, 3) = 3.1824, CI 0.2 ± 3.1824 × 0.1080.

    >>> r = paired_t([0.5, 0.7, 0.3, 0.9], [0.3, 0.4, 0.4, 0.5])
    >>> round(r.total, 4), round(r.sum_squares, 4)
    (0.8, 0.14)
    >>> round(r.mean, 4), round(r.sd, 4), round(r.se, 4), round(r.t, 4), r.df, round(r.p_value, 4)
    (0.2, 0.216, 0.108, 1.8516, 3, 0.1612)
    >>> round(r.t_critical, 4), round(r.ci_low, 4), round(r.ci_high, 4)
    (3.1824, -0.1437, 0.5437)
    """
    xa, xb, d = _pair(a, b)
    conf = _check_confidence(confidence)
    n = d.size
    mean, sd, squares = _moments(d)
    se = sd / math.sqrt(n)
    df = n - 1
    t_crit = float(stats.t.ppf(0.5 + conf / 2, df))
    note = ""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ttest_rel(xa, xb)
        t_value, p_value = float(res.statistic), float(res.pvalue)
        top = float(np.max(np.abs(d)))
        if sd > 0 and not _SQUARE_SAFE[0] < top < _SQUARE_SAFE[1]:
            # scipy squares the differences: below ~1e-154 the squares underflow (t = ±inf, p = 0 for
            # differences that vary), above ~1e154 they overflow (t = 0). The textbook formula on the
            # scaled sd instead.
            t_value = mean / se
            p_value = float(2 * stats.t.sf(abs(t_value), df))
            low, high = mean - t_crit * se, mean + t_crit * se
        elif sd > 0:
            ci = res.confidence_interval(confidence_level=conf)
            low, high = float(ci.low), float(ci.high)
        else:
            low = high = mean
    if not np.any(d):
        note, t_value, p_value = "identical", math.nan, 1.0
    elif sd == 0:
        note = "constant"
    total = math.fsum(d)
    return PairedT(_readonly(d), n, total, squares, mean, sd, se, t_value, df, p_value, conf, t_crit, low, high,
                   _dz(mean, sd), note)


# -------------------------------------------------------------------------------------------- Wilcoxon

@dataclass(frozen=True, eq=False)
class Wilcoxon:
    r"""Wilcoxon's signed-rank test, with signs and ranks (see :func:`wilcoxon`)."""

    differences: np.ndarray
    zero_method: str
    n: int               # queries
    n_positive: int      # a > b
    n_negative: int      # a < b
    n_zero: int          # a == b
    n_ranked: int        # queries whose |d| is ranked (n - n_zero for "wilcox", n otherwise)
    ranks: np.ndarray    # average rank of |d_i| among the ranked ones, per query (NaN: not ranked)
    signed_ranks: np.ndarray  # rank × sign(d_i) (0 for zeros under "pratt"/"zsplit", NaN for "wilcox")
    w_plus: float
    w_minus: float
    statistic: float     # W = min(W+, W-), scipy's two-sided statistic
    has_ties: bool       # two non-zero |d_i| share a rank
    method: str          # "exact", "permutation" (all 2^n sign flips) or "normal"
    mean_w: float        # E[W+] under the null (normal approximation)
    sd_w: float          # its standard deviation, tie- (and Pratt-) corrected
    z: float             # (W+ - E[W+]) / sd_w
    p_value: float
    note: str            # "" or "identical"

    def null_distribution(self, *, points: int = 241) -> NullDistribution:
        """Distribution of W+ when every sign is a coin flip.

        For ``exact`` and ``permutation`` the exact probabilities of every value of W+ (counted over the
        :math:`2^{n}` sign patterns of the ranks; averaged ranks allowed); for ``normal`` the normal
        curve with ``mean_w`` and ``sd_w``.  ``extreme``: at most min(W+, W-) or at least max(W+, W-).
        """
        lo, hi = min(self.w_plus, self.w_minus), max(self.w_plus, self.w_minus)
        ranks = self.ranks[np.isfinite(self.ranks) & (self.differences != 0)]
        if self.method != "normal" and ranks.size <= 60:
            base = (self.w_plus + self.w_minus - ranks.sum()) / 2  # half the zero ranks under "zsplit"
            w, p = _w_plus_distribution(ranks)
            w = w + base
            tol = 1e-9
            frame = pd.DataFrame({"x_low": w - 0.25, "x_high": w + 0.25, "probability": p,
                                  "extreme": (w <= lo + tol) | (w >= hi - tol), "bottom": 0.0, "top": p})
            return NullDistribution("bars", "W+", frame, (lo, hi))
        half = max(4 * self.sd_w, abs(self.w_plus - self.mean_w) * 1.15)
        x = np.linspace(self.mean_w - half, self.mean_w + half, int(points))
        sd = self.sd_w if self.sd_w > 0 else 1.0
        frame = pd.DataFrame({"x": x, "density": stats.norm.pdf(x, self.mean_w, sd),
                              "extreme": np.abs(x - self.mean_w) >= abs(self.w_plus - self.mean_w)})
        return NullDistribution("density", "W+", frame, (lo, hi))


def _w_plus_distribution(ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every value of W+ = sum of the ranks given a + sign, and its probability when each sign is a coin flip.

    Ranks may be averaged (halves): the sums are counted over doubled ranks, exactly, one rank at a time
    (each rank either joins W+ or not).
    """
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    counts = np.zeros(int(doubled.sum()) + 1)
    counts[0] = 1.0
    for r in doubled:
        counts[r:] += counts[:-r].copy()
    support = np.flatnonzero(counts)
    return support / 2.0, counts[support] / counts.sum()


def wilcoxon(a, b, *, zero_method="wilcox") -> Wilcoxon:
    r"""Wilcoxon's signed-rank test (two-sided), as :func:`scipy.stats.wilcoxon` (no continuity correction).

    Rank the sizes :math:`|d_i|` (ties get their average rank), give each rank the sign of its
    difference and add: :math:`W^+` sums the ranks of the queries A wins, :math:`W^-` those B wins.
    If the systems were interchangeable every sign would be a coin flip, and :math:`W^+` would be
    near :math:`E[W^+] = n(n+1)/4`.

    How the p-value is found (scipy's ``method="auto"``): with at most 50 queries, no zero
    difference and no tied sizes, from the exact distribution of :math:`W^+` (``"exact"``); with
    zeros or ties and at most 13 queries, by counting all :math:`2^n` sign flips (``"permutation"``;
    scipy enumerates them with :func:`scipy.stats.permutation_test`, here the same distribution is
    counted rank by rank, which gives the same p-value in microseconds instead of a second);
    otherwise from the normal approximation
    :math:`z = (W^+ - E[W^+]) / \sigma_W`,
    :math:`\sigma_W^2 = \frac{n(n+1)(2n+1)}{24} - \frac{\sum_g (t_g^3 - t_g)}{48}` (``"normal"``).

    Parameters
    ----------
    a, b : sequence of float
        The two systems' scores, one per query, in the same query order (at least 2 queries).
    zero_method : {"wilcox", "pratt", "zsplit"}, keyword-only
        Queries where both systems score the same (common with IR measures, e.g. both 0):
        ``"wilcox"`` (default) drops them and ranks the rest — Wilcoxon's own rule, the textbook
        procedure and the default of scipy and of R's ``wilcox.test``, so students can check their
        work anywhere; ``"pratt"`` ranks them (they take the lowest ranks) and then ignores their
        ranks, which keeps the other ranks as they would be with a tiny difference; ``"zsplit"``
        ranks them and gives half of each zero's rank to each side.

    Returns
    -------
    Wilcoxon
        Signs, ranks, ``w_plus``, ``w_minus``, ``statistic`` (min of the two), ``method``, the normal
        approximation's ``mean_w``, ``sd_w``, ``z``, and ``p_value`` (scipy's).  When every difference
        is 0 there is nothing to rank: p is 1 (``note="identical"``; scipy says 1 up to 13 queries
        and NaN above).

    Examples
    --------
    Differences 0.2, 0.3, -0.1, 0.4 have sizes ranked 2, 3, 1, 4; A wins the queries ranked 2, 3, 4:
    W+ = 9, W- = 1, W = 1.  Of the 16 equally likely sign patterns, 2 give W+ <= 1 ({} and {1}) and 2
    give W+ >= 9, so p = 4 / 16 = 0.25.

    >>> r = wilcoxon([0.5, 0.7, 0.3, 0.9], [0.3, 0.4, 0.4, 0.5])
    >>> r.ranks.tolist(), r.w_plus, r.w_minus, r.statistic, r.method, r.p_value
    ([2.0, 3.0, 1.0, 4.0], 9.0, 1.0, 1.0, 'exact', 0.25)
    """
    xa, xb, d = _pair(a, b)
    zm = _choice(zero_method, ZERO_METHODS, "zero_method")
    n = d.size
    zero = d == 0
    n_zero = int(zero.sum())
    ranked = ~zero if zm == "wilcox" else np.ones(n, dtype=bool)
    ranks = np.full(n, np.nan)
    if ranked.any():
        ranks[ranked] = stats.rankdata(np.abs(d[ranked]), method="average")
    signed = np.sign(d) * ranks
    r_plus = math.fsum(ranks[d > 0])
    r_minus = math.fsum(ranks[d < 0])
    if zm == "zsplit":
        half_zero = math.fsum(ranks[zero]) / 2
        r_plus, r_minus = r_plus + half_zero, r_minus + half_zero
    nonzero_abs = np.abs(d[~zero])
    has_ties = bool(np.unique(nonzero_abs).size < nonzero_abs.size)
    if n > 50:
        method = "normal"
    elif n_zero == 0 and not has_ties:
        method = "exact"
    elif n <= 13:
        method = "permutation"
    else:
        method = "normal"
    # Normal approximation (scipy's formulas, Cureton's adjustment for Pratt's zeros).
    count = float(ranked.sum())
    mean_w = count * (count + 1) / 4
    var = count * (count + 1) * (2 * count + 1)
    _, tie_sizes = np.unique(np.abs(d[ranked]), return_counts=True) if ranked.any() else (None, np.zeros(0))
    tie_sizes = tie_sizes.astype(float)
    if zm == "pratt" and n_zero:
        mean_w -= n_zero * (n_zero + 1) / 4
        var -= n_zero * (n_zero + 1) * (2 * n_zero + 1)
        tie_sizes = np.unique(nonzero_abs, return_counts=True)[1].astype(float)
    var -= float(np.sum(tie_sizes**3 - tie_sizes)) / 2
    sd_w = math.sqrt(max(var, 0.0) / 24)
    z = (r_plus - mean_w) / sd_w if sd_w > 0 else math.nan
    note = ""
    if n_zero == n:
        note, p_value = "identical", 1.0
    elif method == "permutation":
        # scipy would enumerate the 2^n sign flips with permutation_test (about a second at n = 13); the
        # distribution of W+ over those flips is counted exactly here instead (tests: equal to scipy's).
        w, prob = _w_plus_distribution(ranks[~zero & ranked])
        w = w + (r_plus + r_minus - math.fsum(ranks[~zero & ranked])) / 2
        below = math.fsum(prob[w <= r_plus + 1e-9])
        above = math.fsum(prob[w >= r_plus - 1e-9])
        p_value = min(1.0, 2 * min(below, above))
    else:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            p_value = float(stats.wilcoxon(xa, xb, zero_method=zm, correction=False, method="auto").pvalue)
    return Wilcoxon(_readonly(d), zm, n, int((d > 0).sum()), int((d < 0).sum()), n_zero, int(ranked.sum()),
                    _readonly(ranks), _readonly(signed), r_plus, r_minus, min(r_plus, r_minus), has_ties,
                    method, mean_w, sd_w, z, p_value, note)


# --------------------------------------------------------------------------------------- randomization

def _sign_blocks(n: int, n_resamples: int, seed: int):
    """Blocks of relabellings as 0/1 float matrices (1 = swap the two systems' scores on that query).

    Exact when 2**n <= n_resamples: every pattern once (row k flips query i when bit i of k is set).
    Otherwise ``n_resamples`` random patterns drawn from ``numpy.random.default_rng(seed)``: each
    pattern takes ceil(n / 64) raw 64-bit words, bit i of the little-endian bytes flipping query i,
    so the patterns do not depend on the block size (the same seed gives the same patterns to every
    pair and every call).
    """
    rows = max(1, _CHUNK_CELLS // n)
    if n < 63 and (1 << n) <= n_resamples:
        total = 1 << n
        shifts = np.arange(n, dtype=np.int64)
        for start in range(0, total, rows):
            k = np.arange(start, min(total, start + rows), dtype=np.int64)
            yield ((k[:, None] >> shifts) & 1).astype(np.float64)
        return
    bits = np.random.default_rng(seed).bit_generator
    words = (n + 63) // 64
    for start in range(0, n_resamples, rows):
        r = min(rows, n_resamples - start)
        raw = bits.random_raw(r * words).astype("<u8", copy=False).reshape(r, words)
        flips = np.unpackbits(raw.view(np.uint8), axis=1, bitorder="little")[:, :n]
        yield flips.astype(np.float64)


def _tolerance(d: np.ndarray) -> np.ndarray:
    """Tie tolerance in units of the mean difference, per column of ``d`` (n × P)."""
    return TIE_TOLERANCE * np.max(np.abs(d), axis=0)


def _column_sums(d: np.ndarray) -> np.ndarray:
    return np.array([math.fsum(d[:, j]) for j in range(d.shape[1])])


def _flip_test(d: np.ndarray, n_resamples: int, seed: int, *, keep: bool):
    """Sign-flip test of the mean for every column of ``d`` (n × P) with shared relabellings.

    Returns (method, relabellings used, counts at least as extreme, null means (R × P) or None).
    """
    n = d.shape[0]
    exact = n < 63 and (1 << n) <= n_resamples
    used = (1 << n) if exact else n_resamples
    sums = _column_sums(d)
    threshold = np.abs(sums) / n - _tolerance(d)
    counts = np.zeros(d.shape[1], dtype=np.int64)
    null = [] if keep else None
    for flips in _sign_blocks(n, n_resamples, seed):
        means = (sums - 2.0 * (flips @ d)) / n  # flipping query i subtracts 2 d_i from the sum
        counts += np.count_nonzero(np.abs(means) >= threshold, axis=0)
        if keep:
            null.append(means)
    return ("exact" if exact else "monte_carlo"), used, counts, (np.concatenate(null) if keep else None)


def _flip_p(counts, used: int, exact: bool):
    counts = np.asarray(counts, dtype=float)
    return counts / used if exact else (counts + 1) / (used + 1)


@dataclass(frozen=True, eq=False)
class Randomization:
    r"""Fisher's randomization (sign-flip) test of the mean difference (see :func:`randomization`)."""

    differences: np.ndarray
    n: int
    observed: float           # mean difference a - b
    method: str               # "exact" (all 2^n relabellings) or "monte_carlo"
    n_resamples: int          # relabellings used: 2^n (exact) or the number asked for
    seed: int
    n_extreme: int            # relabellings whose |mean difference| >= |observed| (identity included)
    p_value: float            # exact: n_extreme / 2^n; Monte Carlo: (n_extreme + 1) / (n_resamples + 1)
    standard_error: float     # Monte Carlo standard error of p (0 when exact)
    tolerance: float          # mean differences closer than this count as equal
    null_means: np.ndarray    # the mean difference of every relabelling, in the order drawn
    first_flips: np.ndarray   # the first relabellings (up to 5 rows): 1 where the two scores are swapped

    def null_distribution(self, *, bins: int = 60) -> NullDistribution:
        """Histogram of the relabelled mean differences; the part at least as extreme as observed apart."""
        null = self.null_means
        edge = float(max(np.max(np.abs(null)), abs(self.observed))) or 1.0
        cut = abs(self.observed) - self.tolerance
        edges = np.linspace(-edge, edge, int(bins) + 1)
        frame = _split_histogram(null, np.abs(null) >= cut, edges)
        return NullDistribution("bars", "mean difference", frame, (-abs(self.observed), abs(self.observed)))


def randomization(a, b, *, n_resamples=10_000, seed=0) -> Randomization:
    r"""Fisher's randomization test: would a mean difference this large arise if the labels were random?

    If A and B were interchangeable, each query's two scores could have come out either way round:
    swapping them flips the sign of :math:`d_i`.  The p-value is the share of relabellings
    (:math:`2^n` sign patterns) whose mean difference is at least as far from 0 as the observed one.

    * **exact** when :math:`2^n \le` ``n_resamples``: every pattern once, :math:`p = c / 2^n`
      (the observed labelling is one of the :math:`c`);
    * **Monte Carlo** otherwise: ``n_resamples`` random patterns (``seed`` makes them reproducible;
      the same seed gives every pair of systems the same patterns), :math:`p = (c + 1) / (R + 1)`,
      which counts the observed labelling too and is never 0 (Phipson & Smyth 2010).  Its standard
      error :math:`\sqrt{p(1-p)/R}` says how far another seed's answer may land.

    Parameters
    ----------
    a, b : sequence of float
        The two systems' scores, one per query, in the same query order (at least 2 queries).
    n_resamples : int, keyword-only
        Largest number of relabellings (1 to :data:`MAX_RESAMPLES`).
    seed : int, keyword-only
        Seed of ``numpy.random.default_rng`` for the Monte Carlo patterns (0 to 2**63 - 1).

    Returns
    -------
    Randomization
        ``observed`` mean difference, ``method``, ``n_resamples`` used, ``n_extreme``, ``p_value``,
        ``standard_error``, ``tolerance``, every relabelled mean difference (``null_means``) and the
        first relabellings themselves (``first_flips``, 1 = swapped) so a class can recompute them.

    Examples
    --------
    Differences 0.2, 0.3, -0.1, 0.4 (sum 0.8).  Flipping a set F of queries gives the sum
    0.8 - 2 × sum(F); it is at least 0.8 away from 0 when sum(F) <= 0 (F = {} or {-0.1}) or
    sum(F) >= 0.8 (all four, or {0.2, 0.3, 0.4}): 4 of 16 patterns, p = 0.25.

    >>> r = randomization([0.5, 0.7, 0.3, 0.9], [0.3, 0.4, 0.4, 0.5])
    >>> r.method, r.n_resamples, r.n_extreme, r.p_value
    ('exact', 16, 4, 0.25)
    >>> np.sort(r.null_means).round(2).tolist()[:3]   # the most negative relabelled means
    [-0.25, -0.2, -0.15]
    >>> r.first_flips[1].tolist(), round(float(r.null_means[1]), 4)   # swap query 1: (0.8 - 0.4) / 4
    ([1, 0, 0, 0], 0.1)
    """
    _, _, d = _pair(a, b)
    r = _check_resamples(n_resamples)
    s = _check_seed(seed)
    col = d[:, None]
    method, used, counts, null = _flip_test(col, r, s, keep=True)
    first = next(_sign_blocks(d.size, r, s))[:5].astype(np.int8)
    first.flags.writeable = False
    exact = method == "exact"
    p = float(_flip_p(counts, used, exact)[0])
    se = 0.0 if exact else math.sqrt(p * (1 - p) / used)
    return Randomization(_readonly(d), d.size, math.fsum(d) / d.size, method, used, s, int(counts[0]), p, se,
                         float(_tolerance(col)[0]), _readonly(null[:, 0]), first)


# ------------------------------------------------------------------------------------------- bootstrap

def resample_batch(n: int) -> int:
    """Bootstrap resamples drawn per block for ``n`` queries (the ``batch`` given to scipy).

    The resamples depend on it (each block is one ``rng.integers`` call), so :func:`bootstrap_ci` and
    :func:`all_pairs` use the same value, and so can anyone reproducing them with
    :func:`scipy.stats.bootstrap`.

    Parameters
    ----------
    n : int >= 1
        The number of queries (the length of each resample).

    Returns
    -------
    int
        ``max(1, 2**22 // n)``: one block holds about 2**22 = 4,194,304 numbers (32 MB as float64).

    Examples
    --------
    4194304 // 10 = 419430; 4194304 // 10000 = 419:

    >>> resample_batch(10), resample_batch(10_000)
    (419430, 419)
    """
    return max(1, _CHUNK_CELLS // int(n))


def _bootstrap_means(d: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    """Resample means (R × P) for every column of ``d`` with the resamples scipy draws for one column."""
    n = d.shape[0]
    rng = np.random.default_rng(seed)
    batch = resample_batch(n)
    out = np.empty((n_resamples, d.shape[1]))
    sub = 64  # rows counted at a time: the counting array stays in cache (10x faster than whole blocks)
    for start in range(0, n_resamples, batch):
        r = min(batch, n_resamples - start)
        idx = rng.integers(0, n, (r, n), dtype=np.int64)
        counts = np.empty((r, n))
        offsets = (np.arange(sub, dtype=np.int64) * n)[:, None]
        for s in range(0, r, sub):
            k = min(sub, r - s)
            counts[s:s + k] = np.bincount((idx[s:s + k] + offsets[:k]).ravel(), minlength=k * n).reshape(k, n)
        out[start:start + r] = (counts @ d) / n
    return out


def _bca_levels(means_b: np.ndarray, d: np.ndarray, confidence: float):
    """BCa percentile levels per column: (lower, upper, z0, acceleration)."""
    n = d.shape[0]
    mean = _column_sums(d) / n
    tol = _tolerance(d)
    R = means_b.shape[0]
    below = np.count_nonzero(means_b < mean - tol, axis=0)
    at_or_below = np.count_nonzero(means_b <= mean + tol, axis=0)
    z0 = special.ndtri((below + at_or_below) / (2 * R))
    dev = d - mean
    m2 = np.array([math.fsum(dev[:, j] ** 2) for j in range(d.shape[1])])
    m3 = np.array([math.fsum(dev[:, j] ** 3) for j in range(d.shape[1])])
    with np.errstate(invalid="ignore", divide="ignore"):
        acc = np.where(m2 > 0, m3 / (6 * m2**1.5), 0.0)
        z_alpha = special.ndtri((1 - confidence) / 2)
        num1, num2 = z0 + z_alpha, z0 - z_alpha
        lower = special.ndtr(z0 + num1 / (1 - acc * num1))
        upper = special.ndtr(z0 + num2 / (1 - acc * num2))
    return lower, upper, z0, acc


def _interval(means_b: np.ndarray, lower, upper) -> tuple[np.ndarray, np.ndarray]:
    levels = np.stack([np.broadcast_to(lower, means_b.shape[1]), np.broadcast_to(upper, means_b.shape[1])], axis=-1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ci = stats.quantile(means_b.T, levels, axis=-1)
    return ci[..., 0], ci[..., 1]


@dataclass(frozen=True, eq=False)
class BootstrapCI:
    r"""A bootstrap confidence interval of the mean difference (see :func:`bootstrap_ci`)."""

    differences: np.ndarray
    n: int
    mean: float
    confidence: float
    method: str               # "percentile" or "bca"
    n_resamples: int
    seed: int
    low: float
    high: float
    lower_level: float        # the percentile levels read off the resample means (as fractions)
    upper_level: float
    z0: float                 # BCa bias correction (NaN for percentile)
    acceleration: float       # BCa acceleration (NaN for percentile)
    standard_error: float     # sd of the resample means
    resample_means: np.ndarray
    first_resamples: np.ndarray  # query positions (0-based) of the first resamples, one row each

    def null_distribution(self, *, bins: int = 60) -> NullDistribution:
        """Histogram of the resample means; ``extreme`` marks the part *outside* the interval."""
        m = self.resample_means
        lo, hi = float(m.min()), float(m.max())
        if hi <= lo:
            lo, hi = lo - 0.5, hi + 0.5
        edges = np.linspace(lo, hi, int(bins) + 1)
        frame = _split_histogram(m, (m < self.low) | (m > self.high), edges)
        return NullDistribution("bars", "mean difference", frame, (self.low, self.high))


def bootstrap_ci(a, b, *, confidence=0.95, n_resamples=10_000, seed=0, method="percentile") -> BootstrapCI:
    r"""Bootstrap confidence interval of the mean difference (resampling queries), via :func:`scipy.stats.bootstrap`.

    Draw n queries *with replacement* from the n queries, take the mean difference of the draw, and
    repeat ``n_resamples`` times: the spread of these resample means shows how much the mean
    difference would vary with another sample of queries.

    * ``"percentile"`` (default, the one to do by hand): the interval is the middle ``confidence`` of
      the resample means, e.g. their 2.5th and 97.5th percentiles (linear interpolation between
      neighbours, as :func:`numpy.quantile`).
    * ``"bca"`` (bias-corrected and accelerated, Efron 1987; scipy's default): the same resample
      means read at shifted levels :math:`\Phi\big(z_0 + \frac{z_0 + z_\alpha}{1 - a(z_0 + z_\alpha)}\big)`,
      where :math:`z_0 = \Phi^{-1}` (share of resample means below the observed one, ties counting
      half) corrects for bias and :math:`a = \frac{\sum (d_i - \bar d)^3}{6 (\sum (d_i - \bar d)^2)^{3/2}}`
      (the jackknife acceleration, in closed form for the mean) for skew.  Better coverage when the
      differences are skewed, as per-query differences often are.

    The resamples are those of :func:`scipy.stats.bootstrap` with ``rng=numpy.random.default_rng(seed)``
    and ``batch=resample_batch(n)``; the percentile interval is scipy's, the BCa levels are computed
    here (with this module's tie rule) and read off the same resample means.

    Parameters
    ----------
    a, b : sequence of float
        The two systems' scores, one per query, in the same query order (at least 2 queries).
    confidence : float, keyword-only
        Confidence level, 0 < c < 1.
    n_resamples : int, keyword-only
        Number of bootstrap resamples (1 to :data:`MAX_RESAMPLES`).
    seed : int, keyword-only
        Seed of ``numpy.random.default_rng`` (0 to 2**63 - 1).
    method : {"percentile", "bca"}, keyword-only
        Which interval.

    Returns
    -------
    BootstrapCI
        ``mean``, ``low``, ``high``, the ``lower_level``/``upper_level`` read, ``z0`` and
        ``acceleration`` (BCa), ``standard_error``, every ``resample_means`` and the query positions of
        the ``first_resamples`` (up to 5) so a class can recompute them.

    Examples
    --------
    The first resample draws queries 4, 3, 3, 2 (0-based positions 3, 2, 2, 1): differences 0.4, -0.1,
    -0.1, 0.3, mean 0.5 / 4 = 0.125.  Over 10,000 resamples the 2.5th and 97.5th percentiles of such
    means are 0 (-4e-17: 0.2 + 0.3 - 0.1 - 0.4 in binary) and 0.35.

    >>> r = bootstrap_ci([0.5, 0.7, 0.3, 0.9], [0.3, 0.4, 0.4, 0.5])
    >>> r.first_resamples[0].tolist(), round(float(r.resample_means[0]), 4)
    ([3, 2, 2, 1], 0.125)
    >>> r.method, abs(round(r.low, 4)), round(r.high, 4)
    ('percentile', 0.0, 0.35)
    """
    _, _, d = _pair(a, b)
    conf = _check_confidence(confidence)
    R = _check_resamples(n_resamples)
    s = _check_seed(seed)
    how = _choice(method, BOOTSTRAP_METHODS, "method")
    n = d.size
    batch = resample_batch(n)
    res = stats.bootstrap((d,), np.mean, n_resamples=R, batch=batch, vectorized=True, confidence_level=conf,
                          method="percentile", rng=np.random.default_rng(s))
    means_b = np.asarray(res.bootstrap_distribution, dtype=float)
    alpha = (1 - conf) / 2
    if how == "bca":
        lower, upper, z0, acc = (float(x[0]) for x in _bca_levels(means_b[:, None], d[:, None], conf))
        low, high = (float(x[0]) for x in _interval(means_b[:, None], lower, upper))
    else:
        lower, upper, z0, acc = alpha, 1 - alpha, math.nan, math.nan
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    first = np.random.default_rng(s).integers(0, n, (min(batch, R), n), dtype=np.int64)[:5]
    first.flags.writeable = False
    return BootstrapCI(_readonly(d), n, math.fsum(d) / n, conf, how, R, s, low, high, lower, upper, z0, acc,
                       float(res.standard_error), _readonly(means_b), first)


# ---------------------------------------------------------------------------------------- corrections

@dataclass(frozen=True, eq=False)
class Correction:
    """p-values corrected for several comparisons (see :func:`holm`, :func:`bonferroni`)."""

    method: str                 # "holm", "bonferroni" or "none"
    alpha: float
    p_values: np.ndarray        # as given
    m: int                      # number of comparisons
    order: np.ndarray           # positions of the p-values from smallest to largest (ties keep input order)
    multipliers: np.ndarray     # in that order: m, m-1, ..., 1 (Holm) or m, m, ..., m (Bonferroni)
    stepwise: np.ndarray        # in that order: multiplier × p, before the running maximum and the cap at 1
    adjusted: np.ndarray        # corrected p-values, in input order
    rejected: np.ndarray        # adjusted <= alpha, in input order


def _as_pvalues(pvalues) -> np.ndarray:
    p = _values(pvalues, "pvalues")
    if p.size == 0:
        raise ValueError("pvalues is empty; give at least one p-value")
    bad = np.flatnonzero((p < 0) | (p > 1))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"pvalues at position {i + 1} is {p[i]!r}; a p-value is between 0 and 1")
    return p


def correct(pvalues, *, method="holm", alpha=0.05) -> Correction:
    r"""Correct p-values for ``m`` comparisons: ``"holm"``, ``"bonferroni"`` or ``"none"``.

    Comparing 10 systems pair by pair makes 45 tests; at 5 % each, about two would come out
    "significant" by chance alone.  **Bonferroni** multiplies every p by m.  **Holm** (1979) is
    uniformly better and as safe (it controls the family-wise error rate at ``alpha`` too): sort the
    p-values, multiply the smallest by m, the next by m - 1, ..., the largest by 1, then make them
    non-decreasing (running maximum) and cap at 1.

    Parameters
    ----------
    pvalues : sequence of float
        One p-value per comparison, each in [0, 1].
    method : {"holm", "bonferroni", "none"}, keyword-only
    alpha : float, keyword-only
        Level at which ``rejected`` is decided (0 < alpha < 1).

    Returns
    -------
    Correction
        ``order``, ``multipliers``, ``stepwise`` (in sorted order), ``adjusted`` and ``rejected``
        (in input order).

    Examples
    --------
    p = 0.01, 0.04, 0.03, 0.20 (m = 4).  Sorted: 0.01, 0.03, 0.04, 0.20; Holm multiplies by 4, 3, 2, 1:
    0.04, 0.09, 0.08, 0.20; the running maximum lifts 0.08 to 0.09.  Bonferroni: 0.04, 0.16, 0.12, 0.80.

    >>> h = correct([0.01, 0.04, 0.03, 0.20], method="holm")
    >>> h.order.tolist(), h.multipliers.tolist(), h.adjusted.round(4).tolist()
    ([0, 2, 1, 3], [4, 3, 2, 1], [0.04, 0.09, 0.09, 0.2])
    >>> bonferroni([0.01, 0.04, 0.03, 0.20]).adjusted.round(4).tolist(), h.rejected.tolist()
    ([0.04, 0.16, 0.12, 0.8], [True, False, False, False])
    """
    p = _as_pvalues(pvalues)
    how = _choice(method, CORRECTIONS, "method")
    a = _check_alpha(alpha)
    m = p.size
    order = np.argsort(p, kind="stable")
    if how == "holm":
        mult = np.arange(m, 0, -1)
    elif how == "bonferroni":
        mult = np.full(m, m)
    else:
        mult = np.ones(m, dtype=int)
    step = mult * p[order]
    sorted_adj = np.minimum(np.maximum.accumulate(step) if how == "holm" else step, 1.0)
    adjusted = np.empty(m)
    adjusted[order] = sorted_adj
    for arr in (order, mult):
        arr.flags.writeable = False
    rejected = adjusted <= a
    rejected.flags.writeable = False
    return Correction(how, a, _readonly(p), m, order, mult, _readonly(step), _readonly(adjusted), rejected)


def holm(pvalues, *, alpha=0.05) -> Correction:
    """Holm's step-down correction; see :func:`correct`.

    Sort the p-values, multiply the smallest by m, the next by m - 1, ..., the largest by 1, then
    take the running maximum (an adjusted p may not be below the one before it) and cap at 1.

    Parameters
    ----------
    pvalues : sequence of float
        One p-value per comparison, each in [0, 1].
    alpha : float, default 0.05
        Level at which ``rejected`` is decided (0 < alpha < 1).

    Returns
    -------
    Correction
        As :func:`correct` with ``method="holm"``.

    Raises
    ------
    ValueError
        If ``pvalues`` is empty or holds a value outside [0, 1], or ``alpha`` is not in (0, 1).

    References
    ----------
    .. [1] S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian
       Journal of Statistics 6(2), 65-70, 1979.

    Examples
    --------
    m = 3.  Sorted: 0.01, 0.03, 0.04, multiplied by 3, 2, 1: 0.03, 0.06, 0.04; the running maximum
    lifts 0.04 to 0.06.  In input order (0.01, 0.04, 0.03):

    >>> holm([0.01, 0.04, 0.03]).adjusted.round(4).tolist()   # 0.01×3, 0.03×2, max(0.04×1, 0.06)
    [0.03, 0.06, 0.06]
    >>> holm([0.01, 0.04, 0.03]).rejected.tolist()            # only 0.03 <= 0.05
    [True, False, False]
    """
    return correct(pvalues, method="holm", alpha=alpha)


def bonferroni(pvalues, *, alpha=0.05) -> Correction:
    """Bonferroni's correction (every p times m, capped at 1); see :func:`correct`.

    Parameters
    ----------
    pvalues : sequence of float
        One p-value per comparison, each in [0, 1].
    alpha : float, default 0.05
        Level at which ``rejected`` is decided (0 < alpha < 1).

    Returns
    -------
    Correction
        As :func:`correct` with ``method="bonferroni"``.

    Raises
    ------
    ValueError
        If ``pvalues`` is empty or holds a value outside [0, 1], or ``alpha`` is not in (0, 1).

    See Also
    --------
    holm : as safe and never less powerful.

    Examples
    --------
    m = 3: 0.01 × 3 = 0.03, 0.04 × 3 = 0.12, 0.5 × 3 = 1.5 capped at 1:

    >>> bonferroni([0.01, 0.04, 0.5]).adjusted.round(4).tolist()
    [0.03, 0.12, 1.0]
    """
    return correct(pvalues, method="bonferroni", alpha=alpha)


# ------------------------------------------------------------------------------------------- many systems

def _frame(per_query, name: str = "per_query") -> tuple[np.ndarray, list[str], pd.Index]:
    if not isinstance(per_query, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame (one row per query, one column per system); "
                         f"got {type(per_query).__name__}")
    systems = [str(c) for c in per_query.columns]
    if len(systems) < 2:
        raise ValueError(f"{name} has {len(systems)} system column(s); comparing needs at least 2")
    dup = pd.Index(systems)[pd.Index(systems).duplicated()]
    if len(dup):
        raise ValueError(f"{name} has the system column {dup[0]!r} more than once; system names must be unique")
    if len(per_query) < 2:
        raise ValueError(f"{name} has {len(per_query)} query row(s); a paired test needs at least 2 queries")
    values = np.empty((len(per_query), len(systems)))
    for j in range(len(systems)):
        series = per_query.iloc[:, j]
        if pd.api.types.is_bool_dtype(series.dtype):
            raise ValueError(f"{name} column {systems[j]!r} holds booleans; give scores as numbers")
        numeric = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        bad = np.flatnonzero(~np.isfinite(numeric))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"{name} column {systems[j]!r} at query {per_query.index[i]!r} is "
                             f"{describe(series.iloc[i])}; every score must be a finite number "
                             "(fill or drop the queries a system did not answer)")
        values[:, j] = numeric
    return values, systems, per_query.index


def _test_columns(xa: np.ndarray, xb: np.ndarray, test: str, n_resamples: int, seed: int):
    """statistic, p, method label, relabellings used and counts as extreme (randomization) per column pair."""
    d = xa - xb
    P = d.shape[1]
    if test == "randomization":
        method, used, counts, _ = _flip_test(d, n_resamples, seed, keep=False)
        return (_column_sums(d) / d.shape[0], _flip_p(counts, used, method == "exact"), [method] * P, used,
                counts)
    stat, p, how = np.empty(P), np.empty(P), []
    for j in range(P):
        if test == "t":
            r = paired_t(xa[:, j], xb[:, j])
            stat[j], p[j] = r.t, r.p_value
            how.append("t")
        else:
            r = wilcoxon(xa[:, j], xb[:, j])
            stat[j], p[j] = r.statistic, r.p_value
            how.append(r.method)
    return stat, p, how, None, None


def _cis(d: np.ndarray, confidence: float, n_resamples: int, seed: int, method: str):
    means_b = _bootstrap_means(d, n_resamples, seed)
    if method == "bca":
        lower, upper, _, _ = _bca_levels(means_b, d, confidence)
    else:
        lower, upper = (1 - confidence) / 2, 1 - (1 - confidence) / 2
    return _interval(means_b, lower, upper)


def all_pairs(per_query, *, test="randomization", confidence=0.95, correction="holm", n_resamples=10_000,
              seed=0, bootstrap="percentile", intervals=True) -> pd.DataFrame:
    r"""Every pair of systems: mean difference, bootstrap CI, p-value, corrected p-value, wins and losses.

    One row per pair (A, B) with A before B in the column order; the difference is A - B.  All pairs
    share the same random relabellings (randomization test) and the same bootstrap resamples, drawn
    once and applied to every pair with a matrix product, so a pair's numbers equal those of
    :func:`randomization` and :func:`bootstrap_ci` on its two columns with the same seed.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query, one column per system (at least 2 of each); finite numbers only.
    test : {"t", "wilcoxon", "randomization"}, keyword-only
        :func:`paired_t`, :func:`wilcoxon` (``zero_method="wilcox"``) or :func:`randomization`.
    confidence : float, keyword-only
        Level of the bootstrap intervals; a pair is ``significant`` when its corrected p-value is at
        most 1 - ``confidence``.
    correction : {"holm", "bonferroni", "none"}, keyword-only
        Over all the pairs (m = k(k-1)/2 for k systems).
    n_resamples, seed : int, keyword-only
        For the randomization test and the bootstrap.
    bootstrap : {"percentile", "bca"}, keyword-only
        The bootstrap interval (see :func:`bootstrap_ci`).
    intervals : bool, keyword-only
        False skips the bootstrap (``ci_low`` and ``ci_high`` are NaN): the test alone, faster.

    Returns
    -------
    pandas.DataFrame
        Columns ``system_a``, ``system_b``, ``n``, ``mean_a``, ``mean_b``, ``mean_difference``,
        ``ci_low``, ``ci_high``, ``statistic`` (t, W or the mean difference), ``p_value``,
        ``p_corrected``, ``significant``, ``wins_a`` (queries where A > B), ``wins_b``, ``ties``,
        ``better`` (the system with the higher mean; None when equal), ``d_z``, ``test``, ``method``
        (``t``; ``exact``/``permutation``/``normal``; ``exact``/``monte_carlo``), ``n_resamples``
        (relabellings used; 0 for t and Wilcoxon), ``n_extreme`` (relabellings at least as extreme;
        missing for t and Wilcoxon) and ``correction``.

    Examples
    --------
    >>> frame = pd.DataFrame({"A": [0.5, 0.7, 0.3, 0.9], "B": [0.3, 0.4, 0.4, 0.5], "C": [0.5, 0.7, 0.3, 0.9]})
    >>> table = all_pairs(frame)
    >>> table[["system_a", "system_b", "wins_a", "wins_b", "ties", "better"]].values.tolist()
    [['A', 'B', 3, 1, 0, 'A'], ['A', 'C', 0, 0, 4, None], ['B', 'C', 1, 3, 0, 'C']]
    >>> table["p_value"].tolist(), table["p_corrected"].tolist()   # Holm: 0.25 × 3, 1 × 1 -> 1, 0.25 × 2
    ([0.25, 1.0, 0.25], [0.75, 1.0, 0.75])
    """
    values, systems, _ = _frame(per_query)
    how = _choice(test, TESTS, "test")
    conf = _check_confidence(confidence)
    corr = _choice(correction, CORRECTIONS, "correction")
    R = _check_resamples(n_resamples)
    s = _check_seed(seed)
    boot = _choice(bootstrap, BOOTSTRAP_METHODS, "bootstrap")
    pairs = list(combinations(range(len(systems)), 2))
    ia = np.array([i for i, _ in pairs])
    ib = np.array([j for _, j in pairs])
    return _pair_table(values, systems, ia, ib, how, conf, corr, R, s, boot, _check_flag(intervals, "intervals"))


def _check_flag(value, name: str) -> bool:
    return check_flag(value, name=name)


def _pair_table(values, systems, ia, ib, test, conf, corr, R, seed, boot, intervals=True) -> pd.DataFrame:
    xa, xb = values[:, ia], values[:, ib]
    d = xa - xb
    bad = np.argwhere(~np.isfinite(d))
    if bad.size:
        i, j = (int(x) for x in bad[0])
        raise ValueError(f"the difference {systems[ia[j]]!r} - {systems[ib[j]]!r} at query row {i + 1} is not a "
                         "finite float; the scores are too large to subtract")
    n = d.shape[0]
    stat, p, method, used, extreme = _test_columns(xa, xb, test, R, seed)
    alpha = _alpha_of(conf)
    adjusted = correct(p, method=corr, alpha=alpha).adjusted
    low, high = _cis(d, conf, R, seed, boot) if intervals else (np.full(d.shape[1], np.nan),) * 2
    mean_a = np.array([math.fsum(values[:, i]) / n for i in ia])
    mean_b = np.array([math.fsum(values[:, j]) / n for j in ib])
    mean_d = _column_sums(d) / n
    sds = [_moments(d[:, j])[1] for j in range(d.shape[1])]
    better = [systems[i] if ma > mb else systems[j] if mb > ma else None
              for i, j, ma, mb in zip(ia, ib, mean_a, mean_b)]
    return pd.DataFrame({
        "system_a": [systems[i] for i in ia], "system_b": [systems[j] for j in ib], "n": n,
        "mean_a": mean_a, "mean_b": mean_b, "mean_difference": mean_d, "ci_low": low, "ci_high": high,
        "statistic": stat, "p_value": p, "p_corrected": adjusted, "significant": adjusted <= alpha,
        "wins_a": np.count_nonzero(d > 0, axis=0), "wins_b": np.count_nonzero(d < 0, axis=0),
        "ties": np.count_nonzero(d == 0, axis=0), "better": pd.Series(better, dtype=object),
        "d_z": [_dz(m, sd) for m, sd in zip(mean_d, sds)], "test": test, "method": method,
        "n_resamples": used or 0,
        "n_extreme": pd.array(extreme if extreme is not None else [pd.NA] * len(p), dtype="Int64"),
        "correction": corr,
    })


def winners(per_query: Mapping, *, test="randomization", confidence=0.95, correction="holm", n_resamples=10_000,
            seed=0, bootstrap="percentile", intervals=True) -> pd.DataFrame:
    """For each variant (or measure): is the winner significantly better than every other system?

    The winner is the system with the highest mean (the first one on a tie).  It is compared with
    each of the k - 1 others (k - 1 tests, corrected together); the win is ``significant`` when every
    corrected p-value is at most 1 - ``confidence`` and the winner's mean is strictly the highest.
    ``closest`` is the system the winner is least clearly ahead of (largest corrected p-value; the
    smallest lead among equal ones).  Variants with the same number of queries share one draw of
    relabellings and resamples (one matrix product for all of them), so each comparison equals
    :func:`all_pairs` on the same two columns.

    Parameters
    ----------
    per_query : mapping of str to pandas.DataFrame
        For each variant, one row per query and one column per system (as :func:`all_pairs`).
    test, confidence, correction, n_resamples, seed, bootstrap, intervals : keyword-only
        As :func:`all_pairs`.

    Returns
    -------
    pandas.DataFrame
        One row per variant: ``variant``, ``winner``, ``winner_mean``, ``closest``, ``closest_mean``,
        ``mean_difference``, ``ci_low``, ``ci_high``, ``p_value``, ``p_corrected`` (against the
        closest), ``significant``, ``n_comparisons``.

    Examples
    --------
    >>> frame = pd.DataFrame({"A": [0.5, 0.7, 0.3, 0.9], "B": [0.3, 0.4, 0.4, 0.5]})
    >>> w = winners({"ndcg": frame, "same": frame[["A"]].assign(B=frame["A"])})
    >>> w[["variant", "winner", "closest", "p_corrected", "significant"]].values.tolist()
    [['ndcg', 'A', 'B', 0.25, False], ['same', 'A', 'B', 1.0, False]]
    """
    if not isinstance(per_query, Mapping) or not per_query:
        raise ValueError("per_query must be a non-empty mapping of variant name to DataFrame; "
                         f"got {describe(per_query)}")
    how = _choice(test, TESTS, "test")
    conf = _check_confidence(confidence)
    corr = _choice(correction, CORRECTIONS, "correction")
    R = _check_resamples(n_resamples)
    s = _check_seed(seed)
    boot = _choice(bootstrap, BOOTSTRAP_METHODS, "bootstrap")
    with_ci = _check_flag(intervals, "intervals")
    alpha = _alpha_of(conf)
    prepared = []
    for name, frame in per_query.items():
        values, systems, _ = _frame(frame, f"per_query[{name!r}]")
        n = values.shape[0]
        means = np.array([math.fsum(values[:, j]) / n for j in range(values.shape[1])])
        w = int(np.argmax(means))
        others = np.array([j for j in range(len(systems)) if j != w])
        prepared.append((name, values, systems, w, others, means))
    tables = {}
    for n in dict.fromkeys(v.shape[0] for _, v, *_ in prepared):
        group = [item for item in prepared if item[1].shape[0] == n]
        offsets = np.cumsum([0] + [item[1].shape[1] for item in group])
        values = np.hstack([item[1] for item in group])
        systems = [name for item in group for name in item[2]]
        ia = np.concatenate([np.full(item[4].size, off + item[3]) for item, off in zip(group, offsets)])
        ib = np.concatenate([item[4] + off for item, off in zip(group, offsets)])
        table = _pair_table(values, systems, ia, ib, how, conf, "none", R, s, boot, with_ci)
        start = 0
        for item in group:
            part = table.iloc[start:start + item[4].size].reset_index(drop=True)
            start += item[4].size
            part["p_corrected"] = correct(part["p_value"].to_numpy(), method=corr, alpha=alpha).adjusted
            part["significant"] = part["p_corrected"] <= alpha
            tables[item[0]] = part
    rows = []
    for name, _, systems, w, others, means in prepared:
        table = tables[name]
        k = int(np.lexsort((table["mean_difference"].to_numpy(), -table["p_corrected"].to_numpy()))[0])
        strictly = bool(np.all(means[others] < means[w]))
        rows.append({
            "variant": name, "winner": systems[w], "winner_mean": means[w],
            "closest": table["system_b"].iloc[k], "closest_mean": table["mean_b"].iloc[k],
            "mean_difference": table["mean_difference"].iloc[k], "ci_low": table["ci_low"].iloc[k],
            "ci_high": table["ci_high"].iloc[k], "p_value": table["p_value"].iloc[k],
            "p_corrected": table["p_corrected"].iloc[k],
            "significant": bool(strictly and table["significant"].all()), "n_comparisons": int(others.size),
        })
    return pd.DataFrame(rows)
