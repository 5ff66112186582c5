"""Altair charts of the Diversity page: each rank's gain with and without the novelty discount, and alpha-nDCG@k
as alpha goes from 0 (plain NDCG) to 1.  Numbers from :mod:`metrics.lessons.diversity`."""
from __future__ import annotations

import altair as alt
import pandas as pd

from ui.charts.access import DASHES, PALETTE, accessible, listing
from ui.i18n import t
from ui.numbers import show

__all__ = ["gain_chart", "sweep_chart"]

NOVELTY, PLAIN = PALETTE[0], PALETTE[1]


def gain_chart(table: pd.DataFrame) -> alt.Chart:
    """Each rank's gain: with the novelty discount (alpha) beside the plain count of subtopics (grade)."""
    novel, plain = t("diversity.series_alpha"), t("diversity.series_plain")
    long = pd.concat([
        pd.DataFrame({"rank": table["rank"], "series": novel, "gain": table["gain"]}),
        pd.DataFrame({"rank": table["rank"], "series": plain, "gain": table["plain_gain"].astype(float)}),
    ], ignore_index=True)
    domain = [novel, plain]
    chart = alt.Chart(long).mark_bar(strokeWidth=1.5).encode(
        x=alt.X("rank:O", title=t("diversity.col_rank"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("series:N", sort=domain),
        y=alt.Y("gain:Q", title=t("diversity.col_gain")),
        color=alt.Color("series:N", title=None, scale=alt.Scale(domain=domain, range=[NOVELTY, PLAIN]),
                        legend=alt.Legend(orient="top", direction="vertical", labelLimit=320)),
        opacity=alt.Opacity("series:N", scale=alt.Scale(domain=domain, range=[1.0, 0.55]), legend=None),
        tooltip=[alt.Tooltip("rank:O", title=t("diversity.col_rank")), alt.Tooltip("series:N", title=" "),
                 alt.Tooltip("gain:Q", title=t("diversity.col_gain"), format=".4g")],
    ).properties(height=260)
    items = [f"{r}: {show(g)} / {p}" for r, g, p in zip(table["rank"], table["gain"], table["plain_gain"])]
    return accessible(chart, t("diversity.gain_chart_desc", items=listing(items)))


def sweep_chart(sweep: pd.DataFrame, current: float) -> alt.LayerChart:
    """alpha-nDCG@k for alpha from 0 to 1, the current alpha marked."""
    line = alt.Chart(sweep).mark_line(point=alt.OverlayMarkDef(size=25), color=NOVELTY,
                                      strokeDash=DASHES[0]).encode(
        x=alt.X("alpha:Q", title="α", scale=alt.Scale(domain=[0, 1])),
        y=alt.Y("alpha_ndcg:Q", title=t("diversity.sweep_y"), scale=alt.Scale(domain=[0, 1])),
        tooltip=[alt.Tooltip("alpha:Q", title="α", format=".2f"),
                 alt.Tooltip("alpha_ndcg:Q", title=t("diversity.sweep_y"), format=".4f")],
    )
    rule = alt.Chart(pd.DataFrame({"alpha": [current]})).mark_rule(color=PLAIN, strokeDash=DASHES[1]).encode(
        x="alpha:Q")
    first, last = sweep.iloc[0], sweep.iloc[-1]
    chart = alt.layer(line, rule).properties(height=260)
    return accessible(chart, t("diversity.sweep_chart_desc", plain=show(first["alpha_ndcg"]),
                               one=show(last["alpha_ndcg"]), alpha=show(current)))
