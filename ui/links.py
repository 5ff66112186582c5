"""Shareable playground links: the one place that writes the URL query format.

The playground reads the same names (see ``pages/playground.py`` and the README):
``rels`` grades in ranked order, ``labels``, ``unretrieved`` (grades of judged items
not in the list), ``k``, ``gain``, ``discount``, ``base``, ``lang``.
"""
from __future__ import annotations

import math
from urllib.parse import urlencode

PLAYGROUND_PAGE = "pages/playground.py"
PLAYGROUND_PATH = "playground"


def _num(x: float) -> str:
    return f"{x:g}" if float(x) != int(x) else str(int(x))


def format_base(base: float) -> str:
    """``2`` -> "2", ``math.e`` -> "e"."""
    return "e" if base == math.e else _num(base)


def playground_query(rels, *, labels=None, unretrieved=None, k=None, gain=None, discount=None,
                     base=None, lang=None) -> dict[str, str]:
    """Query parameters that open the playground on this ranking.

    >>> playground_query([3, 2, 3, 0, 1, 2], unretrieved=[3, 0], k=6)
    {'rels': '3,2,3,0,1,2', 'unretrieved': '3,0', 'k': '6'}
    """
    q: dict[str, str] = {"rels": ",".join(_num(r) for r in rels)}
    if labels:
        q["labels"] = ",".join(str(x).replace(",", " ") for x in labels)
    if unretrieved:
        q["unretrieved"] = ",".join(_num(r) for r in unretrieved)
    if k is not None:
        q["k"] = str(int(k))
    if gain and gain != "linear":
        q["gain"] = gain
    if discount and discount != "standard":
        q["discount"] = discount
    if base is not None and float(base) != 2.0:
        q["base"] = format_base(float(base))
    if lang and lang != "en":
        q["lang"] = lang
    return q


def playground_url(rels, **options) -> str:
    """A relative URL (``playground?rels=...``) for markdown links and the address bar."""
    return f"{PLAYGROUND_PATH}?{urlencode(playground_query(rels, **options))}"
