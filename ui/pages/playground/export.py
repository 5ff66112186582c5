"""The per-position table (:func:`metrics.breakdown`) as CSV, Markdown and LaTeX, for files and slides.

Every export names the variant it was computed with (a :class:`metrics.variant.Variant`: gain, discount,
log base, k, IDCG source): CSV in columns of its own (one value per row: the file stays a plain table),
Markdown and LaTeX in a title line; file names say the same in the variant's file-name form
(``ndcg_linear_standard_k6_judged.csv``).  CSV keeps every digit and goes through
:func:`metrics.safe_csv.to_csv` (labels starting with ``=``, ``+``, ``-``, ``@`` cannot become formulas);
Markdown and LaTeX round for display.  Labels are user text: escaped by :mod:`ui.escape` for each format
(Markdown escapes only what a table needs, so Marp, Jupyter and Obsidian show ``DCG (running)`` as written).
"""
from __future__ import annotations

import math

import pandas as pd

from metrics.safe_csv import to_csv as safe_to_csv
from metrics.variant import Variant
from ui.escape import latex as latex_text
from ui.escape import markdown_cell
from ui.numbers import exact, show

__all__ = ["COLUMNS", "VARIANT_COLUMNS", "variant_columns", "file_name", "export_frame", "to_csv", "to_markdown",
           "to_latex"]

COLUMNS = ("position", "label", "relevance", "gain", "discount", "discounted_gain", "dcg",
           "ideal_relevance", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg")
VARIANT_COLUMNS = ("variant_gain", "variant_discount", "variant_log_base", "variant_k", "variant_idcg_from")
_INTEGER_COLUMNS = ("position",)
_GRADE_COLUMNS = ("relevance", "ideal_relevance")


def variant_columns(variant: Variant) -> dict[str, str]:
    """The CSV's variant columns: gain, discount, log base (``e`` for the natural logarithm), k (``all``
    for the whole list) and where the ideal ranking comes from.

    >>> variant_columns(Variant(gain="map", gain_map={1: 2}, log_base=math.e, idcg="list"))
    {'variant_gain': 'map', 'variant_discount': 'standard', 'variant_log_base': 'e', 'variant_k': 'all', \
'variant_idcg_from': 'list'}
    """
    base = "e" if variant.log_base == math.e else exact(variant.log_base)
    return {"variant_gain": variant.gain, "variant_discount": variant.discount, "variant_log_base": base,
            "variant_k": "all" if variant.k is None else str(variant.k), "variant_idcg_from": variant.idcg}


def file_name(variant: Variant, extension: str) -> str:
    """``ndcg_<slug>.<extension>``: the variant's file-name form (:meth:`metrics.variant.Variant.format`,
    ``gain_discount[_baseB]_kK_idcg``) with dots written ``_``.

    >>> file_name(Variant(k=6), "csv"), file_name(Variant(gain="exponential", log_base=2.5, idcg="list"), "md")
    ('ndcg_linear_standard_k6_judged.csv', 'ndcg_exponential_standard_base2_5_kall_list.md')
    """
    return f"ndcg_{variant.format('slug').replace('.', '_')}.{extension}"


def export_frame(bd: pd.DataFrame, labels=None) -> pd.DataFrame:
    """The breakdown with a ``label`` column after ``position`` (empty past the end of the list)."""
    labels = [" ".join(str(x).split()) for x in (labels or [])]  # one line each
    n = len(bd)
    out = bd.copy()
    has_item = out["relevance"].notna().tolist()
    out.insert(1, "label", [labels[i] if i < len(labels) and has_item[i] else "" for i in range(n)])
    return out[[c for c in COLUMNS if c in out.columns]]


def to_csv(bd: pd.DataFrame, labels=None, variant: Variant | None = None) -> str:
    """CSV with full float64 precision (``repr`` round-trips), the variant in its own columns, cells neutralised.

    >>> from metrics.ndcg import breakdown
    >>> text = to_csv(breakdown([3, 1]), ["=A", "B"], Variant(idcg="list"))
    >>> print(text.splitlines()[1])
    1,"'=A",3.0,3.0,1.0,3.0,3.0,3.0,3.0,3.0,3.0,1.0,"linear","standard","2","all","list"
    """
    frame = export_frame(bd, labels)
    if variant is not None:
        for name, value in variant_columns(variant).items():
            frame[name] = value
    return safe_to_csv(frame)


def _cell(value, column: str, digits: int) -> str:
    if isinstance(value, str):
        return value
    if value is None or value != value:
        return ""
    if column in _INTEGER_COLUMNS:
        return str(int(value))
    if column in _GRADE_COLUMNS:
        return exact(value)
    return show(value, digits)


def _headers(columns, headers) -> list[str]:
    headers = headers or {}
    return [str(headers.get(c, c)) for c in columns]


def to_markdown(bd: pd.DataFrame, labels=None, *, headers=None, digits: int = 4, title: str = "") -> str:
    """A Markdown (GitHub) table, numbers rounded to ``digits`` decimals, after a ``title`` line (the variant).

    >>> from metrics.ndcg import breakdown
    >>> md = to_markdown(breakdown([3, 1]), ["A|B", "C"], headers={"dcg": "DCG (running)"}, title="Linear")
    >>> lines = md.splitlines()
    >>> print(lines[0]); print(lines[2].split(" | ")[6]); print(lines[4][:23])
    **Linear**
    DCG (running)
    | 1 | A\\|B | 3 | 3.0000
    """
    frame = export_frame(bd, labels)
    cols = list(frame.columns)
    lines = [f"**{markdown_cell(title)}**", ""] if title else []
    lines += ["| " + " | ".join(markdown_cell(h) for h in _headers(cols, headers)) + " |",
              "|" + "|".join("---:" if c != "label" else ":---" for c in cols) + "|"]
    for row in frame.itertuples(index=False):
        cells = [markdown_cell(_cell(v, c, digits)) for v, c in zip(row, cols)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def to_latex(bd: pd.DataFrame, labels=None, *, headers=None, digits: int = 4, title: str = "") -> str:
    r"""A booktabs ``tabular`` for slides, numbers rounded to ``digits`` decimals, in a ``table`` captioned
    with ``title`` (the variant).

    >>> from metrics.ndcg import breakdown
    >>> tex = to_latex(breakdown([3]), ["R&D"], title="Linear gain")
    >>> print(tex.splitlines()[2]); print(tex.splitlines()[7])
    \caption{Linear gain}
    1 & R\&D & 3 & 3.0000 & 1.0000 & 3.0000 & 3.0000 & 3 & 3.0000 & 3.0000 & 3.0000 & 1.0000 \\
    """
    frame = export_frame(bd, labels)
    cols = list(frame.columns)
    spec = "".join("l" if c == "label" else "r" for c in cols)
    lines = ["\\begin{table}[h]", "\\centering", f"\\caption{{{latex_text(title)}}}",
             f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
             " & ".join(latex_text(h) for h in _headers(cols, headers)) + " \\\\", "\\midrule"]
    for row in frame.itertuples(index=False):
        lines.append(" & ".join(latex_text(_cell(v, c, digits)) for v, c in zip(row, cols)) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"
