"""Altair charts of the documents' other metrics: the Top-N, Rating and ROC & AUC pages.

Every chart is built from a table that :mod:`metrics.other` computes; axes and legends are
translated here.  Charts carry no title: the pages write it above the chart as text, which wraps on
a phone (a chart title is cut with "…" when it is wider than the chart).  Long inputs are drawn in
part (``limit`` arguments): the pages say so in a caption, and every number still uses all the data.
"""
from __future__ import annotations

import altair as alt
import pandas as pd

from metrics.other.topn import ap_breakdown
from ui.charts.access import DASHES, GREY, LIGHT_FILL, PALETTE, accessible, listing
from ui.i18n import join_words, labelled, t
from ui.numbers import show, show_trimmed

__all__ = [
    "GRID_USERS", "GRID_POSITIONS", "USER_BARS", "hit_grid", "per_user_chart",
    "errors_chart", "share_chart", "sweep_chart", "ERROR_BARS",
    "roc_chart", "pair_chart", "threshold_text",
]

# >= 3:1 on white wherever a colour carries meaning, with a second cue (✓/✗/= in cells, shapes, dashes).
HIT, MISS = "#15803d", LIGHT_FILL      # a hit: dark green (5.0:1) and ✓; a miss: light grey and ✗
MISS_EDGE = GREY
MAE_COLOR, RMSE_COLOR = "#1d4ed8", "#b91c1c"
TIE_COLOR = "#b45309"
CHANCE_COLOR = "#4b5563"   # the chance diagonal (7.6:1), dotted
FUTURE_COLOR = GREY        # the steps still to come (4.8:1), dashed
GRID_USERS = 30       # users drawn in the hit grid
GRID_POSITIONS = 30   # positions drawn per user in the hit grid
GRID_TEXT_POSITIONS, GRID_TEXT_CHARS = 10, 4   # item names written in the cells only up to these sizes
USER_BARS = 30        # users drawn in the per-user bar chart
ERROR_BARS = 60       # pairs drawn in the error and share charts


# --- Top-N -------------------------------------------------------------------------------------

def hit_grid(runs: dict, n: int, *, users: int = GRID_USERS, positions: int = GRID_POSITIONS) -> alt.Chart:
    """Each user's top ``n`` as a row of cells, hits green: the first ``users`` users, ``positions`` places;
    item names are written in the cells when they fit (short names, few positions), else shown on hover."""
    shown = list(runs)[:users]
    width = min(n, positions)
    frames = [ap_breakdown(runs[u][0], runs[u][1], n=width).assign(user=u) for u in shown]
    data = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["position", "item", "rel", "precision", "user"])
    data = data.assign(result=data["rel"].map({1.0: t("topn.hit"), 0.0: t("topn.miss")}),
                       position=data["position"].astype(int),
                       item=data["item"].map(lambda x: str(x)[:12]))
    base = alt.Chart(data).encode(
        x=alt.X("position:O", title=t("topn.position"), axis=alt.Axis(labelAngle=0)),
        # names up to ~30 characters whole (at 90 px "utilisateur_numéro_00" was shortened to "utilisateur_nu…")
        y=alt.Y("user:N", title=t("topn.user"), sort=shown, axis=alt.Axis(labelLimit=180)),
    )
    data["mark"] = data["rel"].map({1.0: "✓", 0.0: "✗"})
    rects = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color("result:N", title=None,
                        scale=alt.Scale(domain=[t("topn.hit"), t("topn.miss")], range=[HIT, MISS]),
                        legend=alt.Legend(orient="top", symbolStrokeColor=MISS_EDGE, symbolStrokeWidth=1)),
        tooltip=[alt.Tooltip("user:N", title=t("topn.user")), alt.Tooltip("position:O", title=t("topn.position")),
                 alt.Tooltip("item:N", title=t("topn.item")), alt.Tooltip("result:N", title=t("topn.result")),
                 alt.Tooltip("precision:Q", title="Precision@k", format=".4f")],
    )
    # ✓ / ✗ in every cell (white on green, dark on grey: 5.0:1 and 13:1), the item's name after it when it fits
    named = not (width > GRID_TEXT_POSITIONS or data["item"].str.len().max() > GRID_TEXT_CHARS)
    data["cell"] = (data["mark"] + " " + data["item"]) if named else data["mark"]
    base = base.properties(data=data)
    labels = base.mark_text(fontSize=13 if named else 12).encode(
        text="cell:N", color=alt.condition(alt.datum.rel == 1, alt.value("#ffffff"), alt.value("#111827")))
    rows = []
    for u in shown:
        hits = [str(int(p)) for p, r in zip(data.loc[data["user"] == u, "position"], data.loc[data["user"] == u, "rel"])
                if r == 1.0]
        rows.append(labelled(str(u), t("charts.hits_at", positions=join_words(hits)) if hits else t("charts.no_hit")))
    chart = (rects.properties(data=data) + labels).properties(height=alt.Step(34))
    return accessible(chart, t("charts.hit_grid", n=width, rows=listing(rows, clauses=True)))


