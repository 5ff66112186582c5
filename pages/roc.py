"""ROC & AUC (document 001): the curve drawn one threshold at a time, AUC as area and as 1 - rank loss.

Layout and wiring only; every number comes from metrics.other.roc.
URL parameters: ``scores`` (comma-separated), ``labels`` (0/1, comma-separated), ``step`` (0..steps).
"""
from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import pandas as pd
import streamlit as st

from metrics.other.roc import AUC_METHODS, auc, pair_counts, parse_binary_labels, rank_loss, rank_pairs, roc_steps
from metrics.parse import ParseError, parse_numbers
from ui.i18n import plain, t
from ui.widgets import error_text, keep_or_restore

DEFAULT_SCORES = "0.9, 0.8, 0.7, 0.6, 0.55, 0.55, 0.5, 0.4, 0.3, 0.2"
DEFAULT_LABELS = "1, 1, 0, 1, 1, 0, 0, 1, 0, 0"
MAX_PAIR_GRID = 900
K_SCORES, K_LABELS, K_STEP = "roc_scores", "roc_labels", "roc_step"
SAVED = "roc__saved"
LAST = "roc__last_valid"


def fmt(x: float) -> str:
    """A number for display: up to 4 decimals, no trailing zeros."""
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _exact(x: float) -> str:
    """A number for a link: exact (shortest round-trip form), no trailing .0."""
    return str(int(x)) if x == int(x) else repr(x)


def _msg(exc: ValueError) -> str:
    if isinstance(exc, ParseError) and exc.kind == "not_a_label":
        return t("roc.not_a_label", token=plain(exc.token, 20), position=exc.position)
    return error_text(exc)


def _from_link() -> None:
    """First visit: widget values from the link (bad parameters warned about), else defaults."""
    q = st.query_params
    st.session_state[K_SCORES] = q.get("scores", DEFAULT_SCORES)
    st.session_state[K_LABELS] = q.get("labels", DEFAULT_LABELS)
    step = q.get("step")
    st.session_state["roc__want_step"] = None
    if step is not None:
        if step.isdigit():
            st.session_state["roc__want_step"] = int(step)
        else:
            st.warning(t("common.bad_param", name="step", reason=t("roc.bad_step_reason")))


def _read_input() -> tuple[list[float], list[int]]:
    """Scores and labels; on bad input a message and the last valid pair."""
    col1, col2 = st.columns(2)
    with col1:
        text_s = st.text_area(t("roc.scores"), key=K_SCORES, help=t("roc.scores_help"), height=90)
    with col2:
        text_l = st.text_area(t("roc.labels"), key=K_LABELS, help=t("roc.labels_help"), height=90)
    try:
        scores = parse_numbers(text_s)
    except ValueError as exc:
        st.error(t("roc.in_scores", message=_msg(exc)))
        return _fallback()
    try:
        labels = parse_binary_labels(text_l)
    except ValueError as exc:
        st.error(t("roc.in_labels", message=_msg(exc)))
        return _fallback()
    if len(scores) != len(labels):
        st.error(t("roc.unequal", scores=len(scores), labels=len(labels)))
        return _fallback()
    if len(set(labels)) < 2:
        st.error(t("roc.one_class", missing=t("roc.positive") if 0 in labels else t("roc.negative")))
        return _fallback()
    st.session_state[LAST] = (scores, labels)
    return scores, labels


def _fallback() -> tuple[list[float], list[int]]:
    st.caption(t("common.kept_last_valid"))
    if LAST not in st.session_state:
        st.session_state[LAST] = (parse_numbers(DEFAULT_SCORES), parse_binary_labels(DEFAULT_LABELS))
    return st.session_state[LAST]


