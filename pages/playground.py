"""Playground: type, edit or drag a ranking and see every NDCG variant step by step.

Layout and wiring only.  The ranking state lives in ui/playground_state.py, the wording of the
numbers in ui/playground_explain.py, the exports in ui/export.py; every number comes from metrics/.
"""
from __future__ import annotations

import streamlit as st
from streamlit_sortables import sort_items

from metrics.ndcg import breakdown
from metrics.parse import ParseError
from ui import playground_state as ps
from ui.export import export_frame, to_csv, to_latex, to_markdown
from ui.i18n import current_language, plain, t
from ui.links import DISCOUNT_CHOICES, GAIN_CHOICES, IDCG_CHOICES
from ui.playground_explain import (
    chart_specs,
    chosen_values,
    compute,
    formula_latex,
    observations,
    variant_name,
    variants_display,
)
from ui.present import PRESENT_PAGE, present_query_from_playground
from ui.widgets import discount_select, error_text, gain_select, k_input

CHOICES = {"gain": GAIN_CHOICES, "discount": DISCOUNT_CHOICES, "idcg": IDCG_CHOICES}
state = st.session_state
lang = current_language()


def problem_text(exc: ValueError) -> str:
    if isinstance(exc, ps.InputProblem):
        return t(exc.key, **exc.fmt)
    if isinstance(exc, ParseError):
        return error_text(exc)
    return t("common.invalid_input", message=plain(exc, 200))


def link_problem_text(p) -> str:
    if p.kind in ("not_a_number", "negative", "too_large"):
        reason = t(f"common.{p.kind}", token=plain(p.token, 20), position=p.position)
    else:
        valid = ", ".join(CHOICES.get(p.name, ()))
        reason = t(f"playground.param_{p.kind}", value=plain(p.value, 20), message=plain(p.message, 200), valid=valid)
    return t("common.bad_param", name=plain(p.name, 20), reason=reason)


# ---- state: from the link or the session, then what the user just did ----------------------------
model = ps.load(state, st.query_params)
errors = ps.absorb_inputs(state, model, lang)
if "pg_move_error" in state:
    errors["cards"] = state.pop("pg_move_error")

st.title(t("common.nav.playground"))
st.caption(t("playground.intro"))
for p in model.problems:
    st.warning(link_problem_text(p), icon=":material/link_off:")

with st.container(horizontal=True, key="pg_examples"):
    for name in ps.EXAMPLES:
        st.button(t(f"playground.example_{name}"), key=f"pg_ex_{name}", on_click=ps.example_callback,
                  args=(state, name), help=t(f"playground.example_{name}_help"), icon=":material/description:")

# ---- input: text and controls ------------------------------------------------------------------
left, right = st.columns([3, 2], gap="large")
with left:
    st.text_area(t("common.grades"), key=ps.W_TEXT, help=t("common.grades_help"), height=90)
    if "text" in errors:
        st.error(problem_text(errors["text"]), icon=":material/error:")
        st.caption(t("common.kept_last_valid"))
    st.text_input(t("playground.unretrieved"), key=ps.W_UNRET, help=t("playground.unretrieved_help"),
                  placeholder=t("playground.unretrieved_placeholder"))
    if "unretrieved" in errors:
        st.error(problem_text(errors["unretrieved"]), icon=":material/error:")
        st.caption(t("common.kept_last_valid"))
with right:
    c1, c2 = st.columns(2)
    with c1:
        k_input(key=ps.W_K, n=max(len(model.all_items()), model.k or 0, int(state.get(ps.W_K) or 0)))
        discount_select(key=ps.W_DISCOUNT)
    with c2:
        gain_select(key=ps.W_GAIN, options=GAIN_CHOICES)
        st.selectbox(t("common.log_base"), list(dict.fromkeys([*ps.BASE_OPTIONS, ps.base_option(model.base)])),
                     key=ps.W_BASE, accept_new_options=True, help=t("playground.base_help"))
    idcg_names = {s: t(f"playground.idcg_{s}") for s in IDCG_CHOICES}  # bound now, in this run's language
    st.radio(t("playground.idcg_source"), IDCG_CHOICES, key=ps.W_IDCG, horizontal=True,
             format_func=idcg_names.__getitem__, help=t("playground.idcg_help"))
base_error = ps.absorb_controls(state, model)
if base_error is not None:
    right.error(problem_text(base_error), icon=":material/error:")

