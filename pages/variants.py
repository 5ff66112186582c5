"""Variants & libraries: the formulas side by side, where they coincide and split, what each library returns.

Layout and wiring only: conventions and values come from metrics/lessons/libraries.py (which computes with
metrics/ndcg.py), formulas from metrics/registry.py, fields and tables from ui/variants.py, charts from
ui/charts/ndcg.py; state and link through ui/state.py.
"""
from __future__ import annotations

import math

import pandas as pd
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
from metrics.ndcg import ndcg
from metrics.registry import DISCOUNTS, GAINS, TIES, dcg_latex
from ui import state as ui_state
from ui import variants
from ui.charts.ndcg import discount_curves_chart, tie_spread_chart
from ui.escape import markdown
from ui.i18n import registry_text, t
from ui.numbers import exact_list, show
from ui.playground import last_view
from ui.shell import open_page
from ui.tables import table as show_table
from ui.widgets import BASES, copy_link, error_text, k_select, link_for, option_widget

open_page("variants")
SECTION = "variants"
state = st.session_state
page = ui_state.PageState(variants.PAGE, variants.FIELDS)

st.title(t("common.nav.variants"))
st.caption(t(f"{SECTION}.intro"))
page.show_link_problems()

# ---- formulas ------------------------------------------------------------------------------------
st.header(t(f"{SECTION}.formulas"))
st.caption(t(f"{SECTION}.formulas_help"))
base = BASES[st.selectbox(t("common.log_base"), list(BASES), key="va_base", help=t("common.log_base_help"))]
with st.container(key="compact_va_formulas"):
    with st.container(key="stackhead_va_formulas"):  # the column headers: hidden when the columns stack
        head = st.columns([1, 2, 2])
    for col, d in zip(head[1:], DISCOUNTS.values()):
        col.markdown(f"**{registry_text('discount', d, 'name')}**")
    for g in GAINS.values():
        row = st.columns([1, 2, 2], vertical_alignment="center")
        row[0].markdown(f"**{registry_text('gain', g, 'name')}**", help=registry_text("gain", g, "help"))
        for col, d in zip(row[1:], DISCOUNTS.values()):
            with col:
                with st.container(key=f"stacked_va_{g.key}_{d.key}"):  # ... and each cell names its column then
                    st.caption(registry_text("discount", d, "name"))
                st.latex(dcg_latex(g.key, d.key, base))
st.markdown(f"**{t(f'{SECTION}.code_004')}**")
st.latex(dcg_latex("binary", "standard", math.e))

st.subheader(t(f"{SECTION}.curves"))
n_pos = st.slider(t(f"{SECTION}.curves_n"), min_value=2, max_value=30, key="va_curve_n")
st.altair_chart(discount_curves_chart(n_pos, base), width="stretch")
c = coincidences(n_pos, base)
st.markdown(
    t(
        f"{SECTION}.coincide",
        base=st.session_state["va_base"],
        same=", ".join(map(str, c["same_weight_positions"])) or "—",
        equal=", ".join(map(str, c["jarvelin_equal_weight_positions"])),
    )
)
st.markdown(t(f"{SECTION}.gains_agree", grades=", ".join(map(str, c["same_gain_grades"]))))

# ---- the ranking ---------------------------------------------------------------------------------
st.header(t(f"{SECTION}.ranking"))
view = last_view(state)
if view is not None:
    st.button(t(f"{SECTION}.use_playground", grades=exact_list(view[0].grades())), key="va_use_playground",
              on_click=variants.use_playground, args=(state, view), icon=":material/tune:")
else:
    st.caption(t(f"{SECTION}.no_playground"))
cols = st.columns(2)
with cols[0]:
    st.text_area(t(f"{SECTION}.grades"), key="va_grades", help=t("common.grades_help"), height=68)
    grades = list(page.typed("va_grades"))
