r"""Is the difference real?  The significance section of the Run files page and its step-by-step lesson.

Three entry points for a page (layout only; every number comes from :mod:`metrics.significance`, the
charts from :mod:`ui.charts.significance`, every string from the ``significance`` catalogue):

* :func:`significance_section` — for several systems scored per query (a wide frame: one row per query,
  one column per system): the test (t / Wilcoxon / randomization), the confidence level, the correction
  (Holm / Bonferroni / none) and the bootstrap interval as widgets; for every pair the mean difference,
  its interval, the p-value corrected for the number of comparisons and a sentence in plain words; for a
  chosen pair the per-query differences sorted and the null distribution with the observation marked;
  every interval as a line.
* :func:`winner_significance` — for the "does the winner change across variants" table: is each
  variant's winner significantly better than every other system (same settings as the section)?
* :func:`teaching_section` — ten queries, two systems (:data:`metrics.significance.TEACHING_EXAMPLE`):
  differences → mean → sd → t → p; signs → ranks → W; relabellings → p; resamples → interval, each formula
  with the numbers put in.

State: the section's widgets are :mod:`ui.state` fields.  A page that uses :class:`ui.state.PageState`
adds :func:`significance_fields` to its own ``FIELDS`` (then the choices survive page switches and ride
in links as ``sig_test``, ``sig_conf``, ``sig_corr``, ``sig_ci``); without it the widgets still work,
starting from the defaults.

Heavy work is cached (``st.cache_data``): 10 systems × 10,000 queries take a few seconds once.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import streamlit as st

from metrics.significance import (
    BOOTSTRAP_METHODS,
    CORRECTIONS,
    TEACHING_EXAMPLE,
    TESTS,
    all_pairs,
    bootstrap_ci,
    paired_t,
    randomization,
    wilcoxon,
    winners,
)
from ui import state as ui_state
from ui.charts.significance import ci_chart, differences_chart, differences_data, null_chart
from ui.escape import katex_text, markdown
from ui.formulas import aligned, sum_lines
from ui.i18n import t
from ui.numbers import for_table, show, show_trimmed
from ui.widgets import option_widget

SECTION = "significance"
CONFIDENCES = ("90", "95", "99")  # percent, as the widget shows them
N_RESAMPLES = 10_000
SEED = 0
MAX_CHART_PAIRS = 45  # intervals drawn (10 systems); the table always has every pair
DEFAULTS = {"test": "randomization", "conf": "95", "corr": "holm", "ci": "percentile", "pair": 0}

#: The section's settings that are a choice, and their choices.
_CHOICES = {"test": TESTS, "conf": CONFIDENCES, "corr": CORRECTIONS, "ci": BOOTSTRAP_METHODS}

__all__ = ["significance_fields", "significance_section", "winner_significance", "teaching_section",
           "CONFIDENCES", "N_RESAMPLES", "SEED"]


# ------------------------------------------------------------------------------------------ state

def significance_fields(key_prefix: str = "rf_sig", *, param_prefix: str = "sig_") -> tuple[ui_state.Field, ...]:
    """The section's settings as :mod:`ui.state` fields (add them to the page's ``FIELDS``).

    >>> [f.param for f in significance_fields("rf_sig")]
    ['sig_test', 'sig_conf', 'sig_corr', 'sig_ci', None]
    >>> [f.key for f in significance_fields("x")][:2]
    ['x_test', 'x_conf']
    """
    return (
        *(ui_state.Field(f"{key_prefix}_{name}", f"{param_prefix}{name}", default=DEFAULTS[name],
                         parse=ui_state.choice(allowed)) for name, allowed in _CHOICES.items()),
        ui_state.Field(f"{key_prefix}_pair", None, default=DEFAULTS["pair"], parse=ui_state.integer(0, 1_000_000)),
    )


def _setting(key_prefix: str, name: str):
    value = st.session_state.get(f"{key_prefix}_{name}", DEFAULTS[name])
    allowed = _CHOICES.get(name)
    return value if allowed is None or value in allowed else DEFAULTS[name]


def _init(key: str, value, allowed=None) -> None:
    """Give a widget key its default before the widget is drawn (never together with ``index=``)."""
    if key not in st.session_state or (allowed is not None and st.session_state[key] not in allowed):
        st.session_state[key] = value


def _settings(key_prefix: str) -> dict:
    return {
        "test": _setting(key_prefix, "test"),
        "confidence": int(_setting(key_prefix, "conf")) / 100,
        "correction": _setting(key_prefix, "corr"),
        "bootstrap": _setting(key_prefix, "ci"),
    }


# ------------------------------------------------------------------------------------------ data

def _complete(per_query: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The queries every system has a finite value for (paired tests need both), and how many were left out."""
    frame = per_query.apply(pd.to_numeric, errors="coerce")
    keep = np.isfinite(frame.to_numpy(dtype=float, na_value=np.nan)).all(axis=1)
    return frame.loc[keep], int((~keep).sum())


