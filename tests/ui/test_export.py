"""CSV / Markdown / LaTeX export of the per-position table."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.ndcg import breakdown
from ui.export import COLUMNS, export_frame, latex_escape, to_csv, to_latex, to_markdown


def test_csv_keeps_every_digit():
    bd = breakdown([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    back = pd.read_csv(io.StringIO(to_csv(bd, ["D1", "D2", "D3", "D4", "D5", "D6"])))
    assert list(back.columns) == list(COLUMNS)
    for col in bd.columns:
        np.testing.assert_array_equal(back[col].to_numpy(dtype=float), bd[col].to_numpy(dtype=float))
    # Document 001: DCG@6 = 6.861, IDCG@6 over all judged items = 8.384
    assert round(back["dcg"].iloc[-1], 3) == 6.861 and round(back["idcg"].iloc[-1], 3) == 8.384


def test_positions_past_the_list_have_no_label():
    bd = breakdown([3, 2], pool=[3, 2, 3])  # the ideal ranking is one item longer
    frame = export_frame(bd, ["A", "B"])
    assert frame["label"].tolist() == ["A", "B", ""]
    md = to_markdown(bd, ["A", "B"]).splitlines()
    assert md[-1].startswith("| 3 |  |  |")  # no grade, no label: empty cells, not "nan"
    assert "nan" not in md[-1].lower()


def test_markdown_shape_and_rounding():
    bd = breakdown([3, 2, 1, 3, 2], discount="jarvelin")
    md = to_markdown(bd, list("ABCDE"), headers={"position": "Pos"}).splitlines()
    assert len(md) == 2 + 5
    assert md[0].startswith("| Pos | label |")
    # position 3: 1 / log2(3) = 0.6309
    assert "| 0.6309 |" in md[4]


def test_markdown_escapes_user_labels():
    md = to_markdown(breakdown([1]), ["<b>x</b>|*y*"])
    row = md.splitlines()[2]
    assert "<b>" not in row and "\\|" in row and "\\*y\\*" in row


def test_latex_escapes_user_labels():
    tex = to_latex(breakdown([1, 0]), ["50% & $5", "a_b\\c"])
    assert r"50\% \& \$5" in tex and r"a\_b\textbackslash{}c" in tex
    assert tex.startswith("\\begin{tabular}") and tex.rstrip().endswith("\\end{tabular}")


@pytest.mark.parametrize("text", ["#", "~", "^", "{}", "a\nb"])
def test_latex_escape_has_no_raw_specials(text):
    out = latex_escape(text)
    assert "\n" not in out
    for ch in "#~^":
        assert (ch not in text) or ("\\" + ch in out or "textascii" in out)


@given(st.lists(st.integers(0, 4), min_size=1, max_size=25), st.lists(st.text(max_size=8), max_size=25))
def test_any_labels_keep_one_row_per_position(rels, labels):
    bd = breakdown(rels)
    assert len(to_markdown(bd, labels).splitlines()) == 2 + len(bd)
    assert len(to_latex(bd, labels).splitlines()) == 6 + len(bd)
    assert len(pd.read_csv(io.StringIO(to_csv(bd, labels)), keep_default_na=False)) == len(bd)