with cols[1]:
    st.text_area(t(f"{SECTION}.unretrieved"), key="va_unretrieved", help=t("common.grades_help"), height=68)
    unretrieved = list(page.typed("va_unretrieved"))
k = k_select(key="va_k", n=len(grades) + len(unretrieved), label=t(f"{SECTION}.k"))
cols = st.columns(2)
with cols[0]:
    st.text_input(t(f"{SECTION}.scores"), key="va_scores")
    scores = list(page.typed("va_scores"))
with cols[1]:
    st.text_input(t(f"{SECTION}.docnos"), key="va_docnos")
    docnos = list(page.typed("va_docnos"))
if scores and len(scores) != len(grades):
    st.warning(t(f"{SECTION}.scores_mismatch", n_scores=len(scores), n_items=len(grades)))
    scores = []
ids = docnos if len(docnos) == len(grades) else None

# ---- libraries -------------------------------------------------------------------------------------
st.header(t(f"{SECTION}.libraries"))
st.caption(t(f"{SECTION}.libraries_help"))
try:
    table = evaluate_libraries(grades, scores=scores or None, docnos=ids, unretrieved=unretrieved, k=k)
except ValueError as exc:
    st.error(error_text(exc))
    table = None
if table is not None:
    shown, _ = variants.library_table(table)
    # two tables, each whole beside the sidebar (one block per library on a phone): the values a reader
    # compares, then the conventions and the source each was read from
    col = {name: t(f"{SECTION}.col.{name}") for name in ("library", "ndcg", "idcg_source", "k", "gain", "discount",
                                                          "base", "ties", "dcg", "idcg", "source")}
    show_table(shown[[col[c] for c in ("library", "ndcg", "idcg_source", "k", "dcg", "idcg")]],
               numeric=[col[c] for c in ("ndcg", "k", "dcg", "idcg")], label=t(f"{SECTION}.libraries"),
               test_id="va_libraries")
    show_table(shown[[col[c] for c in ("library", "gain", "discount", "base", "ties", "source")]],
               label=t(f"{SECTION}.conventions"), test_id="va_conventions")
    for key, err in zip(table["key"], table.get("error", pd.Series([""] * len(table)))):
        if isinstance(err, str) and err:
            st.caption(f"{LIBRARIES[key].name}: {markdown(err, 200)}")
with st.expander(t(f"{SECTION}.conventions")):
    for lib in LIBRARIES.values():
        st.markdown(f"**{lib.name}** — `{lib.call}`")
        st.latex(lib.latex())
        st.markdown(
            f"- {t(f'{SECTION}.col.ties')}: {registry_text('library', lib, 'ties_note')}\n"
            f"- {t(f'{SECTION}.col.idcg_source')}: {t(f'{SECTION}.idcg_source.{lib.idcg_source}')}\n"
            f"- {t(f'{SECTION}.col.idcg_zero')}: {registry_text('library', lib, 'idcg_zero')}\n"
            f"- {t(f'{SECTION}.col.notes')}: {registry_text('library', lib, 'notes')}"
        )
        st.caption(
            t(f"{SECTION}.tested", package=lib.checked_against) if lib.checked_against else t(f"{SECTION}.not_tested")
        )

# ---- ties ------------------------------------------------------------------------------------------
st.header(t(f"{SECTION}.ties"))
st.caption(t(f"{SECTION}.ties_help"))
tc = st.columns(3)
with tc[0]:
    st.text_input(t(f"{SECTION}.ties_grades"), key="va_tie_grades")
    tie_grades = list(page.typed("va_tie_grades"))
with tc[1]:
    st.text_input(t(f"{SECTION}.ties_scores"), key="va_tie_scores")
    tie_scores = list(page.typed("va_tie_scores"))
with tc[2]:
    st.text_input(t(f"{SECTION}.ties_docnos"), key="va_tie_docnos")
    tie_ids = list(page.typed("va_tie_docnos"))
if len(tie_scores) != len(tie_grades) or len(tie_ids) != len(tie_grades):
    st.warning(t(f"{SECTION}.ties_bad"))
