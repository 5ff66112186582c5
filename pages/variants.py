"""Variants & libraries: the formulas side by side, where they coincide and split, what each library returns.

Layout and wiring only: conventions and values come from metrics/lessons/libraries.py (which computes with
metrics/ndcg.py), formulas from metrics/registry.py.  The ranking comes from the playground's session
state (ui/playground_state.py) when there is one, else from the inputs here.
"""
from __future__ import annotations

import math

import altair as alt
import pandas as pd
import streamlit as st

from metrics.lessons.examples import EXAMPLES, GROUND_TRUTH_004
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
from metrics.parse import parse_grades, parse_numbers
from metrics.registry import DISCOUNTS, GAINS, TIES, dcg_latex
from ui.charts import discount_curves_chart
from ui.i18n import plain, registry_text, t
from ui.links import format_base
from ui.widgets import base_select, error_text, grades_input

P = "variants"
state = st.session_state
PLAYGROUND_STATE = "pg_model"  # ui/playground_state.STATE_KEY: the playground's ranking model
FLIP_MAX = 6  # grades permuted by the flip search (6! orders, compared pairwise)


def num(x) -> str:
    return f"{x:.4f}"


def grades_text(grades) -> str:
    return ", ".join(f"{g:g}" for g in grades)


def variant_label(key: str) -> str:
    v = VARIANTS[key]
    return " · ".join([registry_text("gain", GAINS[v.gain], "name"), registry_text("discount", DISCOUNTS[v.discount], "name"),
                       t(f"{P}.idcg_source.{v.idcg_source}")])


def text_input_kept(label: str, *, key: str, default: str, parse, help: str | None = None):
    """A text input parsed by ``parse``; on error a message and the last valid value."""
    last = f"{key}__last_valid"
    if key not in state:
        state[key] = default
    if last not in state:
        state[last] = parse(default)
    text = st.text_input(label, key=key, help=help)
    try:
        value = parse(text)
    except ValueError as exc:
        st.error(error_text(exc))
        st.caption(t("common.kept_last_valid"))
        return state[last]
    state[last] = value
    return value


def split_ids(text: str) -> list[str]:
    return [p.strip() for p in (text or "").split(",") if p.strip()]


st.title(t("common.nav.variants"))
st.caption(t(f"{P}.intro"))

# ---- formulas ------------------------------------------------------------------------------------
st.header(t(f"{P}.formulas"))
st.caption(t(f"{P}.formulas_help"))
base = base_select(key="va_base")
head = st.columns([1, 2, 2])
for col, d in zip(head[1:], DISCOUNTS.values()):
    col.markdown(f"**{registry_text('discount', d, 'name')}**")
for g in GAINS.values():
    row = st.columns([1, 2, 2], vertical_alignment="center")
    row[0].markdown(f"**{registry_text('gain', g, 'name')}**", help=registry_text("gain", g, "help"))
    for col, d in zip(row[1:], DISCOUNTS.values()):
        with col:
            st.latex(dcg_latex(g.key, d.key, base))
st.markdown(f"**{t(f'{P}.code_004')}**")
st.latex(dcg_latex("binary", "standard", math.e))

st.subheader(t(f"{P}.curves"))
n_pos = st.slider(t(f"{P}.curves_n"), min_value=2, max_value=30, value=10, key="va_curve_n")
st.altair_chart(discount_curves_chart(n_pos, base), width="stretch")
c = coincidences(n_pos, base)
st.markdown(t(f"{P}.coincide", base=format_base(base), same=", ".join(map(str, c["same_weight_positions"])) or "—",
              equal=", ".join(map(str, c["jarvelin_equal_weight_positions"]))))
st.markdown(t(f"{P}.gains_agree", grades=", ".join(map(str, c["same_gain_grades"]))))

# ---- the ranking ---------------------------------------------------------------------------------
st.header(t(f"{P}.ranking"))
model = state.get(PLAYGROUND_STATE)
sources = ["playground", "typed"] if model is not None and getattr(model, "ranked", None) else ["typed"]
if len(sources) == 1:
    st.caption(t(f"{P}.no_playground"))
source_names = {s: t(f"{P}.source_{s}") for s in sources}  # bound now, in this run's language
source = st.radio(t(f"{P}.source"), sources, key=f"va_source_{len(sources)}", horizontal=True,
                  format_func=source_names.__getitem__)
if source == "playground":
    grades = list(model.grades())
    unretrieved = list(model.unretrieved_grades())
    labels = list(model.labels())
    k = model.k
    st.info(t(f"{P}.from_playground", grades=grades_text(grades), unretrieved=grades_text(unretrieved) or "—",
              k=k or "—"), icon=":material/tune:")
