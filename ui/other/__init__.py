"""Page logic of the documents' other metrics (Top-N, Rating, ROC & AUC): what ``pages/topn.py``,
``pages/rating.py`` and ``pages/roc.py`` lay out.

One module per page (:mod:`ui.other.topn`, :mod:`ui.other.rating`, :mod:`ui.other.roc`): the page's
fields for :mod:`ui.state`, its parsers and input caps, and the text it shows (formulas with the
numbers filled in, display tables, messages).  Numbers come from :mod:`metrics.other`; charts from
:mod:`ui.charts.other`.  Shared here: long sums shortened for display, and the "share this view" box.
"""
from __future__ import annotations

from urllib.parse import urlsplit

__all__ = ["MAX_TERMS", "join_terms", "show_share"]

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


def _base_url() -> str:
    """``scheme://host`` of the address the visitor opened (empty outside a browser session)."""
    import streamlit as st

    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode): a relative link
        return ""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def show_share(page, section: str) -> None:
    """An expander with the complete address of this view (Streamlit's code box has a copy button).

    ``page`` is the :class:`ui.state.PageState` after :meth:`~ui.state.PageState.finish` (which decides
    whether the link fits in an address bar); ``section`` the page's catalogue section.
    """
    import streamlit as st

    from ui.i18n import t

    with st.expander(t(f"{section}.share")):
        if page.link_too_long:
            st.warning(t(f"{section}.link_too_long"))
        else:
            st.caption(t(f"{section}.share_help"))
            st.code(page.url(_base_url()), language=None, wrap_lines=True)
