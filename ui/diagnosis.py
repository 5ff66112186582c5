"""Showing a :class:`metrics.lessons.diagnose.Diagnosis`: translated findings and the side-by-side table.

Shared by the Check and Practice pages.  Explanations come from the ``diagnose``
catalogue, one per mistake kind, filled with the finding's numbers; nothing the
user typed is rendered as HTML.
"""
from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from metrics.lessons.diagnose import MISTAKES, NOTES, VARIANT_DIMENSIONS, Diagnosis, Finding, HandVariant
from metrics.lessons.examples import VERDICTS
from metrics.registry import DISCOUNTS, GAINS
from ui.escape import markdown
from ui.i18n import registry_text, t
from ui.numbers import exact, show

BASE_NAMES = {2.0: "log₂", math.e: "ln", 10.0: "log₁₀"}
DIFF_STYLE = "background-color: #fde2e2; color: #7f1d1d"
OK_STYLE = "background-color: #e7f6ec"


def number(x, places: int = 4) -> str:
    """Display rounding of a diagnosis number; blank for a missing one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return show(x, places)


def variant_label(dimension: str, value) -> str:
    """A translated name for one value of one variant dimension."""
    if dimension == "gain":
        return registry_text("gain", GAINS[value], "name")
    if dimension == "discount":
        if value in DISCOUNTS:
            return registry_text("discount", DISCOUNTS[value], "name")
        return t("diagnose.discount_log_i")
    if dimension == "log_base":
        return BASE_NAMES.get(float(value), f"log_{exact(value)}")
    if dimension == "idcg_source":
        return t(f"diagnose.source.{value}")
    if dimension == "k_mode":
        return t(f"diagnose.k_mode.{value}")
    return t(f"diagnose.order.{value}")


def variant_summary(v: HandVariant, k) -> str:
    parts = [variant_label("gain", v.gain), variant_label("discount", v.discount),
             variant_label("log_base", v.log_base),
             t("diagnose.ideal_from", source=variant_label("idcg_source", v.idcg_source))]
    if k is not None:
        parts.append(variant_label("k_mode", v.k_mode))
    if v.ideal_order != "sorted":
        parts.append(variant_label("ideal_order", v.ideal_order))
    return " · ".join(parts)


def step_label(step: str, position) -> str:
    if position is None or (isinstance(position, float) and math.isnan(position)):
        return t(f"diagnose.step.{step}")
    return t(f"diagnose.step.{step}", position=int(position))


def kind_name(kind: str) -> str:
    """The mistake's name: English from :data:`metrics.lessons.diagnose.MISTAKES` (the concepts it shares with
    the worked examples' verdicts from :data:`metrics.lessons.examples.VERDICTS`), translated in the registry."""
    if kind in VERDICTS:
        return registry_text("verdict", VERDICTS[kind], "name")
    return registry_text("mistake", MISTAKES[kind], "name")


def finding_text(f: Finding, d: Diagnosis) -> str:
    """The translated explanation of one finding (what the user wrote is escaped for Markdown)."""
    p = f.params
    dim = next((dim for dim, kind in VARIANT_DIMENSIONS.items() if kind == f.kind), None)
    row = d.steps[(d.steps["step"] == f.step) & (d.steps["position"].fillna(0) == (f.position or 0))]
    theirs = row["theirs_text"].iloc[0] if len(row) and row["theirs_text"].iloc[0] else number(f.theirs)
    scale = p.get("scale") or 4
    fmt = {
        "step": step_label(f.step, f.position),
        "theirs": markdown(theirs, 40),
        "expected": number(f.expected, 4),
        "rounded": p.get("rounded", number(f.expected, 4)),
        "their_variant": variant_label(dim, p["theirs_variant"]) if dim and "theirs_variant" in p else "",
        "correct_variant": variant_label(dim, p["correct_variant"]) if dim and "correct_variant" in p else "",
        "k": "" if d.k is None else str(d.k),
        "their_sum": number(p.get("their_sum"), min(scale, 6)),
        "also": t("diagnose.also", positions=", ".join(str(x) for x in p["also"])) if p.get("also") else "",
        "ratio": number(p.get("ratio"), 6),
        "dcg_text": markdown(p.get("dcg_text", ""), 40),
        "idcg_text": markdown(p.get("idcg_text", ""), 40),
        "percent": p.get("percent", ""),
        "source": ", ".join(step_label(s, pos) for s, pos in p.get("from", [])),
        "neighbour": p.get("neighbour", ""),
        "their_divisor": number(p.get("their_divisor"), 4),
        "divisor": number(p.get("divisor"), 4),
    }
    form = "explain_term" if p.get("form") == "term" else "explain"
    return t(f"diagnose.kind.{f.kind}.{form}", **fmt)