else:
    cols = st.columns(2)
    with cols[0]:
        grades = grades_input(key="va_grades", default="3, 2, 3, 0, 1, 2", label=t(f"{P}.grades"), height=68)
    with cols[1]:
        unretrieved = grades_input(key="va_unretrieved", default="3, 0", label=t(f"{P}.unretrieved"), height=68,
                                   allow_empty=True)
    labels = None
    k = int(st.number_input(t(f"{P}.k"), min_value=0, max_value=10_000, value=6, step=1, key="va_k")) or None
cols = st.columns(2)
with cols[0]:
    scores = text_input_kept(t(f"{P}.scores"), key="va_scores", default="",
                             parse=lambda s: parse_numbers(s, allow_empty=True))
with cols[1]:
    docnos = text_input_kept(t(f"{P}.docnos"), key="va_docnos", default="", parse=split_ids)
if scores and len(scores) != len(grades):
    st.warning(t(f"{P}.scores_mismatch", n_scores=len(scores), n_items=len(grades)))
    scores = []
ids = docnos if len(docnos) == len(grades) else (labels if labels and len(labels) == len(grades) else None)

# ---- libraries -------------------------------------------------------------------------------------
st.header(t(f"{P}.libraries"))
st.caption(t(f"{P}.libraries_help"))
try:
    table = evaluate_libraries(grades, scores=scores or None, docnos=ids, unretrieved=unretrieved, k=k)
except ValueError as exc:
    st.error(error_text(exc))
    table = None
if table is not None:
    shown = pd.DataFrame({
        t(f"{P}.col.library"): [LIBRARIES[key].name for key in table["key"]],
        t(f"{P}.col.ndcg"): [num(x) for x in table["ndcg"]],
        t(f"{P}.col.dcg"): [num(x) for x in table["dcg"]],
        t(f"{P}.col.idcg"): [num(x) for x in table["idcg"]],
        t(f"{P}.col.gain"): [registry_text("gain", GAINS[g], "name") for g in table["gain"]],
        t(f"{P}.col.discount"): [registry_text("discount", DISCOUNTS[d], "name") for d in table["discount"]],
        t(f"{P}.col.base"): [format_base(b) for b in table["log_base"]],
        t(f"{P}.col.idcg_source"): [t(f"{P}.idcg_source.{s}") for s in table["idcg_source"]],
        t(f"{P}.col.ties"): [registry_text("ties", TIES[x], "name") for x in table["ties"]],
        t(f"{P}.col.k"): ["—" if kk is None or kk != kk else str(int(kk)) for kk in table["k"]],
    })
    st.dataframe(shown, hide_index=True, width="stretch", height=35 * (len(shown) + 1) + 3)
with st.expander(t(f"{P}.conventions")):
    for lib in LIBRARIES.values():
        st.markdown(f"**{lib.name}** — `{lib.call}`")
        st.latex(lib.latex())
        st.markdown(
            f"- {t(f'{P}.col.ties')}: {registry_text('library', lib, 'ties_note')}\n"
            f"- {t(f'{P}.col.idcg_source')}: {t(f'{P}.idcg_source.{lib.idcg_source}')}\n"
            f"- {t(f'{P}.col.idcg_zero')}: {registry_text('library', lib, 'idcg_zero')}\n"
            f"- {t(f'{P}.col.notes')}: {registry_text('library', lib, 'notes')}"
        )
        st.caption(t(f"{P}.tested", package=lib.checked_against) if lib.checked_against else t(f"{P}.not_tested"))

# ---- ties ------------------------------------------------------------------------------------------
st.header(t(f"{P}.ties"))
st.caption(t(f"{P}.ties_help"))
tc = st.columns(3)
with tc[0]:
    tie_grades = text_input_kept(t(f"{P}.ties_grades"), key="va_tie_grades", default="3, 0, 2, 1, 2",
                                 parse=parse_grades)
with tc[1]:
    tie_scores = text_input_kept(t(f"{P}.ties_scores"), key="va_tie_scores", default="0.9, 0.9, 0.5, 0.5, 0.5",
                                 parse=parse_numbers)
with tc[2]:
    tie_ids = text_input_kept(t(f"{P}.ties_docnos"), key="va_tie_docnos", default="a, b, c, d, e", parse=split_ids)
if len(tie_scores) != len(tie_grades) or len(tie_ids) != len(tie_grades):
    st.warning(t(f"{P}.ties_bad"))
