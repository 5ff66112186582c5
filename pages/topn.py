"""Top-N recommendation (document 002): precision, recall, F1, AP/MAP, HR, ARHR, MRR, leave-one-out NDCG.

Layout and wiring only; every number comes from metrics.other.topn.
URL parameters: ``users`` (one user per line, ``name: recommended | test items``), ``n`` (cutoff >= 1),
``prec`` (precision denominator), ``hr`` (hit-rate reading), ``arhr`` (ARHR reading), ``user`` (user whose
AP working is shown).
"""
from __future__ import annotations

from urllib.parse import urlencode

import altair as alt
import pandas as pd
import streamlit as st

from metrics.other.topn import (
    AP_DENOMINATORS,
    ARHR_MODES,
    HIT_RATES,
    PRECISION_DENOMINATORS,
    RunsParseError,
    ap_breakdown,
    as_runs,
    parse_runs,
    per_user,
    summary,
)
from ui.i18n import current_language, plain, t
from ui.widgets import error_text, keep_or_restore

DEFAULT_USERS = """alice: A B C D E | A C X
bob: F G H J | J K
carol: K L M N O | M
dave: P Q R S T | Z"""
DEFAULT_N = 5
MAX_N = 1000
K_TEXT, K_N, K_PREC, K_HR, K_ARHR, K_USER = "topn_users", "topn_n", "topn_prec", "topn_hr", "topn_arhr", "topn_user"
SAVED, LAST = "topn__saved", "topn__last_valid"
CHOICES = {K_PREC: ("prec", PRECISION_DENOMINATORS, "precision"), K_HR: ("hr", HIT_RATES, "hit_rate"),
           K_ARHR: ("arhr", ARHR_MODES, "arhr")}


def fmt(x: float) -> str:
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def tex(text: str) -> str:
    """User text (an item or user name) made safe inside LaTeX \\text{}."""
    safe = "".join(ch if ch.isalnum() or ch in " -_.'" else "?" for ch in str(text))[:24]
    return f"\\text{{{safe}}}"


def choice_name(section: str, key: str, lang: str | None = None) -> str:
    return t(f"topn.choice.{section}.{key}.name", lang=lang)


def choice_help(section: str, key: str) -> str:
    return t(f"topn.choice.{section}.{key}.help")


def _from_link() -> None:
    """First visit: widget values from the link (bad parameters warned about), else defaults."""
    q = st.query_params
    st.session_state[K_TEXT] = q.get("users", DEFAULT_USERS)
    st.session_state[K_N] = DEFAULT_N
    n = q.get("n")
    if n is not None:
        if n.isdigit() and 1 <= int(n) <= MAX_N:
            st.session_state[K_N] = int(n)
        else:
            st.warning(t("common.bad_param", name="n", reason=t("topn.bad_n_reason", max=MAX_N)))
    for key, (param, registry, _) in CHOICES.items():
        default = next(iter(registry))
        value = q.get(param, default)
        if value not in registry:
            st.warning(t("common.bad_param", name=param,
                         reason=t("topn.bad_choice_reason", valid=", ".join(registry))))
            value = default
        st.session_state[key] = value
    if "user" in q:
        st.session_state["topn__want_user"] = q.get("user")


def _message(exc: ValueError) -> str:
    if isinstance(exc, RunsParseError):
        side = t(f"topn.side_{exc.side}") if exc.side else ""
        return t(f"topn.err_{exc.kind}", line=exc.line, token=plain(exc.token, 20), position=exc.position, first=exc.first,
                 side=side)
    return error_text(exc)


def _read_runs() -> dict:
    text = st.text_area(t("topn.users"), key=K_TEXT, help=t("topn.users_help"), height=150)
    try:
        runs = parse_runs(text)
        as_runs(runs)  # the same validation the metrics apply
    except ValueError as exc:
        st.error(_message(exc))
        st.caption(t("common.kept_last_valid"))
        if LAST not in st.session_state:
            st.session_state[LAST] = (DEFAULT_USERS, parse_runs(DEFAULT_USERS))
        return st.session_state[LAST][1]
    st.session_state[LAST] = (text, runs)
    return runs


def _radio(key: str) -> str:
    section, registry, label = CHOICES[key]
    lang = current_language()  # bound now: format_func may be called outside the script run (AppTest)
    return st.radio(
        t(f"topn.{label}"), list(registry), key=key, horizontal=True,
        format_func=lambda k: choice_name(section, k, lang),
        help="\n\n".join(f"**{choice_name(section, k)}**: {choice_help(section, k)}" for k in registry),
    )


