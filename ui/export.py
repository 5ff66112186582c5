"""The per-position table (:func:`metrics.breakdown`) as CSV, Markdown and LaTeX, for files and slides.

CSV keeps every digit (machine column names, empty cells past the end of a list); Markdown and
LaTeX round for display and take translated headers.  Labels are user text: they are escaped
for each format, never interpreted.
"""
from __future__ import annotations

import io
import math

import pandas as pd

COLUMNS = ("position", "label", "relevance", "gain", "discount", "discounted_gain", "dcg",
           "ideal_relevance", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg")
_INTEGER_COLUMNS = ("position",)
_GRADE_COLUMNS = ("relevance", "ideal_relevance")


def export_frame(bd: pd.DataFrame, labels=None) -> pd.DataFrame:
    """The breakdown with a ``label`` column after ``position`` (empty past the end of the list)."""
    labels = [" ".join(str(x).split()) for x in (labels or [])]  # one line each
    n = len(bd)
    out = bd.copy()
    has_item = out["relevance"].notna().tolist()
    out.insert(1, "label", [labels[i] if i < len(labels) and has_item[i] else "" for i in range(n)])
    return out[[c for c in COLUMNS if c in out.columns]]


def to_csv(bd: pd.DataFrame, labels=None) -> str:
    """CSV with full float64 precision (``repr`` round-trips).

    >>> from metrics.ndcg import breakdown
    >>> print(to_csv(breakdown([3, 1]), ["A", "B"]).splitlines()[2])
    2,B,1.0,1.0,1.584962500721156,0.6309297535714575,3.6309297535714578,1.0,1.0,0.6309297535714575,3.6309297535714578,1.0
    """
    buf = io.StringIO()
    export_frame(bd, labels).to_csv(buf, index=False, float_format=None, lineterminator="\n")
    return buf.getvalue()


def _cell(value, column: str, digits: int) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if column in _INTEGER_COLUMNS:
        return str(int(value))
    if column in _GRADE_COLUMNS:
        return f"{float(value):g}"
    return f"{float(value):.{digits}f}"


def _md_escape(text: str) -> str:
    text = " ".join(text.split())
    out = []
    for ch in text:
        if ch in "\\`*_{}[]()<>#+-.!|~&":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    r"""Text safe inside a LaTeX document.

    >>> latex_escape("R&D_1 {50%}")
    'R\\&D\\_1 \\{50\\%\\}'
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in " ".join(str(text).split()))


def _headers(columns, headers) -> list[str]:
    headers = headers or {}
    return [str(headers.get(c, c)) for c in columns]


def to_markdown(bd: pd.DataFrame, labels=None, *, headers=None, digits: int = 4) -> str:
    """A Markdown (GitHub) table, numbers rounded to ``digits`` decimals.

    >>> from metrics.ndcg import breakdown
    >>> print(to_markdown(breakdown([3, 1]), ["A|B", "C"]).splitlines()[2])
    | 1 | A\\|B | 3 | 3.0000 | 1.0000 | 3.0000 | 3.0000 | 3 | 3.0000 | 3.0000 | 3.0000 | 1.0000 |
    """
    frame = export_frame(bd, labels)
    cols = list(frame.columns)
    lines = ["| " + " | ".join(_md_escape(h) for h in _headers(cols, headers)) + " |",
             "|" + "|".join("---:" if c != "label" else ":---" for c in cols) + "|"]
    for row in frame.itertuples(index=False):
        cells = [_md_escape(_cell(v, c, digits)) if c == "label" else _cell(v, c, digits)
                 for v, c in zip(row, cols)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_latex(bd: pd.DataFrame, labels=None, *, headers=None, digits: int = 4) -> str:
    r"""A ``tabular`` (booktabs) for slides, numbers rounded to ``digits`` decimals.

    >>> from metrics.ndcg import breakdown
    >>> print(to_latex(breakdown([3]), ["R&D"]).splitlines()[4])
    1 & R\&D & 3 & 3.0000 & 1.0000 & 3.0000 & 3.0000 & 3 & 3.0000 & 3.0000 & 3.0000 & 1.0000 \\
    """
    frame = export_frame(bd, labels)
    cols = list(frame.columns)
    spec = "".join("l" if c == "label" else "r" for c in cols)
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
             " & ".join(latex_escape(h) for h in _headers(cols, headers)) + " \\\\", "\\midrule"]
    for row in frame.itertuples(index=False):
        lines.append(" & ".join(latex_escape(_cell(v, c, digits)) for v, c in zip(row, cols)) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n"
