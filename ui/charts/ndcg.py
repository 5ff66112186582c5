"""Altair charts drawn from :func:`metrics.breakdown` tables and the registry.

Every chart puts the rank (position) on the x axis, so a reordered ranking is
drawn in its new order (Altair keeps a nominal axis's old order otherwise);
where labels are shown they ride along in tooltips.
"""
from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from metrics.registry import DISCOUNTS, resolve_discount
from ui.charts.access import DASHES, PALETTE, SHAPES, accessible, listing
from ui.i18n import join_clauses, join_words, labelled, registry_text, t
from ui.numbers import show, show_trimmed

__all__ = ["ACTUAL_COLOR", "IDEAL_COLOR", "gains_long", "discounted_gain_chart", "running_chart",
           "discount_curves_data", "discount_curves_chart", "tie_spread_chart"]

# Yours: solid blue bars, circles, a solid line; ideal: outlined amber bars, squares, a dashed line (colour is
# never the only cue).  Both >= 3:1 on white (6.7:1 and 5.0:1).
ACTUAL_COLOR = "#1d4ed8"
IDEAL_COLOR = "#b45309"
IDEAL_FILL = "#fde68a"  # the outlined bars' inside (their amber edge carries the contrast)


def _labels_for(n: int, labels) -> list[str]:
    labels = list(labels or [])
    return [labels[i] if i < len(labels) else "" for i in range(n)]


def gains_long(bd: pd.DataFrame, labels=None) -> pd.DataFrame:
    """Long form of a breakdown: one row per (position, series) with the discounted gain."""
    n = len(bd)
    actual = pd.DataFrame(
        {
            "position": bd["position"],
            "series": t("common.actual"),
            "label": _labels_for(n, labels),
            "relevance": bd["relevance"],
            "gain": bd["gain"],
            "discount": bd["discount"],
            "discounted_gain": bd["discounted_gain"],
        }
    )
    ideal = pd.DataFrame(
        {
            "position": bd["position"],
            "series": t("common.ideal"),
            "label": "",
            "relevance": bd["ideal_relevance"],
            "gain": bd["ideal_gain"],
            "discount": bd["discount"],
            "discounted_gain": bd["ideal_discounted_gain"],
        }
    )
    return pd.concat([actual, ideal], ignore_index=True).dropna(subset=["discounted_gain"])


def _series_scale() -> alt.Scale:
    return alt.Scale(domain=[t("common.actual"), t("common.ideal")], range=[ACTUAL_COLOR, IDEAL_COLOR])


def _by_position(positions, values) -> str:
    return listing(labelled(str(int(p)), show_trimmed(v)) for p, v in zip(positions, values) if pd.notna(v))


