"""Page logic of the documents' other metrics (Top-N, Rating, ROC & AUC): what ``pages/topn.py``,
``pages/rating.py`` and ``pages/roc.py`` lay out.

One module per page (:mod:`ui.other.topn`, :mod:`ui.other.rating`, :mod:`ui.other.roc`): the page's
fields for :mod:`ui.state`, its parsers and input caps, and the text it shows (formulas with the
numbers filled in, display tables, messages).  Numbers come from :mod:`metrics.other`; charts from
:mod:`ui.charts.other`.  Shared here: long sums shortened for display, a link parameter as given.
"""
from __future__ import annotations

__all__ = ["MAX_TERMS", "join_terms", "link_text"]

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



def link_text(page, param: str) -> str | None:
    """The text of link parameter ``param`` when ``page`` (a :class:`ui.state.PageState`) has just read a
    link, else None: a message about a value the data cannot use then quotes what the link said."""
    import streamlit as st

    if not page.opened_link:
        return None
    value = st.query_params.get(param)
    return None if value is None else str(value)
