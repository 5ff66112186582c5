"""Classroom charts (Altair): the spread of a class's answers to one step."""
from __future__ import annotations

import altair as alt
import pandas as pd

from ui.escape import shorten

RIGHT, WRONG = "#16a34a", "#dc2626"


def spread_chart(rows: pd.DataFrame, *, answer: str, students: str, right: str, wrong: str,
                 height_per_bar: int = 26) -> alt.Chart:
    """Horizontal bars: one per distinct answer (``rows``: ``answer, students, ok`` from
    :func:`classroom.stats.spread` for one field), longest first, green when right, red when wrong.

    Answers are user text: Vega draws them as SVG text (never HTML); they are shortened to 28 characters.
    ``answer``/``students``/``right``/``wrong`` are the translated axis and legend titles.
    """
    data = pd.DataFrame({
        "answer": [shorten(a, 28) for a in rows["answer"]],
        "students": rows["students"].astype(int),
        "verdict": [right if ok else wrong for ok in rows["ok"]],
        "order": range(len(rows)),
    })
    return (
        alt.Chart(data)
        .mark_bar()
        .encode(
            y=alt.Y("answer:N", title=answer, sort=alt.EncodingSortField("order", order="ascending"),
                    axis=alt.Axis(labelLimit=180)),
            x=alt.X("students:Q", title=students, axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color("verdict:N", title=None, scale=alt.Scale(domain=[right, wrong], range=[RIGHT, WRONG]),
                            legend=alt.Legend(orient="bottom")),
            tooltip=[alt.Tooltip("answer:N", title=answer), alt.Tooltip("students:Q", title=students),
                     alt.Tooltip("verdict:N", title=" ")],
        )
        .properties(height=max(60, height_per_bar * len(data)))
    )