def discounted_gain_chart(bd: pd.DataFrame, labels=None, *, height: int = 260) -> alt.Chart:
    """Bars of discounted gain per position, your ranking (solid) beside the ideal one (outlined)."""
    data = gains_long(bd, labels)
    series = alt.Scale(domain=[t("common.actual"), t("common.ideal")], range=[ACTUAL_COLOR, IDEAL_FILL])
    # one entry a line: side by side, "Running IDCG" and "Järvelin–Kekäläinen discount" ran past a narrow chart
    legend = alt.Legend(orient="top", direction="vertical", symbolStrokeWidth=2, labelLimit=0)
    chart = (
        alt.Chart(data, height=height)
        .mark_bar(strokeWidth=2)
        .encode(
            x=alt.X("position:O", title=t("common.position"), sort="ascending", axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("series:N", sort=[t("common.actual"), t("common.ideal")]),
            y=alt.Y("discounted_gain:Q", title=t("common.discounted_gain")),
            fill=alt.Fill("series:N", title=t("common.series"), scale=series, legend=legend),
            stroke=alt.Stroke("series:N", title=t("common.series"), scale=_series_scale(), legend=legend),
            tooltip=[
                alt.Tooltip("series:N", title=t("common.series")),
                alt.Tooltip("position:O", title=t("common.position")),
                alt.Tooltip("label:N", title=t("common.label")),
                alt.Tooltip("relevance:Q", title=t("common.relevance"), format="~g"),
                alt.Tooltip("gain:Q", title=t("common.gain"), format=".4~f"),
                alt.Tooltip("discount:Q", title=t("common.discount"), format=".4f"),
                alt.Tooltip("discounted_gain:Q", title=t("common.discounted_gain"), format=".4f"),
            ],
        )
    )
    text = t("charts.gains", actual=_by_position(bd["position"], bd["discounted_gain"]),
             ideal=_by_position(bd["position"], bd["ideal_discounted_gain"]))
    return accessible(chart, text)


def running_chart(bd: pd.DataFrame, *, height: int = 260) -> alt.Chart:
    """Running DCG against running IDCG by position."""
    data = pd.concat(
        [
            pd.DataFrame({"position": bd["position"], "series": t("common.running_dcg"), "value": bd["dcg"]}),
            pd.DataFrame({"position": bd["position"], "series": t("common.running_idcg"), "value": bd["idcg"]}),
        ],
        ignore_index=True,
    )
    domain = [t("common.running_dcg"), t("common.running_idcg")]
    scale = alt.Scale(domain=domain, range=[ACTUAL_COLOR, IDEAL_COLOR])
    legend = alt.Legend(orient="top", direction="vertical", labelLimit=0)
    chart = (
        alt.Chart(data, height=height)
        .mark_line(point=alt.OverlayMarkDef(size=50, filled=True))
        .encode(
            x=alt.X("position:Q", title=t("common.position"), axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("value:Q", title=t("common.value")),
            color=alt.Color("series:N", title=t("common.series"), scale=scale, legend=legend),
            shape=alt.Shape("series:N", title=t("common.series"), legend=legend,
                            scale=alt.Scale(domain=domain, range=SHAPES[:2])),
            strokeDash=alt.StrokeDash("series:N", title=t("common.series"), legend=legend,
                                      scale=alt.Scale(domain=domain, range=DASHES[:2])),
            tooltip=[
                alt.Tooltip("series:N", title=t("common.series")),
                alt.Tooltip("position:Q", title=t("common.position")),
                alt.Tooltip("value:Q", title=t("common.value"), format=".4f"),
            ],
        )
    )
    text = t("charts.running", dcg=_by_position(bd["position"], bd["dcg"]),
             idcg=_by_position(bd["position"], bd["idcg"]))
    return accessible(chart, text)


def discount_curves_data(n: int, log_base: float, discounts=None) -> pd.DataFrame:
    """Weight 1 / discount(i) for positions 1..n, one series per discount in the registry."""
    positions = np.arange(1, max(1, int(n)) + 1)
    frames = []
    for key in discounts or DISCOUNTS:
        d = resolve_discount(key)
        frames.append(
            pd.DataFrame(
                {
                    "position": positions,
                    "discount_key": d.key,
                    "series": registry_text("discount", d, "name"),
                    "divisor": d.func(positions, log_base),
                    "weight": 1.0 / d.func(positions, log_base),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def discount_curves_chart(n: int, log_base: float, discounts=None, *, height: int = 260) -> alt.Chart:
    """The weight each discount gives to positions 1..n, on one chart."""
    data = discount_curves_data(n, log_base, discounts)
    names = list(dict.fromkeys(data["series"]))
    legend = alt.Legend(orient="top", direction="vertical", labelLimit=0)

    def scale(values):
        return alt.Scale(domain=names, range=[values[i % len(values)] for i in range(len(names))])

    chart = (
        alt.Chart(data, height=height)
        .mark_line(point=alt.OverlayMarkDef(size=45, filled=True))
        .encode(
            x=alt.X("position:Q", title=t("common.position"), axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("weight:Q", title=t("common.weight")),
            color=alt.Color("series:N", title=t("common.discount"), legend=legend, scale=scale(PALETTE)),
            shape=alt.Shape("series:N", title=t("common.discount"), legend=legend, scale=scale(SHAPES)),
            strokeDash=alt.StrokeDash("series:N", title=t("common.discount"), legend=legend, scale=scale(DASHES)),
            tooltip=[
                alt.Tooltip("series:N", title=t("common.discount")),
                alt.Tooltip("position:Q", title=t("common.position")),
                alt.Tooltip("divisor:Q", title=t("common.discount"), format=".4f"),
                alt.Tooltip("weight:Q", title=t("common.weight"), format=".4f"),
            ],
        )
    )
    last = int(data["position"].max())
    quoted = sorted({1, 2, 3, last} & set(range(1, last + 1)))
    rows = [labelled(name, join_words(f"{p} → {show_trimmed(w)}" for p, w in zip(part["position"], part["weight"])
                                      if p in quoted))
            for name, part in data.groupby("series", sort=False)]
    return accessible(chart, t("charts.curves", n=last, base=show_trimmed(log_base), series=join_clauses(rows)))


def tie_spread_chart(spread: pd.DataFrame, *, rule_title: str, height: int = 220) -> alt.Chart:
    """NDCG under each tie rule (:func:`metrics.lessons.libraries.tie_spread` with a translated ``name``)."""
    chart = (
        alt.Chart(spread, height=height)
        .mark_bar(color=ACTUAL_COLOR)
        .encode(
            x=alt.X("ndcg:Q", title="NDCG", scale=alt.Scale(domain=[0, 1])),
            # the rules' whole names ("trec_eval (docno descending)" was shortened to "trec_eval (docno …")
            y=alt.Y("name:N", title=rule_title, sort=None, axis=alt.Axis(labelLimit=0)),
            tooltip=[alt.Tooltip("name:N", title=rule_title), alt.Tooltip("ndcg:Q", title="NDCG", format=".4f")],
        )
    )
    values = listing(labelled(name, show(v)) for name, v in zip(spread["name"], spread["ndcg"]))
    return accessible(chart, t("charts.ties", values=values))
