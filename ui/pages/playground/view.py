"""The Playground's page, drawn as one fragment (``pages/playground.py`` calls :func:`playground`).

A fragment because a widget inside it then reruns the page without app.py, and the run that draws the rest after
a first visit's numbers (:func:`ui.pages.playground.defer_rest`) leaves app.py's one-time messages on screen.  A
page script cannot define the fragment's function (tests/ui/test_page_scripts.py: a page script defines none), so
the layout is here; it goes through :func:`ui.shell.page` like every page, whose ``open_page`` part the page script
runs outside the fragment (a fragment cannot write to the sidebar).

Fields and edits: :mod:`ui.pages.playground` (state and link through :mod:`ui.state`, the link format in
:mod:`ui.links`, the ranking in :mod:`ui.ranking`); the numbers and cards: :mod:`ui.components.cards` (they update
in the browser while a card moves); wording of the numbers: :mod:`ui.pages.playground.explain`; exports:
:mod:`ui.pages.playground.export`; charts: :mod:`ui.charts.ndcg`; every number comes from :mod:`metrics`.
"""
from __future__ import annotations

from functools import partial

import streamlit as st

from ui.components.cards import cards
from ui.i18n import current_language, join_words, t
from ui.pages import playground as playground_ui
from ui.pages.playground.explain import variant_name
from ui.shell import page

__all__ = ["playground"]


