"""Check my hand calculation: which formula the numbers follow, the first wrong step and why.

Layout and wiring only: the diagnosis comes from metrics/lessons/diagnose.py, the documents' sheets from
metrics/lessons/examples.py (via metrics.lessons.diagnose.example_sheet).
"""
from __future__ import annotations

import streamlit as st

from metrics.lessons.diagnose import EXAMPLE_SHEETS, LOG_I, diagnose, example_sheet, hand_number, hand_numbers
from metrics.parse import parse_grades
from metrics.registry import DISCOUNTS, GAINS, dcg_latex
from ui.diagnosis import render_findings, render_steps_table, variant_label, variant_summary
from ui.i18n import registry_text, t
from ui.widgets import BASES, error_text, grades_input

P = "check"
AUTO = "auto"
HAND_FIELDS = ("terms", "dcg", "ideal_terms", "idcg", "ndcg")
LIST_FIELDS = ("terms", "ideal_terms")
DEFAULT_SHEET = "003-blog"


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(f"{x:g}" for x in value)
    return str(value)


def load_sheet(key: str) -> None:
    """Put a document's sheet into the inputs (a callback: runs before the widgets are drawn)."""
    sheet = example_sheet(key)
    st.session_state[f"{P}_grades"] = _text(sheet["grades"])
    st.session_state[f"{P}_unretrieved"] = _text(sheet["unretrieved"])
    st.session_state[f"{P}_k"] = sheet["k"] or 0
    for name in HAND_FIELDS:
        st.session_state[f"{P}_{name}"] = sheet[name]
    st.session_state[f"{P}_gain"] = sheet["gain"]
    st.session_state[f"{P}_discount"] = sheet["discount"]
    st.session_state[f"{P}_base"] = next(k for k, v in BASES.items() if v == sheet["log_base"])
    st.session_state[f"{P}_source"] = AUTO


def _on_preset() -> None:
    key = st.session_state[f"{P}_preset"]
    if key:
        load_sheet(key)


if f"{P}_preset" not in st.session_state:
    st.session_state[f"{P}_preset"] = DEFAULT_SHEET
    load_sheet(DEFAULT_SHEET)

st.title(t("check.title"))
st.caption(t("check.intro"))

# Labels are computed here, in the script's language: a format_func must not look the language up later.
preset_labels = {k: t(f"check.presets.{k}") if k else t("check.preset_none") for k in [""] + list(EXAMPLE_SHEETS)}
st.selectbox(t("check.preset"), list(preset_labels), key=f"{P}_preset", on_change=_on_preset,
             format_func=preset_labels.get, help=t("check.preset_help"))

left, right = st.columns([2, 3], gap="large")

with left:
    st.subheader(t("check.list_header"))
    grades = grades_input(key=f"{P}_grades", default="3 2 3 0 1 2", height=68)
    unretrieved_text = st.text_input(t("check.unretrieved"), key=f"{P}_unretrieved", help=t("check.unretrieved_help"))
    try:
        unretrieved = parse_grades(unretrieved_text, allow_empty=True)
        st.session_state[f"{P}_unretrieved__last_valid"] = unretrieved
    except ValueError as exc:
        st.error(error_text(exc))
        st.caption(t("common.kept_last_valid"))
        unretrieved = st.session_state.get(f"{P}_unretrieved__last_valid", [])
    k_value = st.number_input(t("common.k"), min_value=0, max_value=1000, step=1, key=f"{P}_k",
                              help=t("check.k_help"))
    k = int(k_value) or None

    st.subheader(t("check.formula_header"))
    st.caption(t("check.formula_help"))
    c1, c2 = st.columns(2)
    detect = t("check.detect")
    gain_labels = {AUTO: detect, **{x: registry_text("gain", GAINS[x], "name") for x in GAINS}}
    discount_labels = {AUTO: detect, **{x: registry_text("discount", DISCOUNTS[x], "name") for x in DISCOUNTS}}
    base_labels = {AUTO: detect, **{x: variant_label("log_base", b) for x, b in BASES.items()}}
    source_labels = {AUTO: detect, **{x: variant_label("idcg_source", x) for x in ("list", "judged")}}
    gain = c1.selectbox(t("common.gain"), list(gain_labels), key=f"{P}_gain", format_func=gain_labels.get)
    discount = c2.selectbox(t("common.discount"), list(discount_labels), key=f"{P}_discount",
                            format_func=discount_labels.get)
    base = c1.selectbox(t("common.log_base"), list(base_labels), key=f"{P}_base", format_func=base_labels.get)
    source = c2.selectbox(t("check.idcg_source"), list(source_labels), key=f"{P}_source",
                          format_func=source_labels.get, help=t("check.idcg_source_help"))

limits = {"terms": len(grades), "ideal_terms": len(grades) + len(unretrieved)}
hand: dict[str, str] = {}
with right:
    st.subheader(t("check.numbers_header"))
    st.caption(t("check.numbers_help"))
    for name in HAND_FIELDS:
        key = f"{P}_{name}"
        text = st.text_input(t(f"check.{name}"), key=key, help=t(f"check.{name}_help"))
        try:
            if name in LIST_FIELDS:
                values = hand_numbers(text, name=name)
                while values and values[-1] is None:
                    values.pop()
                if len(values) > limits[name]:
                    st.error(t("check.too_many", count=len(values), limit=limits[name]))
                    raise LookupError
            elif text.strip():
                hand_number(text, name=name)
            st.session_state[f"{key}__last_valid"] = text
            hand[name] = text
        except ValueError as exc:
            st.error(error_text(exc))
            st.caption(t("common.kept_last_valid"))
            hand[name] = st.session_state.get(f"{key}__last_valid", "")
        except LookupError:
            st.caption(t("common.kept_last_valid"))
            last = st.session_state.get(f"{key}__last_valid", "")
            # the last valid text may itself be too long for a shorter list now
            hand[name] = last if len(hand_numbers(last, name=name)) <= limits[name] else ""

st.divider()
st.subheader(t("check.result"))
if not any(v.strip() for v in hand.values()):
    st.info(t("check.nothing_yet"))
    st.stop()

try:
    d = diagnose(
        grades, unretrieved=unretrieved, k=k, **{n: (hand[n] or None) for n in HAND_FIELDS},
        gain=None if gain == AUTO else gain, discount=None if discount == AUTO else discount,
        log_base=None if base == AUTO else BASES[base], idcg_source=None if source == AUTO else source,
    )
except ValueError as exc:
    st.error(error_text(exc))
    st.stop()

f1, f2 = st.columns(2)
with f1:
    st.markdown(f"**{t('diagnose.followed')}:** {variant_summary(d.variant, d.k)}")
    st.latex(dcg_latex(d.variant.gain, DISCOUNTS.get(d.variant.discount, LOG_I), d.variant.log_base))
with f2:
    st.markdown(f"**{t('diagnose.correct_formula')}:** {variant_summary(d.correct, d.k)}")
    st.latex(dcg_latex(d.correct.gain, d.correct.discount, d.correct.log_base))

render_findings(d)
st.markdown(f"#### {t('check.table_header')}")
render_steps_table(d, key=f"{P}_table")
st.caption(t("diagnose.precision_note"))