@st.cache_data(max_entries=32, show_spinner=False)
def _pairs(frame: pd.DataFrame, test: str, confidence: float, correction: str, bootstrap: str) -> pd.DataFrame:
    return all_pairs(frame, test=test, confidence=confidence, correction=correction, n_resamples=N_RESAMPLES,
                     seed=SEED, bootstrap=bootstrap)


@st.cache_data(max_entries=32, show_spinner=False)
def _detail(a: np.ndarray, b: np.ndarray, test: str):
    if test == "t":
        return paired_t(a, b)
    if test == "wilcoxon":
        return wilcoxon(a, b)
    return randomization(a, b, n_resamples=N_RESAMPLES, seed=SEED)


@st.cache_data(max_entries=32, show_spinner=False)
def _winners(frames: dict, test: str, confidence: float, correction: str, bootstrap: str) -> pd.DataFrame:
    return winners(frames, test=test, confidence=confidence, correction=correction, n_resamples=N_RESAMPLES,
                   seed=SEED, bootstrap=bootstrap, intervals=False)  # the column shows p, not intervals


# ------------------------------------------------------------------------------------------ words

def _pct(p: float) -> str:
    return t(f"{SECTION}.percent", value=show(100 * p, 2))


def _names(options, prefix: str) -> dict[str, str]:
    # Looked up now, in the current language (a lazy format_func would be re-run by AppTest in English).
    return {o: t(f"{SECTION}.{prefix}_{o}") for o in options}


def _pair_sentence(row, *, test: str, alpha: float, m: int, correction: str) -> str:
    """One pair in plain words: who beats whom on how many queries, how often chance does as well."""
    a, b = markdown(row.system_a, 60), markdown(row.system_b, 60)
    if row.wins_a == 0 and row.wins_b == 0:
        return t(f"{SECTION}.sentence_identical", a=a, b=b, n=f"{int(row.n):,}")
    if row.better is None or (isinstance(row.better, float) and np.isnan(row.better)):
        head = t(f"{SECTION}.sentence_level", a=a, b=b, wins_a=f"{int(row.wins_a):,}", wins_b=f"{int(row.wins_b):,}",
                 n=f"{int(row.n):,}")
    else:
        first = row.better == row.system_a
        head = t(f"{SECTION}.sentence_beats", winner=a if first else b, loser=b if first else a,
                 wins=f"{int(row.wins_a if first else row.wins_b):,}", n=f"{int(row.n):,}", ties=f"{int(row.ties):,}",
                 diff=show(abs(row.mean_difference), 4))
    if test == "randomization" and row.method != "exact" and row.n_extreme == 0:
        chance = t(f"{SECTION}.sentence_chance_none", r=f"{int(row.n_resamples):,}", p=show(row.p_value, 6))
    elif test == "randomization":
        key = "sentence_chance_exact" if row.method == "exact" else "sentence_chance_mc"
        chance = t(f"{SECTION}.{key}", pct=_pct(row.p_value), r=f"{int(row.n_resamples):,}")
    elif test == "t":
        chance = t(f"{SECTION}.sentence_chance_t", pct=_pct(row.p_value))
    else:
        chance = t(f"{SECTION}.sentence_chance_wilcoxon", pct=_pct(row.p_value))
    verdict_key = "sentence_significant" if row.significant else "sentence_not_significant"
    if correction == "none" or m == 1:
        after = t(f"{SECTION}.{verdict_key}", alpha=show(alpha, 2), p=show(row.p_corrected, 4))
    else:
        after = t(f"{SECTION}.sentence_join").join(
            [
                t(
                    f"{SECTION}.sentence_corrected",
                    correction=t(f"{SECTION}.corr_{correction}"),
                    m=m,
                    p=show(row.p_corrected, 4),
                ),
                t(f"{SECTION}.{verdict_key}", alpha=show(alpha, 2), p=show(row.p_corrected, 4)),
            ]
        )
    return t(f"{SECTION}.sentence_join").join([head, chance, after])


