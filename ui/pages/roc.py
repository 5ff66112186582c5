r"""Page logic of the ROC & AUC page (document 001): the curve one threshold at a time, AUC two ways.

Link parameters (:data:`FIELDS`): ``scores`` (comma-separated, exact), ``labels`` (0/1,
comma-separated), ``step`` (0 to the number of distinct scores; absent: the whole curve).
"""
from __future__ import annotations

import pandas as pd

from metrics.other.roc import AUC_METHODS, parse_binary_labels
from metrics.parse import ParseError
from ui import state as ui_state
from ui.formulas import aligned, sum_lines
from ui.i18n import registry_text, t
from ui.numbers import show_trimmed as num

__all__ = [
    "PAGE", "FIELDS", "DEFAULT_SCORES", "DEFAULT_LABELS", "MAX_SAMPLES", "MAX_PAIR_GRID",
    "K_SCORES", "K_LABELS", "K_STEP", "K_LAST",
    "parse_labels", "sample_problem", "consistent", "pick_step", "samples_text", "draw_how", "explain",
    "point_latex", "steps_table", "method_name", "method_latex", "area_latex", "rank_loss_latex", "pairs_caption",
]

PAGE = "roc"
DEFAULT_SCORES = (0.9, 0.8, 0.7, 0.6, 0.55, 0.55, 0.5, 0.4, 0.3, 0.2)
DEFAULT_LABELS = (1, 1, 0, 1, 1, 0, 0, 1, 0, 0)
MAX_SAMPLES = 1000      # samples (each box: at most 32 characters per value)
MAX_PAIR_GRID = 900     # (positive, negative) pairs drawn one cell each
MAX_SAMPLES_SHOWN = 12  # sample positions listed in one sentence
DECIMAL_ROW = 3         # terms per formula line (a phone's width)

K_SCORES, K_LABELS, K_STEP, K_LAST = "roc_scores", "roc_labels", "roc_step", "roc_last_samples"


def parse_labels(raw) -> tuple[int, ...]:
    """Typed 0/1 labels; raises :class:`ui.state.BadValue` naming the first bad token.

    >>> parse_labels("1, 0 1")
    (1, 0, 1)
    >>> parse_labels("1 0 2")
    Traceback (most recent call last):
    ui.state.BadValue: '2' at position 3 is not a label; use 0 (negative) or 1 (positive)
    """
    value = str(raw)
    if len(value) > 32 * MAX_SAMPLES:
        raise ui_state.BadValue(value, "too_long", f"text of {len(value)} characters is longer than {32 * MAX_SAMPLES}",
                         n=len(value), max=32 * MAX_SAMPLES)
    try:
        labels = tuple(parse_binary_labels(value))
    except ParseError as exc:
        reason = "roc.reason.not_a_label" if exc.kind == "not_a_label" else f"parse_{exc.kind}"
        raise ui_state.BadValue(value, reason, str(exc), token=exc.token, position=exc.position) from None
    except ValueError as exc:  # nothing typed
        raise ui_state.BadValue(value, "empty", str(exc)) from None
    if len(labels) > MAX_SAMPLES:
        raise ui_state.BadValue(value, "too_many", f"{len(labels)} values; at most {MAX_SAMPLES} are accepted",
                         n=len(labels), max=MAX_SAMPLES)
    return labels


parse_labels.allowed = ("labels", {"max": MAX_SAMPLES})


def _never(raw):  # the last consistent samples are not in links
    raise ui_state.BadValue(str(raw), "invalid", "not a link parameter", message="")


def _ints(values) -> str:
    return ",".join(str(int(v)) for v in values)


FIELDS = (
    ui_state.Field(K_SCORES, "scores", default=DEFAULT_SCORES, parse=ui_state.numbers(max_items=MAX_SAMPLES),
            encode=ui_state.list_encoder(","), text=ui_state.list_encoder(", "), label="roc.scores_name"),
    ui_state.Field(K_LABELS, "labels", default=DEFAULT_LABELS, parse=parse_labels, encode=_ints,
            text=lambda v: ", ".join(str(int(x)) for x in v), label="roc.labels_name"),
    ui_state.Field(K_STEP, "step", default=None, parse=ui_state.optional(ui_state.integer(0, MAX_SAMPLES))),
    # the last scores/labels that go together (same length, both classes present)
    ui_state.Field(K_LAST, None, default=(DEFAULT_SCORES, DEFAULT_LABELS), parse=_never, widget=False),
)


def sample_problem(scores, labels) -> str | None:
    """Why valid scores and labels cannot make a curve (a translated message), or None.

    >>> sample_problem((0.9, 0.1), (1, 0)) is None
    True
    """
    if len(scores) != len(labels):
        return t("roc.unequal", scores=len(scores), labels=len(labels))
    if len(set(labels)) < 2:
        return t("roc.one_class", missing=t("roc.positive") if 0 in labels else t("roc.negative"))
    return None


def consistent(page, scores, labels) -> tuple[tuple, tuple]:
    """The samples to show: these, or after an error message the last scores and labels that went together."""
    import streamlit as st

    problem = sample_problem(scores, labels)
    if problem is None:
        st.session_state[K_LAST] = (tuple(scores), tuple(labels))
        return tuple(scores), tuple(labels)
    st.error(problem, icon=":material/error:")
    st.caption(t("state.kept_last_valid"))
    return page.value(K_LAST)


