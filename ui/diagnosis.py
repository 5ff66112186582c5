"""Showing a :class:`metrics.lessons.diagnose.Diagnosis`: the verdict per answer, translated findings and the
side-by-side table.

Shared by Practice, Check my calculation and the classroom, so a sheet gets the same verdict, in the same
words, on every page (:func:`verdict_line`).  Names come from the misconception catalogue
(:data:`metrics.lessons.misconceptions.MISCONCEPTIONS`, translated under ``registry.mistake``), explanations
from ``diagnose.kind.*`` filled with the finding's numbers — "exact" is always the exercise's value, what the
student's own formula gives is said as such; nothing the user typed is rendered as HTML.
"""
from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from metrics.lessons.diagnose import (
    FIELDS,
    MARKS,
    MISTAKES,
    NOTES,
    Diagnosis,
    Finding,
    Verdict,
    written_precision,
)
from metrics.lessons.examples import VERDICTS
from metrics.lessons.misconceptions import MISCONCEPTIONS, SIDE_DISCOUNTS, Calculation, Side
from metrics.registry import DISCOUNTS, GAINS
from ui.escape import markdown
from ui.i18n import join_clauses, join_words, registry_text, t
from ui.numbers import exact, show

BASE_NAMES = {2.0: "log₂", math.e: "ln", 10.0: "log₁₀"}
#: Findings explained one by one; past them, the table lists the rest (a long sheet stays quick to draw).
MAX_EXPLAINED = 30
#: The grades of a student's own ideal order named in a sentence; a longer order ends in "…".
MAX_ORDER_SHOWN = 12
#: What an answer field is called in a verdict, on every page.
FIELD_LABEL = "diagnose.field.{}"