def _pair_label(row) -> str:
    return t(f"{SECTION}.pair_label", a=row.system_a, b=row.system_b)


# ------------------------------------------------------------------------------------------ the section

def significance_section(per_query: pd.DataFrame, *, measure_name: str, key_prefix: str = "rf_sig") -> None:
    """Draw the significance section for per-query scores of several systems.

    Parameters
    ----------
    per_query : pandas.DataFrame
        One row per query (the index names the queries), one column per system; queries where some
        system has no value are left out (with a note): paired tests need both scores.
    measure_name : str
        What the scores are, e.g. ``"NDCG@10 (linear, standard, judged, trec_eval)"``; shown as given.
    key_prefix : str
        Prefix of every widget key (``<prefix>_test``, ``_conf``, ``_corr``, ``_ci``, ``_pair``).
    """
    st.subheader(t(f"{SECTION}.title"))
    st.caption(t(f"{SECTION}.intro", measure=markdown(measure_name, 120)))
    if not isinstance(per_query, pd.DataFrame) or per_query.shape[1] < 2:
        st.info(t(f"{SECTION}.need_two_systems"))
        return
    frame, dropped = _complete(per_query)
    if dropped:
        st.caption(t(f"{SECTION}.dropped", dropped=dropped, total=len(per_query)))
    if len(frame) < 2:
        st.info(t(f"{SECTION}.need_two_queries"))
        return

    test_names, corr_names = _names(TESTS, "test"), _names(CORRECTIONS, "corr")
    ci_names = _names(BOOTSTRAP_METHODS, "ci")
    conf_names = {c: t(f"{SECTION}.percent", value=c) for c in CONFIDENCES}
    keys = {name: f"{key_prefix}_{name}" for name in ("test", "conf", "corr", "ci", "pair")}
    _init(keys["test"], DEFAULTS["test"], TESTS)
    _init(keys["conf"], DEFAULTS["conf"], CONFIDENCES)
    _init(keys["corr"], DEFAULTS["corr"], CORRECTIONS)
    _init(keys["ci"], DEFAULTS["ci"], BOOTSTRAP_METHODS)
    # two by two: four side by side are cut off at a projector's 1024x768 with the sidebar open
    c1, c2 = st.columns(2)
    c3, c4 = st.columns(2)
    test = option_widget(c1.selectbox, t(f"{SECTION}.test"), list(TESTS), key=keys["test"],
                         format_func=test_names.__getitem__, help=t(f"{SECTION}.test_help"))
    conf = option_widget(c2.selectbox, t(f"{SECTION}.confidence"), list(CONFIDENCES), key=keys["conf"],
                         format_func=conf_names.__getitem__, help=t(f"{SECTION}.confidence_help"))
    correction = option_widget(c3.selectbox, t(f"{SECTION}.correction"), list(CORRECTIONS), key=keys["corr"],
                               format_func=corr_names.__getitem__, help=t(f"{SECTION}.correction_help"))
    interval = option_widget(c4.selectbox, t(f"{SECTION}.interval"), list(BOOTSTRAP_METHODS), key=keys["ci"],
                             format_func=ci_names.__getitem__, help=t(f"{SECTION}.interval_help"))
    confidence = int(conf) / 100
    alpha = round(1 - confidence, 12)

    with st.spinner(t(f"{SECTION}.computing")):
        try:
            table = _pairs(frame, test, confidence, correction, interval)
        except ValueError as exc:
            st.error(t(f"{SECTION}.bad_data", message=markdown(str(exc), 300)))
            return
    m = len(table)
    labels = [_pair_label(row) for row in table.itertuples()]
    shown = pd.DataFrame(
        {
            t(f"{SECTION}.col_pair"): labels,
            t(f"{SECTION}.col_mean_a"): table["mean_a"],
            t(f"{SECTION}.col_mean_b"): table["mean_b"],
            t(f"{SECTION}.col_difference"): table["mean_difference"],
            t(f"{SECTION}.col_ci"): [
                f"[{show(lo, 4)}, {show(hi, 4)}]" for lo, hi in zip(table["ci_low"], table["ci_high"])
            ],
            t(f"{SECTION}.col_p"): table["p_value"],
            t(f"{SECTION}.col_p_corrected"): table["p_corrected"],
            t(f"{SECTION}.col_significant"): np.where(table["significant"], "✓", "–"),
            t(f"{SECTION}.col_wins"): [
                f"{int(x)} / {int(y)} / {int(z)}" for x, y, z in zip(table["wins_a"], table["wins_b"], table["ties"])
            ],
            t(f"{SECTION}.col_dz"): table["d_z"],
        }
    )
    number = st.column_config.NumberColumn
    st.dataframe(for_table(shown), hide_index=True, width="stretch", column_config={
        t(f"{SECTION}.col_mean_a"): number(format="%.4f"), t(f"{SECTION}.col_mean_b"): number(format="%.4f"),
        t(f"{SECTION}.col_difference"): number(format="%.4f", help=t(f"{SECTION}.col_difference_help")),
        t(f"{SECTION}.col_ci"): st.column_config.TextColumn(help=t(f"{SECTION}.col_ci_help", conf=conf_names[conf],
                                                             method=ci_names[interval])),
        t(f"{SECTION}.col_p"): number(format="%.4f", help=t(f"{SECTION}.col_p_help", test=test_names[test])),
        t(f"{SECTION}.col_p_corrected"): number(format="%.4f", help=t(f"{SECTION}.col_p_corrected_help",
                                                                correction=corr_names[correction], m=m)),
        t(f"{SECTION}.col_wins"): st.column_config.TextColumn(help=t(f"{SECTION}.col_wins_help")),
        t(f"{SECTION}.col_dz"): number(format="%.2f", help=t(f"{SECTION}.col_dz_help")),
    })
    st.caption(_method_caption(table, test, correction, m, alpha, conf_names[conf], ci_names[interval]))

    shown_pairs = min(m, MAX_CHART_PAIRS)
    st.altair_chart(
        ci_chart(
            table.iloc[:shown_pairs],
            pair_labels=labels[:shown_pairs],
            x_title=t(f"{SECTION}.axis_difference"),
            significant_label=t(f"{SECTION}.significant"),
            not_significant_label=t(f"{SECTION}.not_significant"),
            legend_title=t(f"{SECTION}.legend_verdict"),
            pair_title=t(f"{SECTION}.col_pair"),
            low_title=t(f"{SECTION}.ci_low"),
            high_title=t(f"{SECTION}.ci_high"),
        ),
        width="stretch",
    )
    if shown_pairs < m:
        st.caption(t(f"{SECTION}.chart_pairs_cut", shown=shown_pairs, m=m))

    if m > 1:
        with st.expander(t(f"{SECTION}.all_sentences"), expanded=m <= 3):
            st.markdown("\n".join(f"- {_pair_sentence(row, test=test, alpha=alpha, m=m, correction=correction)}"
                                  for row in table.itertuples()))

    # ---- one pair in detail
    _init(keys["pair"], 0, range(m))
    index = option_widget(st.selectbox, t(f"{SECTION}.choose_pair"), list(range(m)), key=keys["pair"],
                          format_func=labels.__getitem__)
    row = next(table.iloc[[index]].itertuples())
    st.markdown(_pair_sentence(row, test=test, alpha=alpha, m=m, correction=correction))
    a, b = frame[row.system_a].to_numpy(dtype=float), frame[row.system_b].to_numpy(dtype=float)
    detail = _detail(a, b, test)
    # one chart under the other: side by side beside a projector's sidebar each had 274 px, and their legends
    # ("at least as extreme as observed", "dense.run higher  tie") ran past the chart's right edge
    left = right = st.container()
    a_wins = t(f"{SECTION}.wins_of", name=row.system_a)
    b_wins = t(f"{SECTION}.wins_of", name=row.system_b)
    data = differences_data(frame.index.astype(str), detail.differences, a_wins=a_wins, b_wins=b_wins,
                            tie=t(f"{SECTION}.tie"))
    left.markdown(f"**{t(f'{SECTION}.differences_title')}**")
    left.altair_chart(differences_chart(data, x_title=t(f"{SECTION}.axis_rank"),
                                        y_title=t(f"{SECTION}.axis_pair_difference", a=row.system_a, b=row.system_b),
                                        query_title=t(f"{SECTION}.query"), winner_title=t(f"{SECTION}.legend_winner"),
                                        a_wins=a_wins, b_wins=b_wins, tie=t(f"{SECTION}.tie")), width="stretch")
    if len(data) < len(frame):
        left.caption(t(f"{SECTION}.differences_sampled", shown=len(data), n=len(frame)))
    right.markdown(f"**{t(f'{SECTION}.null_title_{test}')}**")
    right.altair_chart(_null(detail.null_distribution(), test), width="stretch")
    right.caption(t(f"{SECTION}.null_help_{test}"))


