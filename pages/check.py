"""Check my hand calculation: which formula the numbers follow, the first wrong step and why.

Layout and wiring only: the diagnosis comes from metrics/lessons/diagnose.py, the documents' sheets from
metrics/lessons/examples.py, the fields from ui/pages/check.py, state and link from ui/state.py.
"""
from __future__ import annotations

import streamlit as st

from metrics.lessons.diagnose import diagnose
from metrics.registry import DISCOUNTS, GAINS, dcg_latex
from ui.diagnosis import render_findings, render_steps_table, side_latex, variant_label, variant_summary
from ui.i18n import labelled, registry_text, t
from ui.pages import check
from ui.shell import page
from ui.widgets import error_text, k_select, option_widget

with page(check.PAGE, check.FIELDS, title="check.title", caption="check.intro") as p:
    # Labels are computed here, in the script's language: a format_func must not look the language up later.
    sheet_labels = {k: labelled(t(f"check.presets.{k}"), check.sheet_numbers(k)) for k in check.SHEETS}
    option_widget(st.selectbox, t("check.preset"), list(sheet_labels), key="check_sheet", index=None,
                  on_change=check.on_sheet, args=(st.session_state,), format_func=sheet_labels.get,
                  placeholder=t("check.preset_placeholder"), help=t("check.preset_help"))

    left, right = st.columns([1, 1], gap="large")
    with left:
        st.subheader(t("check.list_header"))
        st.text_area(t("common.grades"), key="check_grades", help=t("common.grades_help"), height=68)
        grades = list(p.typed("check_grades"))
        st.text_input(t("check.unretrieved"), key="check_unretrieved", help=t("check.unretrieved_help"))
        unretrieved = list(p.typed("check_unretrieved"))

        st.subheader(t("check.formula_header"))
        st.caption(t("check.formula_help"))
        detect = t("check.detect")
        gain_labels = {check.AUTO: detect, **{x: registry_text("gain", GAINS[x], "name") for x in GAINS}}
        discount_labels = {check.AUTO: detect,
                           **{x: registry_text("discount", DISCOUNTS[x], "name") for x in DISCOUNTS}}
        base_labels = {check.AUTO: detect, **{x: variant_label("log_base", b) for x, b in check.BASES.items()}}
        source_labels = {check.AUTO: detect, **{x: variant_label("idcg", x) for x in ("list", "judged")}}
        gain = option_widget(st.selectbox, t("common.gain"), list(gain_labels), key="check_gain",
                             format_func=gain_labels.get)
        discount = option_widget(st.selectbox, t("common.discount"), list(discount_labels), key="check_discount",
                                 format_func=discount_labels.get)
        base = option_widget(st.selectbox, t("common.log_base"), list(base_labels), key="check_base",
                             format_func=base_labels.get)
        source = option_widget(st.selectbox, t("check.idcg_source"), list(source_labels), key="check_source",
                               format_func=source_labels.get, help=t("check.idcg_source_help"))
        k = k_select(key="check_k", n=len(grades) + len(unretrieved), help=t("check.k_help"))

    limits = {"terms": len(grades), "ideal_terms": len(grades) + len(unretrieved)}
    hand: dict[str, str] = {}
    with right:
        st.subheader(t("check.numbers_header"))
        st.caption(t("check.numbers_help"))
        for name in check.HAND_FIELDS:
            key = f"check_{name}"
            st.text_input(t(f"check.{name}"), key=key, help=t(f"check.{name}_help"), max_chars=check.MAX_HAND_CHARS)
            hand[name] = p.typed(key)
            if name in check.LIST_FIELDS and check.count_values(hand[name]) > limits[name]:
                st.error(t("check.too_many", count=check.count_values(hand[name]), limit=limits[name]),
                         icon=":material/error:")
                hand[name] = ""  # not checked until it fits the list

    st.divider()
    st.subheader(t("check.result"))
    if not any(v.strip() for v in hand.values()):
        st.info(t("check.nothing_yet"))
    else:
        try:
            d = diagnose(
                grades,
                unretrieved=unretrieved,
                k=k,
                **{n: (hand[n] or None) for n in check.HAND_FIELDS},
                gain=None if gain == check.AUTO else gain,
                discount=None if discount == check.AUTO else discount,
                log_base=None if base == check.AUTO else check.BASES[base],
                idcg_source=None if source == check.AUTO else source,
            )
        except ValueError as exc:
            st.error(error_text(exc))
            d = None
        if d is not None:
            f1, f2 = st.columns(2)
            with f1:
                st.markdown(t("diagnose.followed_line", summary=variant_summary(d.followed, d.k)))
                st.latex(dcg_latex(*side_latex(d.followed, "dcg")))
            with f2:
                st.markdown(t("diagnose.correct_line", summary=variant_summary(d.correct, d.k)))
                st.latex(dcg_latex(*side_latex(d.correct, "dcg")))
            render_findings(d)
            st.markdown(f"#### {t('check.table_header')}")
            render_steps_table(d, key="check_table")
            st.caption(t("diagnose.precision_note"))