def pick_step(wanted, last: int, *, link: str | None = None) -> tuple[int, ui_state.BadValue | None]:
    """The step shown: ``wanted`` if the curve has it, else the last (and a problem to report when the
    link just opened, whose ``step`` text is ``link``, asked for a step beyond the curve).

    >>> pick_step(3, 8, link="3")
    (3, None)
    >>> step, problem = pick_step(12, 8, link="12")
    >>> step, problem.reason, problem.value, problem.fmt
    (8, 'range', '12', {'lo': 0, 'hi': 8})
    """
    if wanted is not None and 0 <= wanted <= last:
        return int(wanted), None
    problem = None
    if link is not None and wanted is not None:
        problem = ui_state.BadValue(link, "range", f"{link[:40]!r} is outside 0 to {last}", lo=0, hi=last)
    return last, problem


def samples_text(samples, limit: int = MAX_SAMPLES_SHOWN) -> str:
    """Sample positions for a sentence or a table cell, shortened.

    >>> samples_text([1, 2, 3]), samples_text(list(range(1, 30)), limit=3)
    ('1, 2, 3', '1, 2, 3, … (29)')
    """
    text = ", ".join(str(s) for s in samples[:limit])
    return text + (f", … ({len(samples)})" if len(samples) > limit else "")


def draw_how(labels) -> str:
    """How the staircase is drawn, with this data's step sizes 1/m⁺ and 1/m⁻."""
    m_pos = sum(labels)
    m_neg = len(labels) - m_pos
    return t("roc.draw_how", m_pos=m_pos, m_neg=m_neg, up=num(1 / m_pos), right=num(1 / m_neg))


def explain(row) -> str:
    """What happens at one step of :func:`metrics.other.roc.roc_steps`."""
    if row["move"] == "start":
        return t("roc.explain_start")
    return t(f"roc.explain_{row['move']}", threshold=num(row["threshold"]), samples=samples_text(row["samples"]),
             pos=int(row["new_pos"]), neg=int(row["new_neg"]), tp=int(row["tp"]), fp=int(row["fp"]),
             tpr=num(row["tpr"]), fpr=num(row["fpr"]), area=num(row["area"]))


def point_latex(row, m_pos: int, m_neg: int) -> str:
    """(FPR, TPR) of one step as fractions of the class sizes (three short lines: a narrow column)."""
    return aligned(["&(\\mathrm{FPR}, \\mathrm{TPR})",
                    f"&= \\left(\\frac{{{int(row['fp'])}}}{{{m_neg}}}, \\frac{{{int(row['tp'])}}}{{{m_pos}}}\\right)",
                    f"&= ({num(row['fpr'])}, {num(row['tpr'])})"])


def steps_table(steps: pd.DataFrame, upto: int) -> pd.DataFrame:
    """Steps 0 to ``upto`` as a table (display rounding)."""
    from ui.charts.other import threshold_text

    part = steps.iloc[: upto + 1]
    return pd.DataFrame({
        t("roc.step"): part["step"],
        t("roc.threshold"): part["threshold"].map(threshold_text),
        t("roc.samples"): part["samples"].map(samples_text),
        t("roc.new_pos"): part["new_pos"],
        t("roc.new_neg"): part["new_neg"],
        "TP": part["tp"], "FP": part["fp"],
        "TPR": part["tpr"].map(num), "FPR": part["fpr"].map(num),
        t("roc.move"): part["move"].map(lambda m: t(f"roc.move_{m}")),
        t("roc.area"): part["area"].map(num),
    })


def steps_numeric() -> list[str]:
    """The number columns of :func:`steps_table` (right-aligned, never wrapped, in :func:`ui.tables.table`)."""
    return [t("roc.step"), t("roc.threshold"), t("roc.new_pos"), t("roc.new_neg"), "TP", "FP", "TPR", "FPR",
            t("roc.area")]


def method_name(key: str) -> str:
    """The translated name of an AUC method (:data:`metrics.other.roc.AUC_METHODS`)."""
    return registry_text("auc_method", AUC_METHODS[key], "name")


def method_latex(key: str) -> str:
    """An AUC method's formula from the registry, with the thin space :func:`ui.formulas.aligned` adds."""
    return AUC_METHODS[key].latex + "\\;"


def area_latex(steps: pd.DataFrame, value: float) -> str:
    """AUC as the sum of the trapezoids the moves right (and diagonals) add."""
    moves = steps[steps["area"] > 0]
    return aligned(sum_lines("\\mathrm{AUC}", (num(a) for a in moves["area"]), num(value), per_row=DECIMAL_ROW))


def rank_loss_latex(counts: dict, loss: float, value: float) -> str:
    """ℓ_rank from the pair counts and AUC = 1 − ℓ_rank."""
    return aligned([f"\\ell_{{rank}} &= \\frac{{{counts['wrong']} + \\frac{{1}}{{2}} \\times {counts['ties']}}}"
                    f"{{{counts['positives']} \\times {counts['negatives']}}} = {num(loss)}",
                    f"\\mathrm{{AUC}} &= 1 - {num(loss)} = {num(value)}"])


def pairs_caption(counts: dict) -> str:
    return t("roc.pairs_note", correct=counts["correct"], wrong=counts["wrong"], ties=counts["ties"],
             pairs=counts["pairs"])
