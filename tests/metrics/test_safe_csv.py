"""CSV cells are inert in spreadsheets: text starting with = + - @ tab CR gets a leading apostrophe."""
from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from metrics.safe_csv import FORMULA_STARTS, cell, neutralise_frame, to_csv
from tests.metrics.conftest import PROPERTY

ATTACKS = ['=HYPERLINK("http://evil.example","click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1)",
           "\t=1", "\r=1"]


def test_every_attack_is_prefixed():
    for text in ATTACKS:
        assert cell(text) == "'" + text


def test_numbers_untouched_and_typed():
    assert cell(-0.5) == -0.5 and isinstance(cell(-3), int) and cell(np.float64(-1.5)) == -1.5
    assert cell(None) is None and cell(True) is True


def test_frame_columns_index_and_numbers():
    df = pd.DataFrame({"=q": ["=x", "ok"], "value": [-1.0, 2.5]}, index=["@i", "j"])
    out = neutralise_frame(df)
    assert list(out.columns) == ["'=q", "value"]
    assert out["=q" if "=q" in out else "'=q"].tolist() == ["'=x", "ok"]
    assert out["value"].dtype == np.float64 and out["value"].tolist() == [-1.0, 2.5]
    assert list(out.index) == ["'@i", "j"]
    assert df["=q"].tolist() == ["=x", "ok"]  # the input is not modified


def test_to_csv_reads_back_exact_floats():
    x = 0.1 + 0.2  # 0.30000000000000004: every digit must survive
    text = to_csv(pd.DataFrame({"label": ["a"], "v": [x]}))
    rows = list(csv.reader(io.StringIO(text)))
    assert float(rows[1][1]) == x


@PROPERTY
@given(st.lists(st.text(max_size=12), min_size=1, max_size=8))
def test_no_cell_starts_a_formula_and_text_round_trips(labels):
    text = to_csv(pd.DataFrame({"label": labels}))
    rows = list(csv.reader(io.StringIO(text, newline="")))[1:]
    for (got,), original in zip(rows, labels):
        assert not got.startswith(FORMULA_STARTS)
        restored = got[1:] if original.startswith(FORMULA_STARTS) else got
        assert restored == original
