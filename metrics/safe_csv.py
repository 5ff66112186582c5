"""CSV that a spreadsheet opens as data, never as formulas, whether it splits lines at "," or at ";".

Labels, query ids, run names and nicknames are user text.  A cell such as ``=HYPERLINK("http://x")``,
``+cmd|' /C calc'!A0`` or ``@SUM(1)`` would run as a formula when the CSV is opened in Excel, LibreOffice
or Google Sheets.  As OWASP advises ("CSV Injection"), every *text* cell that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading apostrophe, which spreadsheets show as text.
Many European spreadsheets read a CSV with ``;`` as the separator: a nickname ``;=1+1;`` written as one
quoted cell then starts a *new* cell at its ``;``, ``=1+1``, a formula.  So the apostrophe also goes before
a formula character that follows anything a spreadsheet may start a cell after (:data:`CELL_BREAKS`:
``,`` ``;`` tab, line breaks, the quote; spaces between do not count): ``;=1+1;`` is written ``;'=1+1;``.

Numbers stay numbers: a float or int is never touched (``-0.5`` stays ``-0.5``), and neither is text that
*is* a signed number (a student's answer ``-1``, ``-0.25``, ``+3e-2``, ``-5%``), which a spreadsheet reads
as that number, not as a formula.  Text cells are always quoted: Python 3.11's csv writer leaves a bare
carriage return unquoted when lines end in ``\n``, and a label ``"x\r=cmd()"`` would then start a new row
with a live formula.  Every CSV the app and the command line write goes through :func:`to_csv` (or
:func:`cell` for hand-built rows).
"""
from __future__ import annotations

import csv
import io
import numbers
import re

import pandas as pd

__all__ = ["FORMULA_STARTS", "CELL_BREAKS", "cell", "neutralise_frame", "to_csv"]

#: First characters that make a spreadsheet read a text cell as a formula (OWASP, CSV Injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Characters after which a spreadsheet may start a cell: the separators of comma, semicolon and tab
#: locales, line breaks, and the quote (a reader splitting at ";" sees a "," CSV's quotes inside cells).
CELL_BREAKS = ",;\t\r\n\""
#: Text that is a signed number (what a spreadsheet reads as a number, never as a formula).
SIGNED_NUMBER = re.compile(r"[+-](?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?%?")


def cell(value):
    """One cell made inert: an apostrophe before every formula character that could start a cell.

    Parameters
    ----------
    value : object
        A cell value.  Numbers (``int``, ``float``, numpy scalars), ``None`` and NaN are returned as
        they are; anything else is treated as text.

    Returns
    -------
    object
        ``value`` itself (a number, or text that is a signed number or has nothing to fear), or the text
        with ``'`` before each formula character at the start or after a :data:`CELL_BREAKS` character.

    Examples
    --------
    >>> cell('=HYPERLINK("http://example.com","x")')
    '\\'=HYPERLINK("http://example.com","x")'
    >>> cell("@SUM(1)"), cell("-2 weird label"), cell("D1")
    ("'@SUM(1)", "'-2 weird label", 'D1')

    A separator inside the text cannot start a formula cell in a ";" (or ",") spreadsheet either:

    >>> cell(";=1+1;"), cell("Jean-Luc, +1")
    (";'=1+1;", "Jean-Luc, '+1")

    Numbers keep their sign and their type, so the column still adds up; so does text that is a number:

    >>> cell(-0.5), cell(3), cell("-1"), cell("-0.25")
    (-0.5, 3, '-1', '-0.25')
    """
    if value is None or isinstance(value, (numbers.Number, bool)):
        return value
    text = str(value)
    if SIGNED_NUMBER.fullmatch(text):
        return text
    out, may_start = [], True
    for ch in text:
        if may_start and ch in FORMULA_STARTS:
            out.append("'")
        out.append(ch)
        if ch in CELL_BREAKS:
            may_start = True
        elif ch != " ":
            may_start = False
    return "".join(out)


def neutralise_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells, column names and index labels are inert (see :func:`cell`).

    Numeric columns are left untouched (same dtype); object/string columns are mapped cell by cell.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any table about to be written as CSV.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> df = pd.DataFrame({"run": ["=cmd()", "bm25"], "ndcg": [-0.25, 0.5]})
    >>> neutralise_frame(df).to_dict("list")
    {'run': ["'=cmd()", 'bm25'], 'ndcg': [-0.25, 0.5]}
    """
    out = frame.copy()
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]) or pd.api.types.is_bool_dtype(out[column]):
            out[column] = out[column].map(cell, na_action="ignore")
    out.columns = [cell(c) if isinstance(c, str) else c for c in out.columns]
    if not pd.api.types.is_numeric_dtype(out.index):
        out.index = out.index.map(lambda x: cell(x) if isinstance(x, str) else x)
    return out


def to_csv(frame: pd.DataFrame, *, index: bool = False, float_format: str | None = None) -> str:
    """``frame`` as CSV text with every text cell neutralised; floats keep every digit by default.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table to write.
    index : bool, default False
        Write the index as the first column.
    float_format : str, optional
        A ``%``-format for floats (e.g. ``"%.4f"``); ``None`` writes the shortest text that reads back
        as the same float64.

    Returns
    -------
    str
        CSV with ``\\n`` line ends; text cells (and the header) quoted, numbers bare.

    Examples
    --------
    >>> df = pd.DataFrame({"label": ["+1 cool", "D2"], "gain": [1.0, 0.6309297535714575]})
    >>> print(to_csv(df), end="")
    "label","gain"
    "'+1 cool",1.0
    "D2",0.6309297535714575
    """
    buf = io.StringIO()
    neutralise_frame(frame).to_csv(buf, index=index, float_format=float_format, lineterminator="\n",
                                   quoting=csv.QUOTE_NONNUMERIC)
    return buf.getvalue()
