r"""Page logic of the Rating page (document 002): RMSE and MAE with the per-pair errors.

Link parameters (:data:`FIELDS`): ``true`` and ``pred`` (comma-separated ratings, exact), ``pair``
(1-based pair for the what-if chart; absent: the pair with the largest error).
"""
from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from metrics.other.rating import ErrorBeyondFloat, as_ratings, error_sweep
from ui import state as ui_state
from ui.formulas import aligned, sum_lines
from ui.i18n import t
from ui.numbers import show_trimmed as num

__all__ = [
    "PAGE", "FIELDS", "DEFAULT_TRUE", "DEFAULT_PRED", "MAX_PAIRS", "SWEEP_STEPS",
    "K_TRUE", "K_PRED", "K_PAIR", "K_LAST",
    "pair_problem", "consistent", "pick_pair", "pairs_table", "RMSE_DEFINITION", "MAE_DEFINITION", "rmse_latex",
    "mae_latex", "bounds_caption",
    "sweep", "sweep_caption",
]

PAGE = "rating"
DEFAULT_TRUE = (5.0, 3.0, 4.0, 2.0, 1.0)
DEFAULT_PRED = (4.5, 3.5, 4.0, 4.0, 1.0)
MAX_PAIRS = 1000       # rating pairs (each box: at most 32 characters per number)
SWEEP_STEPS = 41

K_TRUE, K_PRED, K_PAIR, K_LAST = "rating_true", "rating_pred", "rating_pair", "rating_last_pairs"


def _never(raw):  # the last consistent pairs are not in links
    raise ui_state.BadValue(str(raw), "invalid", "not a link parameter", message="")


FIELDS = (
    ui_state.Field(K_TRUE, "true", default=DEFAULT_TRUE, parse=ui_state.numbers(max_items=MAX_PAIRS),
            encode=ui_state.list_encoder(","), text=ui_state.list_encoder(", "), label="rating.true_name"),
    ui_state.Field(K_PRED, "pred", default=DEFAULT_PRED, parse=ui_state.numbers(max_items=MAX_PAIRS),
            encode=ui_state.list_encoder(","), text=ui_state.list_encoder(", "), label="rating.pred_name"),
    ui_state.Field(K_PAIR, "pair", default=None, parse=ui_state.optional(ui_state.integer(1, MAX_PAIRS))),
    # the last true/predicted lists that go together (same length, finite errors)
    ui_state.Field(K_LAST, None, default=(DEFAULT_TRUE, DEFAULT_PRED), parse=_never, widget=False),
)


def pair_problem(true, pred) -> str | None:
    """Why two individually valid lists cannot be compared (a translated message), or None.

    >>> pair_problem((1.0, 2.0), (1.0, 2.0)) is None
    True
    """
    if len(true) != len(pred):
        return t("rating.unequal", true=len(true), pred=len(pred))
    try:
        as_ratings(true, pred)
    except ErrorBeyondFloat as exc:
        return t("rating.beyond", pair=exc.pair, true=num(true[exc.pair - 1]), pred=num(pred[exc.pair - 1]))
    return None


def consistent(page, true, pred) -> tuple[tuple, tuple]:
    """The ratings to show: these, or after an error message the last pair of lists that went together."""
    import streamlit as st

    problem = pair_problem(true, pred)
    if problem is None:
        st.session_state[K_LAST] = (tuple(true), tuple(pred))
        return tuple(true), tuple(pred)
    st.error(problem, icon=":material/error:")
    st.caption(t("state.kept_last_valid"))
    return page.value(K_LAST)


def pick_pair(wanted, n: int, abs_errors, *, link: str | None = None) -> tuple[int, ui_state.BadValue | None]:
    """The pair of the what-if chart: ``wanted`` if it exists, else the pair with the largest error
    (and a problem to report when the link just opened, whose ``pair`` text is ``link``, asked for a
    pair beyond the data).

    >>> pick_pair(2, 3, [0, 1, 0], link="2")
    (2, None)
    >>> pair, problem = pick_pair(9, 3, [0, 1, 0], link="09")
    >>> pair, problem.reason, problem.value, problem.fmt
    (2, 'range', '09', {'lo': 1, 'hi': 3})
    """
    if wanted is not None and 1 <= wanted <= n:
        return int(wanted), None
    problem = None
    if link is not None and wanted is not None:
        problem = ui_state.BadValue(link, "range", f"{link[:40]!r} is outside 1 to {n}", lo=1, hi=n)
    return int(np.argmax(np.asarray(abs_errors))) + 1, problem


