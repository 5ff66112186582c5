"""Playground: type, edit or drag a ranking and see every NDCG variant step by step.

Layout and wiring only.  Fields and edits: ui/playground.py (state and link through ui/state.py, the link
format in ui/links.py, the ranking in ui/ranking.py); wording of the numbers: ui/playground_explain.py;
exports: ui/export.py; charts: ui/charts/ndcg.py; every number comes from metrics/.
"""
from __future__ import annotations

import streamlit as st
from streamlit_sortables import sort_items

from metrics.registry import ZERO_IDCG
from ui import playground as PG
from ui import state as S
from ui.export import Variant, export_frame, file_name, to_csv, to_latex, to_markdown
from ui.i18n import current_language, registry_text, t
from ui.links import IDCG_CHOICES, PLAYGROUND_GAINS, ZERO_IDCG_CHOICES, format_base
from ui.numbers import exact, show
from ui.playground_explain import (
    chosen_values,
    formula_latex,
    gain_name,
    observations,
    variant_name,
    variants_display,
)
from ui.present.link import PRESENT_PAGE, present_query_from_playground
from ui.shell import through_app
from ui.widgets import copy_link, discount_select, k_select, link_for

through_app()
state = st.session_state
lang = current_language()
page = S.PageState(PG.PAGE, PG.FIELDS)
ranking, errors = PG.absorb(page, state, lang)


st.title(t("common.nav.playground"))
st.caption(t("playground.intro"))
page.show_link_problems()

# ---- the numbers first (the first screen shows them; a card drop gets its new NDCG at once): computed from
# the fields' current values, which the widgets below then show ------------------------------------------
k, gain, gain_map, discount, base, idcg, zero = PG.settings(page)
grades, unretrieved = tuple(ranking.grades()), tuple(ranking.unretrieved_grades())
wide, bd = PG.compute(grades, unretrieved, k, gain, gain_map, discount, base, idcg, zero, PG.TABLE_CAP)
values = chosen_values(wide, gain, discount, idcg)
documents = PG.matching_examples({f.key: page.value(f.key) for f in PG.FIELDS})
printed = PG.printed_beside(documents)

st.caption(t("playground.chosen", name=variant_name(gain, discount, idcg)))
for col, name in zip(st.columns(4), ("cg", "dcg", "idcg", "ndcg")):
    col.metric(t(f"playground.metric_{name}"), show(values[name]),
               t("playground.printed", text=printed[name]) if name in printed else None,
               delta_color="off", delta_arrow="off", border=True,
               help=t("playground.printed_help") if name in printed else None)
if documents:
    st.caption(t("playground.documents_note", docs=", ".join(PG.docs(documents))))

# ---- examples: each reproduces a document exactly (formula, k, items, IDCG source) -------------
st.markdown(f"**{t('playground.examples')}**")
with st.container(horizontal=True, key="pg_examples"):
    for group in PG.EXAMPLE_GROUPS:
        st.button(PG.button_label(group), key=f"pg_ex_{group[0]}", on_click=PG.request_example,
                  args=(state, group[0]), help=t("playground.example_help"), icon=":material/description:")

# ---- input: text and settings ------------------------------------------------------------------
left, right = st.columns([3, 2])
with left:
    st.text_area(t("common.grades"), key="pg_rels", help=t("common.grades_help"), height=90)
    page.typed("pg_rels")
with right:
    st.text_input(t("playground.unretrieved"), key="pg_unret", help=t("playground.unretrieved_help"),
                  placeholder=t("playground.unretrieved_placeholder"))
    page.typed("pg_unret")
# Fixed widths in a wrapping row: whole names on a projector, one per line on a phone, in this order.
gain_names = {g: gain_name(g) for g in PLAYGROUND_GAINS}  # bound now, in this run's language
with st.container(horizontal=True, key="pg_settings", gap="medium"):
    st.selectbox(t("common.gain"), PLAYGROUND_GAINS, key="pg_gain", format_func=gain_names.__getitem__,
                 help=t("playground.gain_help"), width=200)
    discount_select(key="pg_discount", width=270)
    base_texts = list(dict.fromkeys(["2", "e", "10", state.get("pg_base", "2")]))
    st.selectbox(t("common.log_base"), base_texts, key="pg_base", accept_new_options=True,
                 help=t("playground.base_help"), width=130)
    k_select(key="pg_k", n=len(ranking), width=190)