def number(x, places: int = 4) -> str:
    """Display rounding of a diagnosis number; blank for a missing one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    return show(x, places)


def variant_label(dimension: str, value, k=None) -> str:
    """A translated name for one value of one choice of a calculation (gain, discount, log base, cutoff,
    ideal items, ideal order)."""
    if dimension == "gain":
        return registry_text("gain", GAINS[value], "name")
    if dimension == "discount":
        if value in DISCOUNTS:
            return registry_text("discount", DISCOUNTS[value], "name")
        return t(f"diagnose.discount_{value}")
    if dimension == "log_base":
        return BASE_NAMES.get(float(value), f"log_{exact(value)}")
    if dimension == "idcg":
        return t(f"diagnose.source.{value}")
    if dimension == "cut":
        return t("diagnose.cut.on", k="" if k is None else k) if value else t("diagnose.cut.off")
    if isinstance(value, tuple):  # an order of the student's own, read back from their IDCG terms
        shown = [exact(g) for g in value[:MAX_ORDER_SHOWN]]
        return t("diagnose.order.written", grades=join_words(shown + (["…"] if len(value) > MAX_ORDER_SHOWN else [])))
    return t(f"diagnose.order.{value}")


def ranking_label(which: str, ranking, reference, tied=None) -> str:
    """The ranked list's order in words (misconception ``tie_order``): ``which`` is ``"theirs"`` (the writer's
    order of the tied items) or ``"exercise"`` (the tie rule's); only the tied groups whose grades differ are
    named, as 1-based positions and the grades there in that order.  ``tied`` lists the groups (1-based
    positions); without it, the positions where the two orders differ."""
    ranking, reference = list(ranking), list(reference)
    if tied:
        groups = [list(g) for g in tied if any(ranking[p - 1] != reference[p - 1] for p in g)]
    else:
        groups = [[p for p in range(1, len(ranking) + 1) if ranking[p - 1] != reference[p - 1]]]
    order = ranking if which == "theirs" else reference
    parts = [t("diagnose.ranking.group", positions=join_words(str(p) for p in g),
               grades=join_words(exact(order[p - 1]) for p in g)) for g in groups if g]
    return t(f"diagnose.ranking.{which}", groups=join_clauses(parts))


def _side_summary(side: Side, k) -> list[str]:
    parts = [variant_label("gain", side.gain), variant_label("discount", side.discount)]
    if side.discount != "none":
        parts.append(variant_label("log_base", side.log_base))
    if k is not None:
        parts.append(variant_label("cut", side.cut, k))
    return parts


def variant_summary(calc: Calculation, k, grades=None) -> str:
    """A calculation in words: its gain, discount, log base and cutoff (each side, when they differ), the
    ideal ranking's items and order, and (with the ranked ``grades``) tied items put in another order."""
    ideal = [t("diagnose.ideal_from", source=variant_label("idcg", calc.idcg))]
    if calc.ideal_order != "sorted":
        ideal.append(variant_label("ideal_order", calc.ideal_order))
    ranked = []
    if calc.ranking is not None and grades is not None and list(calc.ranking) != list(grades):
        ranked = [ranking_label("theirs", calc.ranking, grades)]
    if calc.dcg == calc.ideal:
        return " · ".join(_side_summary(calc.dcg, k) + ranked + ideal)
    return join_clauses([t("diagnose.dcg_side", summary=" · ".join(_side_summary(calc.dcg, k) + ranked)),
                         t("diagnose.ideal_side", summary=" · ".join(_side_summary(calc.ideal, k) + ideal))])


def side_latex(calc: Calculation, which: str = "dcg") -> tuple:
    """``(gain, discount, log_base)`` of one side, for :func:`metrics.registry.dcg_latex`."""
    side = calc.side(which)
    return side.gain, SIDE_DISCOUNTS[side.discount], side.log_base


def step_label(step: str, position) -> str:
    if position is None or (isinstance(position, float) and math.isnan(position)):
        return t(f"diagnose.step.{step}")
    return t(f"diagnose.step.{step}", position=int(position))


def kind_name(kind: str, side: str | None = None) -> str:
    """A finding's name: a misconception from the catalogue, or a worked-example verdict it shares (carried
    forward, a sum that disagrees with its terms), translated in the registry; with the side it shows on."""
    if kind in MISCONCEPTIONS:
        name = registry_text("mistake", MISCONCEPTIONS[kind], "name")
    else:
        name = registry_text("verdict", VERDICTS[kind], "name")
    if side and MISTAKES[kind].scope == "side":
        return t("diagnose.named_side", name=name, side=t(f"diagnose.side.{side}"))
    return name


def field_label(field_name: str) -> str:
    return t(FIELD_LABEL.format(field_name))


def verdict_line(field_name: str, v: Verdict) -> str:
    """One answer's verdict in words, the same on Practice, Check and the classroom: ``✓ DCG: right``,
    ``✗ DCG terms: wrong — rel used for 2^rel − 1``, ``↪ IDCG: carried forward from IDCG terms``,
    ``… DCG terms: not finished (positions missing)``; notes follow in brackets."""
    text = t(f"diagnose.verdict.{v.state}", mark=v.mark, step=field_label(field_name),
             mistakes=join_clauses(kind_name(k) for k in v.mistakes),
             sources=join_words(field_label(s) if s in FIELDS else t("diagnose.verdict.earlier")
                                for s in v.carried_from) or t("diagnose.verdict.earlier"))
    if v.notes:
        text += t("diagnose.verdict.note", notes=join_clauses(kind_name(k) for k in v.notes))
    return text


def render_verdicts(d: Diagnosis) -> None:
    """One line per answered field, in step order (:func:`verdict_line`)."""
    lines = [f"- {verdict_line(f, v)}" for f, v in d.verdicts.items()]
    if lines:
        st.markdown("\n".join(lines))


def _places(p: dict) -> int:
    return min(10, max(4, int(p.get("scale") or 2) + 2))


def finding_text(f: Finding, d: Diagnosis) -> str:
    """The translated explanation of one finding (what the user wrote is escaped for Markdown)."""
    p = f.params
    row = d.steps[(d.steps["step"] == f.step) & (d.steps["position"].fillna(0) == (f.position or 0))]
    theirs = row["theirs_text"].iloc[0] if len(row) and row["theirs_text"].iloc[0] else number(f.theirs)
    places = _places(p)
    dim = p.get("dimension")
    own = p.get("own")
    # A percent is answered in percent (one form per sentence), except where the finding is about the two forms.
    # (an NDCG above 1 is a percent written without its sign: metrics.lessons.diagnose.rounded_like)
    in_percent = ((str(theirs).strip().endswith("%") or f.theirs > 1)
                  and f.kind not in ("percent_vs_fraction", "ratio_of_rounded") and f.step == "ndcg")

    def value(x) -> str:
        if in_percent and x is not None:
            return number(x * 100, max(0, places - 2)) + "%"
        return number(x, places)

    fmt = {
        "step": step_label(f.step, f.position),
        "theirs": markdown(theirs, 40),
        "expected": value(f.expected),
        "rounded": p.get("rounded", value(f.expected)),
        # what the writer's own numbers give, written the way they wrote theirs (metrics: rounded_like)
        "own": p.get("own_text") or value(own),
        "own_percent": p.get("own_percent") or ("" if own is None else number(own * 100, max(0, places - 2)) + "%"),
        "their_variant": variant_label(dim, p["theirs_variant"], d.k) if dim and "theirs_variant" in p else "",
        "correct_variant": variant_label(dim, p["correct_variant"], d.k) if dim and "correct_variant" in p else "",
        **({"their_variant": ranking_label("theirs", p["theirs_variant"], p["correct_variant"], p.get("tied")),
            "correct_variant": ranking_label("exercise", p["theirs_variant"], p["correct_variant"], p.get("tied"))}
           if dim == "ranking" else {}),
        "k": "" if d.k is None else str(d.k),
        "their_sum": number(p.get("their_sum"), max(2, int(p.get("scale") or 2))),
        "also": t("diagnose.also", positions=join_words(p["also"])) if p.get("also") else "",
        "ratio": number(p.get("ratio"), max(places, 6)),
        "dcg_text": markdown(p.get("dcg_text", ""), 40),
        "idcg_text": markdown(p.get("idcg_text", ""), 40),
        "percent": p.get("percent", ""),
        "source": join_words(field_label(s) for s in p.get("from", [])),
        "neighbour": p.get("neighbour", ""),
        "their_divisor": number(p.get("their_divisor"), 4),
        "divisor": number(p.get("divisor"), 4),
        "past_end": p.get("past_end", ""),
        "decimals": p.get("decimals", ""),
        "asked": p.get("asked", ""),
    }
    kind = f.kind
    entry = MISTAKES[kind]
    if entry.scope in ("side", "ideal", "ranking") and dim:
        key = "diagnose.kind.neighbour.explain" if p.get("form") == "term" else (
            "diagnose.kind.formula.explain_one" if p.get("one_position") else "diagnose.kind.formula.explain")
    elif kind in ("discount_one_early", "discount_one_late") and p.get("form") == "term":
        key = "diagnose.kind.neighbour.explain"
    elif kind == "arithmetic_slip":
        form = "explain_past" if "past_end" in p else ("explain_own" if own is not None else (
            "explain_sum" if p.get("their_sum") is not None else "explain"))
        key = f"diagnose.kind.arithmetic_slip.{form}"
    elif kind == "percent_vs_fraction" and own is not None:
        key = "diagnose.kind.percent_vs_fraction.explain_own"
    else:
        key = f"diagnose.kind.{kind}.explain"
    return t(key, **fmt)


def render_findings(d: Diagnosis, *, verdicts: bool = True) -> None:
    """The diagnosis: all right (with any notes), or the first misconception; the verdict on each answer
    (unless the page shows them already: ``verdicts=False``); every finding in step order, explained."""
    if d.ok:
        st.success(t("diagnose.all_right"))
    else:
        first = d.first
        st.error(t("diagnose.first_wrong", step=step_label(first.step, first.position),
                   kind=kind_name(first.kind, first.params.get("side"))))
    if verdicts:
        render_verdicts(d)
    for i, f in enumerate(d.findings[:MAX_EXPLAINED], start=1):
        st.markdown(t("diagnose.finding_line", i=i, name=kind_name(f.kind, f.params.get("side")),
                      note=t("diagnose.note") if f.kind in NOTES else "", text=finding_text(f, d)))
    if len(d.findings) > MAX_EXPLAINED:  # a sheet of a thousand terms: the table below has every one
        st.caption(t("diagnose.more", count=len(d.findings) - MAX_EXPLAINED))


def steps_frame(d: Diagnosis, *, show_followed: bool | None = None, reveal: bool = True) -> pd.DataFrame:
    """One row per step: what was written, the exercise's value(s), a mark and the finding.

    With ``reveal=False`` (practice) only the steps answered are listed, without the exact values.
    """
    if show_followed is None:
        show_followed = d.followed != d.correct and reveal
    rows = []
    for r in d.steps.itertuples(index=False):
        if not reveal and not r.theirs_text:
            continue
        mark = MARKS[r.state] if r.state else ""
        # what the reader compares first (visible without scrolling on a projector): step, theirs, mark
        row = {
            t("diagnose.col.step"): step_label(r.step, r.position),
            t("diagnose.col.theirs"): r.theirs_text,
            t("diagnose.col.mark"): mark,
        }
        if reveal:  # rounded the way the student wrote theirs (metrics.lessons.diagnose.rounded_like)
            row[t("diagnose.col.correct_rounded")] = r.rounded
        row[t("diagnose.col.finding")] = join_clauses(kind_name(k) for k in r.kinds.split(",") if k)
        if reveal:
            row[t("diagnose.col.correct")] = number(r.correct, 4)
        if show_followed:
            row[t("diagnose.col.followed")] = number(r.followed, 4)
        rows.append(row)
    return pd.DataFrame(rows)


#: The numbers a precision note describes, the student's own, at most this many.
PRECISION_EXAMPLES = 2
#: Said when the student wrote nothing the note can quote.
DEFAULT_PRECISION_EXAMPLES = ("0.92", "83.5%")


def precision_text(value) -> str:
    """What a written number's last digit allows, in the unit it was written in (one sentence for every page:
    :func:`metrics.lessons.diagnose.written_precision`): ``0.92 allows ±0.005 (0.915 to 0.925)``, ``83.5% allows
    ±0.05 percentage points (83.45% to 83.55%), that is ±0.0005 as a fraction``.  The number is escaped."""
    p = written_precision(value)
    fmt = {"value": markdown(p.text, 40), "half": p.half, "lo": p.lo, "hi": p.hi}
    if p.percent:
        return t("diagnose.precision.percent", tolerance=f"{p.tolerance:.{p.decimals + 3}f}", **fmt)
    return t("diagnose.precision.fraction", **fmt)


def precision_note(d: Diagnosis) -> str:
    """The rule "right within half a unit of the last digit", said with the student's own numbers: the totals
    they wrote (NDCG first), else their most precise term (a whole number in a list counts the list's
    decimals, so the term typed with them is quoted); the textbook examples when none is at hand."""
    shown: list = []
    for f in ("ndcg", "dcg", "idcg"):
        row = d.steps[d.steps["step"] == f]
        if len(row) and row["theirs_text"].iloc[0]:
            shown.append(row["theirs_text"].iloc[0])
    terms = d.steps[d.steps["step"].isin(["term", "ideal_term"]) & (d.steps["theirs_text"] != "")]
    if not shown and len(terms):
        shown.append(max(terms["theirs_text"], key=lambda x: written_precision(x).decimals))
    examples = shown[:PRECISION_EXAMPLES] or list(DEFAULT_PRECISION_EXAMPLES)
    return t("diagnose.precision_note", examples=join_clauses(precision_text(x) for x in examples))


def render_steps_table(d: Diagnosis, *, key: str, reveal: bool = True) -> pd.DataFrame:
    """The corrected calculation beside the user's, differing cells marked (colour and ✓/✗/↪); whole on a
    projector beside the sidebar and on a phone (ui/tables.py: one block per step where the columns do not fit)."""
    from ui.tables import VERDICT_CELLS, table

    frame = steps_frame(d, reveal=reveal)
    theirs_col, mark_col = t("diagnose.col.theirs"), t("diagnose.col.mark")
    cell = {MARKS[state]: css for state, css in VERDICT_CELLS.items()}
    marks = pd.DataFrame("", index=frame.index, columns=frame.columns)
    if len(frame):
        for col in (theirs_col, mark_col):
            marks[col] = [cell.get(m, "") for m in frame[mark_col]]
    numeric = [c for c in frame.columns if c not in (t("diagnose.col.step"), t("diagnose.col.finding"), mark_col)]
    table(frame, numeric=numeric, marks=marks, label=t("check.table_header"), test_id=key)
    st.caption(precision_note(d))
    return frame


def render_solution(ex, *, key: str) -> None:
    """The worked solution of an exercise (:class:`metrics.lessons.exercises.Exercise`): the ranked and the
    ideal order, one row per position, the totals — as the Practice page and the classroom show it."""
    sol = ex.solution()
    places = ex.decimals
    order = " › ".join(t("practice.solution_item", label=lab, grade=exact(g))
                       for lab, g in zip(sol["ranked_labels"], sol["ranked_grades"]))
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
                  ndcg=number(sol["ndcg"], places), gain=variant_label("gain", ex.variant.gain)))
