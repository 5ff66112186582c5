"""ui.numbers.for_table: the grid receives each float exactly as the page shows it (what a screen reader
reads equals what is drawn), other columns untouched, the caller's frame unchanged."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from ui.numbers import for_table, show


def test_hand_values():
    frame = pd.DataFrame({"ndcg": [0.9561125053043696, 0.5, 1 / 3, -0.00001, float("nan"), float("inf")],
                          "run": list("abcdef"), "k": [1, 2, 3, 4, 5, 6]})
    out = for_table(frame)
    assert out["ndcg"].tolist()[:4] == [0.9561, 0.5, 0.3333, -0.0]
    assert math.isnan(out["ndcg"][4]) and out["ndcg"][5] == float("inf")
    assert out["run"].tolist() == list("abcdef") and out["k"].dtype == frame["k"].dtype
    assert frame["ndcg"][0] == 0.9561125053043696  # the caller's numbers stay exact


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e14, max_value=1e14), min_size=1,
                max_size=30), st.integers(0, 6))
def test_each_value_reads_back_as_its_display(values, digits):
    out = for_table(pd.DataFrame({"v": np.array(values, dtype=float)}), digits)
    for x, y in zip(values, out["v"]):
        assert show(y, digits) == show(x, digits)        # the grid draws the same text ...
        assert y == float(f"{x:.{digits}f}")             # ... from the displayed value itself


def test_nullable_floats_and_per_column_digits():
    frame = pd.DataFrame({"a": pd.array([0.123456, None], dtype="Float64"), "b": [1 / 3, 2.5]})
    out = for_table(frame, {"b": 2})
    assert out["a"][0] == 0.1235 and math.isnan(out["a"][1])
    assert out["b"].tolist() == [0.33, 2.5]