def hit_grid(runs: dict, n: int) -> alt.Chart:
    frames = [ap_breakdown(rec, rel, n=n).assign(user=user) for user, (rec, rel) in runs.items()]
    data = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["position", "item", "rel", "precision", "user"])
    data = data.assign(result=data["rel"].map({1.0: t("topn.hit"), 0.0: t("topn.miss")}),
                       precision_k=data["precision"], position=data["position"].astype(int))
    base = alt.Chart(data).encode(
        x=alt.X("position:O", title=t("topn.position"), axis=alt.Axis(labelAngle=0)),
        y=alt.Y("user:N", title=t("topn.user"), sort=list(runs)),
    )
    rects = base.mark_rect(stroke="white", strokeWidth=2).encode(
        color=alt.Color("result:N", title=None, scale=alt.Scale(domain=[t("topn.hit"), t("topn.miss")],
                                                                range=["#16a34a", "#e5e7eb"]),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("user:N", title=t("topn.user")), alt.Tooltip("position:O", title=t("topn.position")),
                 alt.Tooltip("item:N", title=t("topn.item")), alt.Tooltip("result:N", title=t("topn.result")),
                 alt.Tooltip("precision_k:Q", title="Precision@k", format=".4f")],
    )
    labels = base.mark_text(fontSize=13).encode(text="item:N")
    return (rects + labels).properties(height=alt.Step(34), title=t("topn.grid_title", n=n))


