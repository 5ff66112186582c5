"""Formulas with their numbers filled in, shaped for a projector and a phone: long sums shortened for
display and one step per line.  Shared by the pages that write out a calculation (:mod:`ui.pages.topn`,
:mod:`ui.pages.rating`, :mod:`ui.pages.roc`, :mod:`ui.pages.diversity`, :mod:`ui.pages.run_files.significance`).
"""
from __future__ import annotations

__all__ = ["MAX_TERMS", "join_terms", "aligned", "sum_rows", "sum_lines"]

#: A formula shows at most this many terms of a sum; the rest is ``\cdots`` (every term still counts).
MAX_TERMS = 12


def join_terms(terms, *, sep: str = " + ", limit: int = MAX_TERMS, empty: str = "0") -> str:
    r"""LaTeX of a sum's terms, shortened to the first ``limit - 2``, ``\cdots`` and the last one.

    >>> join_terms(["1", "0", "2"])
    '1 + 0 + 2'
    >>> join_terms([str(i) for i in range(1, 21)], limit=5)
    '1 + 2 + 3 + \\cdots + 20'
    >>> join_terms([])
    '0'
    """
    terms = list(terms)
    if not terms:
        return empty
    if len(terms) > limit:
        terms = terms[: max(limit - 2, 1)] + ["\\cdots", terms[-1]]
    return sep.join(terms)


# --- formulas that fit a phone: one step per line, long sums over several lines -------------------------

def aligned(rows) -> str:
    r"""KaTeX ``aligned`` block: one row per step, rows aligned on ``&``.

    The thin space after the block covers KaTeX's 2-pixel strut at the right end of an aligned
    column, which would otherwise make the formula's box 2 pixels wider than its content.

    >>> aligned(["x &= 1 + 1", "&= 2"])
    '\\begin{aligned}x &= 1 + 1 \\\\ &= 2\\end{aligned}\\;'
    """
    return "\\begin{aligned}" + " \\\\ ".join(rows) + "\\end{aligned}\\;"


def sum_rows(terms, *, per_row: int, limit: int = MAX_TERMS) -> list[str]:
    r"""A sum's terms in rows of ``per_row`` (shortened as :func:`join_terms` does); rows after the
    first start with ``+``.

    >>> sum_rows(["1", "2", "3"], per_row=2)
    ['1 + 2', '+ 3']
    >>> sum_rows([], per_row=2)
    ['0']
    """
    terms = list(terms)
    if not terms:
        return ["0"]
    if len(terms) > limit:
        terms = terms[: max(limit - 2, 1)] + ["\\cdots", terms[-1]]
    rows = [" + ".join(terms[i:i + per_row]) for i in range(0, len(terms), per_row)]
    return [rows[0]] + [f"+ {row}" for row in rows[1:]]


def sum_lines(lhs: str, terms, total: str, *, per_row: int, open_: str = "", close: str = "",
              total_row: bool = False) -> list[str]:
    r"""Rows of ``lhs = t1 + t2 + ... = total`` for :func:`aligned`, wrapped every ``per_row`` terms;
    ``open_``/``close`` surround the terms (e.g. ``\tfrac{1}{4}\big(`` and ``\big)``); ``total_row``
    puts ``= total`` on a row of its own.

    >>> sum_lines("S", ["1", "2", "3"], "6", per_row=2)
    ['S &= 1 + 2', '&\\quad + 3 = 6']
    >>> sum_lines("S", ["5"], "5", per_row=2)
    ['S &= 5']
    >>> sum_lines("S", ["1", "2"], "3", per_row=2, total_row=True)
    ['S &= 1 + 2', '&= 3']
    """
    terms = list(terms)
    if len(terms) == 1 and not open_ and terms[0] == total:
        return [f"{lhs} &= {total}"]
    rows = sum_rows(terms, per_row=per_row)
    rows[0] = open_ + rows[0]
    rows[-1] = rows[-1] + close
    out = [f"{lhs} &= {rows[0]}"] + [f"&\\quad {row}" for row in rows[1:]]
    if total_row:
        out.append(f"&= {total}")
    else:
        out[-1] += f" = {total}"
    return out
