"""Classroom charts (Altair): the spread of a class's answers to one step."""
from __future__ import annotations

import altair as alt
import pandas as pd

from ui.charts.access import accessible, listing
from ui.escape import shorten
from ui.i18n import t

RIGHT, WRONG = "#15803d", "#b91c1c"  # 5.0:1 and 6.5:1 on white, with ✓ and ✗ in the labels


def spread_chart(rows: pd.DataFrame, *, students: str, right: str, wrong: str, bar: int = 30) -> alt.Chart:
    """Horizontal bars: one per distinct answer (``rows``: ``answer, students, ok`` from
    :func:`classroom.stats.spread` for one field), most frequent first; green and ✓ when right, red and ✗
    when wrong (the mark, not only the colour, tells them apart; no legend to squeeze the plot).

    Answers are user text: Vega draws them as SVG text (never HTML); they are shortened to 24 characters.
    ``students`` is the translated axis title, ``right``/``wrong`` the tooltip words.
    """
    data = pd.DataFrame({
        "answer": [f"{shorten(a, 24)} {'✓' if ok else '✗'}" for a, ok in zip(rows["answer"], rows["ok"])],
        "students": rows["students"].astype(int).to_numpy(),
        "verdict": [right if ok else wrong for ok in rows["ok"]],
        "order": range(len(rows)),
    })
    chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            y=alt.Y("answer:N", title=None, sort=alt.EncodingSortField("order", order="ascending"),
                    axis=alt.Axis(labelLimit=120)),
            x=alt.X("students:Q", title=students, axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color("verdict:N", legend=None, scale=alt.Scale(domain=[right, wrong], range=[RIGHT, WRONG])),
            tooltip=[alt.Tooltip("answer:N", title=" "), alt.Tooltip("students:Q", title=students),
                     alt.Tooltip("verdict:N", title=" ")],
        )
        # One band of ``bar`` pixels per answer; "fit-x" fits the width only, so the axes add to the height
        # instead of squeezing the bands (Streamlit's default "fit" fits axes and bars into one height).
        .properties(height=alt.Step(bar), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    )
    rows = listing(f"{a} ({v}): {n}" for a, v, n in zip(data["answer"], data["verdict"], data["students"]))
    return accessible(chart, t("charts.spread", rows=rows))