def _null(nd, test: str):
    """A test's null distribution, the observed statistic marked."""
    return _null_chart(nd, f"axis_null_{test}", "axis_probability" if nd.kind == "bars" else "axis_density",
                       "as_extreme", "less_extreme", "legend_null", "observed")


def _null_chart(nd, x: str, y: str, extreme: str, other: str, legend: str, observed: str):
    """:func:`ui.charts.significance.null_chart` with its words, given as this section's catalogue keys."""
    return null_chart(nd, **{name: t(f"{SECTION}.{key}") for name, key in (
        ("x_title", x), ("y_title", y), ("extreme_label", extreme), ("other_label", other),
        ("legend_title", legend), ("observed_title", observed))})


def _method_caption(table, test, correction, m, alpha, conf_text, interval_text) -> str:
    if test == "randomization":
        used = int(table["n_resamples"].iloc[0])
        how = t(f"{SECTION}.method_exact" if table["method"].iloc[0] == "exact" else f"{SECTION}.method_mc",
                r=f"{used:,}", seed=SEED)
    elif test == "t":
        how = t(f"{SECTION}.method_t")
    else:
        how = t(f"{SECTION}.method_wilcoxon")
    corr = t(f"{SECTION}.method_none") if correction == "none" else t(f"{SECTION}.method_corr", m=m,
                                                                 correction=t(f"{SECTION}.corr_{correction}"))
    ci = t(f"{SECTION}.method_ci", conf=conf_text, method=interval_text, r=f"{N_RESAMPLES:,}", alpha=show(alpha, 2))
    return t(f"{SECTION}.sentence_join").join([how, corr, ci])


