"""Diversity NDCG: alpha-nDCG step by step -- the novelty discount, ndeval's greedy ideal, and plain NDCG beside it.

Layout and wiring only: fields and display tables in ui.pages.diversity, charts in ui.charts.diversity, numbers from
metrics.lessons.diversity, state and link through ui.state.
"""
from __future__ import annotations

import streamlit as st

from metrics import safe_csv
from metrics.lessons.diversity import BEST_ORDER_MAX, alpha_ndcg, alpha_sweep, best_order, greedy_table, novelty_table
from metrics.lessons.diversity import plain_ndcg as plain
from ui.charts.diversity import gain_chart, sweep_chart
from ui.escape import markdown
from ui.i18n import t
from ui.numbers import show
from ui.pages import diversity as div
from ui.shell import page
from ui.tables import table as show_table

with page(div.PAGE, div.FIELDS, title="diversity.title", intro="diversity.intro") as p:
    c1, c2 = st.columns(2)
    with c1:
        st.text_input(t("diversity.ranking"), key=div.K_RANKING, help=t("diversity.ranking_help"))
        ranking = p.typed(div.K_RANKING)
        st.slider("α", min_value=0.0, max_value=1.0, step=0.05, key=div.K_ALPHA, help=t("diversity.alpha_help"))
    with c2:
        st.text_input(t("diversity.missed"), key=div.K_MISSED, help=t("diversity.missed_help"))
        missed = p.typed(div.K_MISSED)
        st.number_input("k", min_value=1, max_value=20, step=1, key=div.K_K, help=t("diversity.k_help"))
    alpha, k = float(p.value(div.K_ALPHA)), int(p.value(div.K_K))
    ranked_ids, missed_ids = div.names(ranking, missed)
    st.caption(t("diversity.ids", ranked=markdown(", ".join(ranked_ids), 200) or "–",
                 missed=markdown(", ".join(missed_ids), 200) or "–"))

    values = alpha_ndcg(ranking, missed, alpha=alpha, k=k)
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(f"α-nDCG@{k}", show(values["alpha_ndcg"]))
    m2.metric(f"NDCG@{k}", show(plain(ranking, missed, k=k)), help=t("diversity.plain_help"))
    m3.metric(f"α-DCG@{k}", show(values["alpha_dcg"]))
    m4.metric(f"α-IDCG@{k}", show(values["alpha_idcg"]))

    st.subheader(t("diversity.steps_header"))
    st.markdown(t("diversity.steps_intro", alpha=show(alpha), keep=show(1 - alpha)))
    table = novelty_table(ranking, alpha=alpha, k=20)
    # HTML tables (ui.tables): whole beside the sidebar on a projector, one block per row on a phone (a data grid
    # cut its last columns off without a visible scrollbar)
    show_table(div.steps_table(table, alpha), numeric=div.steps_numeric(), label=t("diversity.steps_header"),
               test_id="div_steps")
    st.latex(div.formula_latex(table, k))
    st.download_button(t("diversity.download"), safe_csv.to_csv(div.steps_csv_frame(table)).encode("utf-8"),
                       file_name="alpha_ndcg_steps.csv", mime="text/csv", key="div_dl_steps")

    st.subheader(t("diversity.ideal_header"))
    st.markdown(t("diversity.ideal_intro"))
    show_table(div.greedy_display(greedy_table(ranking, missed, alpha=alpha)), numeric=div.greedy_numeric(),
               label=t("diversity.ideal_header"), test_id="div_greedy")
    best = best_order(ranking, missed, alpha=alpha, k=k)
    if best is None:
        st.caption(t("diversity.best_too_many", max=BEST_ORDER_MAX))
    elif best[1] > values["alpha_idcg"] + 1e-12:
        st.warning(t("diversity.best_better", order=markdown(", ".join(best[0]), 200), best=show(best[1]),
                     greedy=show(values["alpha_idcg"])), icon=":material/info:")
    else:
        st.caption(t("diversity.best_same", best=show(best[1])))

    st.subheader(t("diversity.compare_header"))
    st.markdown(t("diversity.compare_intro"))
    st.altair_chart(gain_chart(table[table["rank"] <= k]), width="stretch")
    st.markdown(f"**{t('diversity.sweep_title', k=k)}**")
    st.altair_chart(sweep_chart(alpha_sweep(ranking, missed, k=k), alpha), width="stretch")
    st.caption(t("diversity.sweep_caption"))
