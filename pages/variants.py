"""Variants & libraries: the formulas side by side, where they coincide and split, what each library returns.

Layout and wiring only: conventions and values come from metrics/lessons/libraries.py (which computes with
metrics/ndcg.py), formulas from metrics/registry.py, fields and tables from ui/pages/variants.py, charts from
ui/charts/ndcg.py; state and link through ui/state.py.
"""
from __future__ import annotations

import math

import streamlit as st

from metrics.lessons.libraries import (
    LIBRARIES,
    VARIANTS,
    coincidences,
    compare_rankings,
    evaluate_libraries,
    find_flip,
    tie_spread,
)
from metrics.registry import dcg_latex
from ui.charts.ndcg import discount_curves_chart, tie_spread_chart
from ui.escape import markdown
from ui.i18n import t
from ui.numbers import exact_list, show
from ui.pages import variants
from ui.pages.playground import last_view
from ui.shell import page
from ui.tables import table as show_table
from ui.widgets import BASES, error_text, k_select, option_widget

SECTION = "variants"
with page(variants.PAGE, variants.FIELDS, caption=f"{SECTION}.intro") as p:
    # ---- formulas --------------------------------------------------------------------------------
    st.header(t(f"{SECTION}.formulas"))
    st.caption(t(f"{SECTION}.formulas_help"))
    base = BASES[st.selectbox(t("common.log_base"), list(BASES), key="va_base", help=t("common.log_base_help"))]
    variants.formula_grid(base)
    st.markdown(f"**{t(f'{SECTION}.code_004')}**")
    st.latex(dcg_latex("binary", "standard", math.e))

    st.subheader(t(f"{SECTION}.curves"))
    n_pos = st.slider(t(f"{SECTION}.curves_n"), min_value=2, max_value=30, key="va_curve_n")
    st.altair_chart(discount_curves_chart(n_pos, base), width="stretch")
    c = coincidences(n_pos, base)
    st.markdown(variants.coincide_text(c, st.session_state["va_base"]))
    st.markdown(t(f"{SECTION}.gains_agree", grades=", ".join(map(str, c["same_gain_grades"]))))

    # ---- the ranking -----------------------------------------------------------------------------
    st.header(t(f"{SECTION}.ranking"))
    view = last_view(st.session_state)
    if view is not None:
        st.button(t(f"{SECTION}.use_playground", grades=exact_list(view[0].grades())), key="va_use_playground",
                  on_click=variants.use_playground, args=(st.session_state, view), icon=":material/tune:")
    else:
        st.caption(t(f"{SECTION}.no_playground"))
    cols = st.columns(2)
    with cols[0]:
        st.text_area(t(f"{SECTION}.grades"), key="va_grades", help=t("common.grades_help"), height=68)
        grades = list(p.typed("va_grades"))
    with cols[1]:
        st.text_area(t(f"{SECTION}.unretrieved"), key="va_unretrieved", help=t("common.grades_help"), height=68)
        unretrieved = list(p.typed("va_unretrieved"))
    k = k_select(key="va_k", n=len(grades) + len(unretrieved), label=t(f"{SECTION}.k"))
    typed = {}
    for col, name in zip(st.columns(2), ("scores", "docnos")):
        with col:
            st.text_input(t(f"{SECTION}.{name}"), key=f"va_{name}")
            typed[name] = list(p.typed(f"va_{name}"))
    scores, docnos = typed["scores"], typed["docnos"]
    if scores and len(scores) != len(grades):
        st.warning(t(f"{SECTION}.scores_mismatch", n_scores=len(scores), n_items=len(grades)))
        scores = []
    ids = docnos if len(docnos) == len(grades) else None

    # ---- libraries -------------------------------------------------------------------------------
    st.header(t(f"{SECTION}.libraries"))
    st.caption(t(f"{SECTION}.libraries_help"))
    try:
        table = evaluate_libraries(grades, scores=scores or None, docnos=ids, unretrieved=unretrieved, k=k)
    except ValueError as exc:
        st.error(error_text(exc))
        table = None
    if table is not None:
        for view in variants.library_tables(table):
            show_table(**view)
        for line in variants.library_errors(table):
            st.caption(line)
    with st.expander(t(f"{SECTION}.conventions")):
        for lib in LIBRARIES.values():
            st.markdown(f"**{lib.name}** — `{lib.call}`")
            st.latex(lib.latex())
            st.markdown(variants.convention_text(lib))
            st.caption(t(f"{SECTION}.tested", package=lib.checked_against) if lib.checked_against
                       else t(f"{SECTION}.not_tested"))

    # ---- ties ------------------------------------------------------------------------------------
    st.header(t(f"{SECTION}.ties"))
    st.caption(t(f"{SECTION}.ties_help"))
    tie = {}
    for col, name in zip(st.columns(3), ("grades", "scores", "docnos")):
        with col:
            st.text_input(t(f"{SECTION}.ties_{name}"), key=f"va_tie_{name}")
            tie[name] = list(p.typed(f"va_tie_{name}"))
    if len(tie["scores"]) != len(tie["grades"]) or len(tie["docnos"]) != len(tie["grades"]):
        st.warning(t(f"{SECTION}.ties_bad"))
    else:
        spread = tie_spread(tie["grades"], tie["scores"], docnos=tie["docnos"])
        tcols = st.columns(2)
        tcols[0].dataframe(variants.tie_table(spread), hide_index=True, width="stretch")
        tcols[0].markdown(t(f"{SECTION}.spread", spread=show(spread.attrs["spread"])))
        tcols[1].altair_chart(tie_spread_chart(spread, rule_title=t(f"{SECTION}.col.rule")), width="stretch")

    # ---- does the choice matter? -----------------------------------------------------------------
    st.header(t(f"{SECTION}.matter"))
    st.caption(t(f"{SECTION}.matter_help"))
    mc = st.columns(3)
    for col, key, label in zip(mc, ("va_rank_a", "va_rank_b", "va_pool"), ("ranking_a", "ranking_b", "pool")):
        with col:
            st.text_area(t(f"{SECTION}.{label}"), key=key, help=t("common.grades_help"), height=68)
    rank_a, rank_b, pool = (list(p.typed(key)) for key in ("va_rank_a", "va_rank_b", "va_pool"))
    mk = k_select(key="va_matter_k", n=max(len(pool), len(rank_a), len(rank_b)), label=t(f"{SECTION}.matter_k"))
    try:
        cmp = compare_rankings(rank_a, rank_b, pool=pool, k=mk)
    except ValueError as exc:
        st.error(t(f"{SECTION}.pool_bad", message=markdown(exc, 200)))
        cmp = None
    if cmp is not None:
        show_table(**variants.matter_table(cmp))
        wins = variants.wins(cmp)
        st.markdown(t(f"{SECTION}.wins", **wins))
        if wins["a"] and wins["b"]:
            st.success(t(f"{SECTION}.flips"), icon=":material/swap_vert:")
        else:
            st.caption(t(f"{SECTION}.no_flip"))

    st.subheader(t(f"{SECTION}.flip"))
    variant_names = {key: variants.variant_label(key) for key in VARIANTS}  # bound now, in this run's language
    with st.container(horizontal=True, key="va_flip_choice"):  # whole variant names: wide selects that wrap
        first = option_widget(st.selectbox, t(f"{SECTION}.flip_first"), list(VARIANTS),
                              format_func=variant_names.__getitem__, key="va_flip_first", width=420)
        second = option_widget(st.selectbox, t(f"{SECTION}.flip_second"), list(VARIANTS),
                               format_func=variant_names.__getitem__, key="va_flip_second", width=420)
    st.text_input(t(f"{SECTION}.flip_grades", n=variants.FLIP_MAX), key="va_flip_grades")
    pair = find_flip(first, second, grades=list(p.typed("va_flip_grades")))
    if pair is None:
        st.caption(t(f"{SECTION}.flip_none"))
    else:
        st.markdown(variants.flip_text(first, second, pair))
