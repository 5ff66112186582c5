"""What every chart shares for accessibility (WCAG 2.1 AA): colours of at least 3:1 on the page, a second
cue beside colour, and a description that a screen reader announces instead of "Vega visualization".

* :data:`PALETTE` — categorical colours, each at least 3:1 against white (the app's light theme) and
  distinguishable from its neighbours; :data:`SHAPES` and :data:`DASHES` — the second cue for series.
* :func:`accessible` — give a chart its description (Vega makes it the chart's accessible name), with the
  key values as the page shows them.  The drawing itself is hidden from screen readers by the page script
  (``ui.shell``): Vega would read every mark with its raw value, and ``aria: false`` in the spec leaves
  Vega's mark groups as unnamed ``graphics-symbol`` images (axe ``svg-img-alt``).
* :func:`listing` — "a: 1, b: 2, … and 3 more": the values a description quotes, bounded in length.

The colours are tested (tests/ui/test_charts_access.py) and the descriptions in the browser
(tests/browser/test_a11y_pages.py).
"""
from __future__ import annotations

import altair as alt

from ui.escape import shorten
from ui.i18n import language, t

__all__ = ["PALETTE", "SHAPES", "DASHES", "GREY", "LIGHT_FILL", "TEXT", "accessible", "listing", "DESCRIBED_ITEMS",
           "title_lines"]

# Tailwind 700-level hues: 4.6:1 to 8.6:1 on white.
PALETTE = ["#1d4ed8", "#b45309", "#047857", "#b91c1c", "#7e22ce", "#0e7490", "#be185d", "#4d7c0f",
           "#475569", "#c2410c"]
SHAPES = ["circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-right",
          "triangle-left", "wedge", "stroke"]
DASHES = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3], [10, 2], [3, 1, 1, 1], [6, 2, 1, 2], [2, 5]]
GREY = "#64748b"        # a neutral mark that still carries meaning (4.8:1 on white)
TEXT = "#4b5563"        # axis, legend and title text (7.6:1 on white; Streamlit's chart theme greys are ~3.5:1)
LIGHT_FILL = "#e2e8f0"  # a fill that carries no meaning by itself: its edge (GREY or a colour) does
DESCRIBED_ITEMS = 12    # values quoted in a description before "… and N more"
ITEM_CHARS = 160        # one quoted item at most (it may hold user text: a user's or a run's name)


def accessible(chart, description: str):
    """``chart`` with ``description`` as its accessible name and its axis and legend text at 7.6:1.

    Returns a configured (top-level) chart: call it last, on the chart a page draws.
    """
    return (chart.properties(description=description)
            .configure_axis(labelColor=TEXT, titleColor=TEXT)
            .configure_legend(labelColor=TEXT, titleColor=TEXT))


def title_lines(text: str, *, width: int = 30) -> list[str] | str:
    """An axis or legend title as lines of at most ``width`` columns (a CJK character counts two), for Vega,
    which draws a title on one line and lets the chart's box cut it: on a 390 px phone a long title ran past the
    chart.  Lines break between words (Korean and Latin text) or between characters (Chinese); a title that fits
    stays one string.

    >>> title_lines("Mean difference A − B with its confidence interval")
    ['Mean difference A − B with its', 'confidence interval']
    >>> title_lines("带置信区间的平均差 A − B", width=12)
    ['带置信区间的', '平均差 A − B']
    >>> title_lines("NDCG")
    'NDCG'
    """
    import unicodedata

    def cols(s: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)

    if cols(text) <= width:
        return text
    # pieces a line may end after: a word and its space, or a single wide (CJK) character
    pieces, word = [], ""
    for ch in text:
        if unicodedata.east_asian_width(ch) in "WF" and not ("\uac00" <= ch <= "\ud7a3"):
            if word:
                pieces.append(word)
            pieces.append(ch)
            word = ""
        else:
            word += ch
            if ch == " ":
                pieces.append(word)
                word = ""
    if word:
        pieces.append(word)
    lines, line = [], ""
    for piece in pieces:
        if line and cols((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


def listing(items, limit: int = DESCRIBED_ITEMS, *, clauses: bool = False, lang: str | None = None) -> str:
    """Join ``items`` (strings) the language's way, at most ``limit`` of them, then "… and N more": as a list
    of words (``"1: 3, 2: 2"``, ``"1：3、2：2"``), or with ``clauses`` as clauses that hold lists themselves
    (``"a: 1, 2; b: 3, 4"``, ``"a：1、2；b：3、4"``).  Build each item with :func:`ui.i18n.labelled`.

    >>> listing(["1: 3", "2: 2"], lang="en"), listing(["a: 1, 2", "b: 3, 4"], clauses=True, lang="en")
    ('1: 3, 2: 2', 'a: 1, 2; b: 3, 4')
    >>> listing(["1：3", "2：2"], lang="zh"), listing(["a：1、2", "b：3、4"], clauses=True, lang="zh")
    ('1：3、2：2', 'a：1、2；b：3、4')
    """
    items = list(items)
    way = language(lang)
    sep = way.clause_sep if clauses else way.list_sep
    head = sep.join(shorten(item, ITEM_CHARS) for item in items[:limit])
    if len(items) > limit:
        head += " " + t("charts.more", lang=lang, count=len(items) - limit)
    return head


def series_scale(domain: list[str], colors: list[str] | None = None) -> alt.Scale:
    """A colour scale over ``domain`` from :data:`PALETTE` (or ``colors``)."""
    return alt.Scale(domain=domain, range=(colors or PALETTE)[: len(domain)])
