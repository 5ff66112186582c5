"""Charts of the significance section: per-query differences sorted, the null distribution with the
observed statistic marked, and confidence intervals as intervals.

Every number comes from :mod:`metrics.significance` (the results' ``null_distribution()`` frames, the
:func:`metrics.significance.all_pairs` table); every title, legend and tooltip is passed in already
translated; only each chart's description (its accessible name, ``charts.*`` in the catalogues) is
worded here.
"""
from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from metrics.significance import NullDistribution
from ui.charts.access import GREY, accessible, listing, title_lines
from ui.i18n import join_words, labelled, t
from ui.numbers import show

# >= 3:1 on white; the second cue is the position (A's wins above 0, B's below; the extreme part beyond the
# dashed observed lines) or a shape (significant: diamonds).
A_COLOR = "#1d4ed8"      # queries where the first system wins
B_COLOR = "#b45309"      # queries where the second one wins
TIE_COLOR = GREY
EXTREME_COLOR = "#b91c1c"
NULL_COLOR = GREY
SIGNIFICANT_COLOR = "#15803d"
MAX_BARS = 2_000  # longer sorted sequences are drawn from evenly spaced ranks (the curve keeps its shape)


def differences_data(queries, differences, *, a_wins: str, b_wins: str, tie: str) -> pd.DataFrame:
    """Per-query differences sorted from most negative to most positive, one row per bar.

    Columns ``rank`` (1 = most negative), ``query``, ``difference`` and ``winner`` (the three labels).
    At most :data:`MAX_BARS` rows: a longer sequence keeps the ranks 1, ..., n spaced evenly (first and
    last included), which draws the same sorted curve.
    """
    d = np.asarray(differences, dtype=float)
    order = np.argsort(d, kind="stable")
    rank = np.arange(1, d.size + 1)
    if d.size > MAX_BARS:
        keep = np.unique(np.linspace(0, d.size - 1, MAX_BARS).round().astype(int))
        order, rank = order[keep], rank[keep]
    values = d[order]
    winner = np.where(values > 0, a_wins, np.where(values < 0, b_wins, tie))
    return pd.DataFrame({"rank": rank, "query": np.asarray(list(queries), dtype=object)[order],
                         "difference": values, "winner": winner})


def differences_chart(data: pd.DataFrame, *, x_title: str, y_title: str, query_title: str, winner_title: str,
                      a_wins: str, b_wins: str, tie: str, height: int = 260) -> alt.Chart:
    """Bars of the sorted per-query differences (A - B): blue where A wins, orange where B wins.

    ``data`` comes from :func:`differences_data` (called with the same three labels).  Up to 200
    queries one bar each; more are drawn as a filled step curve over the ranks.
    """
    color = alt.Color("winner:N", title=winner_title,
                      scale=alt.Scale(domain=[a_wins, b_wins, tie], range=[A_COLOR, B_COLOR, TIE_COLOR]),
                      legend=alt.Legend(orient="top", labelLimit=0))
    tooltip = [alt.Tooltip("query:N", title=query_title), alt.Tooltip("difference:Q", title=y_title, format=".4f"),
               alt.Tooltip("rank:Q", title=x_title)]
    y = alt.Y("difference:Q", title=y_title)
    if len(data) <= 200:
        chart = alt.Chart(data).mark_bar().encode(
            x=alt.X("rank:O", title=x_title, axis=alt.Axis(labelAngle=0, labelOverlap=True)),
            y=y, color=color, tooltip=tooltip)
    else:
        chart = alt.Chart(data).mark_area(interpolate="step-after").encode(
            x=alt.X("rank:Q", title=x_title, axis=alt.Axis(format="d")), y=y, color=color, tooltip=tooltip)
    counts = data["winner"].value_counts()
    rows = join_words(f"{name} {int(counts.get(name, 0))}" for name in (a_wins, b_wins, tie))
    low, high = (show(data["difference"].min()), show(data["difference"].max())) if len(data) else ("–", "–")
    return accessible(chart.properties(height=height), t("charts.differences", low=low, high=high, rows=rows))