def render_findings(d: Diagnosis) -> None:
    """The verdict: all right (with any notes), or the first wrong step and every finding in step order."""
    if d.ok:
        st.success(t("diagnose.all_right"))
    else:
        first = d.first
        st.error(t("diagnose.first_wrong", step=step_label(first.step, first.position), kind=kind_name(first.kind)))
    for i, f in enumerate(d.findings, start=1):
        note = f" ({t('diagnose.note')})" if f.kind in NOTES else ""
        st.markdown(f"**{i}. {kind_name(f.kind)}**{note} — {finding_text(f, d)}")


def steps_frame(d: Diagnosis, *, show_followed: bool | None = None, reveal: bool = True) -> pd.DataFrame:
    """One row per step: what was written, the exact value(s), a mark and the finding.

    With ``reveal=False`` (practice) only the steps answered are listed, without the exact values.
    """
    if show_followed is None:
        show_followed = d.variant != d.correct and reveal
    rows = []
    for r in d.steps.itertuples(index=False):
        if not reveal and not r.theirs_text:
            continue
        scale = int(r.scale) if r.scale is not None and not (isinstance(r.scale, float) and math.isnan(r.scale)) else 4
        mark = "" if r.ok is None else ("✓" if r.ok else "✗")
        # what the reader compares first (visible without scrolling on a projector): step, theirs, mark
        row = {
            t("diagnose.col.step"): step_label(r.step, r.position),
            t("diagnose.col.theirs"): r.theirs_text,
            t("diagnose.col.mark"): mark,
        }
        if reveal:
            if r.theirs_text.strip().endswith("%"):
                rounded = number(r.correct * 100, max(0, scale - 2)) + "%"
            else:
                rounded = number(r.correct, scale) if r.theirs_text else ""
            row[t("diagnose.col.correct_rounded")] = rounded
        row[t("diagnose.col.finding")] = ", ".join(kind_name(k) for k in r.kinds.split(",") if k)
        if reveal:
            row[t("diagnose.col.correct")] = number(r.correct, 4)
        if show_followed:
            row[t("diagnose.col.followed")] = number(r.followed, 4)
        rows.append(row)
    return pd.DataFrame(rows)


def render_steps_table(d: Diagnosis, *, key: str, reveal: bool = True) -> pd.DataFrame:
    """The corrected calculation beside the user's, differing cells marked (colour and ✓/✗); whole on a
    projector beside the sidebar and on a phone (ui/tables.py: one block per step where the columns do not fit)."""
    from ui.tables import table

    frame = steps_frame(d, reveal=reveal)
    theirs_col, mark_col = t("diagnose.col.theirs"), t("diagnose.col.mark")
    marks = pd.DataFrame("", index=frame.index, columns=frame.columns)
    if len(frame):
        for col in (theirs_col, mark_col):
            marks[col] = ["bad" if m == "✗" else ("ok" if m == "✓" else "") for m in frame[mark_col]]
    numeric = [c for c in frame.columns if c not in (t("diagnose.col.step"), t("diagnose.col.finding"), mark_col)]
    table(frame, numeric=numeric, marks=marks, label=t("check.table_header"), test_id=key)
    return frame


def render_solution(ex, *, key: str) -> None:
    """The worked solution of an exercise (:class:`metrics.lessons.exercises.Exercise`): the ranked and the
    ideal order, one row per position, the totals — as the Practice page and the classroom show it."""
    sol = ex.solution()
    places = ex.decimals
    order = " › ".join(f"{lab} ({exact(g)})" for lab, g in zip(sol["ranked_labels"], sol["ranked_grades"]))
    st.markdown(t("practice.solution_ranked", order=order))
    st.markdown(t("practice.solution_ideal", ideal=", ".join(exact(g) for g in sol["ideal"])))
    bd = sol["breakdown"]
    from ui.tables import table

    solution = pd.DataFrame({
        t("common.position"): [str(int(x)) for x in bd["position"]],
        t("common.relevance"): [number(x, 0) for x in bd["relevance"]],
        t("practice.col.gain"): [number(x, places) for x in bd["gain"]],
        t("practice.col.divisor"): [number(x, places) for x in bd["discount"]],
        t("practice.col.term"): [number(x, places) for x in bd["discounted_gain"]],
        t("practice.col.ideal_grade"): [number(x, 0) for x in bd["ideal_relevance"]],
        t("practice.col.ideal_term"): [number(x, places) for x in bd["ideal_discounted_gain"]],
    })
    table(solution, numeric=list(solution.columns), test_id=f"{key}_solution")
    st.markdown(t("practice.solution_totals", dcg=number(sol["dcg"], places), idcg=number(sol["idcg"], places),
                  ndcg=number(sol["ndcg"], places), gain=variant_label("gain", ex.gain)))