def roc_chart(steps: pd.DataFrame, current: int) -> alt.LayerChart:
    data = steps.assign(
        drawn=steps["step"] <= current,
        samples_text=steps["samples"].map(lambda s: ", ".join(map(str, s))),
        threshold_text=steps["threshold"].map(lambda x: "+∞" if x == float("inf") else fmt(x)),
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
        strokeDash=[2, 4], color="#9ca3af").encode(x=x, y=y)
    future = base.mark_line(strokeDash=[6, 4], color="#cbd5e1", point=True).encode(x=x, y=y, order="step:Q",
                                                                                   tooltip=tips)
    drawn = base.transform_filter(alt.datum.drawn)
    # stack=None: several points share an x on a vertical step and must not be stacked on each other;
    # the area is drawn in x order, ties kept in step order (the data are sorted by step)
    area = drawn.mark_area(opacity=0.18, color="#2563eb").encode(
        x=x, y=alt.Y("tpr:Q", stack=None, scale=alt.Scale(domain=[0, 1])))
    line = drawn.mark_line(color="#2563eb", point=alt.OverlayMarkDef(size=60)).encode(
        x=x, y=y, order="step:Q", tooltip=tips)
    now = base.transform_filter(alt.datum.step == current).mark_point(
        size=220, color="#dc2626", filled=True).encode(x=x, y=y, tooltip=tips)
    return alt.layer(chance, future, area, line, now).properties(height=420, title=t("roc.chart_title"))