# ---- cards: drag, or move with the keyboard ---------------------------------------------------
st.subheader(t("playground.cards_title"))
st.caption(t("playground.cards_help"))
if len(model.ranked) > ps.CARD_CAP or len(model.unretrieved) > ps.CARD_CAP:
    st.info(t("playground.cards_capped", shown=ps.CARD_CAP, n=len(model.ranked), m=len(model.unretrieved)))
sort_items(ps.cards(model, t("playground.ranked_header"), t("playground.unretrieved_header")),
           multi_containers=True, direction="horizontal", key=ps.sort_key(model, lang))

movable = model.ranked[: ps.CARD_CAP] + model.unretrieved[: ps.CARD_CAP]
# Options in a fixed order (by id) with a fixed text, so the choice survives a move.
by_id = {it.id: it for it in sorted(movable, key=lambda it: it.id)}
if state.get(ps.W_MOVE) not in by_id:
    state[ps.W_MOVE] = movable[0].id


def _item_name(item_id: int) -> str:
    it = by_id[item_id]
    return f"{it.label} ({ps.num(it.grade)})"


m_cols = st.columns([3, 1, 1, 1, 2], vertical_alignment="bottom")
m_cols[0].selectbox(t("playground.move_item"), list(by_id), key=ps.W_MOVE, format_func=_item_name,
                    help=t("playground.move_help"))
m_cols[1].button(t("playground.move_up"), key="pg_move_up", icon=":material/arrow_upward:",
                 on_click=ps.move_callback, args=(state, "up"), width="stretch")
m_cols[2].button(t("playground.move_down"), key="pg_move_down", icon=":material/arrow_downward:",
                 on_click=ps.move_callback, args=(state, "down"), width="stretch")
m_cols[3].button(t("playground.move_top"), key="pg_move_top", icon=":material/vertical_align_top:",
                 on_click=ps.move_callback, args=(state, "top"), width="stretch")
m_cols[4].button(t("playground.move_toggle"), key="pg_move_toggle", icon=":material/swap_vert:",
                 on_click=ps.move_callback, args=(state, "toggle"), width="stretch")
if "cards" in errors:
    st.error(problem_text(errors["cards"]), icon=":material/error:")

with st.expander(t("playground.table_title"), icon=":material/table_edit:"):
    st.caption(t("playground.table_help"))
    if "table" in errors:
        st.error(problem_text(errors["table"]), icon=":material/error:")
        st.caption(t("common.kept_last_valid"))
    fits = len(model.all_items()) <= ps.TABLE_CAP
    if not fits:
        st.info(t("playground.table_capped", shown=ps.TABLE_CAP, n=len(model.all_items())))
    st.data_editor(
        ps.table_frame(model), key=ps.table_key(model), num_rows="dynamic" if fits else "fixed",
        column_config={
            "label": st.column_config.TextColumn(t("common.label"), max_chars=ps.MAX_LABEL_CHARS),
            "grade": st.column_config.NumberColumn(t("common.relevance"), min_value=0, required=True),
            "retrieved": st.column_config.CheckboxColumn(t("playground.col_retrieved"), default=True),
        },
    )

# ---- results: every variant --------------------------------------------------------------------
grades, unretrieved = model.grades(), model.unretrieved_grades()
pool = model.pool() if model.idcg == "judged" else None
try:
    wide, bd = compute(tuple(grades), tuple(unretrieved), model.k, model.gain, model.discount, model.base,
                       model.idcg, ps.TABLE_CAP)
except ValueError as exc:  # checked before accepting input; kept as a last guard
    st.error(problem_text(exc))
    st.stop()
values = chosen_values(wide, model.gain, model.discount, model.idcg)

st.subheader(t("playground.results_title"))
st.caption(t("playground.chosen", name=variant_name(model.gain, model.discount, model.idcg)))
r_cols = st.columns(4)
for col, name in zip(r_cols, ("cg", "dcg", "idcg", "ndcg")):
    col.metric(t(f"playground.metric_{name}"), f"{values[name]:.4f}", border=True)

