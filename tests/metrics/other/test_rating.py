"""RMSE and MAE of document 002 (formulas 1 and 2): hand-derived values, invariants, scikit-learn."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import mean_absolute_error, mean_squared_error

from metrics.other.rating import as_ratings, error_sweep, errors, mae, rmse

TRUE = [4, 2, 5, 3]
PRED = [3, 4, 5, 2]


def test_by_hand():
    # errors r - r_hat: 1, -2, 0, 1; |e| sum 4 -> MAE 1; e^2 sum 6 -> RMSE sqrt(6/4)
    assert mae(TRUE, PRED) == 1.0
    assert rmse(TRUE, PRED) == math.sqrt(1.5)
    t = errors(TRUE, PRED)
    assert t["pair"].tolist() == [1, 2, 3, 4]
    assert t["error"].tolist() == [1, -2, 0, 1]
    assert t["abs_error"].tolist() == [1, 2, 0, 1]
    assert t["squared_error"].tolist() == [1, 4, 0, 1]


def test_one_big_error_versus_spread_errors():
    # the same total absolute error 4: spread 1,1,1,1 or all on one pair
    spread = rmse([0, 0, 0, 0], [1, 1, 1, 1]), mae([0, 0, 0, 0], [1, 1, 1, 1])
    lumped = rmse([0, 0, 0, 0], [4, 0, 0, 0]), mae([0, 0, 0, 0], [4, 0, 0, 0])
    assert spread == (1.0, 1.0)
    assert lumped == (2.0, 1.0)  # sqrt(16/4) = 2: RMSE doubles, MAE unchanged


def test_error_sweep_by_hand():
    # base errors 0 everywhere; push pair 2 by 0, 2, 4 in 4 pairs:
    # MAE = a/4, RMSE = sqrt(a^2/4) = a/2
    t = error_sweep([3, 3, 3, 3], [3, 3, 3, 3], pair=2, extra=[0, 2, 4])
    assert t["mae"].tolist() == [0, 0.5, 1]
    assert t["rmse"].tolist() == [0, 1, 2]
    # the sweep at 0 is the data's own RMSE/MAE
    s = error_sweep(TRUE, PRED, pair=1, extra=[0])
    assert s["rmse"].iloc[0] == rmse(TRUE, PRED) and s["mae"].iloc[0] == mae(TRUE, PRED)


@pytest.mark.parametrize("true, pred, match", [
    ([1, 2], [1], "predicted has 1 values but true has 2"),
    ([], [], "empty"),
    ([1, "x"], [1, 2], "true at position 2"),
    ([1, 2], [1, float("nan")], "predicted at position 2"),
    ([1, 2], [True, 2], "predicted at position 1"),
    ("12", [1, 2], "true must be a sequence"),
])
def test_bad_input(true, pred, match):
    with pytest.raises(ValueError, match=match):
        rmse(true, pred)
    with pytest.raises(ValueError, match=match):
        mae(true, pred)


@pytest.mark.parametrize("pair", [0, 5, 1.5, True])
def test_bad_sweep_pair(pair):
    with pytest.raises(ValueError, match="pair must be a whole number from 1 to 4"):
        error_sweep(TRUE, PRED, pair=pair, extra=[0])


def test_bad_sweep_extra():
    with pytest.raises(ValueError, match=">= 0"):
        error_sweep(TRUE, PRED, pair=1, extra=[-1])


def test_as_ratings_returns_float_arrays():
    t, p = as_ratings([1, 2], [1.5, np.int64(2)])
    assert t.dtype == p.dtype == np.float64


finite = st.floats(-1e6, 1e6, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.tuples(finite, finite), min_size=1, max_size=30))
def test_against_sklearn_and_bounds(data):
    true, pred = [a for a, _ in data], [b for _, b in data]
    r, m = rmse(true, pred), mae(true, pred)
    assert r == pytest.approx(math.sqrt(mean_squared_error(true, pred)), rel=1e-9, abs=1e-9)
    assert m == pytest.approx(mean_absolute_error(true, pred), rel=1e-9, abs=1e-9)
    # MAE <= RMSE <= sqrt(n) MAE (power-mean inequality, and |e|_2 <= |e|_1)
    assert m <= r * (1 + 1e-12) + 1e-12
    assert r <= math.sqrt(len(data)) * m * (1 + 1e-12) + 1e-12
    # symmetric in true/predicted
    assert rmse(pred, true) == r and mae(pred, true) == m


def test_totals_and_shares():
    from metrics.other.rating import error_shares, totals

    # errors 1, -2, 0, 1: Σe² = 6, Σ|e| = 4
    tot = totals(TRUE, PRED)
    assert (tot["n"], tot["sum_squared"], tot["sum_abs"]) == (4, 6.0, 4.0)
    assert tot["rmse"] == rmse(TRUE, PRED) and tot["mae"] == mae(TRUE, PRED)
    s = error_shares(TRUE, PRED)
    assert s["share_abs"].tolist() == [0.25, 0.5, 0.0, 0.25]
    assert s["share_squared"].tolist() == [1 / 6, 4 / 6, 0.0, 1 / 6]
    # the largest error's share grows when squared
    assert s["share_squared"].max() > s["share_abs"].max()
    assert error_shares([1, 2], [1, 2])["share_squared"].tolist() == [0.0, 0.0]


def test_numpy_and_huge_values():
    assert rmse(np.array(TRUE), np.array(PRED)) == rmse(TRUE, PRED)
    with pytest.raises(ValueError, match="true at position 1"):
        rmse([10**400, 1], [1, 1])
    with pytest.raises(ValueError, match="predicted at position 2"):
        mae(np.array([1.0, 2.0]), np.array([1.0, np.inf]))