else:
    spread = tie_spread(tie_grades, tie_scores, docnos=tie_ids)
    spread["name"] = [registry_text("ties", TIES[x], "name") for x in spread["ties"]]
    tcols = st.columns([2, 3])
    tcols[0].dataframe(pd.DataFrame({t(f"{P}.col.rule"): spread["name"],
                                     t(f"{P}.col.ndcg"): [num(x) for x in spread["ndcg"]]}),
                       hide_index=True, width="stretch")
    tcols[0].markdown(t(f"{P}.spread", spread=num(spread.attrs["spread"])))
    chart = (alt.Chart(spread, height=220).mark_bar()
             .encode(x=alt.X("ndcg:Q", title="NDCG", scale=alt.Scale(domain=[0, 1])),
                     y=alt.Y("name:N", title=t(f"{P}.col.rule"), sort=None),
                     tooltip=[alt.Tooltip("name:N", title=t(f"{P}.col.rule")),
                              alt.Tooltip("ndcg:Q", title="NDCG", format=".4f")]))
    tcols[1].altair_chart(chart, width="stretch")

# ---- does the choice matter? ------------------------------------------------------------------------
st.header(t(f"{P}.matter"))
st.caption(t(f"{P}.matter_help"))
mc = st.columns(3)
with mc[0]:
    rank_a = grades_input(key="va_rank_a", default=grades_text(EXAMPLES["004-recsys1"].relevances),
                          label=t(f"{P}.ranking_a"), height=68)
with mc[1]:
    rank_b = grades_input(key="va_rank_b", default=grades_text(EXAMPLES["004-recsys2"].relevances),
                          label=t(f"{P}.ranking_b"), height=68)
with mc[2]:
    pool = grades_input(key="va_pool", default=grades_text(GROUND_TRUTH_004), label=t(f"{P}.pool"), height=68)
mk = int(st.number_input(t(f"{P}.matter_k"), min_value=0, max_value=10_000, value=5, step=1, key="va_matter_k")) or None
try:
    cmp = compare_rankings(rank_a, rank_b, pool=pool, k=mk)
except ValueError as exc:
    st.error(t(f"{P}.pool_bad", message=plain(exc, 200)))
    cmp = None
if cmp is not None:
    names = [variant_label(v) if kind == "variant" else LIBRARIES[v].name for v, kind in zip(cmp["variant"], cmp["kind"])]
    st.dataframe(pd.DataFrame({
        t(f"{P}.col.variant"): names,
        t(f"{P}.col.kind"): [t(f"{P}.kind.{x}") for x in cmp["kind"]],
        t(f"{P}.col.ndcg_a"): [num(x) for x in cmp["ndcg_a"]],
        t(f"{P}.col.ndcg_b"): [num(x) for x in cmp["ndcg_b"]],
        t(f"{P}.col.winner"): [t(f"{P}.winner.{w}") for w in cmp["winner"]],
    }), hide_index=True, width="stretch", height=35 * (len(cmp) + 1) + 3)
    counts = cmp["winner"].value_counts()
    st.markdown(t(f"{P}.wins", a=int(counts.get("a", 0)), b=int(counts.get("b", 0)), tie=int(counts.get("tie", 0))))
    if counts.get("a", 0) and counts.get("b", 0):
        st.success(t(f"{P}.flips"), icon=":material/swap_vert:")
    else:
        st.caption(t(f"{P}.no_flip"))

st.subheader(t(f"{P}.flip"))
fc = st.columns(3)
keys = list(VARIANTS)
first = fc[0].selectbox(t(f"{P}.flip_first"), keys, index=keys.index("linear/standard/list"),
                        format_func=variant_label, key="va_flip_first")
second = fc[1].selectbox(t(f"{P}.flip_second"), keys, index=keys.index("exponential/standard/list"),
                         format_func=variant_label, key="va_flip_second")
with fc[2]:
    flip_grades = grades_input(key="va_flip_grades", default="3, 2, 2, 1, 0", label=t(f"{P}.flip_grades", n=FLIP_MAX), height=68)
flip_grades = flip_grades[:FLIP_MAX]
pair = find_flip(first, second, grades=flip_grades)
if pair is None:
    st.caption(t(f"{P}.flip_none"))
else:
    a, b = pair
    v1, v2 = VARIANTS[first], VARIANTS[second]

    def under(v, r):
        return ndcg(r, gain=v.gain, discount=v.discount, log_base=v.log_base)

    st.markdown(t(f"{P}.flip_found", a=grades_text(a), b=grades_text(b), a1=num(under(v1, a)), b1=num(under(v1, b)),
                  a2=num(under(v2, a)), b2=num(under(v2, b))))
