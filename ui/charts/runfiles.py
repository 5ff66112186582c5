"""Charts of the Run files page: which choice flips the winner, and two variants query by query.

Every title, axis and tooltip is passed in already translated (variant names come from the registry
through :func:`ui.pages.run_files.view.variant_name`), so no raw id such as ``linear/standard/judged/trec_eval``
reaches a chart.  Labels are never cut: long axis titles are given as two lines.
"""
from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from ui.charts.access import GREY, LIGHT_FILL, PALETTE, SHAPES, accessible, listing
from ui.i18n import labelled, t
from ui.numbers import show

# The changes: an outlined light bar (its grey edge 4.8:1); the flips: a solid red bar inside it (6.5:1),
# and the numbers "flips / changes" written beside them.
FLIP_COLOR = "#b91c1c"
SAME_COLOR = LIGHT_FILL
SAME_EDGE = GREY
#: Points drawn in the scatter: a run file of 10,000 queries and a few runs gives tens of thousands of points,
#: which the browser would draw one by one (and Altair refuses beyond 5,000 rows).
SCATTER_POINTS = 4_000


def flip_chart(summary: pd.DataFrame, *, names: dict[str, str], flips_title: str, changes_title: str,
               choice_title: str, count_title: str) -> alt.LayerChart:
    """For each choice (gain, discount, IDCG source, tie rule): a grey bar for the number of one-choice
    changes among the evaluated variants, a red bar inside it for those that change the winner, and
    the text ``flips / changes`` beside it.

    ``summary`` has columns ``choice``, ``changes`` and ``flips`` (:func:`ui.pages.run_files.view.flip_summary`);
    ``names`` maps each choice to its name in the page's language.
    """
    data = summary.assign(name=[names[c] for c in summary["choice"]],
                          label=[f"{f} / {c}" for f, c in zip(summary["flips"], summary["changes"])])
    order = list(data["name"])
    y = alt.Y("name:N", sort=order, title=None, axis=alt.Axis(labelLimit=0, labelFontSize=13))
    tooltip = [alt.Tooltip("name:N", title=choice_title), alt.Tooltip("flips:Q", title=flips_title),
               alt.Tooltip("changes:Q", title=changes_title)]
    top = max(int(data["changes"].max()) if len(data) else 1, 1)
    x_scale = alt.Scale(domain=[0, top * 1.25], nice=False)
    base = alt.Chart(data).encode(y=y, tooltip=tooltip)
    changes = base.mark_bar(color=SAME_COLOR, stroke=SAME_EDGE, strokeWidth=1.5, height=22).encode(
        x=alt.X("changes:Q", title=count_title, scale=x_scale, axis=alt.Axis(tickMinStep=1, format="d")))
    flips = base.mark_bar(color=FLIP_COLOR, height=22).encode(x=alt.X("flips:Q", scale=x_scale))
    text = base.mark_text(align="left", dx=4, fontSize=13).encode(x=alt.X("changes:Q", scale=x_scale),
                                                                  text="label:N")
    chart = (changes + flips + text).properties(height=44 * max(len(data), 1) + 20)
    return accessible(chart, t("charts.flips", rows=listing(labelled(n, lab) for n, lab in zip(data["name"],
                                                                                         data["label"]))))


def scatter_points(data: pd.DataFrame, *, limit: int = SCATTER_POINTS) -> pd.DataFrame:
    """The points the scatter draws: all of them up to ``limit``; beyond it the half of ``limit`` farthest from
    the diagonal (the queries where the variants disagree most) and evenly spaced rows of the others.

    >>> d = pd.DataFrame({"run": "r", "qid": [f"q{i}" for i in range(10)], "x": [0.5] * 10,
    ...                   "y": [0.5] * 9 + [0.9]})
    >>> list(scatter_points(d, limit=4)["qid"])
    ['q0', 'q4', 'q8', 'q9']
    """
    if len(data) <= limit:
        return data
    gap = (data["x"] - data["y"]).abs().to_numpy()
    far = np.argsort(-gap, kind="stable")[: limit // 2]
    far = far[gap[far] > 0]
    rest = np.setdiff1d(np.arange(len(data)), far)
    spaced = rest[np.unique(np.linspace(0, rest.size - 1, limit - far.size).round().astype(int))]
    return data.iloc[np.sort(np.concatenate([far, spaced]))]


def scatter_chart(data: pd.DataFrame, *, x_title: list[str] | str, y_title: list[str] | str, run_title: str,
                  query_title: str, height: int = 420) -> alt.LayerChart:
    """One point per (run, query): the value under the x variant against the y variant, with the diagonal.

    ``data`` has columns ``run``, ``qid``, ``x`` and ``y``; ``x_title`` / ``y_title`` name the variants
    (a list of strings is drawn as several lines).  At most :data:`SCATTER_POINTS` points are drawn
    (:func:`scatter_points`); a page with more says so.
    """
    runs = list(dict.fromkeys(data["run"]))
    legend = alt.Legend(orient="bottom", labelLimit=0, columns=2)

    def scale(values):
        return alt.Scale(domain=runs, range=[values[i % len(values)] for i in range(len(runs))])

    points = alt.Chart(scatter_points(data)).mark_point(size=60, filled=True, opacity=0.85).encode(
        x=alt.X("x:Q", title=x_title, scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(titleLimit=0)),
        y=alt.Y("y:Q", title=y_title, scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(titleLimit=0)),
        color=alt.Color("run:N", title=run_title, legend=legend, scale=scale(PALETTE)),
        shape=alt.Shape("run:N", title=run_title, legend=legend, scale=scale(SHAPES)),
        tooltip=[alt.Tooltip("run:N", title=run_title), alt.Tooltip("qid:N", title=query_title),
                 alt.Tooltip("x:Q", title="x", format=".4f"), alt.Tooltip("y:Q", title="y", format=".4f")],
    )
    diagonal = alt.Chart(pd.DataFrame({"x": [0, 1], "y": [0, 1]})).mark_line(strokeDash=[4, 4], color="#4b5563") \
        .encode(x="x:Q", y="y:Q")
    chart = (diagonal + points).properties(height=height)

    def words(title):
        return " ".join(title) if isinstance(title, list) else str(title)

    rows = [t("charts.scatter_run", run=run, points=len(part), mx=show(part["x"].mean()), my=show(part["y"].mean()))
            for run, part in data.groupby("run", sort=False)]
    return accessible(chart, t("charts.scatter", x=words(x_title), y=words(y_title), rows=listing(rows, clauses=True)))