def null_chart(null: NullDistribution, *, x_title: str, y_title: str, extreme_label: str, other_label: str,
               legend_title: str, observed_title: str, height: int = 260) -> alt.LayerChart:
    """The null distribution: grey where less extreme than observed, red where at least as extreme,
    dashed rules at the observed values (both tails).

    ``kind="bars"``: one bar per value or bin, from ``bottom`` to ``top`` (a bin holding both parts
    shows the extreme one stacked on the other); ``kind="density"``:
    the curve, filled piece by piece.  For a bootstrap distribution
    (:meth:`metrics.significance.BootstrapCI.null_distribution`) "extreme" is the part outside the
    interval and the rules are its ends: pass labels that say so.
    """
    frame = null.frame.assign(part=np.where(null.frame["extreme"], extreme_label, other_label))
    color = alt.Color("part:N", title=legend_title,
                      scale=alt.Scale(domain=[other_label, extreme_label], range=[NULL_COLOR, EXTREME_COLOR]),
                      legend=alt.Legend(orient="top", direction="vertical", labelLimit=0))
    if null.kind == "density":
        # One filled piece per run of equal "extreme", so the two tails are not joined across the middle.
        frame["segment"] = (frame["extreme"] != frame["extreme"].shift()).cumsum()
        base = alt.Chart(frame).mark_area(opacity=0.8).encode(
            x=alt.X("x:Q", title=x_title), y=alt.Y("density:Q", title=y_title), color=color, detail="segment:N",
            tooltip=[alt.Tooltip("x:Q", title=x_title, format=".3f"),
                     alt.Tooltip("density:Q", title=y_title, format=".4f")])
    else:
        base = alt.Chart(frame).mark_bar().encode(
            x=alt.X("x_low:Q", title=x_title), x2="x_high:Q",
            y=alt.Y("top:Q", title=y_title), y2="bottom:Q", color=color,
            tooltip=[alt.Tooltip("x_low:Q", title=x_title, format=".4g"), alt.Tooltip("x_high:Q", format=".4g"),
                     alt.Tooltip("probability:Q", title=y_title, format=".4f")])
    marks = pd.DataFrame({"observed": [float(v) for v in null.observed if np.isfinite(v)]})
    rules = alt.Chart(marks).mark_rule(color="#111827", strokeDash=[6, 3], strokeWidth=2).encode(
        x="observed:Q", tooltip=[alt.Tooltip("observed:Q", title=observed_title, format=".4f")])
    observed = ", ".join(show(v) for v in marks["observed"]) or "–"
    return accessible((base + rules).properties(height=height),
                      t("charts.null", other=other_label, extreme=extreme_label, observed=observed))


def ci_chart(table: pd.DataFrame, *, pair_labels: list[str], x_title: str, significant_label: str,
             not_significant_label: str, legend_title: str, pair_title: str, low_title: str, high_title: str,
             height_per_pair: int = 28) -> alt.LayerChart:
    """Every pair's mean difference (point) and confidence interval (line), with the line of no difference.

    ``table`` is :func:`metrics.significance.all_pairs`'s; ``pair_labels`` names its rows in order.
    """
    data = pd.DataFrame({
        "pair": pair_labels, "mean_difference": table["mean_difference"].to_numpy(),
        "ci_low": table["ci_low"].to_numpy(), "ci_high": table["ci_high"].to_numpy(),
        "verdict": np.where(table["significant"].to_numpy(), significant_label, not_significant_label),
    })
    y = alt.Y("pair:N", sort=pair_labels, title=None, axis=alt.Axis(labelLimit=0, labelOverlap=False))
    color = alt.Color("verdict:N", title=legend_title,
                      scale=alt.Scale(domain=[significant_label, not_significant_label],
                                      range=[SIGNIFICANT_COLOR, NULL_COLOR]),
                      legend=alt.Legend(orient="top", labelLimit=0))
    tooltip = [alt.Tooltip("pair:N", title=pair_title),
               alt.Tooltip("mean_difference:Q", title=x_title, format=".4f"),
               alt.Tooltip("ci_low:Q", title=low_title, format=".4f"),
               alt.Tooltip("ci_high:Q", title=high_title, format=".4f")]
    base = alt.Chart(data).encode(y=y, color=color, tooltip=tooltip)
    # the long axis title in lines: on a phone one line ran past the chart's right edge
    lines = base.mark_rule(strokeWidth=3).encode(x=alt.X("ci_low:Q", title=title_lines(x_title)), x2="ci_high:Q")
    points = base.mark_point(filled=True, size=80).encode(
        x="mean_difference:Q",
        shape=alt.Shape("verdict:N", title=legend_title, legend=alt.Legend(orient="top", labelLimit=0),
                        scale=alt.Scale(domain=[significant_label, not_significant_label],
                                        range=["diamond", "circle"])))
    zero = alt.Chart(pd.DataFrame({"x": [0.0]})).mark_rule(color="#111827", strokeDash=[4, 4]).encode(x="x:Q")
    # A height per row (a fixed total would be squeezed by the legend and the axis title).
    rows = listing((labelled(p, f"{show(m)} [{show(lo)}, {show(hi)}] {v}") for p, m, lo, hi, v in
                    zip(data["pair"], data["mean_difference"], data["ci_low"], data["ci_high"], data["verdict"])),
                   clauses=True)
    return accessible((zero + lines + points).properties(height=alt.Step(height_per_pair)),
                      t("charts.ci", significant=significant_label, not_significant=not_significant_label, rows=rows))