def per_user_chart(table: pd.DataFrame) -> alt.Chart:
    names = {"precision": "Precision@N", "recall": "Recall@N", "ap": "AP@N", "rr": "RR", "loo_ndcg": "NDCG (15)"}
    long = table.melt(id_vars=["user"], value_vars=list(names), var_name="metric", value_name="value")
    long["metric"] = long["metric"].map(names)
    return alt.Chart(long).mark_bar().encode(
        x=alt.X("user:N", title=t("topn.user"), sort=list(table["user"]), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("metric:N", sort=list(names.values())),
        y=alt.Y("value:Q", title=t("topn.value"), scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("metric:N", title=None, sort=list(names.values()), legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("user:N", title=t("topn.user")), alt.Tooltip("metric:N", title=t("topn.metric")),
                 alt.Tooltip("value:Q", title=t("topn.value"), format=".4f")],
    ).properties(height=320, title=t("topn.per_user_chart"))


def _sum_latex(values) -> str:
    return " + ".join(str(int(v)) for v in values) or "0"


def main() -> None:
    st.title(t("topn.title"))
    st.markdown(t("topn.intro"))
    keep_or_restore(K_TEXT, SAVED, _from_link)
    runs = _read_runs()
    c1, c2 = st.columns([1, 3])
    with c1:
        n = int(st.number_input("N", min_value=1, max_value=MAX_N, step=1, key=K_N, help=t("topn.n_help")))
    with c2:
        prec = _radio(K_PREC)

    table = per_user(runs, n=n, precision_denominator=prec)
    s = summary(runs, n=n, precision_denominator=prec)
    users = list(table["user"])

    st.altair_chart(hit_grid(runs, n), width="stretch")

    # --- precision, recall, F1 -------------------------------------------------------------
    st.header(t("topn.pr_header"))
    st.markdown(t("topn.pr_intro"))
    den_terms = table["recommended"] if prec == "list" else [n] * len(table)
    with st.container():
        st.subheader(t("topn.pooled"))
        st.latex(f"\\mathrm{{Recall}}@{n} = \\frac{{\\sum_u |R(u) \\cap T(u)|}}{{\\sum_u |T(u)|}} = "
                 f"\\frac{{{_sum_latex(table['hits'])}}}{{{_sum_latex(table['relevant'])}}} = "
                 f"\\frac{{{s['hits']}}}{{{s['relevant']}}} = {fmt(s['recall'])}")
        st.latex(f"\\mathrm{{Precision}}@{n} = \\frac{{\\sum_u |R(u) \\cap T(u)|}}{{\\sum_u "
                 f"{PRECISION_DENOMINATORS[prec].latex}}} = \\frac{{{_sum_latex(table['hits'])}}}"
                 f"{{{_sum_latex(den_terms)}}} = \\frac{{{s['hits']}}}{{{s['precision_denominator']}}} = "
                 f"{fmt(s['precision'])}")
        st.latex(f"F_1 = \\frac{{2 \\times {fmt(s['precision'])} \\times {fmt(s['recall'])}}}"
                 f"{{{fmt(s['precision'])} + {fmt(s['recall'])}}} = {fmt(s['f1'])}")
    with st.container():
        st.subheader(t("topn.mean"))
        u = len(table)
        st.latex(f"\\frac{{1}}{{|U|}} \\sum_u \\mathrm{{Recall}}_u = \\frac{{{' + '.join(fmt(v) for v in table['recall'])}}}"
                 f"{{{u}}} = {fmt(s['recall_mean'])}")
        st.latex(f"\\frac{{1}}{{|U|}} \\sum_u \\mathrm{{Precision}}_u = "
                 f"\\frac{{{' + '.join(fmt(v) for v in table['precision'])}}}{{{u}}} = {fmt(s['precision_mean'])}")
        st.latex(f"\\frac{{1}}{{|U|}} \\sum_u F_{{1,u}} = \\frac{{{' + '.join(fmt(v) for v in table['f1'])}}}"
                 f"{{{u}}} = {fmt(s['f1_mean'])}")
    st.info(t("topn.why_differ"))
    heaviest = table.loc[table["relevant"].idxmax()]
    if table["relevant"].nunique() > 1:
        st.caption(t("topn.differ_here", pooled=fmt(s["recall"]), mean=fmt(s["recall_mean"]),
                     user=plain(heaviest["user"]), size=int(heaviest["relevant"]), total=s["relevant"]))
    if prec == "n" and (table["recommended"] < n).any():
        st.caption(t("topn.short_lists", n=n))

    shown = pd.DataFrame({
        t("topn.user"): table["user"],
        "|R_N(u)|": table["recommended"],
        "|T(u)|": table["relevant"],
        t("topn.hits"): table["hits"],
        "Precision@N": table["precision"].map(fmt),
        "Recall@N": table["recall"].map(fmt),
        "F1": table["f1"].map(fmt),
        t("topn.hit_positions"): table["hit_positions"].map(lambda p: ", ".join(map(str, p)) or "–"),
    })
    st.dataframe(shown, hide_index=True, width="stretch")

    # --- AP / MAP -----------------------------------------------------------------------------
    st.header(t("topn.ap_header"))
    st.latex(f"\\mathrm{{AP}}@N = \\frac{{\\sum_{{k=1}}^{{N}} \\mathrm{{Precision}}@k \\times \\mathrm{{rel}}(k)}}"
             f"{{\\text{{{t('topn.denominator_word')}}}}}, \\qquad \\mathrm{{MAP}}@N = \\frac{{1}}{{|U|}} "
             f"\\sum_{{u \\in U}} \\mathrm{{AP}}@N")
    wanted = st.session_state.pop("topn__want_user", None)
    if wanted is not None:
        if wanted in users:
            st.session_state[K_USER] = wanted
        else:
            st.warning(t("common.bad_param", name="user", reason=t("topn.bad_user_reason")))
    if st.session_state.get(K_USER) not in users:
        st.session_state[K_USER] = users[0]
    who = st.selectbox(t("topn.ap_user"), users, key=K_USER)
    rec, rel = runs[who]
    working = ap_breakdown(rec, rel, n=n)
    st.dataframe(pd.DataFrame({
        "k": working["position"].astype(int),
        t("topn.item"): working["item"],
        "rel(k)": working["rel"].astype(int),
        t("topn.hits"): working["hits"].astype(int),
        "Precision@k": working["precision"].map(fmt),
        "Precision@k × rel(k)": working["term"].map(fmt),
    }), hide_index=True, width="stretch")
    terms = [fmt(v) for v in working["term"] if v > 0]
    numerator = " + ".join(terms) or "0"
    n_rel = len(set(rel))
    n_hits = int(working["rel"].sum())
    per_den = {key: per_user(runs, n=n, precision_denominator=prec, ap_denominator=key) for key in AP_DENOMINATORS}
    for key, choice in AP_DENOMINATORS.items():
        with st.container(border=True):
            st.markdown(f"**{choice_name('ap', key)}**")
            den = choice.func(n, n_rel, n_hits)
            ap_value = float(per_den[key].loc[per_den[key]["user"] == who, "ap"].iloc[0])
            st.latex(f"\\mathrm{{AP}}@{n}({tex(who)}) = \\frac{{{numerator}}}{{{choice.latex}}} = "
                     f"\\frac{{{numerator}}}{{{den}}} = {fmt(ap_value)}")
            st.caption(choice_help("ap", key))
    ap_table = pd.DataFrame({t("topn.user"): users})
    for key in AP_DENOMINATORS:
        ap_table[choice_name("ap", key)] = per_den[key]["ap"].map(fmt)
    maps = {key: summary(runs, n=n, precision_denominator=prec, ap_denominator=key)["map"] for key in AP_DENOMINATORS}
    ap_table.loc[len(ap_table)] = ["MAP@N"] + [fmt(maps[k]) for k in AP_DENOMINATORS]
    st.dataframe(ap_table, hide_index=True, width="stretch")
    st.caption(t("topn.ap_note"))

    # --- HR, ARHR, MRR --------------------------------------------------------------------------
    st.header(t("topn.hr_header"))
    st.markdown(t("topn.hr_intro"))
    hr_mode = _radio(K_HR)
    arhr_mode = _radio(K_ARHR)
    s2 = summary(runs, n=n, precision_denominator=prec, hit_rate=hr_mode, arhr=arhr_mode)
    u = s2["users"]
    if hr_mode == "users":
        st.latex(f"\\mathrm{{HR}}@{n} = {HIT_RATES[hr_mode].latex} = \\frac{{{s2['hit_users']}}}{{{u}}} = {fmt(s2['hr'])}")
    else:
        st.latex(f"\\mathrm{{HR}}@{n} = {HIT_RATES[hr_mode].latex} = \\frac{{{s2['hits']}}}{{{s2['relevant']}}} = "
                 f"{fmt(s2['hr'])}")
    recips = []
    for positions in table["hit_positions"]:
        chosen = positions[:1] if arhr_mode == "first" else positions
        recips += [f"\\frac{{1}}{{{j}}}" for j in chosen]
    st.latex(f"\\mathrm{{ARHR}}@{n} = {ARHR_MODES[arhr_mode].latex} = \\frac{{1}}{{{u}}}\\left("
             f"{' + '.join(recips) or '0'}\\right) = {fmt(s2['arhr'])}")
    firsts = [f"\\frac{{1}}{{{p[0]}}}" if p else "0" for p in table["hit_positions"]]
    st.latex(f"\\mathrm{{MRR}}@{n} = \\frac{{1}}{{|U|}} \\sum_u \\frac{{1}}{{\\mathrm{{rank}}_u}} = \\frac{{1}}{{{u}}}"
             f"\\left({' + '.join(firsts)}\\right) = {fmt(s2['mrr'])}")
    multi = bool((table["relevant"] > 1).any())
    st.caption(t("topn.hr_multi") if multi else t("topn.hr_single"))

    # --- leave-one-out NDCG ---------------------------------------------------------------------
    st.header(t("topn.ndcg_header"))
    st.markdown(t("topn.ndcg_intro"))
    st.latex("\\mathrm{NDCG}@N = \\frac{\\mathrm{DCG}@N}{\\mathrm{IDCG}@N} = "
             "\\frac{1 / \\log_2(j + 1)}{1 / \\log_2(1 + 1)} = \\frac{\\log 2}{\\log(j + 1)}")
    for _, row in table.iterrows():
        j = row["first_hit"]
        if j == j:  # a hit
            st.latex(f"{tex(row['user'])}: j = {int(j)}, \\quad \\frac{{\\log 2}}{{\\log({int(j)} + 1)}} = "
                     f"{fmt(row['loo_ndcg'])}")
        else:
            st.latex(f"{tex(row['user'])}: \\text{{{t('topn.not_in_top')}}} \\Rightarrow 0")
    st.latex(f"\\overline{{\\mathrm{{NDCG}}}}@{n} = {fmt(s['loo_ndcg_mean'])}")
    if multi:
        st.caption(t("topn.ndcg_multi", value=fmt(s["ndcg_mean"])))

    st.altair_chart(per_user_chart(table), width="stretch", height=340)

    # --- link -------------------------------------------------------------------------------------
    params = {"users": st.session_state[LAST][0],
              "n": str(n), "prec": prec, "hr": hr_mode, "arhr": arhr_mode, "user": who}
    st.session_state[SAVED] = {K_TEXT: st.session_state[K_TEXT], K_N: n, K_PREC: prec, K_HR: hr_mode,
                               K_ARHR: arhr_mode, K_USER: who}
    for name, value in params.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value
    with st.expander(t("topn.share")):
        st.caption(t("topn.share_help"))
        st.code("topn?" + urlencode(params), language=None)


main()