# ------------------------------------------------------------------------------------------ winners

def winner_significance(per_query: Mapping[str, pd.DataFrame], *, key_prefix: str = "rf_sig") -> pd.DataFrame:
    """Is each variant's winner significantly better than every other system?

    ``per_query`` maps each variant (label) to its wide frame (:meth:`Evaluation.paired`); the test,
    confidence and correction are the section's current settings (``key_prefix``), so the column agrees
    with the section below it.  Returns one row per variant: ``variant``, ``winner``, ``significant``,
    ``p_corrected`` (against the closest rival), ``closest`` and ``text`` (e.g. ``"✓ p = 0.0021 vs B"``,
    for a table column headed :func:`winner_significance_title`).  Variants with fewer than two systems
    or two complete queries get ``significant`` False and a text saying why.
    """
    s = _settings(key_prefix)
    frames, skipped = {}, {}
    for name, frame in per_query.items():
        complete, _ = _complete(frame) if isinstance(frame, pd.DataFrame) else (pd.DataFrame(), 0)
        if complete.shape[1] < 2 or len(complete) < 2:
            skipped[name] = t(f"{SECTION}.winner_untestable")
        else:
            frames[name] = complete
    rows = {}
    if frames:
        try:
            table = _winners(frames, s["test"], s["confidence"], s["correction"], s["bootstrap"])
        except ValueError as exc:
            table = pd.DataFrame()
            skipped.update({name: t(f"{SECTION}.bad_data", message=markdown(str(exc), 200)) for name in frames})
        for r in table.itertuples():
            mark = "✓" if r.significant else "✗"
            rows[r.variant] = {
                "variant": r.variant,
                "winner": r.winner,
                "significant": bool(r.significant),
                "p_corrected": float(r.p_corrected),
                "closest": r.closest,
                "text": t(f"{SECTION}.winner_text", mark=mark, p=show(r.p_corrected, 4), rival=r.closest),
            }
    for name, why in skipped.items():
        rows[name] = {"variant": name, "winner": None, "significant": False, "p_corrected": np.nan,
                      "closest": None, "text": why}
    return pd.DataFrame([rows[name] for name in per_query],
                        columns=["variant", "winner", "significant", "p_corrected", "closest", "text"])


