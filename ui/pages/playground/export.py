"""The per-position table (:func:`metrics.breakdown`) as CSV, Markdown and LaTeX, for files and slides.

Every export names the variant it was computed with (gain, discount, log base, k, IDCG source): CSV in
columns of its own (one value per row: the file stays a plain table), Markdown and LaTeX in a title line;
file names say the same (``ndcg_linear_standard_k6_judged.csv``).  CSV keeps every digit and goes through
:func:`metrics.safe_csv.to_csv` (labels starting with ``=``, ``+``, ``-``, ``@`` cannot become formulas);
Markdown and LaTeX round for display.  Labels are user text: escaped by :mod:`ui.escape` for each format
(Markdown escapes only what a table needs, so Marp, Jupyter and Obsidian show ``DCG (running)`` as written).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from metrics.safe_csv import to_csv as safe_to_csv
from ui.escape import latex as latex_text
from ui.escape import markdown_cell
from ui.numbers import exact, show

__all__ = ["COLUMNS", "VARIANT_COLUMNS", "Variant", "file_name", "export_frame", "to_csv", "to_markdown",
           "to_latex"]

COLUMNS = ("position", "label", "relevance", "gain", "discount", "discounted_gain", "dcg",
           "ideal_relevance", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg")
VARIANT_COLUMNS = ("variant_gain", "variant_discount", "variant_log_base", "variant_k", "variant_idcg_from")
_INTEGER_COLUMNS = ("position",)
_GRADE_COLUMNS = ("relevance", "ideal_relevance")


@dataclass(frozen=True)
class Variant:
    """The settings an export was computed with (registry keys; ``k`` None for the whole list).

    >>> Variant("linear", "standard", 2.0, 6, "judged").slug
    'linear_standard_k6_judged'
    >>> Variant("exponential", "jarvelin", 10.0, None, "list").slug
    'exponential_jarvelin_base10_kall_list'
    """

    gain: str
    discount: str
    log_base: float
    k: int | None
    idcg: str

    @property
    def base_text(self) -> str:
        return "e" if self.log_base == math.e else exact(self.log_base)

    @property
    def slug(self) -> str:
        base = "" if self.log_base == 2.0 else f"_base{self.base_text}"
        return f"{self.gain}_{self.discount}{base}_k{'all' if self.k is None else self.k}_{self.idcg}"

    def columns(self) -> dict[str, str]:
        return {"variant_gain": self.gain, "variant_discount": self.discount, "variant_log_base": self.base_text,
                "variant_k": "all" if self.k is None else str(self.k), "variant_idcg_from": self.idcg}


def file_name(variant: Variant, extension: str) -> str:
    """``ndcg_<gain>_<discount>[_base<b>]_k<k|all>_<judged|list>.<extension>``.

    >>> file_name(Variant("linear", "standard", 2.0, 6, "judged"), "csv")
    'ndcg_linear_standard_k6_judged.csv'
    """
    return f"ndcg_{variant.slug.replace('.', '_')}.{extension}"


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
    >>> text = to_csv(breakdown([3, 1]), ["=A", "B"], Variant("linear", "standard", 2.0, None, "list"))
    >>> print(text.splitlines()[1])
    1,"'=A",3.0,3.0,1.0,3.0,3.0,3.0,3.0,3.0,3.0,1.0,"linear","standard","2","all","list"
    """
    frame = export_frame(bd, labels)
    if variant is not None:
        for name, value in variant.columns().items():
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
