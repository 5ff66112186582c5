"""Rating-prediction accuracy of document 002: RMSE (formula 1) and MAE (formula 2).

For every (user, item) pair in the test set, ``r`` is the true rating and
``r_hat`` the predicted one.  Both metrics average the errors ``r - r_hat``;
RMSE squares them first, so one large error costs more than several small ones
of the same total: MAE <= RMSE <= sqrt(|Test|) × MAE.

No overflow: the errors are scaled by a power of two near the largest |error|
before they are squared and summed, and the result is scaled back.  Scaling by a
power of two is exact, so for ordinary ratings the numbers are bit for bit those
of the textbook formulas, and an error of 1e200 gives RMSE = MAE = 1e200 instead
of ``inf`` (1e200² is beyond float64).  Only an error that is itself beyond
float64 (``1e308 - (-1e308)``) is refused, with a ValueError naming the pair.
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from .._numbers import as_reals
from .._validation import as_list, as_real, describe
from .inputs import as_sequence

__all__ = ["ErrorBeyondFloat", "as_ratings", "errors", "totals", "error_shares", "rmse", "mae", "error_sweep"]


class ErrorBeyondFloat(ValueError):
    """A pair whose error r - r_hat is beyond float64; ``pair`` is its 1-based position."""

    def __init__(self, message: str, *, pair: int):
        super().__init__(message)
        self.pair = pair


def as_ratings(true, predicted) -> tuple[np.ndarray, np.ndarray]:
    """Validate two equally long, non-empty lists of finite ratings whose differences are finite.

    Parameters
    ----------
    true, predicted : sequence of float
        The ratings given and the ratings predicted, pair by pair.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Both as float64 arrays.

    Raises
    ------
    ValueError
        Naming the list and position of a non-number, NaN or infinity, unequal lengths or an empty
        list; :class:`ErrorBeyondFloat` (a ValueError) for a pair whose error r - r_hat is beyond
        float64 (about 1.8e308).

    Examples
    --------
    >>> as_ratings([4, 3], [3.5, 3])[1].tolist()
    [3.5, 3.0]
    >>> as_ratings([4, 3], [3.5])
    Traceback (most recent call last):
    ...
    ValueError: predicted has 1 values but true has 2; give one prediction per true rating
    >>> try:
    ...     as_ratings([1e308], [-1e308])
    ... except ErrorBeyondFloat as exc:
    ...     print(exc.pair, exc)
    1 pair 1: the error 1e+308 - (-1e+308) is beyond the largest float (about 1.8e308)
    """
    t = as_sequence(true, "true")
    p = as_sequence(predicted, "predicted")
    if not len(t):
        raise ValueError("true is empty; give at least one rating")
    if len(p) != len(t):
        raise ValueError(f"predicted has {len(p)} values but true has {len(t)}; give one prediction per true rating")
    ta = as_reals(t, "true")
    pa = as_reals(p, "predicted")
    with np.errstate(over="ignore"):
        bad = np.flatnonzero(~np.isfinite(ta - pa))
    if bad.size:
        i = int(bad[0])
        raise ErrorBeyondFloat(f"pair {i + 1}: the error {ta[i]:g} - ({pa[i]:g}) is beyond the largest float "
                               "(about 1.8e308)", pair=i + 1)
    return ta, pa


def _scale_of(abs_errors: np.ndarray) -> int:
    """The exponent E with max|e| < 2**E (0 when every error is 0): e / 2**E is exact and below 1."""
    top = float(abs_errors.max()) if abs_errors.size else 0.0
    return math.frexp(top)[1] if top > 0 else 0


def _sums(abs_errors: np.ndarray) -> tuple[int, float, float]:
    """``(E, Σ|e|/2**E, Σ(e/2**E)²)``, exactly rounded sums that cannot overflow (each term <= 1)."""
    exp = _scale_of(abs_errors)
    scaled = np.ldexp(abs_errors, -exp)
    return exp, math.fsum(scaled.tolist()), math.fsum((scaled * scaled).tolist())


def _rmse_mae(abs_errors: np.ndarray) -> tuple[float, float]:
    exp, s_abs, s_sq = _sums(abs_errors)
    n = abs_errors.size
    return math.ldexp(math.sqrt(s_sq / n), exp), math.ldexp(s_abs / n, exp)


def _beyond(exp: int, scaled_sum: float, power: int) -> float:
    """``scaled_sum × 2**(power·exp)`` as a float, ``inf`` when beyond float64."""
    try:
        return math.ldexp(scaled_sum, power * exp)
    except OverflowError:
        return math.inf


def errors(true, predicted) -> pd.DataFrame:
    """One row per test pair: the working behind :func:`rmse` and :func:`mae`.

    Parameters
    ----------
    true, predicted : sequence of float
        Ratings, pair by pair (see :func:`as_ratings`).

    Returns
    -------
    pandas.DataFrame
        Columns ``pair`` (1-based), ``true``, ``predicted``, ``error`` = r - r_hat,
        ``abs_error`` and ``squared_error``.  ``squared_error`` is ``inf`` when |error| is
        above about 1.34e154 (its square is beyond float64); :func:`totals` and the metrics
        never use it.

    Examples
    --------
    Pair 1: 4 - 3 = 1, squared 1; pair 2: 2 - 4 = -2, |-2| = 2, squared 4.

    >>> errors([4, 2], [3, 4])[["error", "abs_error", "squared_error"]].values.tolist()
    [[1.0, 1.0, 1.0], [-2.0, 2.0, 4.0]]
    """
    t, p = as_ratings(true, predicted)
    e = t - p
    with np.errstate(over="ignore"):
        squared = e * e
    return pd.DataFrame({
        "pair": np.arange(1, t.size + 1),
        "true": t,
        "predicted": p,
        "error": e,
        "abs_error": np.abs(e),
        "squared_error": squared,
    })


def totals(true, predicted) -> dict:
    """The sums behind the formulas, and both metrics.

    Parameters
    ----------
    true, predicted : sequence of float
        Ratings, pair by pair (see :func:`as_ratings`).

    Returns
    -------
    dict
        ``n`` = |Test|; ``sum_squared`` = Σ(r - r_hat)² and ``sum_abs`` = Σ|r - r_hat|
        (``inf`` only when the sum itself is beyond float64); ``rmse``; ``mae``;
        ``max_abs`` = the largest |error|; ``scaled_sum_squared`` = Σ(e / max_abs)² and
        ``scaled_sum_abs`` = Σ|e| / max_abs, the sums to show when ``sum_squared`` or ``sum_abs``
        is ``inf`` (RMSE = max_abs × sqrt(Σ(e / max_abs)² / n), MAE = max_abs × (Σ|e| / max_abs) / n);
        both 0.0 when every error is 0.

    Examples
    --------
    Errors 1, -2, 0, 1: squares 1 + 4 + 0 + 1 = 6, RMSE = sqrt(6/4); sizes 1 + 2 + 0 + 1 = 4,
    MAE = 4/4.  Scaled by the largest error 2: (1/2)² + 1² + 0 + (1/2)² = 1.5 and 1/2 + 1 + 0 + 1/2 = 2.

    >>> totals([4, 2, 5, 3], [3, 4, 5, 2])
    {'n': 4, 'sum_squared': 6.0, 'sum_abs': 4.0, 'rmse': 1.224744871391589, 'mae': 1.0, 'max_abs': 2.0, \
'scaled_sum_squared': 1.5, 'scaled_sum_abs': 2.0}

    Errors 1e200 and -1e200: the squares 1e400 are beyond float64, RMSE = sqrt(2e400 / 2) and MAE are not.

    >>> big = totals([1e200, -1e200], [0, 0])
    >>> big["sum_squared"], big["rmse"], big["mae"], big["scaled_sum_squared"], big["scaled_sum_abs"]
    (inf, 1e+200, 1e+200, 2.0, 2.0)
    """
    t, p = as_ratings(true, predicted)
    a = np.abs(t - p)
    exp, s_abs, s_sq = _sums(a)
    r, m = _rmse_mae(a)
    top = float(a.max())
    ratios = a / top if top > 0 else a
    return {"n": int(t.size), "sum_squared": _beyond(exp, s_sq, 2), "sum_abs": _beyond(exp, s_abs, 1),
            "rmse": r, "mae": m, "max_abs": top, "scaled_sum_squared": math.fsum((ratios * ratios).tolist()),
            "scaled_sum_abs": math.fsum(ratios.tolist())}


def error_shares(true, predicted) -> pd.DataFrame:
    """Each pair's share of Σ|e| (what MAE averages) and of Σe² (what RMSE averages before the root).

    Parameters
    ----------
    true, predicted : sequence of float
        Ratings, pair by pair (see :func:`as_ratings`).

    Returns
    -------
    pandas.DataFrame
        Columns ``pair``, ``share_abs`` = |e_i| / Σ|e| and ``share_squared`` = e_i² / Σe²; each
        column sums to 1, or is all 0 when every prediction is exact.  Computed on scaled
        errors, so huge errors give the same shares as small ones in the same proportions.

    Examples
    --------
    Errors 1 and 3: shares of |e| are 1/4 and 3/4, of e² 1/10 and 9/10: squaring hands
    the big error most of the total.

    >>> shares = error_shares([0, 0], [1, 3])
    >>> shares[["share_abs", "share_squared"]].values.tolist()
    [[0.25, 0.1], [0.75, 0.9]]
    """
    t, p = as_ratings(true, predicted)
    a = np.abs(t - p)
    exp, s_abs, s_sq = _sums(a)
    scaled = np.ldexp(a, -exp)
    abs_share = scaled / s_abs if s_abs else scaled * 0.0
    sq_share = scaled * scaled / s_sq if s_sq else scaled * 0.0
    return pd.DataFrame({"pair": np.arange(1, t.size + 1), "share_abs": abs_share, "share_squared": sq_share})


def rmse(true, predicted) -> float:
    """Root mean squared error, document 002 formula (1): sqrt(Σ (r - r_hat)² / |Test|).

    Parameters
    ----------
    true, predicted : sequence of float
        Ratings, pair by pair (see :func:`as_ratings`).

    Returns
    -------
    float
        RMSE >= 0, finite for every accepted input (computed on scaled errors).

    Examples
    --------
    Errors 1, -2, 0, 1: squares 1 + 4 + 0 + 1 = 6, 6 / 4 = 1.5, sqrt(1.5) = 1.2247

    >>> round(rmse([4, 2, 5, 3], [3, 4, 5, 2]), 4)
    1.2247

    Errors 3e200 and 4e200: sqrt((9e400 + 16e400) / 2) = sqrt(12.5) × 1e200, although 9e400 is
    beyond float64.

    >>> math.isclose(rmse([3e200, 4e200], [0, 0]), math.sqrt(12.5) * 1e200, rel_tol=1e-15)
    True
    """
    t, p = as_ratings(true, predicted)
    return _rmse_mae(np.abs(t - p))[0]


def mae(true, predicted) -> float:
    """Mean absolute error, document 002 formula (2): Σ |r - r_hat| / |Test|.

    Parameters
    ----------
    true, predicted : sequence of float
        Ratings, pair by pair (see :func:`as_ratings`).

    Returns
    -------
    float
        MAE >= 0, finite for every accepted input.

    Examples
    --------
    Errors 1, -2, 0, 1: (1 + 2 + 0 + 1) / 4 = 1.0

    >>> mae([4, 2, 5, 3], [3, 4, 5, 2])
    1.0

    Two errors of 1.5e308 each: their sum 3e308 is beyond float64, their mean is not.

    >>> mae([1.5e308, 0], [0, -1.5e308])
    1.5e+308
    """
    t, p = as_ratings(true, predicted)
    return _rmse_mae(np.abs(t - p))[1]


def error_sweep(true, predicted, *, pair, extra) -> pd.DataFrame:
    """RMSE and MAE when the prediction of one pair is pushed ``extra`` further away.

    Shows why RMSE punishes a large error more: MAE grows linearly with the
    extra error (slope 1/|Test|), while RMSE grows faster, its slope rising
    towards 1/sqrt(|Test|) once that one error dominates the others.

    Parameters
    ----------
    true, predicted : sequence of float
        Ratings, pair by pair (see :func:`as_ratings`).
    pair : int
        Which pair (1-based, 1 to |Test|) gets the extra error.
    extra : sequence of float
        Amounts >= 0 added to that pair's absolute error; the grown error must stay within
        float64.

    Returns
    -------
    pandas.DataFrame
        One row per amount: ``extra``, ``error`` (that pair's new |error|), ``rmse``, ``mae``.

    Examples
    --------
    Four exact predictions, then one error of 4 in 4 pairs: MAE = 4/4 = 1, RMSE = sqrt(16/4) = 2.

    >>> t = error_sweep([3, 3, 3, 3], [3, 3, 3, 3], pair=1, extra=[0, 4])
    >>> t.values.tolist()
    [[0.0, 0.0, 0.0, 0.0], [4.0, 4.0, 2.0, 1.0]]
    """
    t, p = as_ratings(true, predicted)
    if isinstance(pair, (bool, np.bool_)) or not isinstance(pair, numbers.Integral) or not 1 <= pair <= t.size:
        raise ValueError(f"pair must be a whole number from 1 to {t.size}, got {describe(pair)}")
    amounts = [as_real(v, "extra", i) for i, v in enumerate(as_list(extra, "extra"), start=1)]
    base = np.abs(t - p)
    rows = []
    for i, a in enumerate(amounts, start=1):
        if a < 0:
            raise ValueError(f"extra at position {i} is {a!r}; extra amounts must be >= 0")
        e = base.copy()
        with np.errstate(over="ignore"):
            e[pair - 1] += a
        if not math.isfinite(e[pair - 1]):
            raise ValueError(f"extra at position {i} is {a!r}: pair {pair}'s error would be beyond the largest "
                             "float (about 1.8e308)")
        r, m = _rmse_mae(e)
        rows.append({"extra": a, "error": float(e[pair - 1]), "rmse": r, "mae": m})
    return pd.DataFrame(rows, columns=["extra", "error", "rmse", "mae"])