else:
    spread = tie_spread(tie_grades, tie_scores, docnos=tie_ids)
    spread["name"] = [registry_text("ties", TIES[x], "name") for x in spread["ties"]]
    tcols = st.columns(2)
    tcols[0].dataframe(pd.DataFrame({t(f"{SECTION}.col.rule"): spread["name"],
                                     t(f"{SECTION}.col.ndcg"): [show(x) for x in spread["ndcg"]]}),
                       hide_index=True, width="stretch")
    tcols[0].markdown(t(f"{SECTION}.spread", spread=show(spread.attrs["spread"])))
    tcols[1].altair_chart(tie_spread_chart(spread, rule_title=t(f"{SECTION}.col.rule")), width="stretch")

# ---- does the choice matter? ------------------------------------------------------------------------
st.header(t(f"{SECTION}.matter"))
st.caption(t(f"{SECTION}.matter_help"))
mc = st.columns(3)
for col, key, label in zip(mc, ("va_rank_a", "va_rank_b", "va_pool"), ("ranking_a", "ranking_b", "pool")):
    with col:
        st.text_area(t(f"{SECTION}.{label}"), key=key, help=t("common.grades_help"), height=68)
rank_a, rank_b, pool = (list(page.typed(key)) for key in ("va_rank_a", "va_rank_b", "va_pool"))
mk = k_select(key="va_matter_k", n=max(len(pool), len(rank_a), len(rank_b)), label=t(f"{SECTION}.matter_k"))
try:
    cmp = compare_rankings(rank_a, rank_b, pool=pool, k=mk)
except ValueError as exc:
    st.error(t(f"{SECTION}.pool_bad", message=markdown(exc, 200)))
    cmp = None
if cmp is not None:
    names = [variants.variant_label(v) if kind == "variant" else LIBRARIES[v].name for v, kind in zip(cmp["variant"],
                                                                                                cmp["kind"])]
    # a wrapping table: every variant's whole name and its winner readable on a projector and a phone
    show_table(pd.DataFrame({
        t(f"{SECTION}.col.variant"): names,
        t(f"{SECTION}.col.winner"): [t(f"{SECTION}.winner.{w}") for w in cmp["winner"]],
        t(f"{SECTION}.col.ndcg_a"): [show(x) for x in cmp["ndcg_a"]],
        t(f"{SECTION}.col.ndcg_b"): [show(x) for x in cmp["ndcg_b"]],
        t(f"{SECTION}.col.kind"): [t(f"{SECTION}.kind.{x}") for x in cmp["kind"]],
    }), numeric=[t(f"{SECTION}.col.ndcg_a"), t(f"{SECTION}.col.ndcg_b")], label=t(f"{SECTION}.matter"),
        test_id="va_matter")
    counts = cmp["winner"].value_counts()
    st.markdown(
        t(f"{SECTION}.wins", a=int(counts.get("a", 0)), b=int(counts.get("b", 0)), tie=int(counts.get("tie", 0)))
    )
    if counts.get("a", 0) and counts.get("b", 0):
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
flip_grades = list(page.typed("va_flip_grades"))
pair = find_flip(first, second, grades=flip_grades)
if pair is None:
    st.caption(t(f"{SECTION}.flip_none"))
else:
    a, b = pair
    v1, v2 = VARIANTS[first], VARIANTS[second]

    def under(v, r):
        return ndcg(r, gain=v.gain, discount=v.discount, log_base=v.log_base)

    st.markdown(
        t(
            f"{SECTION}.flip_found",
            a=exact_list(a),
            b=exact_list(b),
            a1=show(under(v1, a)),
            b1=show(under(v1, b)),
            a2=show(under(v2, a)),
            b2=show(under(v2, b)),
        )
    )

page.finish()
st.subheader(t("common.link_title"))
copy_link(link_for(variants.PAGE, page.query()), too_long=page.link_too_long)