PER_USER_METRICS = {"precision": "Precision@N", "recall": "Recall@N", "ap": "AP@N", "rr": "RR",
                    "loo_ndcg": "NDCG (15)"}


def per_user_chart(table: pd.DataFrame, *, users: int = USER_BARS) -> alt.Chart:
    """Grouped bars of every per-user metric (the first ``users`` rows of :func:`metrics.other.topn.per_user`)."""
    names = PER_USER_METRICS
    part = table.head(users)
    long = part.melt(id_vars=["user"], value_vars=list(names), var_name="metric", value_name="value")
    long["metric"] = long["metric"].map(names)
    metrics = list(names.values())
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("user:N", title=t("topn.user"), sort=list(part["user"]),
                # slanted, whole up to ~30 characters (level, 90 px shortened "utilisateur_numéro_00" to "…")
                axis=alt.Axis(labelAngle=-40, labelLimit=180)),
        xOffset=alt.XOffset("metric:N", sort=metrics),
        y=alt.Y("value:Q", title=t("topn.value"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("metric:N", title=None, sort=metrics, scale=alt.Scale(domain=metrics,
                                                                              range=PALETTE[:len(metrics)]),
                        legend=alt.Legend(orient="top", columns=3)),
        tooltip=[alt.Tooltip("user:N", title=t("topn.user")), alt.Tooltip("metric:N", title=t("topn.metric")),
                 alt.Tooltip("value:Q", title=t("topn.value"), format=".4f")],
    ).properties(height=320)
    rows = [labelled(str(row["user"]), join_words(f"{names[k]} {show(row[k])}" for k in names))
            for _, row in part.iterrows()]
    return accessible(chart, t("charts.per_user", metrics=join_words(metrics), rows=listing(rows, clauses=True)))


# --- Rating ------------------------------------------------------------------------------------

def errors_chart(table: pd.DataFrame, *, pairs: int = ERROR_BARS) -> alt.Chart:
    """|r − r̂| beside (r − r̂)² for the first ``pairs`` pairs of :func:`metrics.other.rating.errors`.

    A square beyond float64 (``inf``) is left out of the bars; its tooltip row still shows the error.
    """
    abs_name, sq_name = t("rating.abs_error"), t("rating.squared_error")
    part = table.head(pairs)
    squared = part["squared_error"].where(part["squared_error"] != float("inf"))
    long = pd.concat([
        pd.DataFrame({"pair": part["pair"], "kind": abs_name, "value": part["abs_error"], "error": part["error"]}),
        pd.DataFrame({"pair": part["pair"], "kind": sq_name, "value": squared, "error": part["error"]}),
    ], ignore_index=True)
    chart = alt.Chart(long).mark_bar().encode(
        x=alt.X("pair:O", title=t("rating.pair"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("kind:N", sort=[abs_name, sq_name]),
        y=alt.Y("value:Q", title=t("rating.value")),
        color=alt.Color("kind:N", title=None, sort=[abs_name, sq_name],
                        legend=alt.Legend(orient="top", columns=1, labelLimit=0),
                        scale=alt.Scale(range=[MAE_COLOR, RMSE_COLOR])),
        tooltip=[alt.Tooltip("pair:O", title=t("rating.pair")),
                 alt.Tooltip("error:Q", title=t("rating.error"), format=".4g"),
                 alt.Tooltip("kind:N", title=t("rating.kind")),
                 alt.Tooltip("value:Q", title=t("rating.value"), format=".4g")],
    ).properties(height=260)
    rows = [f"{p}: {show_trimmed(a)}, {show_trimmed(q)}"
            for p, a, q in zip(part["pair"], part["abs_error"], part["squared_error"])]
    return accessible(chart, t("charts.errors", rows=listing(rows, clauses=True)))


def share_chart(shares: pd.DataFrame, *, pairs: int = ERROR_BARS) -> alt.Chart:
    """Each pair's share of Σ|e| (MAE) and of Σe² (RMSE²): a big error takes a bigger share of the squares.

    With more than ``pairs`` pairs the smaller shares are drawn as one "other pairs" block.
    """
    mae_name, rmse_name = t("rating.share_mae"), t("rating.share_rmse")
    data = pd.concat([
        pd.DataFrame({"metric": mae_name, "pair": shares["pair"].astype(str), "order": shares["pair"],
                      "share": shares["share_abs"]}),
        pd.DataFrame({"metric": rmse_name, "pair": shares["pair"].astype(str), "order": shares["pair"],
                      "share": shares["share_squared"]}),
    ], ignore_index=True)
    if len(shares) > pairs:
        other = t("rating.other_pairs")
        data.loc[data["order"] > pairs, ["pair", "order"]] = [other, pairs + 1]
        data = data.groupby(["metric", "pair", "order"], as_index=False, sort=False)["share"].sum()
    base = alt.Chart(data).encode(
        y=alt.Y("metric:N", title=None, sort=[mae_name, rmse_name], axis=alt.Axis(labelLimit=320)),
        x=alt.X("share:Q", title=t("rating.share_axis"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1]),
                stack="zero"),
        order=alt.Order("order:Q"),
        tooltip=[alt.Tooltip("metric:N", title=t("rating.metric")), alt.Tooltip("pair:N", title=t("rating.pair")),
                 alt.Tooltip("share:Q", title=t("rating.share_axis"), format=".1%")],
    )
    bars = base.mark_bar(stroke="white", strokeWidth=1).encode(
        color=alt.Color("pair:N", title=t("rating.pair"), sort=alt.EncodingSortField("order"),
                        scale=alt.Scale(range=PALETTE), legend=alt.Legend(orient="top", columns=12)))
    # the pair's number on its part when the part is wide enough (white on the 700-level colours: >= 4.5:1)
    names = base.transform_filter(alt.datum.share >= 0.06).mark_text(color="white", fontSize=12, dx=-3,
                                                                       align="right").encode(
        x=alt.X("share:Q", stack="zero", bandPosition=1), text="pair:N")
    chart = (bars + names).properties(height=alt.Step(44))
    mae = data[data["metric"] == mae_name].set_index("pair")["share"]
    rmse = data[data["metric"] == rmse_name].set_index("pair")["share"]
    rows = [f"{p}: {mae[p]:.1%}, {rmse[p]:.1%}" for p in mae.index]
    return accessible(chart, t("charts.shares", rows=listing(rows, clauses=True)))


def sweep_chart(sweep: pd.DataFrame) -> alt.Chart:
    """RMSE and MAE as one pair's error grows (:func:`metrics.other.rating.error_sweep`)."""
    long = sweep.melt(id_vars=["extra", "error"], value_vars=["rmse", "mae"], var_name="metric", value_name="value")
    long["metric"] = long["metric"].map({"rmse": "RMSE", "mae": "MAE"})
    legend = alt.Legend(orient="top")
    chart = alt.Chart(long).mark_line(point=alt.OverlayMarkDef(size=20)).encode(
        x=alt.X("error:Q", title=t("rating.sweep_x")),
        y=alt.Y("value:Q", title=t("rating.value")),
        color=alt.Color("metric:N", title=None, scale=alt.Scale(domain=["RMSE", "MAE"], range=[RMSE_COLOR, MAE_COLOR]),
                        legend=legend),
        strokeDash=alt.StrokeDash("metric:N", title=None, legend=legend,
                                  scale=alt.Scale(domain=["RMSE", "MAE"], range=DASHES[:2])),
        tooltip=[alt.Tooltip("error:Q", title=t("rating.sweep_x"), format=".3g"),
                 alt.Tooltip("metric:N", title=t("rating.metric")),
                 alt.Tooltip("value:Q", title=t("rating.value"), format=".4g")],
    ).properties(height=280)
    first, last = sweep.iloc[0], sweep.iloc[-1]
    return accessible(chart, t("charts.sweep", low=show_trimmed(first["error"]), high=show_trimmed(last["error"]),
                               rmse_low=show_trimmed(first["rmse"]), rmse_high=show_trimmed(last["rmse"]),
                               mae_low=show_trimmed(first["mae"]), mae_high=show_trimmed(last["mae"])))


# --- ROC ---------------------------------------------------------------------------------------

def threshold_text(x: float) -> str:
    """A threshold for display: +∞ at the start, else the rounded score."""
    return "+∞" if x == float("inf") else show(x)


def roc_chart(steps: pd.DataFrame, current: int) -> alt.LayerChart:
    """The ROC staircase of :func:`metrics.other.roc.roc_steps`: drawn up to step ``current``, the rest dashed."""
    data = steps.assign(
        drawn=steps["step"] <= current,
        samples_text=steps["samples"].map(lambda s: ", ".join(map(str, s[:20])) + (" …" if len(s) > 20 else "")),
        threshold_text=steps["threshold"].map(threshold_text),
    ).drop(columns=["samples"])
    x = alt.X("fpr:Q", title=t("roc.fpr"), scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("tpr:Q", title=t("roc.tpr"), scale=alt.Scale(domain=[0, 1]))
    tips = [
        alt.Tooltip("step:Q", title=t("roc.step")),
        alt.Tooltip("threshold_text:N", title=t("roc.threshold")),
        alt.Tooltip("samples_text:N", title=t("roc.samples")),
        alt.Tooltip("fpr:Q", title=t("roc.fpr"), format=".4f"),
        alt.Tooltip("tpr:Q", title=t("roc.tpr"), format=".4f"),
        alt.Tooltip("auc_so_far:Q", title=t("roc.auc_so_far"), format=".4f"),
    ]
    base = alt.Chart(data)
    chance = alt.Chart(pd.DataFrame({"fpr": [0, 1], "tpr": [0, 1]})).mark_line(
        strokeDash=[2, 4], color=CHANCE_COLOR).encode(x=x, y=y)
    future = base.mark_line(strokeDash=[6, 4], color=FUTURE_COLOR, point=alt.OverlayMarkDef(
        filled=False, fill="white", color=FUTURE_COLOR)).encode(x=x, y=y, order="step:Q", tooltip=tips)
    drawn = base.transform_filter(alt.datum.drawn)
    # stack=None: several points share an x on a vertical step and must not be stacked on each other;
    # the area is drawn in x order, ties kept in step order (the data are sorted by step)
    area = drawn.mark_area(opacity=0.18, color=MAE_COLOR).encode(
        x=x, y=alt.Y("tpr:Q", stack=None, scale=alt.Scale(domain=[0, 1])))
    line = drawn.mark_line(color=MAE_COLOR, point=alt.OverlayMarkDef(size=60)).encode(
        x=x, y=y, order="step:Q", tooltip=tips)
    now = base.transform_filter(alt.datum.step == current).mark_point(
        size=220, color=RMSE_COLOR, filled=True).encode(x=x, y=y, tooltip=tips)
    chart = alt.layer(chance, future, area, line, now).properties(height=420)
    drawn_steps = steps[steps["step"] <= current]
    points = listing(f"({show_trimmed(f)}, {show_trimmed(tp)})"
                     for f, tp in zip(drawn_steps["fpr"], drawn_steps["tpr"]))
    auc = drawn_steps["auc_so_far"].iloc[-1] if len(drawn_steps) else 0.0
    return accessible(chart, t("charts.roc", step=current, steps=int(steps["step"].max()), points=points,
                               auc=show(auc)))


def pair_chart(pairs: pd.DataFrame) -> alt.Chart:
    """Every (positive, negative) pair of :func:`metrics.other.roc.rank_pairs` as a cell: right, tie, wrong."""
    names = {"correct": t("roc.correct"), "tie": t("roc.tie"), "wrong": t("roc.wrong")}
    data = pairs.assign(result=pairs["outcome"].map(names),
                        mark=pairs["outcome"].map({"correct": "✓", "tie": "=", "wrong": "✗"}))
    base = alt.Chart(data).encode(
        x=alt.X("negative:O", title=t("roc.negative_sample"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("positive:O", title=t("roc.positive_sample")))
    # ✓ / = / ✗ in white on each cell (>= 5:1 on the three colours): the outcome is never told by colour alone
    marks = base.mark_text(color="white", fontSize=12).encode(text="mark:N")
    cells = base.mark_rect(stroke="white").encode(
        color=alt.Color("result:N", title=t("roc.outcome"),
                        scale=alt.Scale(domain=list(names.values()), range=[HIT, TIE_COLOR, RMSE_COLOR]),
                        legend=alt.Legend(orient="top", columns=1, labelLimit=0)),
        tooltip=[
            alt.Tooltip("positive:O", title=t("roc.positive_sample")),
            alt.Tooltip("score_pos:Q", title=t("roc.score_pos"), format=".4g"),
            alt.Tooltip("negative:O", title=t("roc.negative_sample")),
            alt.Tooltip("score_neg:Q", title=t("roc.score_neg"), format=".4g"),
            alt.Tooltip("result:N", title=t("roc.outcome")),
            alt.Tooltip("loss:Q", title=t("roc.loss"), format="~g"),
        ],
    )
    counts = pairs["outcome"].value_counts()
    return accessible((cells + marks).properties(height=alt.Step(22)),
                      t("charts.pairs", right=int(counts.get("correct", 0)), tie=int(counts.get("tie", 0)),
                        wrong=int(counts.get("wrong", 0))))