def pair_chart(pairs: pd.DataFrame) -> alt.Chart:
    names = {"correct": t("roc.correct"), "tie": t("roc.tie"), "wrong": t("roc.wrong")}
    data = pairs.assign(result=pairs["outcome"].map(names))
    return alt.Chart(data).mark_rect(stroke="white").encode(
        x=alt.X("negative:O", title=t("roc.negative_sample"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("positive:O", title=t("roc.positive_sample")),
        color=alt.Color("result:N", title=t("roc.outcome"),
                        scale=alt.Scale(domain=list(names.values()), range=["#16a34a", "#f59e0b", "#dc2626"])),
        tooltip=[
            alt.Tooltip("positive:O", title=t("roc.positive_sample")),
            alt.Tooltip("score_pos:Q", title=t("roc.score_pos"), format=".4g"),
            alt.Tooltip("negative:O", title=t("roc.negative_sample")),
            alt.Tooltip("score_neg:Q", title=t("roc.score_neg"), format=".4g"),
            alt.Tooltip("result:N", title=t("roc.outcome")),
            alt.Tooltip("loss:Q", title=t("roc.loss"), format="g"),
        ],
    ).properties(height=alt.Step(22), title=t("roc.pairs_title"))


def main() -> None:
    st.title(t("roc.title"))
    st.markdown(t("roc.intro"))
    keep_or_restore(K_SCORES, SAVED, _from_link)
    scores, labels = _read_input()
    steps = roc_steps(scores, labels)
    last = len(steps) - 1
    want = st.session_state.pop("roc__want_step", None)
    if want is not None:
        if want > last:
            st.warning(t("common.bad_param", name="step", reason=t("roc.bad_step_reason")))
        else:
            st.session_state[K_STEP] = want
    if K_STEP not in st.session_state or not 0 <= st.session_state[K_STEP] <= last:
        st.session_state[K_STEP] = last
    m_pos, m_neg = sum(labels), len(labels) - sum(labels)

    st.subheader(t("roc.draw_header"))
    st.markdown(t("roc.draw_how", m_pos=m_pos, m_neg=m_neg, up=fmt(1 / m_pos), right=fmt(1 / m_neg)))
    step = st.slider(t("roc.slider"), min_value=0, max_value=last, key=K_STEP, help=t("roc.slider_help"))
    row = steps.iloc[step]
    left, right = st.columns([3, 2])
    with left:
        st.altair_chart(roc_chart(steps, step), width="stretch")
    with right:
        if row["move"] == "start":
            st.info(t("roc.explain_start"))
        else:
            st.info(t(f"roc.explain_{row['move']}", threshold=fmt(row["threshold"]),
                      samples=", ".join(map(str, row["samples"])), pos=int(row["new_pos"]),
                      neg=int(row["new_neg"]), tp=int(row["tp"]), fp=int(row["fp"]),
                      tpr=fmt(row["tpr"]), fpr=fmt(row["fpr"]), area=fmt(row["area"])))
        st.latex(f"(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = \\left(\\frac{{{int(row['fp'])}}}{{{m_neg}}}, "
                 f"\\frac{{{int(row['tp'])}}}{{{m_pos}}}\\right) = ({fmt(row['fpr'])}, {fmt(row['tpr'])})")
        st.metric(t("roc.auc_so_far"), fmt(row["auc_so_far"]))
    table = pd.DataFrame({
        t("roc.step"): steps["step"],
        t("roc.threshold"): steps["threshold"].map(lambda x: "+∞" if x == float("inf") else fmt(x)),
        t("roc.samples"): steps["samples"].map(lambda s: ", ".join(map(str, s))),
        t("roc.new_pos"): steps["new_pos"],
        t("roc.new_neg"): steps["new_neg"],
        "TP": steps["tp"], "FP": steps["fp"],
        "TPR": steps["tpr"].map(fmt), "FPR": steps["fpr"].map(fmt),
        t("roc.move"): steps["move"].map(lambda m: t(f"roc.move_{m}")),
        t("roc.area"): steps["area"].map(fmt),
    })
    with st.expander(t("roc.steps_table"), expanded=False):
        st.dataframe(table.iloc[: step + 1], hide_index=True, width="stretch")

    st.subheader(t("roc.auc_header"))
    area_auc = auc(scores, labels, method="trapezoid")
    pair_auc = auc(scores, labels, method="rank_loss")
    loss = rank_loss(scores, labels)
    counts = pair_counts(scores, labels)
    with st.container(border=True):
        st.markdown(f"**{t('roc.by_area')}**")
        st.latex(AUC_METHODS["trapezoid"].latex)
        moves = steps[steps["area"] > 0]
        terms = " + ".join(fmt(a) for a in moves["area"]) or "0"
        st.latex(f"\\mathrm{{AUC}} = {terms} = {fmt(area_auc)}")
        st.caption(t("roc.area_note"))
    with st.container(border=True):
        st.markdown(f"**{t('roc.by_pairs')}**")
        st.latex(AUC_METHODS["rank_loss"].latex)
        st.latex(f"\\ell_{{rank}} = \\frac{{{counts['wrong']} + \\frac{{1}}{{2}} \\times {counts['ties']}}}"
                 f"{{{m_pos} \\times {m_neg}}} = {fmt(loss)}, \\quad \\mathrm{{AUC}} = 1 - {fmt(loss)} = {fmt(pair_auc)}")
        st.caption(t("roc.pairs_note", correct=counts["correct"], wrong=counts["wrong"], ties=counts["ties"],
                     pairs=counts["pairs"]))
    if area_auc == pair_auc:
        st.success(t("roc.equal", value=fmt(area_auc)))
    else:  # never expected: both are exact integer ratios
        st.error(t("roc.not_equal", area=repr(area_auc), pairs=repr(pair_auc)))

    if counts["pairs"] <= MAX_PAIR_GRID:
        st.altair_chart(pair_chart(rank_pairs(scores, labels)), width="stretch")
    else:
        st.caption(t("roc.too_many_pairs", pairs=counts["pairs"], limit=MAX_PAIR_GRID))

    params = {"scores": ",".join(_exact(s) for s in scores),
              "labels": ",".join(map(str, labels)), "step": str(step)}
    st.session_state[SAVED] = {K_SCORES: st.session_state[K_SCORES], K_LABELS: st.session_state[K_LABELS],
                               K_STEP: step}
    for name, value in params.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value
    with st.expander(t("roc.share")):
        st.caption(t("roc.share_help"))
        st.code("roc?" + urlencode(params), language=None)


main()
