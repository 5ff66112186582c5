"""Rating prediction (document 002): RMSE and MAE with the per-pair errors, and why RMSE punishes large errors.

Layout and wiring only: fields and formulas in ui.pages.rating, charts in ui.charts.other, numbers from
metrics.other.rating, state and link through ui.state.
"""
from __future__ import annotations

import streamlit as st

from metrics.other.rating import error_shares, errors, totals
from ui.charts.other import ERROR_BARS, errors_chart, share_chart, sweep_chart
from ui.i18n import t
from ui.numbers import for_table, show_trimmed
from ui.pages import rating as rating_ui
from ui.shell import page
from ui.state import default_used, link_text

with page(rating_ui.PAGE, rating_ui.FIELDS, title="rating.title", intro="rating.intro") as p:
    c1, c2 = st.columns(2)
    with c1:
        st.text_area(
            t("rating.true"), key=rating_ui.K_TRUE, help=t("rating.input_help", max=rating_ui.MAX_PAIRS), height=90
        )
        true = p.typed(rating_ui.K_TRUE)
    with c2:
        st.text_area(
            t("rating.pred"), key=rating_ui.K_PRED, help=t("rating.input_help", max=rating_ui.MAX_PAIRS), height=90
        )
        pred = p.typed(rating_ui.K_PRED)
    true, pred = rating_ui.consistent(p, true, pred)
    table = errors(true, pred)
    tot = totals(true, pred)

    c1, c2 = st.columns(2)
    c1.metric("RMSE", show_trimmed(tot["rmse"]))
    c2.metric("MAE", show_trimmed(tot["mae"]))

    st.subheader(t("rating.pairs_header"))
    st.dataframe(for_table(rating_ui.pairs_table(table)), hide_index=True, width="stretch")

    st.subheader(t("rating.steps_header"))
    st.latex(rating_ui.rmse_latex(table, tot))
    st.latex(rating_ui.mae_latex(table, tot))
    st.caption(rating_ui.bounds_caption(tot))

    st.subheader(t("rating.why_header"))
    st.markdown(t("rating.why"))
    st.markdown(f"**{t('rating.errors_title')}**")
    st.altair_chart(errors_chart(table), width="stretch", height=300)
    st.markdown(f"**{t('rating.share_title')}**")
    st.altair_chart(share_chart(error_shares(true, pred)), width="stretch")
    if tot["n"] > ERROR_BARS:
        st.caption(t("rating.bars_cut", shown=ERROR_BARS, total=tot["n"]))

    pair, problem = rating_ui.pick_pair(
        p.value(rating_ui.K_PAIR), tot["n"], table["abs_error"], link=link_text(p, "pair")
    )
    if problem is not None:
        st.warning(default_used(p.message("pair", problem)), icon=":material/link_off:")
    if p.value(rating_ui.K_PAIR) != pair:
        p.set(rating_ui.K_PAIR, pair)
    pair = int(st.number_input(t("rating.sweep_pair"), min_value=1, max_value=tot["n"], step=1, key=rating_ui.K_PAIR,
                               help=t("rating.sweep_help")))
    what_if = rating_ui.sweep(true, pred, pair, table["abs_error"])
    st.markdown(f"**{t('rating.sweep_title')}**")
    st.altair_chart(sweep_chart(what_if), width="stretch", height=320)
    st.caption(rating_ui.sweep_caption(what_if, pair))
