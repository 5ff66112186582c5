"""Tables a student reads whole: beside the sidebar on a 1024 px projector and on a 390 px phone, in en/zh/ko.

A Streamlit data grid keeps every column at its own width and scrolls sideways: on a projector with the sidebar
open the playground's variant table and per-position table, and Worked examples' per-position table, were cut
off on the right, and on a phone the verdict tables showed a column or two.  :func:`table` draws an HTML table
instead (fixed markup, every cell escaped by :func:`ui.escape.html`) that

* wraps headers between words and keeps numbers and short words on one line (never "精/确" or "정/확", one
  character per line: Korean also breaks between words only, ``ui.shell.APP_CSS``);
* fits its column while it can, and where its columns cannot fit (a phone, a narrow column), shows each row as
  a block of "header: value" lines (a CSS container query at the width its columns need, estimated here from
  the text; the browser tests measure that nothing is cut off);
* keeps the table's semantics for screen readers in both forms (``role`` on every part).

The look lives in ``ui.shell.APP_CSS`` (``.nl-tbl``); each table adds only its own breakpoint.
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping

import icu
import pandas as pd

from classroom.nicknames import graphemes
from ui.escape import html

__all__ = ["text_width", "natural_width", "table_html", "table", "formatted", "name_column_px", "MARKS",
           "VERDICT_CELLS"]

#: Cell classes a caller may give (``marks``): a right step, a wrong one, one carried forward from the student's
#: own earlier mistake, the row of the chosen variant.
MARKS = ("ok", "bad", "carried", "chosen")
#: A verdict's state (:data:`metrics.lessons.diagnose.STATES`) -> the cell class its mark is drawn with.
VERDICT_CELLS = {"right": "ok", "wrong": "bad", "carried_forward": "carried"}
#: Estimates in CSS pixels at the table's font (0.875rem of 16 px): a wide (CJK) character, another one.
_WIDE, _NARROW, _PAD = 14.0, 8.0, 18.0
_ids = itertools.count(1)


def text_width(text: str) -> float:
    """A generous estimate of ``text``'s width in CSS pixels at the table's font (no wrapping).

    >>> text_width("0.8184"), text_width("精确值")
    (48.0, 42.0)
    """
    return sum(_WIDE if unicodedata.east_asian_width(ch) in "WF" else _NARROW for ch in str(text))


def _unbreakable(text: str, *, numeric: bool) -> str:
    """The longest piece of ``text`` that stays on one line: the whole of a number or of a short word
    (:func:`_keep_whole`), else its longest space-separated word."""
    text = str(text)
    if numeric or _keep_whole(text):
        return text
    # a line may break at a space and after a dash ("Järvelin–" / "Kekäläinen"); not inside a path or a name
    return max(re.split(r"\s+|(?<=[–\-])", text), key=text_width, default="")


def _keep_whole(text: str) -> bool:
    """A cell that must not wrap: no space and at most 12 characters (a verdict, a short header, a label)."""
    text = str(text)
    return bool(text) and " " not in text and len(text) <= 12


def natural_width(frame: pd.DataFrame, numeric: Iterable[str] = ()) -> float:
    """The width (CSS px) the table needs to show every column side by side with headers wrapped between words:
    below it, rows are shown one block each.

    "Grade" (5 × 8 px) and "judged)", the longest word of the other header (7 × 8 px), each with 18 px of padding:

    >>> natural_width(pd.DataFrame({"Grade": ["3"], "NDCG (all judged)": ["0.8184"]}), numeric=["Grade"])
    132.0
    """
    numeric = set(numeric)
    total = 0.0
    for column in frame.columns:
        cells = [str(x) for x in frame[column]]
        pieces = [_unbreakable(column, numeric=False)] + [_unbreakable(x, numeric=column in numeric) for x in cells]
        total += max(text_width(p) for p in pieces) + _PAD
    return total


def table_html(frame: pd.DataFrame, *, numeric: Iterable[str] = (), marks: pd.DataFrame | None = None,
               label: str = "", test_id: str = "nl-table") -> str:
    """The table's markup (fixed; every header and cell escaped) with its own breakpoint.

    ``numeric`` columns are right-aligned and never wrap; ``marks`` (same shape, values in :data:`MARKS` or
    empty) colour cells; ``label`` names the table for screen readers.

    >>> out = table_html(pd.DataFrame({"Label": ["<b>x</b>"], "NDCG": ["0.8184"]}), numeric=["NDCG"])
    >>> "&lt;b&gt;x&lt;/b&gt;" in out and "<b>" not in out, 'data-label="NDCG"' in out
    (True, True)
    """
    numeric = set(numeric)
    name = f"nl-tbl-{next(_ids)}"
    breakpoint_px = int(natural_width(frame, numeric)) + 1
    head = "".join(f'<th role="columnheader" scope="col"{_header_class(c, c in numeric)}>{html(c)}</th>'
                   for c in frame.columns)
    rows = []
    for i, (_, row) in enumerate(frame.iterrows()):
        cells = []
        row_marks = [] if marks is None else [str(m or "") for m in marks.iloc[i]]
        for j, column in enumerate(frame.columns):
            value = "" if row[column] is None else str(row[column])
            classes = []
            if column in numeric:
                classes.append("n")
            elif _keep_whole(value):
                classes.append("w")
            mark = row_marks[j] if j < len(row_marks) else ""
            if mark in MARKS:
                classes.append(mark)
            cls = f' class="{" ".join(classes)}"' if classes else ""
            cells.append(f'<td role="cell" data-label="{html(column)}"{cls}>{html(value)}</td>')
        rows.append(f'<tr role="row">{"".join(cells)}</tr>')
    # Below the width its columns need, one block per row: the headers leave the screen (not the accessibility
    # tree), each cell shows its header before its value.
    sel = f".nl-tbl .{name}"  # above the shared look's specificity (ui.shell.APP_CSS: .nl-tbl td, .nl-tbl .w)
    style = (f"<style>@container (max-width: {breakpoint_px}px) {{ "
             f"{sel} thead {{ position: absolute; width: 1px; height: 1px; overflow: hidden; "
             f"clip-path: inset(50%); white-space: nowrap; }} "
             f"{sel} tr {{ display: block; border: 1px solid var(--nl-tbl-line); border-radius: 0.5rem; "
             f"margin: 0 0 0.5rem; padding: 0.2rem 0.6rem; }} "
             f"{sel} td, {sel} td.w, {sel} td.n {{ display: grid; "
             f"grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 0.75rem; align-items: baseline; "
             f"border: 0; padding: 0.15rem 0; text-align: right; white-space: normal; overflow-wrap: anywhere; }} "
             f"{sel} td::before {{ content: attr(data-label); font-weight: 600; text-align: left; "
             f"white-space: normal; }} }}</style>")
    aria = f' aria-label="{html(label)}"' if label else ""
    return (f'{style}<div class="nl-tbl" data-testid="{html(test_id)}" data-breakpoint="{breakpoint_px}">'
            f'<table role="table" class="{name}"{aria}><thead role="rowgroup"><tr role="row">{head}</tr></thead>'
            f'<tbody role="rowgroup">{"".join(rows)}</tbody></table></div>')


def _header_class(text: str, numeric: bool) -> str:
    classes = (["n"] if numeric else []) + (["w"] if _keep_whole(text) else [])
    return f' class="{" ".join(classes)}"' if classes else ""


def table(frame: pd.DataFrame, *, numeric: Iterable[str] = (), marks: pd.DataFrame | None = None,
          label: str = "", test_id: str = "nl-table", container=None) -> None:
    """Draw :func:`table_html` (in ``container``, default the page)."""
    import streamlit as st

    (container or st).html(table_html(frame, numeric=numeric, marks=marks, label=label, test_id=test_id))


def formatted(frame: pd.DataFrame, digits: Mapping[str, int]) -> pd.DataFrame:
    """Columns rounded for display by :func:`ui.numbers.show` (``digits``: column -> decimals); a missing
    value (past the end of a list) is an empty cell.

    >>> formatted(pd.DataFrame({"x": [1.23456, float("nan")]}), {"x": 4})["x"].tolist()
    ['1.2346', '']
    """
    from ui.numbers import show

    out = frame.copy()
    for column, places in digits.items():
        out[column] = ["" if (v is None or v != v) else show(v, places) for v in out[column]]
    return out


#: The class grid's cells: 14 px text, 8 px padding each side (Streamlit's data grid theme).  Estimated widths
#: in pixels, generous: an emoji 20 (a family or a flag: 12 a member, as a browser without the sequence draws
#: it), a CJK or other wide character 15, a capital or W, M, @ up to 13, another character 9, a mark, joiner
#: or variation selector nothing.  Measured against Chromium's own text widths in
#: tests/browser/test_classroom_chart.py.
_EMOJI = icu.UnicodeSet(r"[[:Extended_Pictographic:][:Regional_Indicator:]]")
_NO_WIDTH = icu.UnicodeSet(r"[[:M:][:Cf:][:Default_Ignorable_Code_Point:][:Emoji_Modifier:]]")
_GRID_EMOJI_PX, _GRID_EMOJI_MEMBER_PX, _GRID_WIDE_PX, _GRID_CAPITAL_PX, _GRID_OTHER_PX = 20, 12, 15, 13, 9
_GRID_PAD_PX = 16


def _cluster_px(cluster: str) -> int:
    emoji = sum(_EMOJI.contains(ch) for ch in cluster)
    if emoji:  # one glyph with an emoji font; without one (Debian's bare Chromium) each member is drawn
        return max(_GRID_EMOJI_PX, _GRID_EMOJI_MEMBER_PX * emoji)
    px = 0
    for ch in unicodedata.normalize("NFKC", cluster):  # a compatibility ligature (ﷺ) draws what it spells
        if _NO_WIDTH.contains(ch):
            continue
        px += (_GRID_WIDE_PX if unicodedata.east_asian_width(ch) in "WF" else
               _GRID_CAPITAL_PX if ch.isupper() or ch in "mw@%&" else _GRID_OTHER_PX)
    return px


def name_column_px(names) -> int:
    """Pixels the class grid's Student column needs for the widest of ``names`` and its header, whole.

    The data grid sizes a column from its first nine rows and its last, ignoring a name twice the average: a
    long nickname further down was cut off mid-word, with no ellipsis.  So the width is set from every name.

    >>> name_column_px(["Ada", "Bo"]), name_column_px(["W" * 24]), name_column_px(["李雷"])
    ... # 13 + 9 + 9 + 16 (padding); 24 × 13 + 16; 15 + 15 + 16
    (47, 328, 46)
    """
    return max((sum(_cluster_px(c) for c in graphemes(str(n))) for n in names), default=0) + _GRID_PAD_PX
