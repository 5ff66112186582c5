"""Which convention gives my number?  Paste a ranking and the NDCG you got; see every library and setting.

Layout and wiring only: the search is metrics.lessons.match.match_number, the wording and fields are in
ui/pages/match.py, state and link through ui.state.
"""
from __future__ import annotations

import streamlit as st

from metrics.lessons.libraries import LIBRARIES, NotApplicable
from metrics.lessons.match import match_number
from ui import escape
from ui.i18n import t
from ui.pages import match as match_view
from ui.shell import page

with page(match_view.PAGE, match_view.FIELDS, caption="match.intro") as p:
    c1, c2 = st.columns(2)
    with c1:
        st.text_area(t("match.rels"), key=match_view.K_RELS, height=68, help=t("match.rels_help"))
        rels = list(p.typed(match_view.K_RELS))
        st.text_area(t("match.unretrieved"), key=match_view.K_UNRET, height=68, help=t("match.unretrieved_help"))
        unretrieved = list(p.typed(match_view.K_UNRET))
    with c2:
        st.text_input(t("match.scores"), key=match_view.K_SCORES, help=t("match.scores_help"))
        scores = list(p.typed(match_view.K_SCORES))
        st.text_input(t("match.docnos"), key=match_view.K_DOCNOS, help=t("match.docnos_help"))
        docnos = match_view.parse_docnos(p.value(match_view.K_DOCNOS))
    c3, c4 = st.columns(2)
    with c3:
        st.text_input(t("match.value"), key=match_view.K_VALUE, help=t("match.value_help"))
        value = p.typed(match_view.K_VALUE)
    with c4:
        k = st.number_input(t("match.k"), min_value=1, max_value=10_000, step=1, key=match_view.K_K,
                            placeholder=t("match.k_none"), help=t("match.k_help"))
        k = None if k is None else int(k)

    if scores and len(scores) != len(rels):
        st.warning(t("match.scores_mismatch", n_scores=len(scores), n_items=len(rels)), icon=":material/warning:")
        scores = []
    if docnos and len(docnos) != len(rels):
        st.warning(t("match.docnos_mismatch", n_docnos=len(docnos), n_items=len(rels)), icon=":material/warning:")
        docnos = []

    try:
        result = match_number(value, rels, scores=scores or None, docnos=docnos or None,
                              pool=rels + unretrieved if unretrieved else None, k=k)
    except (ValueError, NotApplicable) as exc:
        st.error(escape.markdown(str(exc), 200))
        result = None

    if result is not None:
        digits = max(result.target.scale + 2, 4)
        st.caption("  \n".join(match_view.precision_sentences(result.target)))
        note = match_view.ranx_note(result, len(rels), scores)
        if note:
            st.info(note, icon=":material/shuffle:")

        st.header(t("match.explain"))
        st.caption(t("match.explain_help"))
        shown = result.explanations[:match_view.SHOWN_EXPLANATIONS]
        if shown:
            st.markdown("\n".join("- " + match_view.explanation_sentence(e, result.target, digits) for e in shown))
        if len(result.explanations) > len(shown):
            st.caption(match_view.counted("match.explain_more", len(result.explanations) - len(shown),
                                          n=len(result.explanations) - len(shown)))
        if not shown:
            st.info(t("match.no_explanation"), icon=":material/search_off:")
        with st.expander(t("match.why_order")):
            st.markdown("\n".join(match_view.order_reasons()))

        st.header(t("match.libraries"))
        if result.libraries:
            for m in result.libraries:
                link = match_view.library_link(m.key, rels, unretrieved, k)
                st.markdown(
                    "- " + match_view.library_sentence(m.key, m.value, m.k, digits, times_100=m.times_100,
                                                       target=result.target) + f" — [{t('match.open')}]({link})"
                )
        else:
            st.info(t("match.no_library"), icon=":material/search_off:")

        st.header(t("match.settings"))
        st.caption(match_view.counted("match.settings_help", len(result.matches), n=len(result.matches)))
        for m in result.matches[:match_view.SHOWN_MATCHES]:
            st.markdown("- " + match_view.match_sentence(m, digits, result.target)
                        + f" — [{t('match.open')}]({match_view.open_link(rels, unretrieved, k, m.settings)})")
        if len(result.matches) > match_view.SHOWN_MATCHES:
            hidden = len(result.matches) - match_view.SHOWN_MATCHES
            st.caption(match_view.counted("match.more", hidden, n=hidden))
        if not result.matches:
            st.info(t("match.no_setting"), icon=":material/search_off:")

        st.header(t("match.near"))
        st.caption(t("match.near_help"))
        for m in result.near_misses:
            st.markdown("- " + match_view.near_miss_sentence(m, digits))
        for sentence in match_view.not_applicable_sentences(result.not_applicable):
            st.caption(sentence)

        with st.expander(t("match.sources")):
            for key in LIBRARIES:
                st.markdown(match_view.source_text(key))
