"""CSV cells are inert in spreadsheets that split at "," or at ";": text gets an apostrophe before each
formula character (= + - @ tab CR) that could start a cell; numbers, and text that is a signed number, stay."""
from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from metrics.safe_csv import FORMULA_STARTS, SIGNED_NUMBER, cell, neutralise_frame, to_csv
from tests.metrics.conftest import PROPERTY

ATTACKS = ['=HYPERLINK("http://evil.example","click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(1)",
           "\t=1", "\r=1"]


def test_every_attack_is_prefixed():
    for text in ATTACKS:
        assert cell(text).startswith("'") and cell(text).replace("'", "") == text.replace("'", "")


def test_a_semicolon_locale_finds_no_formula_cell():
    # Issue 37: read with ";" as the separator, a nickname ";=1+1;" became a bare formula cell.
    text = to_csv(pd.DataFrame({"nickname": [";=1+1;", "a,@SUM(1)", 'x";-2+3', "ok"], "answer": ["-1", "6.86",
                                                                                                "=1", "-0.5"]}))
    for delimiter in ",;":
        for cells in _spreadsheet_cells(text, delimiter):
            assert not _live(cells), (delimiter, text)
    assert "\";'=1+1;\"" in text  # the text is kept, with an apostrophe


def test_signed_numbers_in_text_are_exported_as_numbers():
    # Issue 37: an answer "-1" was exported as '-1 (text), breaking the column's sums.
    rows = list(csv.reader(io.StringIO(to_csv(pd.DataFrame({"answer": ["-1", "+2.5", "-.5", "-3e-2", "-5%",
                                                                       "-1+1", "- 1", "-1,5"]})))))
    assert [r[0] for r in rows[1:]] == ["-1", "+2.5", "-.5", "-3e-2", "-5%", "'-1+1", "'- 1", "'-1,5"]


def _spreadsheet_cells(text: str, delimiter: str) -> list[str]:
    """What a spreadsheet may take as cells when it opens ``text`` with ``delimiter``: a CSV reader's cells,
    and, as a lenient importer does, every piece between separators with quotes and spaces trimmed."""
    cells = [c for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) for c in row]
    for line in text.replace("\r", "\n").split("\n"):
        for sep in {delimiter, "\t"}:
            cells += [piece.strip(' "') for piece in line.split(sep)]
    return cells


def _live(cell_text: str) -> bool:
    """Whether a spreadsheet would evaluate this cell: it starts with a formula character and is no number."""
    text = cell_text.lstrip(" ")
    return text.startswith(FORMULA_STARTS[:4]) and not SIGNED_NUMBER.fullmatch(text)


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


_risky = st.text(st.sampled_from(list("=+-@\t\r\n,;\" 'a1.%e")), max_size=12)


@PROPERTY
@given(st.lists(st.one_of(st.text(max_size=12), _risky), min_size=1, max_size=8))
def test_no_cell_starts_a_formula_in_either_locale_and_text_round_trips(labels):
    text = to_csv(pd.DataFrame({"label": labels}))
    rows = list(csv.reader(io.StringIO(text, newline="")))[1:]
    for (got,), original in zip(rows, labels):
        assert got.replace("'", "") == original.replace("'", "")  # only apostrophes were added
        assert not _live(got) or SIGNED_NUMBER.fullmatch(original)
    for delimiter in ",;":
        assert not [c for c in _spreadsheet_cells(text, delimiter) if _live(c)]