def _squared_text(row) -> str:
    # a square beyond float64 is shown as the error squared
    return num(row["squared_error"]) if np.isfinite(row["squared_error"]) else f"({num(row['abs_error'])})²"


def pairs_table(table: pd.DataFrame) -> pd.DataFrame:
    """One row per pair: r, r̂, the error, its size and its square (display rounding)."""
    return pd.DataFrame({
        t("rating.pair"): table["pair"],
        "r": table["true"].map(num),
        "r̂": table["predicted"].map(num),
        "r − r̂": table["error"].map(num),
        "|r − r̂|": table["abs_error"].map(num),
        "(r − r̂)²": table.apply(_squared_text, axis=1) if len(table) else [],
    })


RMSE_DEFINITION = "\\sqrt{\\frac{\\sum_{(u,i) \\in Test} (r_{ui} - \\hat{r}_{ui})^2}{|Test|}}"
MAE_DEFINITION = "\\frac{\\sum_{(u,i) \\in Test} |r_{ui} - \\hat{r}_{ui}|}{|Test|}"
DECIMAL_ROW = 3   # terms per formula line (a phone's width)


def rmse_latex(table: pd.DataFrame, tot: dict) -> str:
    """Formula (1) with the squares and their sum; when Σe² is beyond float64, scaled by the largest |e|."""
    n = tot["n"]
    if np.isfinite(tot["sum_squared"]):
        return aligned([f"\\mathrm{{RMSE}} &= {RMSE_DEFINITION}",
                        *sum_lines("\\textstyle\\sum (r - \\hat{r})^2", (num(v) for v in table["squared_error"]),
                                   num(tot["sum_squared"]), per_row=DECIMAL_ROW),
                        f"\\mathrm{{RMSE}} &= \\sqrt{{\\frac{{{num(tot['sum_squared'])}}}{{{n}}}}} = "
                        f"{num(tot['rmse'])}"])
    return aligned([f"\\mathrm{{RMSE}} &= {RMSE_DEFINITION}",
                    "&= M \\sqrt{\\frac{\\sum (e / M)^2}{|Test|}}, \\quad M = \\max |e|",
                    f"&= {num(tot['max_abs'])} \\times \\sqrt{{\\frac{{{num(tot['scaled_sum_squared'])}}}{{{n}}}}}",
                    f"&= {num(tot['rmse'])}"])


def mae_latex(table: pd.DataFrame, tot: dict) -> str:
    """Formula (2) with the sizes and their sum; when Σ|e| is beyond float64, scaled by the largest |e|."""
    n = tot["n"]
    if np.isfinite(tot["sum_abs"]):
        return aligned([f"\\mathrm{{MAE}} &= {MAE_DEFINITION}",
                        *sum_lines("\\textstyle\\sum |r - \\hat{r}|", (num(v) for v in table["abs_error"]),
                                   num(tot["sum_abs"]), per_row=DECIMAL_ROW),
                        f"\\mathrm{{MAE}} &= \\frac{{{num(tot['sum_abs'])}}}{{{n}}} = {num(tot['mae'])}"])
    return aligned([f"\\mathrm{{MAE}} &= {MAE_DEFINITION}",
                    "&= M \\frac{\\sum |e| / M}{|Test|}, \\quad M = \\max |e|",
                    f"&= {num(tot['max_abs'])} \\times \\frac{{{num(tot['scaled_sum_abs'])}}}{{{n}}}",
                    f"&= {num(tot['mae'])}"])


def bounds_caption(tot: dict) -> str:
    """MAE <= RMSE <= sqrt(n) MAE with this data's numbers."""
    return t("rating.bounds", mae=num(tot["mae"]), rmse=num(tot["rmse"]), n=tot["n"])


def sweep(true, pred, pair: int, abs_errors) -> pd.DataFrame:
    """:func:`metrics.other.rating.error_sweep` from 0 to twice the largest error (at least 4), kept
    within float64."""
    top = float(np.max(np.asarray(abs_errors)))
    room = sys.float_info.max - float(abs_errors[pair - 1])
    span = min(max(4.0, 2 * top) if top < sys.float_info.max / 2 else top, room)
    return error_sweep(true, pred, pair=pair, extra=np.linspace(0.0, span, SWEEP_STEPS).tolist())


def sweep_caption(result: pd.DataFrame, pair: int) -> str:
    start, end = result.iloc[0], result.iloc[-1]
    return t("rating.sweep_note", pair=pair, extra=num(end["extra"]), rmse0=num(start["rmse"]),
             rmse1=num(end["rmse"]), mae0=num(start["mae"]), mae1=num(end["mae"]))
