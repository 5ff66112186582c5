"""Worked examples: every number the five source documents print, beside the exact value, with a verdict.

Layout and wiring only.  The documents' data and the verdicts come from metrics/lessons/examples.py, every
number from metrics/; the document quotes are data (not user text).
"""
from __future__ import annotations

import streamlit as st

from metrics.lessons.examples import (
    DOCUMENTS,
    EXAMPLES,
    FORMULAS,
    VERDICTS,
    code_004_ndcg,
    examples_for,
    findings,
    judge,
    judge_all,
    position_table,
)
from metrics.ndcg import breakdown, dcg
from ui.charts import discounted_gain_chart
from ui.i18n import current_language, registry_text, t
from ui.links import PLAYGROUND_PAGE, playground_query_for
from ui.present import PRESENT_PAGE, present_query_for_example

lang = current_language()
P = "worked_examples"


def num(x, places: int = 4) -> str:
    return "—" if x is None else f"{x:.{places}f}"


def like(printed_text: str, x) -> str:
    """An exact value written like the printed one (percent or not), with two more digits."""
    if x is None:
        return "—"
    if printed_text.strip().endswith("%"):
        return f"{x * 100:.4f}%"
    return num(x)


def fit(n_rows: int) -> int:
    """A table height showing every row (no inner scrolling): 35 px per row plus the header."""
    return 35 * (n_rows + 1) + 3


def verdict_name(kind: str) -> str:
    return registry_text("verdict", VERDICTS[kind], "name")


def reason(v, example) -> str:
    p = v.printed
    if p.quantity in ("relevances", "ideal_vector"):
        return t(f"{P}.reason.list_{v.kind}", computed=v.values.get("computed", ""))
    fmt = {"printed": p.text, "exact": like(p.text, v.exact), "rounded": v.rounded,
           "recomputed": like(p.text, v.recomputed), "named": like(p.text, v.named_value),
           "alt": like(p.text, v.alt_value),
           "alt_items": t(f"{P}.items.{example.alt_idcg_items.key}") if example.alt_idcg_items else ""}
    return " ".join(t(f"{P}.reason.{kind}", **fmt) for kind in v.kinds)


def quantity_name(p) -> str:
    name = t(f"{P}.quantity.{p.quantity}", position=p.position)
    if p.variant:
        name += f" ({t(f'{P}.variant_{p.variant}')})"
    return name


def numbers(example) -> dict[str, str]:
    """Placeholders for the explanations: <printed key>_exact/_rounded/_named/_alt/_recomputed, findings."""
    out: dict[str, str] = {}
    for v in judge_all(example):
        p = v.printed
        if p.quantity in ("relevances", "ideal_vector"):
            continue
        out[f"{p.key}_exact"] = like(p.text, v.exact)
        out[f"{p.key}_rounded"] = v.rounded
        out[f"{p.key}_named"] = like(p.text, v.named_value)
        out[f"{p.key}_alt"] = like(p.text, v.alt_value)
        out[f"{p.key}_recomputed"] = like(p.text, v.recomputed)
    for f in findings(example):
        for key, value in f.values.items():
            out.setdefault(key, num(value) if isinstance(value, float) else
                           (t(f"{P}.items.{value}") if key.startswith("items_") else str(value)))
    return out


def verdict_table(example):
    rows = []
    for v in judge_all(example):
        p = v.printed
        rows.append({
            t(f"{P}.col.number"): quantity_name(p),
            t(f"{P}.col.printed"): p.text,
            t(f"{P}.col.exact"): like(p.text, v.exact) if v.exact is not None else v.values.get("computed", ""),
            t(f"{P}.col.rounded"): v.rounded or "",
            t(f"{P}.col.verdict"): " · ".join(verdict_name(k) for k in v.kinds),
            t(f"{P}.col.explanation"): reason(v, example),
        })
    return rows


def position_rows(example, variant: str):
    table = position_table(example, variant=variant)
    show = {
        "position": t(f"{P}.col.position"),
        "label": t(f"{P}.col.label"),
        "relevance": t(f"{P}.col.relevance"),
        "printed_divisor": t(f"{P}.col.divisor_printed"),
        "divisor": t(f"{P}.col.divisor_exact"),
        "printed_dcg_term": t(f"{P}.col.term_printed"),
        "dcg_term": t(f"{P}.col.term_exact"),
        "dcg_term_verdict": t(f"{P}.col.term_verdict"),
        "ideal_relevance": t(f"{P}.col.ideal_relevance"),
        "printed_idcg_term": t(f"{P}.col.ideal_term_printed"),
        "idcg_term": t(f"{P}.col.ideal_term_exact"),
        "idcg_term_verdict": t(f"{P}.col.ideal_term_verdict"),
    }
    if not any(example.labels or ()):
        show.pop("label")
    out = table[list(show)].copy()
    for col in ("dcg_term_verdict", "idcg_term_verdict"):
        out[col] = [verdict_name(k) if k else "" for k in out[col]]
    for col in ("divisor", "dcg_term", "idcg_term"):
        out[col] = [num(x) if x == x else "" for x in out[col]]
    for col in ("relevance", "ideal_relevance"):
        out[col] = [f"{x:g}" if x == x else "" for x in out[col]]
    return out.rename(columns=show)


