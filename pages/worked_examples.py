"""Worked examples: every number the five source documents print, beside the exact value, with a verdict.

Layout and wiring only.  The documents' data, printed numbers and verdicts come from
metrics/lessons/examples.py, the text and tables from ui/pages/worked_examples.py, charts from ui/charts/ndcg.py;
the open document is in the link (``doc``) through ui/state.py.  The document quotes are data, not user text.
"""
from __future__ import annotations

import streamlit as st

from metrics.lessons.examples import DOCUMENTS, EXAMPLES, FORMULAS, VERDICTS, examples_for, findings, judge
from metrics.ndcg import breakdown
from ui.charts.ndcg import discounted_gain_chart
from ui.i18n import catalogue, current_language, registry_text, t
from ui.links import PLAYGROUND_PAGE
from ui.numbers import exact_list, show
from ui.pages import worked_examples
from ui.pages.present.link import PRESENT_PAGE, present_query_for_example
from ui.shell import page
from ui.tables import table as show_table

SECTION = "worked_examples"
lang = current_language()
with page(worked_examples.PAGE, worked_examples.FIELDS, caption=f"{SECTION}.intro") as p:
    # ---- headline figures: what each document prints, beside the exact values ---------------------------
    st.subheader(t(f"{SECTION}.headline"))
    h = st.columns(3)
    e000, e001, e003, e002 = (EXAMPLES[k] for k in ("000-graded", "001-main", "003-blog", "002-wiki"))
    v000 = {q: judge(e000, q) for q in ("dcg", "idcg", "ndcg")}
    v001 = {q: judge(e001, q) for q in ("dcg", "idcg")}
    v003 = {q: judge(e003, q) for q in ("idcg", "idcg_term_6")}
    v002 = judge(e002, "ndcg")
    h[0].metric(t(f"{SECTION}.headline_000"), f"{v000['dcg'].printed.text} / {v000['idcg'].printed.text}",
                t(f"{SECTION}.exact_label", value=f"{show(v000['dcg'].exact)} / {show(v000['idcg'].exact)}"),
                delta_color="off", delta_arrow="off", border=True)
    h[0].caption(t(f"{SECTION}.headline_help_000", dcg=show(v000["dcg"].exact), idcg=show(v000["idcg"].exact),
                   ndcg=show(v000["ndcg"].exact), ndcg_rounded=v000["ndcg"].rounded,
                   **{f"{q}_printed": v.printed.text for q, v in v000.items()}))
    # 001 prints the correct 6.86 / 8.38 (large); 003's 8.37 (a cut-off term carried into its sum) beside it.
    h[1].metric(t(f"{SECTION}.headline_003"), f"{v001['dcg'].printed.text} / {v001['idcg'].printed.text}",
                t(f"{SECTION}.printed_003", idcg_003=v003["idcg"].printed.text), delta_color="off", delta_arrow="off",
                border=True)
    h[1].caption(t(f"{SECTION}.headline_help_003", dcg=show(v001["dcg"].exact), idcg=show(v001["idcg"].exact),
                   dcg_001=v001["dcg"].printed.text, idcg_001=v001["idcg"].printed.text,
                   idcg_003=v003["idcg"].printed.text, term_003=v003["idcg_term_6"].printed.text,
                   term=show(v003["idcg_term_6"].exact)))
    h[2].metric(t(f"{SECTION}.headline_002"), v002.printed.text, t(f"{SECTION}.exact_label", value=show(v002.exact)),
                delta_color="off", delta_arrow="off", border=True)
    h[2].caption(t(f"{SECTION}.headline_help_002", ndcg=show(v002.exact), alt=show(v002.alt_value),
                   ndcg_printed=v002.printed.text))

    with st.expander(t(f"{SECTION}.legend")):
        for kind in VERDICTS:
            st.markdown(f"**{worked_examples.verdict_name(kind)}** — "
                        f"{registry_text('verdict', VERDICTS[kind], 'help')}")

    # ---- one tab per document; only the open one is built ----------------------------------------------
    st.caption(t(f"{SECTION}.documents"))
    tabs = st.tabs(list(DOCUMENTS), key="we_doc", on_change="rerun", default=st.session_state["we_doc"])
    for tab, doc in zip(tabs, DOCUMENTS):
        if not tab.open:
            continue
        with tab:
            st.markdown(t(f"{SECTION}.doc.{doc}"))
            st.caption(
                t(f"{SECTION}.source", source=DOCUMENTS[doc], language=t(f"{SECTION}.lang_{examples_for(doc)[0].lang}"))
            )
            for ex in examples_for(doc):
                key = ex.key
                st.subheader(t(f"{SECTION}.ex.{key}.title"))
                nums = worked_examples.numbers(ex)
                q1, q2 = st.columns(2)
                with q1:
                    st.markdown(f"**{t(f'{SECTION}.quote')}**")
                    # document data, escaped
                    st.markdown(worked_examples.quote_html(ex.quote, ex.lang), unsafe_allow_html=True)
                with q2:
                    if lang != ex.lang:
                        st.markdown(f"**{t(f'{SECTION}.translation')}**")
                        st.markdown("> " + t(f"{SECTION}.ex.{key}.quote"))
                    st.markdown(f"**{t(f'{SECTION}.input')}**")
                    st.markdown(t(f"{SECTION}.grades", grades=exact_list(ex.relevances)))
                    if ex.labels:
                        st.markdown(t(f"{SECTION}.labels", labels=", ".join(ex.labels)))
                    st.markdown(t(f"{SECTION}.k", k=ex.k) if ex.k else t(f"{SECTION}.k_none"))
                    st.markdown(t(f"{SECTION}.idcg_items", items=t(f"{SECTION}.items.{ex.idcg_items.key}")))
                f1, f2 = st.columns(2)
                with f1:
                    st.markdown(f"**{t(f'{SECTION}.named_formula')}**")
                    named = sorted({n.named for n in ex.printed} | {n.named_ideal for n in ex.printed if n.named_ideal})
                    for fk in named:
                        st.latex(FORMULAS[fk].variant.latex("p"))
                with f2:
                    st.markdown(f"**{t(f'{SECTION}.implied_formula')}**")
                    implied = sorted({n.implied for n in ex.printed})
                    for fk in implied:
                        st.latex(FORMULAS[fk].variant.latex("p"))
                    if set(named) == set(implied):
                        st.caption(t(f"{SECTION}.same_formula"))

                st.markdown(f"**{t(f'{SECTION}.verdicts')}**")
                # wraps the long "why" text; one block per number on a phone
                show_table(worked_examples.verdict_rows(ex), label=t(f"{SECTION}.verdicts"), test_id="we_verdicts")
                st.info(t(f"{SECTION}.ex.{key}.explain", **nums), icon=":material/lightbulb:")

                if findings(ex):
                    st.markdown(f"**{t(f'{SECTION}.findings')}**")
                    for f in findings(ex):
                        if f.kind == "text_inconsistency":
                            text = t(f"{SECTION}.ex.{key}.text_inconsistency")
                        else:
                            text = t(f"{SECTION}.finding.{f.kind}", **{k: nums.get(k, "") for k in f.values})
                        st.markdown(f"- **{worked_examples.verdict_name(f.kind)}**: {text}")
                for extra in ("question", "answer", "code"):  # what some documents add (catalogue text, data numbers)
                    if f"{SECTION}.ex.{key}.{extra}" in catalogue("en"):
                        text = t(f"{SECTION}.ex.{key}.{extra}", **nums)
                        st.markdown(f"**{text}**" if extra == "question" else text)

                for variant in ex.variants:
                    title = (t(f"{SECTION}.positions_variant", variant=t(f"{SECTION}.variant_{variant}")) if variant
                             else t(f"{SECTION}.positions"))
                    st.markdown(f"**{title}**")
                    ranked_part, ideal_part, numeric = worked_examples.position_parts(ex, variant)
                    show_table(ranked_part, numeric=numeric, label=title, test_id="we_positions")
                    show_table(ideal_part, numeric=numeric, label=title, test_id="we_positions_ideal")
                    formula = FORMULAS[variant or ex.implied]
                    bd = breakdown(list(ex.relevances), k=ex.k, pool=ex.pool, **formula.variant.options)
                    st.caption(t(f"{SECTION}.chart"))
                    st.altair_chart(discounted_gain_chart(bd, labels=ex.labels, height=220), width="stretch")
                    st.page_link(PLAYGROUND_PAGE, label=t(f"{SECTION}.open_in_playground"),
                                 icon=":material/open_in_new:",
                                 query_params=worked_examples.playground_query(ex, variant, lang))
                    st.page_link(PRESENT_PAGE, label=t("present.open"), icon=":material/slideshow:",
                                 help=t("present.open_help"),
                                 query_params=present_query_for_example(ex.key, variant, lang=lang))
                    st.caption(t(f"{SECTION}.playground_note", formula=worked_examples.formula_name(ex, variant)))
                st.divider()