page.typed("pg_base")  # a bad base: its message here (the numbers above use the last valid one)
if gain == "map":  # trec_eval's -m ndcg.L=G: grade L gets gain G, grades not listed keep their value
    st.text_input(t("playground.gain_map"), key="pg_gain_map", help=t("playground.gain_map_help"))
    page.typed("pg_gain_map")
idcg_names = {s: t(f"playground.idcg_{s}") for s in IDCG_CHOICES}  # bound now, in this run's language
zero_names = {z: registry_text("zero_idcg", ZERO_IDCG[z], "name") for z in ZERO_IDCG_CHOICES}
with st.container(horizontal=True, key="pg_settings_ideal", gap="large"):
    st.radio(t("playground.idcg_source"), IDCG_CHOICES, key="pg_idcg", horizontal=True,
             format_func=idcg_names.__getitem__, help=t("playground.idcg_help"))
    st.selectbox(t("playground.zero_idcg"), ZERO_IDCG_CHOICES, key="pg_zero", width=250,
                        format_func=zero_names.__getitem__,
                        help="\n\n".join(f"**{zero_names[z]}**: {registry_text('zero_idcg', ZERO_IDCG[z], 'help')}"
                                           for z in ZERO_IDCG_CHOICES))
metric_gain = PG.gain_of(gain, gain_map)

# ---- cards: drag, or move with the keyboard -----------------------------------------------------
st.subheader(t("playground.cards_title"))
st.caption(t("playground.cards_help"))
if len(ranking.ranked) > PG.CARD_CAP or len(ranking.unretrieved) > PG.CARD_CAP:
    st.info(t("playground.cards_capped", shown=PG.CARD_CAP, n=len(ranking.ranked), m=len(ranking.unretrieved)))
sort_items(ranking.cards(t("playground.ranked_header"), t("playground.unretrieved_header"), PG.CARD_CAP),
           multi_containers=True, direction="horizontal", key=PG.sort_key(state, lang))

movable = {it.label: it for it in ranking.ranked[: PG.CARD_CAP] + ranking.unretrieved[: PG.CARD_CAP]}
if state.get("pg_move_item") not in movable:
    state["pg_move_item"] = next(iter(movable))
item_names = {label: f"{label} ({exact(it.grade)})" for label, it in movable.items()}
st.selectbox(t("playground.move_item"), sorted(movable), key="pg_move_item", format_func=item_names.__getitem__,
             help=t("playground.move_help"))
with st.container(horizontal=True, key="pg_move_buttons"):
    for action, icon in (("up", "arrow_upward"), ("down", "arrow_downward"), ("top", "vertical_align_top"),
                         ("toggle", "swap_vert")):
        st.button(t(f"playground.move_{action}"), key=f"pg_move_{action}", icon=f":material/{icon}:",
                  on_click=PG.request_move, args=(state, action))
if "cards" in errors:
    st.error(PG.problem_text(errors["cards"]), icon=":material/error:")

with st.expander(t("playground.table_title"), icon=":material/table_edit:"):
    st.caption(t("playground.table_help"))
    if "table" in errors:
        st.error(PG.problem_text(errors["table"]), icon=":material/error:")
        st.caption(t("common.kept_last_valid"))
    fits = len(ranking) <= PG.TABLE_CAP
    if not fits:
        st.info(t("playground.table_capped", shown=PG.TABLE_CAP, n=len(ranking)))
    st.data_editor(
        ranking.table(PG.TABLE_CAP), key=PG.table_key(state), num_rows="dynamic" if fits else "fixed",
        column_config={
            "label": st.column_config.TextColumn(t("common.label"), max_chars=60),
            "grade": st.column_config.NumberColumn(t("common.relevance"), min_value=0, max_value=1000, required=True),
            "retrieved": st.column_config.CheckboxColumn(t("playground.col_retrieved"), default=True),
        },
    )

# ---- every variant -----------------------------------------------------------------------------
st.subheader(t("playground.variants_title"))
table, config = variants_display(wide, gain, discount, idcg)
st.dataframe(table, hide_index=True, key="pg_variants", column_config=config)
for sentence in observations(wide, grades, unretrieved, gain=gain, discount=discount, idcg=idcg, log_base=base):
    st.markdown(f"- {sentence}")

