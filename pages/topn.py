"""Top-N recommendation (document 002): precision, recall, F1, AP/MAP, HR, ARHR, MRR, leave-one-out NDCG.

Layout and wiring only: fields, parsers and formulas in ui.pages.topn, charts in ui.charts.other,
numbers from metrics.other.topn, state and link through ui.state.
"""
from __future__ import annotations

import streamlit as st

from metrics.other.topn import AP_DENOMINATORS
from ui.charts.other import GRID_POSITIONS, GRID_USERS, USER_BARS, hit_grid, per_user_chart
from ui.i18n import registry_text, t
from ui.numbers import for_table
from ui.pages import topn as topn_ui
from ui.shell import page
from ui.state import default_used, link_text

with page(topn_ui.PAGE, topn_ui.FIELDS, title="topn.title", intro="topn.intro") as p:
    st.text_area(t("topn.users"), key=topn_ui.K_USERS, help=t("topn.users_help", max_users=topn_ui.MAX_USERS,
                                                         max_chars=topn_ui.MAX_CHARS), height=150)
    runs = topn_ui.parse_runs(p.typed(topn_ui.K_USERS))
    c1, c2 = st.columns([1, 3])
    with c1:
        n = int(st.number_input("N", min_value=1, max_value=topn_ui.MAX_N, step=1, key=topn_ui.K_N,
                                help=t("topn.n_help")))
    with c2:
        prec = topn_ui.choice_radio(topn_ui.K_PREC)
    hr_mode = p.value(topn_ui.K_HR)
    arhr_mode = p.value(topn_ui.K_ARHR)
    r = topn_ui.compute(runs, n, prec, hr_mode, arhr_mode)

    st.markdown(f"**{t('topn.grid_title', n=n)}**")
    st.altair_chart(hit_grid(runs, n), width="stretch")
    if len(runs) > GRID_USERS or n > GRID_POSITIONS:
        st.caption(t("topn.grid_cut", users=min(len(runs), GRID_USERS), positions=min(n, GRID_POSITIONS)))

    # --- precision, recall, F1 -------------------------------------------------------------------
    st.header(t("topn.pr_header"))
    st.markdown(t("topn.pr_intro"))
    st.subheader(t("topn.pooled"))
    for formula in topn_ui.pooled_latex(r):
        st.latex(formula)
    st.subheader(t("topn.mean"))
    for formula in topn_ui.mean_latex(r):
        st.latex(formula)
    st.info(t("topn.why_differ"))
    caption = topn_ui.differ_caption(r)
    if caption:
        st.caption(caption)
    if prec == "n" and (r.table["recommended"] < n).any():
        st.caption(t("topn.short_lists", n=n))
    st.dataframe(for_table(topn_ui.counts_table(r)), hide_index=True, width="stretch")

    # --- AP / MAP --------------------------------------------------------------------------------
    st.header(t("topn.ap_header"))
    st.latex(topn_ui.ap_definition_latex())
    who, problem = topn_ui.pick_user(p.value(topn_ui.K_USER), r.users, link=link_text(p, "user"))
    if problem is not None:
        st.warning(default_used(p.message("user", problem)), icon=":material/link_off:")
    if p.value(topn_ui.K_USER) != who:
        p.set(topn_ui.K_USER, who)
    who = st.selectbox(t("topn.ap_user"), r.users, key=topn_ui.K_USER)
    st.dataframe(for_table(topn_ui.ap_working_table(r, who)), hide_index=True, width="stretch")
    ap_formulas = topn_ui.ap_latex(r, who)
    for key, choice in AP_DENOMINATORS.items():
        with st.container(border=True):
            st.markdown(f"**{registry_text('ap_denominator', choice, 'name')}**")
            st.latex(ap_formulas[key])
            st.caption(registry_text("ap_denominator", choice, "help"))
    st.dataframe(for_table(topn_ui.ap_table(r)), hide_index=True, width="stretch")
    st.caption(t("topn.ap_note"))

    # --- HR, ARHR, MRR ---------------------------------------------------------------------------
    st.header(t("topn.hr_header"))
    st.markdown(t("topn.hr_intro"))
    topn_ui.choice_radio(topn_ui.K_HR)
    topn_ui.choice_radio(topn_ui.K_ARHR)
    st.latex(topn_ui.hr_latex(r, hr_mode))
    st.latex(topn_ui.arhr_latex(r, arhr_mode))
    st.latex(topn_ui.mrr_latex(r))
    multi = bool((r.table["relevant"] > 1).any())
    st.caption(t("topn.hr_multi") if multi else t("topn.hr_single"))

    # --- leave-one-out NDCG ----------------------------------------------------------------------
    st.header(t("topn.ndcg_header"))
    st.markdown(t("topn.ndcg_intro"))
    st.latex(topn_ui.LOO_DEFINITION)
    for formula in topn_ui.loo_lines(r):
        st.latex(formula)
    if len(r.users) > topn_ui.MAX_LOO_LINES:
        st.caption(t("topn.more_users", shown=topn_ui.MAX_LOO_LINES, total=len(r.users)))
    st.latex(topn_ui.loo_mean_latex(r))
    if multi:
        st.caption(topn_ui.ndcg_multi_caption(r))

    st.markdown(f"**{t('topn.per_user_chart')}**")
    st.altair_chart(per_user_chart(r.table), width="stretch", height=340)
    if len(r.users) > USER_BARS:
        st.caption(t("topn.bars_cut", shown=USER_BARS, total=len(r.users)))
