"""Charts of the Present page, drawn for a projector: large type, the page's light or dark colours.

Both charts read a :func:`metrics.breakdown` table; nothing is computed here but the weight of a
position (one over its discount, as on the playground's discount chart).
"""
from __future__ import annotations

import altair as alt
import pandas as pd

from ui.i18n import t

FONT_SIZE = 18
TITLE_SIZE = 18


def _config(chart: alt.Chart, palette: dict) -> alt.Chart:
    return (
        chart.configure(background=palette["bg"])
        .configure_view(stroke=None)
        .configure_axis(labelFontSize=FONT_SIZE, titleFontSize=TITLE_SIZE, labelColor=palette["text"],
                        titleColor=palette["text"], domainColor=palette["border"], tickColor=palette["border"],
                        gridColor=palette["beyond"] if palette["bg"] != "#ffffff" else "#e5e7eb")
        .configure_legend(labelFontSize=FONT_SIZE, titleFontSize=TITLE_SIZE, labelColor=palette["text"],
                          titleColor=palette["text"], orient="top", title=None)
    )


def discount_curve(bd: pd.DataFrame, n: int, mark: int, palette: dict, lang: str, *, height: int = 230) -> alt.Chart:
    """The weight of positions 1..n under the lecture's discount, ``mark`` (1-based, 0: none) marked."""
    positions = bd["position"].iloc[:n].astype(int)
    data = pd.DataFrame({
        "position": positions,
        "weight": 1.0 / bd["discount"].iloc[:n],
        "marked": positions == mark,
    })
    x = alt.X("position:Q", title=t("present.chart_position", lang=lang),
              axis=alt.Axis(tickMinStep=1, format="d"), scale=alt.Scale(domain=[0.5, max(n, 1) + 0.5]))
    y = alt.Y("weight:Q", title=t("present.chart_weight", lang=lang), scale=alt.Scale(domain=[0, 1.05]))
    line = alt.Chart(data).mark_line(color=palette["actual"], strokeWidth=4).encode(x=x, y=y)
    dots = alt.Chart(data).mark_circle(size=140, color=palette["actual"], opacity=1).encode(x=x, y=y)
    layers = [line, dots]
    if mark:
        here = data[data["marked"]]
        layers.append(alt.Chart(here).mark_rule(color=palette["accent"], strokeWidth=3, strokeDash=[6, 4])
                      .encode(x=x))
        layers.append(alt.Chart(here).mark_circle(size=700, color=palette["accent"], opacity=1).encode(x=x, y=y))
        layers.append(alt.Chart(here).mark_text(dy=-26, fontSize=22, fontWeight="bold", color=palette["text"])
                      .encode(x=x, y=y, text=alt.Text("weight:Q", format=".3f")))
    return _config(alt.layer(*layers, height=height), palette)


def gain_bars(bd: pd.DataFrame, palette: dict, lang: str, *, ideal: bool = True, cap: int = 30,
              height: int = 230) -> alt.Chart:
    """Discounted gain per position: the ranking (and the ideal order beside it).

    The two series differ in shape as well as colour: the ranking's bars are filled, the ideal order's are
    outlined (a 3 px edge in its colour around the page's background), in the legend too, so the chart reads
    in greyscale and for colour-blind viewers.  Both colours stand out from the background by at least 3:1.
    """
    part = bd.iloc[:cap]
    actual_name, ideal_name = t("present.your_ranking", lang=lang), t("present.ideal_ranking", lang=lang)
    frames = [pd.DataFrame({"position": part["position"].astype(int), "series": actual_name,
                            "value": part["discounted_gain"]})]
    if ideal:
        frames.append(pd.DataFrame({"position": part["position"].astype(int), "series": ideal_name,
                                    "value": part["ideal_discounted_gain"]}))
    data = pd.concat(frames, ignore_index=True).dropna(subset=["value"])
    names = [actual_name, ideal_name] if ideal else [actual_name]
    fills = [palette["actual"], palette["bg"]][: len(names)]
    strokes = [palette["actual"], palette["ideal"]][: len(names)]
    chart = alt.Chart(data, height=height).mark_bar(strokeWidth=3).encode(
        x=alt.X("position:O", title=t("present.chart_position", lang=lang), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("series:N", sort=names),
        y=alt.Y("value:Q", title=t("present.chart_term", lang=lang)),
        fill=alt.Fill("series:N", sort=names, scale=alt.Scale(domain=names, range=fills),
                      legend=alt.Legend(symbolStrokeWidth=3, symbolSize=260)),
        stroke=alt.Stroke("series:N", sort=names, scale=alt.Scale(domain=names, range=strokes),
                          legend=alt.Legend(symbolStrokeWidth=3, symbolSize=260)),
    )
    return _config(chart, palette)