def playground_link(example, variant: str, key: str) -> None:
    formula = FORMULAS[variant or example.implied]
    rels = list(example.relevances)
    unretrieved = []
    labels = list(example.labels) if example.labels else None
    if example.pool is not None:
        left = sorted(example.pool, reverse=True)
        for g in rels:
            left.remove(g)
        unretrieved = left
        if example.doc == "004":  # name the ground-truth items left out of the list
            from metrics.lessons.examples import ITEMS_004

            labels = labels + [i for i in ITEMS_004 if i not in example.labels]
            unretrieved = [ITEMS_004[i] for i in ITEMS_004 if i not in example.labels]
    query = playground_query_for(rels, labels=labels, unretrieved=unretrieved, k=example.k,
                                 gain=formula.gain if formula.gain != "binary" else None,
                                 discount=formula.discount, base=formula.log_base,
                                 idcg="judged" if example.pool is not None else "list", lang=lang)
    st.page_link(PLAYGROUND_PAGE, label=t(f"{P}.open_in_playground"), icon=":material/open_in_new:",
                 query_params=query)
    st.page_link(PRESENT_PAGE, label=t("present.open"), icon=":material/slideshow:", help=t("present.open_help"),
                 query_params=present_query_for_example(example.key, variant, lang=lang))
    st.caption(t(f"{P}.playground_note", formula=t(f"{P}.formula.{formula.key}")))


# ---- page -----------------------------------------------------------------------------------------
st.title(t("common.nav.worked_examples"))
st.caption(t(f"{P}.intro"))

# Headline figures, computed: 000's 7.99 / 8.69, 003's 6.86 / 8.37, 002's 0.961.
st.subheader(t(f"{P}.headline"))
h = st.columns(3)
e000, e003, e002 = EXAMPLES["000-graded"], EXAMPLES["003-blog"], EXAMPLES["002-wiki"]
v000 = {k: judge(e000, k) for k in ("dcg", "idcg", "ndcg")}
v003 = {k: judge(e003, k) for k in ("dcg", "idcg", "idcg_term_6")}
v002 = judge(e002, "ndcg")
h[0].metric(t(f"{P}.headline_000"), f"{v000['dcg'].printed.text} / {v000['idcg'].printed.text}",
            t(f"{P}.exact_label", value=f"{num(v000['dcg'].exact)} / {num(v000['idcg'].exact)}"),
            delta_color="off", delta_arrow="off", border=True)
h[0].caption(t(f"{P}.headline_help_000", dcg=num(v000["dcg"].exact), idcg=num(v000["idcg"].exact),
               ndcg=num(v000["ndcg"].exact), ndcg_rounded=v000["ndcg"].rounded))
h[1].metric(t(f"{P}.headline_003"), f"{v003['dcg'].printed.text} / {v003['idcg'].printed.text}",
            t(f"{P}.exact_label", value=f"{num(v003['dcg'].exact)} / {num(v003['idcg'].exact)}"),
            delta_color="off", delta_arrow="off", border=True)
h[1].caption(t(f"{P}.headline_help_003", dcg=num(v003["dcg"].exact), idcg=num(v003["idcg"].exact),
               term=num(v003["idcg_term_6"].exact)))
h[2].metric(t(f"{P}.headline_002"), v002.printed.text, t(f"{P}.exact_label", value=num(v002.exact)),
            delta_color="off", delta_arrow="off", border=True)
h[2].caption(t(f"{P}.headline_help_002", ndcg=num(v002.exact), alt=num(v002.alt_value)))

with st.expander(t(f"{P}.legend")):
    for kind in VERDICTS:
        st.markdown(f"**{verdict_name(kind)}** — {registry_text('verdict', VERDICTS[kind], 'help')}")