def winner_significance_title(*, key_prefix: str = "rf_sig") -> str:
    """Header of the winner-significance column, naming the test and the level in use."""
    s = _settings(key_prefix)
    return t(
        f"{SECTION}.winner_column", test=t(f"{SECTION}.test_{s['test']}"), alpha=show(round(1 - s["confidence"], 12), 2)
    )


# ------------------------------------------------------------------------------------------ the lesson

def _num(x, digits: int = 4) -> str:
    return show(x, digits)


def teaching_section(*, key_prefix: str = "rf_teach", expanded: bool = False) -> None:
    """The ten-query lesson, step by step, inside an expander (numbers from :mod:`metrics.significance`)."""
    ex = TEACHING_EXAMPLE
    a, b = np.array(ex.a), np.array(ex.b)
    tt = paired_t(a, b)
    w = wilcoxon(a, b)
    r = randomization(a, b, n_resamples=N_RESAMPLES, seed=SEED)
    boot = bootstrap_ci(a, b, n_resamples=N_RESAMPLES, seed=SEED)
    n = tt.n
    with st.expander(t(f"{SECTION}.teach_title"), expanded=expanded):
        st.markdown(t(f"{SECTION}.teach_intro", measure=ex.measure, n=n))
        st.caption(t(f"{SECTION}.provenance") or ex.provenance)
        sign = np.where(tt.differences > 0, "+", np.where(tt.differences < 0, "−", "0"))
        st.dataframe(for_table(pd.DataFrame({
            t(f"{SECTION}.query"): ex.queries, "A": a, "B": b, "d = A − B": tt.differences,
            t(f"{SECTION}.col_sign"): sign, "|d|": np.abs(tt.differences), t(f"{SECTION}.col_rank"): w.ranks,
            t(f"{SECTION}.col_signed_rank"): w.signed_ranks,
        }), dict.fromkeys(("A", "B", "d = A − B", "|d|"), 2)), hide_index=True, width="stretch",
            key=f"{key_prefix}_data",
            column_config={c: st.column_config.NumberColumn(format="%.2f") for c in ("A", "B", "d = A − B", "|d|")})

        # 1. t-test
        st.markdown(f"#### {t(f'{SECTION}.teach_t_title')}")
        st.markdown(t(f"{SECTION}.teach_t_mean"))
        st.latex(aligned([r"\bar d &= \frac{1}{n}\sum_{i=1}^{n} d_i",
                          rf"&= \frac{{{_num(tt.total, 2)}}}{{{n}}} = {_num(tt.mean)}"]))
        st.markdown(t(f"{SECTION}.teach_t_sd"))
        st.latex(aligned([r"s_d &= \sqrt{\frac{\sum_i (d_i - \bar d)^2}{n-1}}",
                          rf"&= \sqrt{{\frac{{{_num(tt.sum_squares, 5)}}}{{{n - 1}}}}} = {_num(tt.sd)}"]))
        st.markdown(t(f"{SECTION}.teach_t_t"))
        st.latex(aligned([r"t &= \frac{\bar d}{s_d / \sqrt{n}}",
                          rf"&= \frac{{{_num(tt.mean)}}}{{{_num(tt.sd)} / \sqrt{{{n}}}}}",
                          rf"&= \frac{{{_num(tt.mean)}}}{{{_num(tt.se)}}} = {_num(tt.t, 3)}",
                          rf"df &= n - 1 = {tt.df}"]))
        st.latex(aligned([rf"p &= 2\,P(T_{{{tt.df}}} \ge |t|)",
                          rf"&= 2\,P(T_{{{tt.df}}} \ge {_num(abs(tt.t), 3)}) = {_num(tt.p_value)}",
                          rf"d_z &= \frac{{\bar d}}{{s_d}} = {_num(tt.d_z, 2)}"]))
        st.altair_chart(_null(tt.null_distribution(), "t"), width="stretch")
        st.caption(t(f"{SECTION}.teach_t_read", p=_pct(tt.p_value), t=_num(tt.t, 3), df=tt.df))

        # 2. Wilcoxon
        st.markdown(f"#### {t(f'{SECTION}.teach_w_title')}")
        st.markdown(t(f"{SECTION}.teach_w_ranks", n=n))
        for sign_, side, mask, total in (("+", ">", tt.differences > 0, w.w_plus),
                                         ("-", "<", tt.differences < 0, w.w_minus)):
            st.latex(aligned([rf"W^{sign_} &= \sum_{{d_i {side} 0}} R_i",
                              *sum_lines("", [show_trimmed(x, 1) for x in w.ranks[mask]], show_trimmed(total, 1),
                                         per_row=5)]))
        st.latex(aligned([rf"W &= \min(W^+, W^-) = {show_trimmed(w.statistic, 1)}",
                          rf"p &= P(W^+ \le {show_trimmed(min(w.w_plus, w.w_minus), 1)}"
                          rf" \;\text{{{katex_text(t(f'{SECTION}.or'))}}}\;"
                          rf" W^+ \ge {show_trimmed(max(w.w_plus, w.w_minus), 1)})",
                          rf"&= {_num(w.p_value)}"]))
        st.altair_chart(_null(w.null_distribution(), "wilcoxon"), width="stretch")
        st.caption(t(f"{SECTION}.teach_w_read", p=_pct(w.p_value), n=n, total=f"{2 ** n:,}"))

        # 3. Randomization
        st.markdown(f"#### {t(f'{SECTION}.teach_r_title')}")
        st.markdown(t(f"{SECTION}.teach_r_idea", total=f"{r.n_resamples:,}", n=n))
        flips = pd.DataFrame({
            t(f"{SECTION}.col_pattern"): np.arange(1, len(r.first_flips) + 1),
            t(f"{SECTION}.col_swapped"): [", ".join(ex.queries[i] for i in np.flatnonzero(row)) or "—"
                                    for row in r.first_flips],
            t(f"{SECTION}.col_mean"): r.null_means[:len(r.first_flips)],
        })
        st.dataframe(for_table(flips), hide_index=True, width="stretch", key=f"{key_prefix}_flips",
                     column_config={t(f"{SECTION}.col_mean"): st.column_config.NumberColumn(format="%.4f")})
        total_tex = f"{r.n_resamples:,}".replace(",", "{,}")
        st.markdown(rf"$N$: {markdown(t(f'{SECTION}.teach_r_count'), 120)}")
        st.latex(aligned([rf"p &= \frac{{N}}{{2^{{{n}}}}} = \frac{{{r.n_extreme}}}{{{total_tex}}}",
                          rf"&= {_num(r.p_value)}"]))
        st.altair_chart(_null(r.null_distribution(), "randomization"), width="stretch")
        st.caption(t(f"{SECTION}.teach_r_read", p=_pct(r.p_value), extreme=r.n_extreme, total=f"{r.n_resamples:,}",
                     diff=_num(abs(r.observed))))

        # 4. Bootstrap
        st.markdown(f"#### {t(f'{SECTION}.teach_b_title')}")
        st.markdown(t(f"{SECTION}.teach_b_idea", n=n, r=f"{boot.n_resamples:,}"))
        draws = pd.DataFrame({
            t(f"{SECTION}.col_resample"): np.arange(1, len(boot.first_resamples) + 1),
            t(f"{SECTION}.col_drawn"): [", ".join(ex.queries[i] for i in row) for row in boot.first_resamples],
            t(f"{SECTION}.col_mean"): boot.resample_means[:len(boot.first_resamples)],
        })
        st.dataframe(for_table(draws), hide_index=True, width="stretch", key=f"{key_prefix}_draws",
                     column_config={t(f"{SECTION}.col_mean"): st.column_config.NumberColumn(format="%.4f")})
        lo, hi = 100 * boot.lower_level, 100 * boot.upper_level
        st.latex(aligned([rf"\text{{CI}}_{{{show(100 * boot.confidence, 0)}\%}} &= [\,q_{{{show(lo, 1)}\%}},\; "
                          rf"q_{{{show(hi, 1)}\%}}\,]",
                          rf"&= [{_num(boot.low)},\; {_num(boot.high)}]"]))
        ci_nd = boot.null_distribution()
        st.altair_chart(_null_chart(ci_nd, "axis_null_randomization", "axis_share_resamples", "outside_ci", "inside_ci",
                                    "legend_ci", "ci_end"), width="stretch")
        st.caption(t(f"{SECTION}.teach_b_read", low=_num(boot.low), high=_num(boot.high), r=f"{boot.n_resamples:,}"))

        # Verdict
        st.markdown(f"#### {t(f'{SECTION}.teach_verdict_title')}")
        st.markdown(t(f"{SECTION}.teach_verdict", p_t=_num(tt.p_value), p_w=_num(w.p_value), p_r=_num(r.p_value),
                      low=_num(boot.low), high=_num(boot.high)))
