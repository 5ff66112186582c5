"""Rating prediction (document 002): RMSE and MAE with the per-pair errors, and why RMSE punishes large errors.

Layout and wiring only; every number comes from metrics.other.rating.
URL parameters: ``true`` and ``pred`` (comma-separated ratings), ``pair`` (1-based pair for the what-if chart).
"""
from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from metrics.other.rating import error_shares, error_sweep, errors, totals
from metrics.parse import parse_numbers
from ui.i18n import t
from ui.widgets import error_text, keep_or_restore

DEFAULT_TRUE = "5, 3, 4, 2, 1"
DEFAULT_PRED = "4.5, 3.5, 4, 4, 1"
K_TRUE, K_PRED, K_PAIR = "rating_true", "rating_pred", "rating_pair"
SAVED, LAST = "rating__saved", "rating__last_valid"
SWEEP_STEPS = 41


def fmt(x: float) -> str:
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _exact(x: float) -> str:
    return str(int(x)) if x == int(x) else repr(x)


def _from_link() -> None:
    """First visit: widget values from the link (bad parameters warned about), else defaults."""
    q = st.query_params
    st.session_state[K_TRUE] = q.get("true", DEFAULT_TRUE)
    st.session_state[K_PRED] = q.get("pred", DEFAULT_PRED)
    pair = q.get("pair")
    if pair is not None:
        if pair.isdigit() and int(pair) >= 1:
            st.session_state["rating__want_pair"] = int(pair)
        else:
            st.warning(t("common.bad_param", name="pair", reason=t("rating.bad_pair_reason")))


def _read_input() -> tuple[list[float], list[float]]:
    c1, c2 = st.columns(2)
    with c1:
        text_t = st.text_area(t("rating.true"), key=K_TRUE, help=t("rating.input_help"), height=90)
    with c2:
        text_p = st.text_area(t("rating.pred"), key=K_PRED, help=t("rating.input_help"), height=90)
    problem = None
    try:
        true = parse_numbers(text_t)
    except ValueError as exc:
        problem = t("rating.in_true", message=error_text(exc))
    else:
        try:
            pred = parse_numbers(text_p)
        except ValueError as exc:
            problem = t("rating.in_pred", message=error_text(exc))
        else:
            if len(true) != len(pred):
                problem = t("rating.unequal", true=len(true), pred=len(pred))
    if problem:
        st.error(problem)
        st.caption(t("common.kept_last_valid"))
        if LAST not in st.session_state:
            st.session_state[LAST] = (parse_numbers(DEFAULT_TRUE), parse_numbers(DEFAULT_PRED))
        return st.session_state[LAST]
    st.session_state[LAST] = (true, pred)
    return true, pred


