"""Rating-prediction accuracy of document 002: RMSE (formula 1) and MAE (formula 2).

For every (user, item) pair in the test set, ``r`` is the true rating and
``r_hat`` the predicted one.  Both metrics average the errors ``r - r_hat``;
RMSE squares them first, so one large error costs more than several small ones
of the same total: MAE <= RMSE <= sqrt(|Test|) × MAE.
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from .._numbers import as_reals
from .._validation import as_list, as_real, describe

__all__ = ["as_ratings", "errors", "totals", "error_shares", "rmse", "mae", "error_sweep"]


def as_ratings(true, predicted) -> tuple[np.ndarray, np.ndarray]:
    """Validate two equally long, non-empty lists of finite ratings.

    >>> as_ratings([4, 3], [3.5, 3])[1].tolist()
    [3.5, 3.0]
    >>> as_ratings([4, 3], [3.5])
    Traceback (most recent call last):
    ...
    ValueError: predicted has 1 values but true has 2; give one prediction per true rating
    """
    t = as_list(true, "true")
    p = as_list(predicted, "predicted")
    if not t:
        raise ValueError("true is empty; give at least one rating")
    if len(p) != len(t):
        raise ValueError(f"predicted has {len(p)} values but true has {len(t)}; give one prediction per true rating")
    return as_reals(true if isinstance(true, np.ndarray) else t, "true"), as_reals(
        predicted if isinstance(predicted, np.ndarray) else p, "predicted")


def errors(true, predicted) -> pd.DataFrame:
    """One row per test pair: ``pair`` (1-based), ``true``, ``predicted``, ``error`` = r - r_hat,
    ``abs_error`` and ``squared_error``: the working behind :func:`rmse` and :func:`mae`.

    >>> errors([4, 2], [3, 4])[["error", "abs_error", "squared_error"]].values.tolist()
    [[1.0, 1.0, 1.0], [-2.0, 2.0, 4.0]]
    """
    t, p = as_ratings(true, predicted)
    e = t - p
    return pd.DataFrame({
        "pair": np.arange(1, t.size + 1),
        "true": t,
        "predicted": p,
        "error": e,
        "abs_error": np.abs(e),
        "squared_error": e * e,
    })


def totals(true, predicted) -> dict:
    """The sums behind the formulas: ``n`` = |Test|, ``sum_squared``, ``sum_abs``, ``rmse``, ``mae``.

    >>> totals([4, 2, 5, 3], [3, 4, 5, 2])
    {'n': 4, 'sum_squared': 6.0, 'sum_abs': 4.0, 'rmse': 1.224744871391589, 'mae': 1.0}
    """
    t, p = as_ratings(true, predicted)
    e = t - p
    sum_squared = math.fsum((e * e).tolist())
    sum_abs = math.fsum(np.abs(e).tolist())
    return {"n": int(t.size), "sum_squared": sum_squared, "sum_abs": sum_abs,
            "rmse": math.sqrt(sum_squared / t.size), "mae": sum_abs / t.size}


def error_shares(true, predicted) -> pd.DataFrame:
    """Each pair's share of Σ|e| (what MAE averages) and of Σe² (what RMSE averages before the root).

    Errors 1 and 3: shares of |e| are 1/4 and 3/4, of e² 1/10 and 9/10: squaring hands
    the big error most of the total.  All shares are 0 when every prediction is exact.

    >>> errors_ = error_shares([0, 0], [1, 3])
    >>> errors_[["share_abs", "share_squared"]].values.tolist()
    [[0.25, 0.1], [0.75, 0.9]]
    """
    table = errors(true, predicted)
    tot = totals(true, predicted)
    abs_share = table["abs_error"] / tot["sum_abs"] if tot["sum_abs"] else table["abs_error"] * 0.0
    sq_share = table["squared_error"] / tot["sum_squared"] if tot["sum_squared"] else table["squared_error"] * 0.0
    return pd.DataFrame({"pair": table["pair"], "share_abs": abs_share, "share_squared": sq_share})


def rmse(true, predicted) -> float:
    """Root mean squared error, document 002 formula (1): sqrt(Σ (r - r_hat)² / |Test|).

    Errors 1, -2, 0, 1: squares 1 + 4 + 0 + 1 = 6, 6 / 4 = 1.5, sqrt(1.5) = 1.2247

    >>> round(rmse([4, 2, 5, 3], [3, 4, 5, 2]), 4)
    1.2247
    """
    t, p = as_ratings(true, predicted)
    e = t - p
    return math.sqrt(math.fsum((e * e).tolist()) / t.size)


def mae(true, predicted) -> float:
    """Mean absolute error, document 002 formula (2): Σ |r - r_hat| / |Test|.

    Errors 1, -2, 0, 1: (1 + 2 + 0 + 1) / 4 = 1.0

    >>> mae([4, 2, 5, 3], [3, 4, 5, 2])
    1.0
    """
    t, p = as_ratings(true, predicted)
    return math.fsum(np.abs(t - p).tolist()) / t.size


def error_sweep(true, predicted, *, pair, extra) -> pd.DataFrame:
    """RMSE and MAE when the prediction of one pair is pushed ``extra`` further away.

    Shows why RMSE punishes a large error more: MAE grows linearly with the
    extra error (slope 1/|Test|), while RMSE grows faster, its slope rising
    towards 1/sqrt(|Test|) once that one error dominates the others.

    Parameters
    ----------
    pair : int >= 1
        Which pair (1-based) gets the extra error.
    extra : sequence of float
        Amounts added to that pair's absolute error.

    >>> t = error_sweep([3, 3, 3, 3], [3, 3, 3, 3], pair=1, extra=[0, 4])
    >>> t.values.tolist()     # one error of 4 in 4 pairs: MAE = 1, RMSE = sqrt(16/4) = 2
    [[0.0, 0.0, 0.0, 0.0], [4.0, 4.0, 2.0, 1.0]]
    """
    t, p = as_ratings(true, predicted)
    if isinstance(pair, (bool, np.bool_)) or not isinstance(pair, numbers.Integral) or not 1 <= pair <= t.size:
        raise ValueError(f"pair must be a whole number from 1 to {t.size}, got {describe(pair)}")
    amounts = [as_real(v, "extra", i) for i, v in enumerate(as_list(extra, "extra"), start=1)]
    base = np.abs(t - p)
    rows = []
    for a in amounts:
        if a < 0:
            raise ValueError(f"extra amounts must be >= 0, got {a!r}")
        e = base.copy()
        e[pair - 1] += a
        rows.append({
            "extra": a,
            "error": float(e[pair - 1]),
            "rmse": math.sqrt(math.fsum((e * e).tolist()) / t.size),
            "mae": math.fsum(e.tolist()) / t.size,
        })
    return pd.DataFrame(rows, columns=["extra", "error", "rmse", "mae"])
