"""CSV / Markdown / LaTeX export of the per-position table: every digit in CSV, the variant named in every
format and file name, user labels inert (no spreadsheet formula, no Markdown/LaTeX markup)."""
from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from metrics.ndcg import breakdown
from metrics.variant import Variant
from ui.pages.playground.export import COLUMNS, VARIANT_COLUMNS, export_frame, file_name, to_csv, to_latex, to_markdown

V001 = Variant(gain="linear", discount="standard", log_base=2.0, k=6, idcg="judged")


def test_csv_keeps_every_digit_and_names_the_variant():
    bd = breakdown([3, 2, 3, 0, 1, 2], k=6, pool=[3, 2, 3, 0, 1, 2, 3, 0])
    back = pd.read_csv(io.StringIO(to_csv(bd, ["D1", "D2", "D3", "D4", "D5", "D6"], V001)), dtype={"variant_k": str})
    assert list(back.columns) == list(COLUMNS) + list(VARIANT_COLUMNS)
    for col in bd.columns:
        np.testing.assert_array_equal(back[col].to_numpy(dtype=float), bd[col].to_numpy(dtype=float))
    # Document 001: DCG@6 = 6.861, IDCG@6 over all judged items = 8.384
    assert round(back["dcg"].iloc[-1], 3) == 6.861 and round(back["idcg"].iloc[-1], 3) == 8.384
    assert set(back["variant_gain"]) == {"linear"} and set(back["variant_k"]) == {"6"}
    assert set(back["variant_idcg_from"]) == {"judged"} and set(back["variant_log_base"].astype(str)) == {"2"}


def test_csv_neutralises_formula_labels():
    text = to_csv(breakdown([1, 0, 2, 1]), ["=HYPERLINK(\"http://x\")", "+cmd", "@SUM(1)", "-2"], V001)
    back = pd.read_csv(io.StringIO(text), keep_default_na=False)
    # "-2" is a number to a spreadsheet, never a formula: kept as it is (metrics.safe_csv.SIGNED_NUMBER)
    assert back["label"].tolist() == ["'=HYPERLINK(\"http://x\")", "'+cmd", "'@SUM(1)", "-2"]
    assert back["relevance"].tolist() == [1.0, 0.0, 2.0, 1.0]  # numbers stay numbers


@pytest.mark.parametrize("variant, name", [
    (V001, "ndcg_linear_standard_k6_judged"),
    (Variant(gain="exponential", discount="jarvelin", log_base=10.0, k=None, idcg="list"),
     "ndcg_exponential_jarvelin_base10_kall_list"),
    (Variant(gain="linear", discount="standard", log_base=2.718281828459045, k=3, idcg="list"),
     "ndcg_linear_standard_basee_k3_list"),
    (Variant(gain="linear", discount="standard", log_base=1.5, k=3, idcg="list"),
     "ndcg_linear_standard_base1_5_k3_list"),
])
def test_file_names_say_what_they_hold(variant, name):
    for ext in ("csv", "md", "tex"):
        assert file_name(variant, ext) == f"{name}.{ext}"


def test_positions_past_the_list_have_no_label():
    bd = breakdown([3, 2], pool=[3, 2, 3])  # the ideal ranking is one item longer
    frame = export_frame(bd, ["A", "B"])
    assert frame["label"].tolist() == ["A", "B", ""]
    md = to_markdown(bd, ["A", "B"]).splitlines()
    assert md[-1].startswith("| 3 |  |  |")  # no grade, no label: empty cells, not "nan"
    assert "nan" not in md[-1].lower()


def test_markdown_shape_rounding_and_title():
    bd = breakdown([3, 2, 1, 3, 2], discount="jarvelin")
    md = to_markdown(bd, list("ABCDE"), headers={"position": "Pos"}, title="Linear · Järvelin · k = all").splitlines()
    assert md[0] == "**Linear · Järvelin · k = all**" and md[1] == ""
    assert len(md) == 2 + 2 + 5
    assert md[2].startswith("| Pos | label |")
    # position 3: 1 / log2(3) = 0.6309
    assert "| 0.6309 |" in md[6]


def test_markdown_headers_are_not_escaped_into_maths():
    # Marp, Jupyter and Obsidian read \( ... \) as maths: "DCG (running)" must stay as written.
    md = to_markdown(breakdown([1]), ["x"], headers={"dcg": "DCG (running)", "idcg": "IDCG（累计）"})
    assert "DCG (running)" in md and "\\(" not in md and "\\)" not in md and "IDCG（累计）" in md


def test_markdown_escapes_user_labels():
    md = to_markdown(breakdown([1]), ["<b>x</b>|*y*"])
    row = md.splitlines()[2]
    assert "<b>" not in row and "\\|" in row and "\\*y\\*" in row


def test_latex_escapes_user_labels_and_captions_the_variant():
    tex = to_latex(breakdown([1, 0]), ["50% & $5", "a_b\\c"], title="Linear & standard")
    assert r"50\% \& \$5" in tex and r"a\_b\textbackslash{}c" in tex
    assert "\\caption{Linear \\& standard}" in tex
    assert tex.startswith("\\begin{table}") and tex.rstrip().endswith("\\end{table}")
    assert "\\begin{tabular}" in tex and "\\toprule" in tex


@given(st.lists(st.integers(0, 4), min_size=1, max_size=25), st.lists(st.text(max_size=8), max_size=25))
def test_any_labels_keep_one_row_per_position(rels, labels):
    bd = breakdown(rels)
    assert len(to_markdown(bd, labels).splitlines()) == 2 + len(bd)
    assert len(to_latex(bd, labels).splitlines()) == 10 + len(bd)
    assert len(pd.read_csv(io.StringIO(to_csv(bd, labels, V001)), keep_default_na=False)) == len(bd)
    for line in to_latex(bd, labels).splitlines()[7:-3]:
        bare = re.sub(r"\\text(backslash|asciicircum|asciitilde)\{\}", "", line.replace(" & ", " "))
        assert not re.search(r"(?<!\\)[#$%&_{}]", bare.replace("\\\\", "")), line
