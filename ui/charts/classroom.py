"""Classroom charts (Altair): the spread of a class's answers to one step."""
from __future__ import annotations

from collections.abc import Mapping

import altair as alt
import pandas as pd

from metrics.lessons.diagnose import MARKS, STATES
from ui.charts.access import accessible, listing
from ui.escape import shorten
from ui.i18n import labelled, t

#: One colour per verdict state (``metrics.lessons.diagnose.STATES``), each at least 4.5:1 on white and each
#: bar's label starting with the state's mark (✓ ✗ ↪ …), so that the verdict never rests on colour alone
#: (the amber of a carried-forward answer is the amber of the steps tables' carried cells).
COLOURS = {"right": "#15803d", "wrong": "#b91c1c", "carried_forward": "#b45309", "unfinished": "#475569"}
RIGHT, WRONG = COLOURS["right"], COLOURS["wrong"]
#: Characters of an answer in a bar's label (the axis cuts a label to its width from the right: the mark,
#: first, always stays) and in the tooltip.
LABEL_CHARS, TOOLTIP_CHARS = 24, 80


def spread_chart(rows: pd.DataFrame, *, students: str, names: Mapping[str, str], bar: int = 30) -> alt.Chart:
    """Horizontal bars: one per distinct answer and verdict (``rows``: ``answer, students, state`` from
    :func:`classroom.stats.spread` for one field), most frequent first, coloured by the verdict and labelled
    with its mark first (``✓ 6.86``, ``↪ 8.09``: a long answer is cut at the end, never the mark; no legend
    to squeeze the plot).

    Answers are user text: Vega draws them as SVG text (never HTML); they are shortened to 24 characters in
    the label and 80 in the tooltip.  ``students`` is the translated axis title, ``names`` the translated
    name of each state (tooltip and accessible description).
    """
    states = [str(s) for s in rows["state"]]
    unknown = sorted(set(states) - set(STATES))
    if unknown:
        raise ValueError(f"rows['state'] must be one of {', '.join(STATES)}, got {unknown[0][:30]!r}")
    missing = [s for s in STATES if s not in names]
    if missing:
        raise ValueError(f"names must name every state, {missing[0]!r} is missing")
    data = pd.DataFrame({
        "answer": [f"{MARKS[s]} {shorten(a, LABEL_CHARS)}" for a, s in zip(rows["answer"], states)],
        "full": [f"{MARKS[s]} {shorten(a, TOOLTIP_CHARS)}" for a, s in zip(rows["answer"], states)],
        "students": rows["students"].astype(int).to_numpy(),
        "verdict": [names[s] for s in states],
        "order": range(len(rows)),
    })
    chart = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            y=alt.Y("answer:N", title=None, sort=alt.EncodingSortField("order", order="ascending"),
                    axis=alt.Axis(labelLimit=160)),
            x=alt.X("students:Q", title=students, axis=alt.Axis(tickMinStep=1, format="d")),
            color=alt.Color("verdict:N", legend=None,
                            scale=alt.Scale(domain=[names[s] for s in STATES], range=[COLOURS[s] for s in STATES])),
            tooltip=[alt.Tooltip("full:N", title=" "), alt.Tooltip("students:Q", title=students),
                     alt.Tooltip("verdict:N", title=" ")],
        )
        # One band of ``bar`` pixels per answer; "fit-x" fits the width only, so the axes add to the height
        # instead of squeezing the bands (Streamlit's default "fit" fits axes and bars into one height).
        .properties(height=alt.Step(bar), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    )
    legend = listing(f"{MARKS[s]} {names[s]}" for s in STATES)
    described = listing(labelled(f"{a} ({v})", str(n))
                        for a, v, n in zip(data["answer"], data["verdict"], data["students"]))
    return accessible(chart, t("charts.spread", marks=legend, rows=described))
