"""ROC & AUC (document 001): the curve drawn one threshold at a time, AUC as area and as 1 - rank loss.

Layout and wiring only: fields and formulas in ui.pages.roc, charts in ui.charts.other, numbers from
metrics.other.roc, state and link through ui.state.
"""
from __future__ import annotations

import streamlit as st

from metrics.other.roc import AUC_METHODS, auc, pair_counts, rank_loss, rank_pairs, roc_steps
from ui.charts.other import pair_chart, roc_chart
from ui.i18n import registry_text, t
from ui.numbers import exact, show_trimmed
from ui.pages import roc as roc_ui
from ui.shell import page
from ui.state import default_used, link_text
from ui.tables import table as show_table

with page(roc_ui.PAGE, roc_ui.FIELDS, title="roc.title", intro="roc.intro") as p:
    col1, col2 = st.columns(2)
    with col1:
        st.text_area(t("roc.scores"), key=roc_ui.K_SCORES, help=t("roc.scores_help", max=roc_ui.MAX_SAMPLES), height=90)
        scores = p.typed(roc_ui.K_SCORES)
    with col2:
        st.text_area(t("roc.labels"), key=roc_ui.K_LABELS, help=t("roc.labels_help"), height=90)
        labels = p.typed(roc_ui.K_LABELS)
    scores, labels = roc_ui.consistent(p, scores, labels)
    steps = roc_steps(scores, labels)
    last = len(steps) - 1
    m_pos = sum(labels)
    m_neg = len(labels) - m_pos

    st.subheader(t("roc.draw_header"))
    st.markdown(roc_ui.draw_how(labels))
    step, problem = roc_ui.pick_step(p.value(roc_ui.K_STEP), last, link=link_text(p, "step"))
    if problem is not None:
        st.warning(default_used(p.message("step", problem)), icon=":material/link_off:")
    if p.value(roc_ui.K_STEP) != step:
        p.set(roc_ui.K_STEP, step)
    step = st.slider(t("roc.slider"), min_value=0, max_value=max(last, 1), key=roc_ui.K_STEP, help=t("roc.slider_help"))
    row = steps.iloc[min(step, last)]
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{t('roc.chart_title')}**")
        st.altair_chart(roc_chart(steps, step), width="stretch")
    with right:
        st.info(roc_ui.explain(row))
        st.latex(roc_ui.point_latex(row, m_pos, m_neg))
        st.metric(t("roc.auc_so_far"), show_trimmed(row["auc_so_far"]))
    with st.expander(t("roc.steps_table"), expanded=False):
        # an HTML table (ui.tables): whole beside the sidebar on a projector (a data grid cut its last columns off)
        show_table(roc_ui.steps_table(steps, step), numeric=roc_ui.steps_numeric(), label=t("roc.steps_table"),
                   test_id="roc_steps")

    st.subheader(t("roc.auc_header"))
    area_auc = auc(scores, labels, method="trapezoid")
    pair_auc = auc(scores, labels, method="rank_loss")
    counts = pair_counts(scores, labels)
    with st.container(border=True):
        st.markdown(f"**{roc_ui.method_name('trapezoid')}**")
        st.latex(roc_ui.method_latex("trapezoid"))
        st.latex(roc_ui.area_latex(steps, area_auc))
        st.caption(t("roc.area_note"))
    with st.container(border=True):
        st.markdown(f"**{roc_ui.method_name('rank_loss')}**")
        st.latex(roc_ui.method_latex("rank_loss"))
        st.latex(roc_ui.rank_loss_latex(counts, rank_loss(scores, labels), pair_auc))
        st.caption(registry_text("auc_method", AUC_METHODS["rank_loss"], "help") + " " + roc_ui.pairs_caption(counts))
    if area_auc == pair_auc:
        st.success(t("roc.equal", value=show_trimmed(area_auc)))
    else:  # never expected: both are exact integer ratios
        st.error(t("roc.not_equal", area=exact(area_auc), pairs=exact(pair_auc)))

    if counts["pairs"] <= roc_ui.MAX_PAIR_GRID:
        st.markdown(f"**{t('roc.pairs_title')}**")
        st.altair_chart(pair_chart(rank_pairs(scores, labels)), width="stretch")
    else:
        st.caption(t("roc.too_many_pairs", pairs=counts["pairs"], limit=roc_ui.MAX_PAIR_GRID))