shown = variants_display(wide)
chosen_row = int(wide.index[(wide["gain"] == model.gain) & (wide["discount"] == model.discount)][0])
chosen_col = shown.columns[{"list": 5, "judged": 7}[model.idcg]]  # the chosen NDCG column
# The chosen variant: a ★ on its row and on its NDCG column (no pandas Styler: it costs more than the
# rest of the table; formatting is display-only through column_config).
shown = shown.rename(columns={chosen_col: f"{chosen_col} ★"})
shown["★"] = ["★" if i == chosen_row else "" for i in range(len(shown))]
st.dataframe(shown, hide_index=True, key="pg_variants",
             column_config={c: st.column_config.NumberColumn(format="%.4f") for c in shown.columns[2:-1]})
for sentence in observations(wide, grades, unretrieved, gain=model.gain, discount=model.discount,
                             idcg=model.idcg, log_base=model.base):
    st.markdown(f"- {sentence}")

# ---- step by step ------------------------------------------------------------------------------
st.subheader(t("playground.steps_title"))
n_list = len(grades)
n_ideal_items = len(model.pool()) if pool is not None else n_list
n_actual = min(model.k, n_list) if model.k else n_list
n_ideal = min(model.k, n_ideal_items) if model.k else n_ideal_items
formulas = formula_latex(bd, values=values, n_actual=n_actual, n_ideal=n_ideal, gain=model.gain,
                         discount=model.discount, log_base=model.base, k=model.k)
st.latex(formulas["dcg"])
st.latex(formulas["idcg"])
st.latex(formulas["ndcg"])

labels = model.labels()
headers = {c: t(f"playground.bd_{c}") for c in export_frame(bd.iloc[:0], []).columns}
st.dataframe(
    export_frame(bd, labels).rename(columns=headers), hide_index=True, key="pg_breakdown",
    column_config={headers[c]: st.column_config.NumberColumn(format="%.4f")
                   for c in ("gain", "discount", "discounted_gain", "dcg", "ideal_gain",
                             "ideal_discounted_gain", "idcg", "ndcg")},
)
if max(n_actual, n_ideal) > len(bd):
    st.caption(t("playground.rows_capped", shown=len(bd), n=max(n_actual, n_ideal)))


def _full_breakdown():
    return breakdown(grades, k=model.k, gain=model.gain, discount=model.discount, log_base=model.base, pool=pool)


e_row = st.container(horizontal=True, key="pg_downloads")
e_row.download_button(t("playground.download_csv"), data=lambda: to_csv(_full_breakdown(), labels),
                          file_name="ndcg_breakdown.csv", mime="text/csv", key="pg_dl_csv",
                          on_click="ignore", icon=":material/download:")
e_row.download_button(t("playground.download_md"),
                          data=lambda: to_markdown(_full_breakdown(), labels, headers=headers),
                          file_name="ndcg_breakdown.md", mime="text/markdown", key="pg_dl_md",
                          on_click="ignore", icon=":material/download:")
e_row.download_button(t("playground.download_tex"),
                          data=lambda: to_latex(_full_breakdown(), labels, headers=headers),
                          file_name="ndcg_breakdown.tex", mime="text/x-tex", key="pg_dl_tex",
                          on_click="ignore", icon=":material/download:")
# Built only when asked for: a closed expander would still compute its contents on every rerun.
if st.toggle(t("playground.export_preview"), key="pg_show_export"):
    preview = bd.iloc[: ps.EXPORT_PREVIEW_ROWS]
    md_tab, tex_tab = st.tabs([t("playground.markdown"), t("playground.latex")])
    md_tab.code(to_markdown(preview, labels, headers=headers), language="markdown")
    tex_tab.code(to_latex(preview, labels, headers=headers), language="latex")

# ---- charts ------------------------------------------------------------------------------------
st.subheader(t("playground.charts_title"))
chart_bd = bd.iloc[: ps.CHART_CAP]
if len(bd) > ps.CHART_CAP:
    st.caption(t("playground.charts_capped", shown=ps.CHART_CAP))
gains_spec, running_spec, curves_spec = chart_specs(chart_bd, tuple(labels[: ps.CHART_CAP]), model.base, lang)
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
st.subheader(t("playground.link_title"))
query = ps.write_query(st.query_params, model)
if len(model.all_items()) > ps.LINK_CAP:
    st.info(t("playground.link_too_long", cap=ps.LINK_CAP))
st.caption(t("playground.link_help"))
st.code(ps.link_text(query, lang), language=None)
st.page_link(PRESENT_PAGE, label=t("present.open"), icon=":material/slideshow:", help=t("present.open_help"),
             query_params=present_query_from_playground(query, lang=lang))