@st.fragment
def playground() -> None:
    """The whole page: the numbers and cards first; on a browser's first run nothing else (the cards component
    asks for the rest once they are painted), on every other run the rest and the link."""
    state = st.session_state
    lang = current_language()
    rest_later = playground_ui.defer_rest(state)  # a browser's first run: the rest once the numbers are painted
    with page(playground_ui.PAGE, playground_ui.FIELDS, opened=True, caption="playground.intro",
              prepare=partial(playground_ui.carry_problems, state=state), close=not rest_later) as p:
        ranking, errors = playground_ui.absorb(p, state)

        # ---- the numbers and the cards first: the component draws them (and recomputes them while a card
        # moves); computed from the fields' current values, which the widgets below then show.  Nothing before
        # this point imports pandas or Altair (the tables and charts below do). -------------------------------
        k, gain, gain_map, discount, base, idcg, zero = playground_ui.settings(p)
        grades, unretrieved = tuple(ranking.grades()), tuple(ranking.unretrieved_grades())
        values = playground_ui.headline(grades, unretrieved, k, gain, gain_map, discount, base, idcg, zero)
        documents = playground_ui.matching_examples({f.key: p.value(f.key) for f in playground_ui.FIELDS})
        printed = playground_ui.printed_beside(documents)
        st.caption(t("playground.chosen", name=variant_name(gain, discount, idcg)))
        cards(
            playground_ui.cards_data(
                state,
                ranking,
                values,
                printed,
                k=k,
                gain=gain,
                gain_map=gain_map,
                discount=discount,
                base=base,
                idcg=idcg,
                zero=zero,
                rest_pending=rest_later,
            ),
            key=playground_ui.CARDS_KEY,
        )
        if documents:
            st.caption(t("playground.documents_note", docs=join_words(playground_ui.docs(documents))))
        if len(ranking.ranked) > playground_ui.CARD_CAP or len(ranking.unretrieved) > playground_ui.CARD_CAP:
            st.info(
                t(
                    "playground.cards_capped",
                    shown=playground_ui.CARD_CAP,
                    n=len(ranking.ranked),
                    m=len(ranking.unretrieved),
                )
            )
        if "cards" in errors:
            st.error(playground_ui.problem_text(errors["cards"]), icon=":material/error:")

        # ---- the rest of the page.  A browser's first run ends here (playground_ui.defer_rest): its numbers and
        # cards are painted before the browser starts on anything else, and the component then asks for the rest
        # (one more run).  Imported here for the same reason: nothing the numbers do not need loads before them.
        if rest_later:
            playground_ui.end_first_run(p, state)
            return
        from metrics.ndcg import positions_counted
        from metrics.registry import ZERO_IDCG
        from metrics.variant import Variant
        from ui.i18n import registry_text
        from ui.links import IDCG_CHOICES, PLAYGROUND_GAINS, ZERO_IDCG_CHOICES, format_base
        from ui.numbers import exact
        from ui.pages.playground.explain import (
            formula_latex,
            gain_name,
            observations,
            position_tables,
            variants_display,
        )
        from ui.pages.playground.export import export_frame, file_name, to_csv, to_latex, to_markdown
        from ui.pages.present.link import PRESENT_PAGE, present_query_from_playground
        from ui.tables import table as show_table
        from ui.widgets import discount_select, k_select, option_widget

        # ---- moving an item without dragging ------------------------------------------------------------
        cap = playground_ui.CARD_CAP
        movable = {it.label: it for it in ranking.ranked[:cap] + ranking.unretrieved[:cap]}
        if state.get("pg_move_item") not in movable:
            state["pg_move_item"] = next(iter(movable))
        item_names = {label: f"{label} ({exact(it.grade)})" for label, it in movable.items()}
        option_widget(st.selectbox, t("playground.move_item"), sorted(movable), key="pg_move_item",
                      format_func=item_names.__getitem__, help=t("playground.move_help"))
        with st.container(horizontal=True, key="pg_move_buttons"):
            for action, icon in (("up", "arrow_upward"), ("down", "arrow_downward"), ("top", "vertical_align_top"),
                                 ("toggle", "swap_vert")):
                st.button(t(f"playground.move_{action}"), key=f"pg_move_{action}", icon=f":material/{icon}:",
                          on_click=playground_ui.request_move, args=(state, action))

        # ---- examples: each reproduces a document exactly (formula, k, items, IDCG source) -------------
        st.markdown(f"**{t('playground.examples')}**")
        with st.container(horizontal=True, key="pg_examples"):
            for group in playground_ui.EXAMPLE_GROUPS:
                st.button(
                    playground_ui.button_label(group),
                    key=f"pg_ex_{group[0]}",
                    on_click=playground_ui.request_example,
                    args=(state, group[0]),
                    help=t("playground.example_help"),
                    icon=":material/description:",
                )

        # ---- input: text and settings ------------------------------------------------------------------
        left, right = st.columns([3, 2])
        with left:
            st.text_area(t("common.grades"), key="pg_rels", help=t("common.grades_help"), height=90)
            p.typed("pg_rels")
        with right:
            st.text_input(t("playground.unretrieved"), key="pg_unret", help=t("playground.unretrieved_help"),
                          placeholder=t("playground.unretrieved_placeholder"))
            p.typed("pg_unret")
        # Fixed widths in a wrapping row: whole names on a projector, one per line on a phone, in this order.
        gain_names = {g: gain_name(g) for g in PLAYGROUND_GAINS}  # bound now, in this run's language
        with st.container(horizontal=True, key="pg_settings", gap="medium"):
            option_widget(st.selectbox, t("common.gain"), PLAYGROUND_GAINS, key="pg_gain",
                          format_func=gain_names.__getitem__, help=t("playground.gain_help"), width=200)
            discount_select(key="pg_discount", width=270)
            base_texts = list(dict.fromkeys(["2", "e", "10", state.get("pg_base", "2")]))
            st.selectbox(t("common.log_base"), base_texts, key="pg_base", accept_new_options=True,
                         help=t("playground.base_help"), width=130)
            k_select(key="pg_k", n=len(ranking), width=190)
        p.typed("pg_base")  # a bad base: its message here (the numbers above use the last valid one)
        if gain == "map":  # trec_eval's -m ndcg.L=G: grade L gets gain G, grades not listed keep their value
            st.text_input(t("playground.gain_map"), key="pg_gain_map", help=t("playground.gain_map_help"))
            p.typed("pg_gain_map")
        idcg_names = {s: t(f"playground.idcg_{s}") for s in IDCG_CHOICES}  # bound now, in this run's language
        zero_names = {z: registry_text("zero_idcg", ZERO_IDCG[z], "name") for z in ZERO_IDCG_CHOICES}
        with st.container(horizontal=True, key="pg_settings_ideal", gap="large"):
            option_widget(st.radio, t("playground.idcg"), IDCG_CHOICES, key="pg_idcg", horizontal=True,
                          format_func=idcg_names.__getitem__, help=t("playground.idcg_help"))
            option_widget(st.selectbox, t("playground.zero_idcg"), ZERO_IDCG_CHOICES, key="pg_zero", width=250,
                          format_func=zero_names.__getitem__,
                          help="\n\n".join(f"**{zero_names[z]}**: {registry_text('zero_idcg', ZERO_IDCG[z], 'help')}"
                                             for z in ZERO_IDCG_CHOICES))
        metric_gain = playground_ui.gain_of(gain, gain_map)

        wide, bd = playground_ui.compute(
            grades, unretrieved, k, gain, gain_map, discount, base, idcg, zero, playground_ui.TABLE_CAP
        )

        with st.expander(t("playground.table_title"), icon=":material/table_edit:"):
            st.caption(t("playground.table_help"))
            if "table" in errors:
                st.error(playground_ui.problem_text(errors["table"]), icon=":material/error:")
                st.caption(t("common.kept_last_valid"))
            fits = len(ranking) <= playground_ui.TABLE_CAP
            if not fits:
                st.info(t("playground.table_capped", shown=playground_ui.TABLE_CAP, n=len(ranking)))
            st.data_editor(
                ranking.table(playground_ui.TABLE_CAP),
                key=playground_ui.table_key(state),
                num_rows="dynamic" if fits else "fixed",
                column_config={
                    "label": st.column_config.TextColumn(t("common.label"), max_chars=60),
                    "grade": st.column_config.NumberColumn(
                        t("common.relevance"), min_value=0, max_value=1000, required=True
                    ),
                    "retrieved": st.column_config.CheckboxColumn(t("playground.col_retrieved"), default=True),
                },
            )

        # ---- every variant -----------------------------------------------------------------------------
        st.subheader(t("playground.variants_title"))
        table, numeric, marks = variants_display(wide, gain, discount, idcg)
        show_table(table, numeric=numeric, marks=marks, label=t("playground.variants_title"), test_id="pg_variants")
        for sentence in observations(wide, grades, unretrieved, gain=gain, discount=discount, idcg=idcg, log_base=base):
            st.markdown(f"- {sentence}")

        # ---- step by step ------------------------------------------------------------------------------
        st.subheader(t("playground.steps_title"))
        n_ideal_items = len(grades) + len(unretrieved) if idcg == "judged" else len(grades)
        n_actual, n_ideal = positions_counted(len(grades), k=k), positions_counted(n_ideal_items, k=k)
        formulas = formula_latex(bd, values=values, n_actual=n_actual, n_ideal=n_ideal, gain=metric_gain,
                                 discount=discount, log_base=base, k=k)
        with st.container(key="pg_formulas"):
            st.latex(formulas["dcg"])
            st.latex(formulas["idcg"])
            st.latex(formulas["ndcg"])

        labels = ranking.labels()
        headers = {c: t(f"playground.bd_{c}") for c in export_frame(bd.iloc[:0], []).columns}
        st.markdown(f"**{t('playground.table_caption')}**")
        ranked_table, ideal_table, numeric = position_tables(bd, labels)
        with st.container(key="pg_breakdown"):
            st.markdown(t("playground.table_ranked"))
            show_table(ranked_table, numeric=numeric, label=t("playground.table_ranked"), test_id="pg_breakdown_ranked")
            st.markdown(t("playground.table_ideal"))
            show_table(ideal_table, numeric=numeric, label=t("playground.table_ideal"), test_id="pg_breakdown_ideal")
        if max(n_actual, n_ideal) > len(bd):
            st.caption(t("playground.rows_capped", shown=len(bd), n=max(n_actual, n_ideal)))

        variant = Variant(gain=gain, gain_map=gain_map if gain == "map" else (), discount=discount, log_base=base,
                          k=k, idcg=idcg)
        title = t("playground.export_title", name=variant_name(gain, discount, idcg), base=format_base(base),
                  k=t("common.k_whole", n=len(grades)) if k is None else f"k = {k}")
        full = {"k": k, "gain": metric_gain, "discount": discount, "base": base, "idcg": idcg}


        def _full_breakdown():
            return playground_ui.full_breakdown(grades, unretrieved, **full)

        st.caption(t("playground.export_help", title=title))
        with st.container(horizontal=True, key="pg_downloads"):
            st.download_button(t("playground.download_csv"), data=lambda: to_csv(_full_breakdown(), labels, variant),
                               file_name=file_name(variant, "csv"), mime="text/csv", key="pg_dl_csv", on_click="ignore",
                               icon=":material/download:")
            st.download_button(t("playground.download_md"),
                               data=lambda: to_markdown(_full_breakdown(), labels, headers=headers, title=title),
                               file_name=file_name(variant, "md"), mime="text/markdown", key="pg_dl_md",
                               on_click="ignore", icon=":material/download:")
            st.download_button(t("playground.download_tex"),
                               data=lambda: to_latex(_full_breakdown(), labels, headers=headers, title=title),
                               file_name=file_name(variant, "tex"), mime="text/x-tex", key="pg_dl_tex",
                               on_click="ignore", icon=":material/download:")
        # Built only when asked for: a closed expander would still compute its contents on every rerun.
        if st.toggle(t("playground.export_preview"), key="pg_show_export"):
            preview = bd.iloc[: playground_ui.EXPORT_PREVIEW_ROWS]
            md_tab, tex_tab = st.tabs([t("playground.markdown"), t("playground.latex")])
            md_tab.code(to_markdown(preview, labels, headers=headers, title=title), language="markdown")
            tex_tab.code(to_latex(preview, labels, headers=headers, title=title), language="latex")

        # ---- charts ------------------------------------------------------------------------------------
        st.subheader(t("playground.charts_title"))
        chart_bd = bd.iloc[: playground_ui.CHART_CAP]
        if len(bd) > playground_ui.CHART_CAP:
            st.caption(t("playground.charts_capped", shown=playground_ui.CHART_CAP))
        gains_spec, running_spec, curves_spec = playground_ui.chart_specs(
            chart_bd, tuple(labels[: playground_ui.CHART_CAP]), base, lang
        )
        g_cols = st.columns(2)
        with g_cols[0]:
            st.markdown(f"**{t('playground.chart_gains')}**")
            st.vega_lite_chart(gains_spec, width="stretch", key="pg_chart_gains")
        with g_cols[1]:
            st.markdown(f"**{t('playground.chart_running')}**")
            st.vega_lite_chart(running_spec, width="stretch", key="pg_chart_running")
        st.markdown(f"**{t('playground.chart_discounts')}**")
        st.vega_lite_chart(curves_spec, width="stretch", key="pg_chart_discounts")

    # ---- after the link box (drawn by ``page``): Present -------------------------------------------------
    st.page_link(PRESENT_PAGE, label=t("present.open"), icon=":material/slideshow:", help=t("present.open_help"),
                 query_params=present_query_from_playground(p.query(), lang=lang))