tabs = st.tabs([t(f"{P}.document", doc=doc) for doc in DOCUMENTS])
for tab, doc in zip(tabs, DOCUMENTS):
    with tab:
        st.markdown(t(f"{P}.doc.{doc}"))
        st.caption(t(f"{P}.source", source=DOCUMENTS[doc], language=t(f"{P}.lang_{examples_for(doc)[0].lang}")))
        for ex in examples_for(doc):
            key = ex.key
            st.subheader(t(f"{P}.ex.{key}.title"))
            nums = numbers(ex)
            if doc == "004":  # the other system's values, for the comparison in the text
                other = EXAMPLES["004-recsys1" if key == "004-recsys2" else "004-recsys2"]
                ov = {k: v for f in findings(other) for k, v in f.values.items()}
                nums["other_graded"] = num(ov["ndcg_graded"])
                nums["other_code"] = num(ov["ndcg_code"])
            q1, q2 = st.columns(2)
            with q1:
                st.markdown(f"**{t(f'{P}.quote')}**")
                st.markdown("> " + ex.quote)
            with q2:
                if lang != ex.lang:
                    st.markdown(f"**{t(f'{P}.translation')}**")
                    st.markdown("> " + t(f"{P}.ex.{key}.quote"))
                st.markdown(f"**{t(f'{P}.input')}**")
                st.markdown(t(f"{P}.grades", grades=", ".join(f"{g:g}" for g in ex.relevances)))
                if ex.labels:
                    st.markdown(t(f"{P}.labels", labels=", ".join(ex.labels)))
                st.markdown(t(f"{P}.k", k=ex.k) if ex.k else t(f"{P}.k_none"))
                st.markdown(t(f"{P}.idcg_items", items=t(f"{P}.items.{ex.idcg_items.key}")))
            f1, f2 = st.columns(2)
            with f1:
                st.markdown(f"**{t(f'{P}.named_formula')}**")
                named = sorted({p.named for p in ex.printed} | {p.named_ideal for p in ex.printed if p.named_ideal})
                for fk in named:
                    st.latex(FORMULAS[fk].latex())
            with f2:
                st.markdown(f"**{t(f'{P}.implied_formula')}**")
                implied = sorted({p.implied for p in ex.printed})
                for fk in implied:
                    st.latex(FORMULAS[fk].latex())
                if set(named) == set(implied):
                    st.caption(t(f"{P}.same_formula"))

            st.markdown(f"**{t(f'{P}.verdicts')}**")
            rows = verdict_table(ex)
            st.dataframe(rows, hide_index=True, width="stretch", height=fit(len(rows)))
            st.info(t(f"{P}.ex.{key}.explain", **nums), icon=":material/lightbulb:")

            kinds_here = {f.kind for f in findings(ex)}
            if kinds_here:
                st.markdown(f"**{t(f'{P}.findings')}**")
                for f in findings(ex):
                    if f.kind == "text_inconsistency":
                        text = t(f"{P}.ex.{key}.text_inconsistency")
                    else:
                        vals = {k: (num(v) if isinstance(v, float) else
                                    (t(f"{P}.items.{v}") if k.startswith("items_") else str(v)))
                                for k, v in f.values.items()}
                        text = t(f"{P}.finding.{f.kind}", **vals)
                    st.markdown(f"- **{verdict_name(f.kind)}**: {text}")
            if key == "001-main":
                st.markdown(f"**{t(f'{P}.ex.{key}.question')}**")
                st.markdown(t(f"{P}.ex.{key}.answer",
                              jar_a=num(dcg([3, 2], discount="jarvelin")),
                              std_a=num(dcg([3, 2])), std_b=num(dcg([2, 3]))))
            if key == "004-recsys2":
                st.markdown(t(f"{P}.ex.{key}.code", code_1=num(code_004_ndcg(EXAMPLES["004-recsys1"].labels)),
                              **{k: v for k, v in numbers(EXAMPLES["004-recsys1"]).items()
                                 if k in ("dcg_log2", "dcg_ln", "ndcg_log2")}))

            for variant in ex.variants:
                title = (t(f"{P}.positions_variant", variant=t(f"{P}.variant_{variant}")) if variant
                         else t(f"{P}.positions"))
                st.markdown(f"**{title}**")
                prow = position_rows(ex, variant)
                st.dataframe(prow, hide_index=True, width="stretch", height=fit(len(prow)))
                formula = FORMULAS[variant or ex.implied]
                bd = breakdown(list(ex.relevances), k=ex.k, pool=ex.pool, **formula.options)
                st.caption(t(f"{P}.chart"))
                st.altair_chart(discounted_gain_chart(bd, labels=ex.labels, height=220), width="stretch")
                playground_link(ex, variant, key)
            st.divider()