# ---- step by step ------------------------------------------------------------------------------
st.subheader(t("playground.steps_title"))
n_ideal_items = len(grades) + len(unretrieved) if idcg == "judged" else len(grades)
n_actual = min(k, len(grades)) if k else len(grades)
n_ideal = min(k, n_ideal_items) if k else n_ideal_items
formulas = formula_latex(bd, values=values, n_actual=n_actual, n_ideal=n_ideal, gain=metric_gain,
                         discount=discount, log_base=base, k=k)
with st.container(key="pg_formulas"):
    st.latex(formulas["dcg"])
    st.latex(formulas["idcg"])
    st.latex(formulas["ndcg"])

labels = ranking.labels()
headers = {c: t(f"playground.bd_{c}") for c in export_frame(bd.iloc[:0], []).columns}
st.markdown(f"**{t('playground.table_caption')}**")
st.dataframe(
    export_frame(bd, labels).rename(columns=headers), hide_index=True, key="pg_breakdown",
    column_config={headers[c]: st.column_config.NumberColumn(format="%.4f")
                   for c in ("gain", "discount", "discounted_gain", "dcg", "ideal_gain",
                             "ideal_discounted_gain", "idcg", "ndcg")},
)
if max(n_actual, n_ideal) > len(bd):
    st.caption(t("playground.rows_capped", shown=len(bd), n=max(n_actual, n_ideal)))

variant = Variant(gain, discount, base, k, idcg)
title = t("playground.export_title", name=variant_name(gain, discount, idcg), base=format_base(base),
          k=t("common.k_whole", n=len(grades)) if k is None else f"k = {k}")
full = {"k": k, "gain": metric_gain, "discount": discount, "base": base, "idcg": idcg}


def _full_breakdown():
    return PG.full_breakdown(grades, unretrieved, **full)


st.caption(t("playground.export_help", title=title))
with st.container(horizontal=True, key="pg_downloads"):
    st.download_button(t("playground.download_csv"), data=lambda: to_csv(_full_breakdown(), labels, variant),
                       file_name=file_name(variant, "csv"), mime="text/csv", key="pg_dl_csv", on_click="ignore",
                       icon=":material/download:")
    st.download_button(t("playground.download_md"),
                       data=lambda: to_markdown(_full_breakdown(), labels, headers=headers, title=title),
                       file_name=file_name(variant, "md"), mime="text/markdown", key="pg_dl_md", on_click="ignore",
                       icon=":material/download:")
    st.download_button(t("playground.download_tex"),
                       data=lambda: to_latex(_full_breakdown(), labels, headers=headers, title=title),
                       file_name=file_name(variant, "tex"), mime="text/x-tex", key="pg_dl_tex", on_click="ignore",
                       icon=":material/download:")
# Built only when asked for: a closed expander would still compute its contents on every rerun.
if st.toggle(t("playground.export_preview"), key="pg_show_export"):
    preview = bd.iloc[: PG.EXPORT_PREVIEW_ROWS]
    md_tab, tex_tab = st.tabs([t("playground.markdown"), t("playground.latex")])
    md_tab.code(to_markdown(preview, labels, headers=headers, title=title), language="markdown")
    tex_tab.code(to_latex(preview, labels, headers=headers, title=title), language="latex")

# ---- charts ------------------------------------------------------------------------------------
st.subheader(t("playground.charts_title"))
chart_bd = bd.iloc[: PG.CHART_CAP]
if len(bd) > PG.CHART_CAP:
    st.caption(t("playground.charts_capped", shown=PG.CHART_CAP))
gains_spec, running_spec, curves_spec = PG.chart_specs(chart_bd, tuple(labels[: PG.CHART_CAP]), base, lang)
g_cols = st.columns(2)
with g_cols[0]:
    st.markdown(f"**{t('playground.chart_gains')}**")
    st.vega_lite_chart(gains_spec, width="stretch", key="pg_chart_gains")
with g_cols[1]:
    st.markdown(f"**{t('playground.chart_running')}**")
    st.vega_lite_chart(running_spec, width="stretch", key="pg_chart_running")
st.markdown(f"**{t('playground.chart_discounts')}**")
st.vega_lite_chart(curves_spec, width="stretch", key="pg_chart_discounts")

# ---- the link ----------------------------------------------------------------------------------
page.finish()
st.subheader(t("common.link_title"))
copy_link(link_for(PG.PAGE, page.query()), too_long=page.link_too_long)
st.page_link(PRESENT_PAGE, label=t("present.open"), icon=":material/slideshow:", help=t("present.open_help"),
             query_params=present_query_from_playground(page.query(), lang=lang))