def errors_chart(table: pd.DataFrame) -> alt.Chart:
    abs_name, sq_name = t("rating.abs_error"), t("rating.squared_error")
    long = pd.concat([
        pd.DataFrame({"pair": table["pair"], "kind": abs_name, "value": table["abs_error"], "error": table["error"]}),
        pd.DataFrame({"pair": table["pair"], "kind": sq_name, "value": table["squared_error"], "error": table["error"]}),
    ], ignore_index=True)
    return alt.Chart(long).mark_bar().encode(
        x=alt.X("pair:O", title=t("rating.pair"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("kind:N", sort=[abs_name, sq_name]),
        y=alt.Y("value:Q", title=t("rating.value")),
        color=alt.Color("kind:N", title=None, sort=[abs_name, sq_name], legend=alt.Legend(orient="top"),
                        scale=alt.Scale(range=["#2563eb", "#dc2626"])),
        tooltip=[alt.Tooltip("pair:O", title=t("rating.pair")),
                 alt.Tooltip("error:Q", title=t("rating.error"), format=".4g"),
                 alt.Tooltip("kind:N", title=t("rating.kind")),
                 alt.Tooltip("value:Q", title=t("rating.value"), format=".4g")],
    ).properties(height=260, title=t("rating.errors_title"))


def share_chart(shares: pd.DataFrame) -> alt.Chart:
    """Each pair's share of Σ|e| (MAE) and of Σe² (RMSE²): a big error takes a bigger share of the squares."""
    mae_name, rmse_name = t("rating.share_mae"), t("rating.share_rmse")
    data = pd.concat([
        pd.DataFrame({"metric": mae_name, "pair": shares["pair"], "share": shares["share_abs"]}),
        pd.DataFrame({"metric": rmse_name, "pair": shares["pair"], "share": shares["share_squared"]}),
    ], ignore_index=True)
    return alt.Chart(data).mark_bar().encode(
        y=alt.Y("metric:N", title=None, sort=[mae_name, rmse_name], axis=alt.Axis(labelLimit=320)),
        x=alt.X("share:Q", title=t("rating.share_axis"), axis=alt.Axis(format="%"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("pair:N", title=t("rating.pair"), legend=alt.Legend(orient="top")),
        order=alt.Order("pair:Q"),
        tooltip=[alt.Tooltip("metric:N", title=t("rating.metric")), alt.Tooltip("pair:N", title=t("rating.pair")),
                 alt.Tooltip("share:Q", title=t("rating.share_axis"), format=".1%")],
    ).properties(height=alt.Step(44), title=t("rating.share_title"))


def sweep_chart(sweep: pd.DataFrame) -> alt.Chart:
    long = sweep.melt(id_vars=["extra", "error"], value_vars=["rmse", "mae"], var_name="metric", value_name="value")
    long["metric"] = long["metric"].map({"rmse": "RMSE", "mae": "MAE"})
    return alt.Chart(long).mark_line(point=alt.OverlayMarkDef(size=20)).encode(
        x=alt.X("error:Q", title=t("rating.sweep_x")),
        y=alt.Y("value:Q", title=t("rating.value")),
        color=alt.Color("metric:N", title=None, scale=alt.Scale(domain=["RMSE", "MAE"], range=["#dc2626", "#2563eb"]),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("error:Q", title=t("rating.sweep_x"), format=".3g"),
                 alt.Tooltip("metric:N", title=t("rating.metric")),
                 alt.Tooltip("value:Q", title=t("rating.value"), format=".4f")],
    ).properties(height=280, title=t("rating.sweep_title"))


def main() -> None:
    st.title(t("rating.title"))
    st.markdown(t("rating.intro"))
    keep_or_restore(K_TRUE, SAVED, _from_link)
    true, pred = _read_input()
    table = errors(true, pred)
    tot = totals(true, pred)
    r, m, n = tot["rmse"], tot["mae"], tot["n"]

    c1, c2 = st.columns(2)
    c1.metric("RMSE", fmt(r))
    c2.metric("MAE", fmt(m))

    st.subheader(t("rating.pairs_header"))
    st.dataframe(pd.DataFrame({
        t("rating.pair"): table["pair"],
        "r": table["true"].map(fmt),
        "r̂": table["predicted"].map(fmt),
        "r − r̂": table["error"].map(fmt),
        "|r − r̂|": table["abs_error"].map(fmt),
        "(r − r̂)²": table["squared_error"].map(fmt),
    }), hide_index=True, width="stretch")

    st.subheader(t("rating.steps_header"))
    sq_terms = " + ".join(fmt(v) for v in table["squared_error"])
    abs_terms = " + ".join(fmt(v) for v in table["abs_error"])
    sum_sq, sum_abs = tot["sum_squared"], tot["sum_abs"]
    st.latex("\\mathrm{RMSE} = \\sqrt{\\frac{\\sum_{(u,i) \\in Test} (r_{ui} - \\hat{r}_{ui})^2}{|Test|}} = "
             f"\\sqrt{{\\frac{{{sq_terms}}}{{{n}}}}} = \\sqrt{{\\frac{{{fmt(sum_sq)}}}{{{n}}}}} = {fmt(r)}")
    st.latex("\\mathrm{MAE} = \\frac{\\sum_{(u,i) \\in Test} |r_{ui} - \\hat{r}_{ui}|}{|Test|} = "
             f"\\frac{{{abs_terms}}}{{{n}}} = \\frac{{{fmt(sum_abs)}}}{{{n}}} = {fmt(m)}")
    st.caption(t("rating.bounds", mae=fmt(m), rmse=fmt(r), n=n))

    st.subheader(t("rating.why_header"))
    st.markdown(t("rating.why"))
    st.altair_chart(errors_chart(table), width="stretch", height=300)
    st.altair_chart(share_chart(error_shares(true, pred)), width="stretch")

    wanted = st.session_state.pop("rating__want_pair", None)
    if wanted is not None:
        if wanted <= n:
            st.session_state[K_PAIR] = wanted
        else:
            st.warning(t("common.bad_param", name="pair", reason=t("rating.bad_pair_reason")))
    if K_PAIR not in st.session_state or not 1 <= st.session_state[K_PAIR] <= n:
        st.session_state[K_PAIR] = int(table["abs_error"].idxmax()) + 1
    pair = int(st.number_input(t("rating.sweep_pair"), min_value=1, max_value=n, step=1, key=K_PAIR,
                               help=t("rating.sweep_help")))
    span = max(4.0, 2 * float(table["abs_error"].max()))
    sweep = error_sweep(true, pred, pair=pair, extra=np.linspace(0, span, SWEEP_STEPS).tolist())
    st.altair_chart(sweep_chart(sweep), width="stretch", height=320)
    end = sweep.iloc[-1]
    start = sweep.iloc[0]
    st.caption(t("rating.sweep_note", pair=pair, extra=fmt(span), rmse0=fmt(start["rmse"]), rmse1=fmt(end["rmse"]),
                 mae0=fmt(start["mae"]), mae1=fmt(end["mae"])))

    params = {"true": ",".join(_exact(x) for x in true), "pred": ",".join(_exact(x) for x in pred), "pair": str(pair)}
    st.session_state[SAVED] = {K_TRUE: st.session_state[K_TRUE], K_PRED: st.session_state[K_PRED], K_PAIR: pair}
    for name, value in params.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value
    with st.expander(t("rating.share")):
        st.caption(t("rating.share_help"))
        st.code("rating?" + urlencode(params), language=None)


main()
