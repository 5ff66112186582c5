"""RMSE and MAE of document 002 (formulas 1 and 2): hand-derived values, invariants, scikit-learn."""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn.metrics import mean_absolute_error, mean_squared_error

from metrics.other.rating import as_ratings, error_sweep, errors, mae, rmse
from tests.conftest import examples

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


@settings(max_examples=examples(200), deadline=None)
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


# --- no overflow: errors are scaled by a power of two before squaring and summing ------------------

def test_huge_errors_by_hand():
    from metrics.other.rating import error_shares, totals

    # /rating?true=1e200&pred=0 showed RMSE inf: one error 1e200, RMSE = sqrt(1e400 / 1) = 1e200, MAE = 1e200
    assert rmse([1e200], [0]) == 1e200 and mae([1e200], [0]) == 1e200
    # errors 1e200 and -1e200: sqrt((1e400 + 1e400) / 2) = 1e200; (1e200 + 1e200) / 2 = 1e200
    assert rmse([1e200, -1e200], [0, 0]) == 1e200 and mae([1e200, -1e200], [0, 0]) == 1e200
    # /rating?true=1e308&pred=0 crashed: RMSE = MAE = 1e308 (the square 1e616 and the page's sweep overflowed)
    assert rmse([1e308], [0]) == 1e308 and mae([1e308], [0]) == 1e308
    # errors 1.5e308 twice: the sum 3e308 is beyond float64, the mean 1.5e308 is not
    assert mae([1.5e308, 0], [0, -1.5e308]) == 1.5e308 and rmse([1.5e308, 0], [0, -1.5e308]) == 1.5e308
    # errors 3e200, 4e200: RMSE = 1e200 × sqrt((9 + 16) / 2) = 1e200 × sqrt(12.5), MAE = 3.5e200
    assert rmse([3e200, 4e200], [0, 0]) == pytest.approx(math.sqrt(12.5) * 1e200, rel=1e-15)
    assert mae([3e200, 4e200], [0, 0]) == pytest.approx(3.5e200, rel=1e-15)
    tot = totals([3e200, 4e200], [0, 0])
    # Σe² = 2.5e401 is beyond float64; scaled by the largest error 4e200: (3/4)² + 1² = 1.5625
    assert tot["sum_squared"] == math.inf and tot["sum_abs"] == pytest.approx(7e200, rel=1e-15)
    assert (tot["max_abs"], tot["scaled_sum_squared"]) == (4e200, 1.5625)
    # and the sizes: 3/4 + 1 = 1.75
    assert tot["scaled_sum_abs"] == 1.75
    # shares do not depend on the scale: errors 3 and 4 -> |e| shares 3/7, 4/7; e² shares 9/25, 16/25
    big, small = error_shares([3e200, 4e200], [0, 0]), error_shares([3, 4], [0, 0])
    assert big["share_abs"].tolist() == pytest.approx([3 / 7, 4 / 7], rel=1e-15)
    assert big["share_squared"].tolist() == pytest.approx([9 / 25, 16 / 25], rel=1e-15)
    assert big["share_squared"].tolist() == pytest.approx(small["share_squared"].tolist(), rel=1e-15)
    # the error table keeps the errors; only a square beyond float64 shows as inf
    table = errors([1e200, 2], [0, 0])
    assert table["abs_error"].tolist() == [1e200, 2.0] and table["squared_error"].tolist() == [math.inf, 4.0]


def test_tiny_errors_by_hand():
    # errors 3e-200 and 4e-200: the squares 9e-400 underflow to 0 in float64 unless scaled
    assert rmse([3e-200, 4e-200], [0, 0]) == pytest.approx(math.sqrt(12.5) * 1e-200, rel=1e-15)
    assert mae([3e-200, 4e-200], [0, 0]) == pytest.approx(3.5e-200, rel=1e-15)


def test_error_beyond_float_is_refused():
    # 1e308 - (-1e308) = 2e308 > 1.8e308: no finite error, a message naming the pair
    with pytest.raises(ValueError, match=r"pair 2: the error 1e\+308 - \(-1e\+308\) is beyond the largest float"):
        rmse([0, 1e308], [0, -1e308])
    with pytest.raises(ValueError, match="pair 1"):
        errors([-1.7e308], [1.7e308])


def test_sweep_on_huge_errors():
    # one error 1e308 in 2 pairs (the other exact): MAE = 1e308 / 2; RMSE = 1e308 / sqrt(2)
    s = error_sweep([1e308, 0], [0, 0], pair=1, extra=[0, 5e307])
    assert s["mae"].tolist() == [5e307, 7.5e307]
    assert s["rmse"].iloc[0] == pytest.approx(1e308 / math.sqrt(2), rel=1e-15)
    with pytest.raises(ValueError, match="extra at position 1 is 1e\\+308: pair 1's error would be beyond"):
        error_sweep([1e308, 0], [0, 0], pair=1, extra=[1e308])


@settings(max_examples=examples(200), deadline=None)
@given(data=st.lists(st.tuples(finite, finite), min_size=1, max_size=30),
       power=st.sampled_from([-600, -300, 300, 600, 900]))
def test_scaling_by_a_power_of_two_is_exact(data, power):
    # multiplying every rating by 2**power scales both metrics by exactly 2**power (no rounding, no overflow)
    true, pred = [a for a, _ in data], [b for _, b in data]
    up_t, up_p = [math.ldexp(a, power) for a in true], [math.ldexp(b, power) for b in pred]
    values = [abs(x) for x in true + pred] + [abs(a - b) for a, b in zip(true, pred)]
    # every input and every error stays a normal float after scaling, so it is scaled exactly
    assume(all(x == 0 or math.ldexp(x, power) >= sys.float_info.min for x in values))
    r, m = rmse(true, pred), mae(true, pred)
    assert rmse(up_t, up_p) == math.ldexp(r, power) and mae(up_t, up_p) == math.ldexp(m, power)
