r"""Page logic of the Top-N page (document 002): fields, input caps, formulas with numbers, tables.

Link parameters (:data:`FIELDS`): ``users`` (one user per line, ``name: recommended | test items``,
exactly as typed), ``n`` (cutoff 1–1000), ``prec`` (precision denominator), ``hr`` and ``arhr`` (how
to read formulas 8 and 9), ``user`` (whose AP working is shown).  Choice names and help come from the
registries of :mod:`metrics.other.topn` (English written once there, translated in ``registry.toml``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from metrics.other.topn import (
    AP_DENOMINATORS,
    ARHR_MODES,
    HIT_RATES,
    PRECISION_DENOMINATORS,
    RunsParseError,
    ap_breakdown,
    parse_runs,
    per_user,
    summary,
)
from ui import state as ui_state
from ui.escape import katex_text, markdown
from ui.formulas import aligned, sum_lines
from ui.i18n import registry_text, t
from ui.numbers import show_trimmed as num
from ui.widgets import option_widget

__all__ = [
    "PAGE", "FIELDS", "DEFAULT_USERS", "DEFAULT_N", "MAX_N", "MAX_CHARS", "MAX_USERS", "MAX_ITEMS", "MAX_LOO_LINES",
    "K_USERS", "K_N", "K_PREC", "K_HR", "K_ARHR", "K_USER", "CHOICES",
    "parse_users", "choice_names", "choice_help", "choice_radio", "Result", "compute", "pick_user",
    "pooled_latex", "mean_latex", "differ_caption", "counts_table",
    "ap_definition_latex", "ap_working_table", "ap_latex", "ap_table",
    "hr_latex", "arhr_latex", "mrr_latex", "LOO_DEFINITION", "loo_lines", "loo_mean_latex", "ndcg_multi_caption",
]

PAGE = "topn"
DEFAULT_USERS = """alice: A B C D E | A C X
bob: F G H J | J K
carol: K L M N O | M
dave: P Q R S T | Z"""
DEFAULT_N = 5
MAX_N = 1000
MAX_CHARS = 20_000     # characters in the users box (and its link parameter)
MAX_USERS = 300        # users
MAX_ITEMS = 1000       # items in one recommended list or one set of test items
MAX_NAME = 200         # characters of a user name in the link's ``user``
MAX_LOO_LINES = 10     # users whose leave-one-out NDCG is worked out line by line
NAME_CHARS = 12        # characters of a user name inside a formula (a phone's width)
INT_ROW, DECIMAL_ROW, FRACTION_ROW = 5, 3, 4   # terms per formula line
MEAN_ROW = 2           # terms per line after the wide left side of a mean

K_USERS, K_N, K_PREC, K_HR, K_ARHR, K_USER = "topn_users", "topn_n", "topn_prec", "topn_hr", "topn_arhr", "topn_user"

#: widget key -> (registry kind for :func:`ui.i18n.registry_text`, registry, catalogue key of the label)
CHOICES = {
    K_PREC: ("precision_denominator", PRECISION_DENOMINATORS, "topn.precision"),
    K_HR: ("hit_rate", HIT_RATES, "topn.hit_rate"),
    K_ARHR: ("arhr", ARHR_MODES, "topn.arhr"),
}


def parse_users(raw) -> str:
    """The users box (or the ``users`` link parameter): the text itself when it reads as users.

    Raises :class:`ui.state.BadValue` naming why: too long, a line :func:`metrics.other.topn.parse_runs`
    cannot read (reason ``topn.reason.<kind>``), too many users or items.

    >>> parse_users("a: A B | B") == "a: A B | B"
    True
    >>> parse_users("a: A B A | A")
    Traceback (most recent call last):
    ui.state.BadValue: line 1: 'A' appears twice in the recommended list (positions 1 and 3)
    """
    value = str(raw)
    if len(value) > MAX_CHARS:
        raise ui_state.BadValue(value, "too_long", f"text of {len(value)} characters is longer than {MAX_CHARS}",
                         n=len(value), max=MAX_CHARS)
    try:
        runs = parse_runs(value)
    except RunsParseError as exc:
        kind = f"{exc.kind}_{exc.side}" if exc.kind == "duplicate_item" else exc.kind
        raise ui_state.BadValue(value, f"topn.reason.{kind}", str(exc), line=exc.line, token=exc.token,
                         position=exc.position, first=exc.first) from None
    if len(runs) > MAX_USERS:
        raise ui_state.BadValue(value, "topn.reason.too_many_users", f"{len(runs)} users; at most {MAX_USERS}",
                         n=len(runs), max=MAX_USERS)
    for user, (rec, rel) in runs.items():
        longest = max(len(rec), len(rel))
        if longest > MAX_ITEMS:
            raise ui_state.BadValue(value, "topn.reason.too_many_items",
                             f"user {user[:40]!r} has a list of {longest} items; at most {MAX_ITEMS}",
                             user=user, n=longest, max=MAX_ITEMS)
    return value


parse_users.allowed = ("text", {"max": MAX_CHARS})

FIELDS = (
    ui_state.Field(
        K_USERS, "users", default=DEFAULT_USERS, parse=parse_users, encode=str, text=str, label="topn.users_name"
    ),
    ui_state.Field(K_N, "n", default=DEFAULT_N, parse=ui_state.integer(1, MAX_N)),
    ui_state.Field(K_PREC, "prec", default="list", parse=ui_state.choice(tuple(PRECISION_DENOMINATORS))),
    ui_state.Field(K_HR, "hr", default="users", parse=ui_state.choice(tuple(HIT_RATES))),
    ui_state.Field(K_ARHR, "arhr", default="first", parse=ui_state.choice(tuple(ARHR_MODES))),
    ui_state.Field(K_USER, "user", default=None, parse=ui_state.text(MAX_NAME, allow_empty=False)),
)


# --- choices ---------------------------------------------------------------------------------------

def choice_names(kind: str, registry: dict) -> dict[str, str]:
    """Key -> translated name, looked up now (a widget's ``format_func`` may run after the script)."""
    return {key: registry_text(kind, entry, "name") for key, entry in registry.items()}


def choice_help(kind: str, registry: dict) -> str:
    """Every choice's name and help, one paragraph each (a widget's help tooltip)."""
    return "\n\n".join(f"**{registry_text(kind, e, 'name')}**: {registry_text(kind, e, 'help')}"
                       for e in registry.values())


def choice_radio(key: str) -> str:
    """The radio of one of :data:`CHOICES` (precision denominator, HR or ARHR reading)."""
    import streamlit as st

    kind, registry, label = CHOICES[key]
    names = choice_names(kind, registry)
    return option_widget(st.radio, t(label), list(registry), key=key, horizontal=True,
                         format_func=names.__getitem__, help=choice_help(kind, registry))


# --- numbers ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Result:
    """Everything the page shows for one set of users, cutoff and choices."""

    runs: dict
    n: int
    prec: str
    table: pd.DataFrame          # metrics.other.topn.per_user
    summary: dict                # metrics.other.topn.summary with the page's HR/ARHR readings
    ap: dict                     # AP denominator key -> per_user table
    maps: dict                   # AP denominator key -> MAP@N

    @property
    def users(self) -> list[str]:
        return list(self.table["user"])


def compute(runs: dict, n: int, prec: str, hr: str, arhr: str) -> Result:
    """Every number of the page from :mod:`metrics.other.topn`."""
    table = per_user(runs, n=n, precision_denominator=prec)
    s = summary(runs, n=n, precision_denominator=prec, hit_rate=hr, arhr=arhr)
    ap = {key: per_user(runs, n=n, precision_denominator=prec, ap_denominator=key) for key in AP_DENOMINATORS}
    maps = {key: summary(runs, n=n, precision_denominator=prec, ap_denominator=key)["map"] for key in AP_DENOMINATORS}
    return Result(runs, n, prec, table, s, ap, maps)


def pick_user(wanted, users: list[str], *, link: str | None = None) -> tuple[str, ui_state.BadValue | None]:
    """The user whose AP working is shown, and a problem to report when the link just opened (its
    ``user`` text is ``link``) names someone absent.

    >>> pick_user("bob", ["alice", "bob"], link="bob")
    ('bob', None)
    >>> who, problem = pick_user("zoe", ["alice"], link="zoe")
    >>> who, problem.reason, problem.value
    ('alice', 'topn.reason.no_such_user', 'zoe')
    """
    if wanted in users:
        return wanted, None
    problem = None
    if link is not None:
        problem = ui_state.BadValue(link, "topn.reason.no_such_user", f"no user {link[:40]!r} in the data")
    return users[0], problem


# --- precision, recall, F1 -------------------------------------------------------------------------

def _ints(values) -> list[str]:
    return [str(int(v)) for v in values]


def pooled_latex(r: Result) -> list[str]:
    """Formulas (3), (4) and (5) of document 002 with the counts added over users (one step per line)."""
    s, n, table = r.summary, r.n, r.table
    den_terms = table["recommended"] if r.prec == "list" else [n] * len(table)
    den_latex = PRECISION_DENOMINATORS[r.prec].latex
    p, rec, f1 = num(s["precision"]), num(s["recall"]), num(s["f1"])
    hits_lhs = "\\textstyle\\sum_u |R(u) \\cap T(u)|"
    hits = sum_lines(hits_lhs, _ints(table["hits"]), str(s["hits"]), per_row=INT_ROW)
    return [
        aligned([f"\\mathrm{{Recall}}@{n} &= \\frac{{\\sum_u |R(u) \\cap T(u)|}}{{\\sum_u |T(u)|}}", *hits,
                 *sum_lines("\\textstyle\\sum_u |T(u)|", _ints(table["relevant"]), str(s["relevant"]),
                            per_row=INT_ROW),
                 f"\\mathrm{{Recall}}@{n} &= \\frac{{{s['hits']}}}{{{s['relevant']}}} = {rec}"]),
        aligned([f"\\mathrm{{Precision}}@{n} &= \\frac{{\\sum_u |R(u) \\cap T(u)|}}{{\\sum_u {den_latex}}}", *hits,
                 *sum_lines(f"\\textstyle\\sum_u {den_latex}", _ints(den_terms), str(s["precision_denominator"]),
                            per_row=INT_ROW),
                 f"\\mathrm{{Precision}}@{n} &= \\frac{{{s['hits']}}}{{{s['precision_denominator']}}} = {p}"]),
        aligned(["F_1 &= \\frac{2 \\times P \\times R}{P + R}",
                 f"&= \\frac{{2 \\times {p} \\times {rec}}}{{{p} + {rec}}} = {f1}"]),
    ]


def mean_latex(r: Result) -> list[str]:
    """The averages of the per-user recall, precision and F1."""
    s, table, u = r.summary, r.table, len(r.table)
    out = []
    for column, name, key in (("recall", "\\mathrm{Recall}_u", "recall_mean"),
                              ("precision", "\\mathrm{Precision}_u", "precision_mean"),
                              ("f1", "F_{1,u}", "f1_mean")):
        out.append(aligned(sum_lines(f"\\frac{{1}}{{|U|}} \\sum_u {name}", (num(v) for v in table[column]),
                                     num(s[key]), per_row=MEAN_ROW, open_=f"\\tfrac{{1}}{{{u}}}\\big(",
                                     close="\\big)")))
    return out


def differ_caption(r: Result) -> str | None:
    """Why pooled and mean recall differ here, naming the user with the most test items (or None)."""
    table, s = r.table, r.summary
    if table["relevant"].nunique() <= 1:
        return None
    heaviest = table.loc[table["relevant"].idxmax()]
    return t("topn.differ_here", pooled=num(s["recall"]), mean=num(s["recall_mean"]),
             user=markdown(heaviest["user"], 30), size=int(heaviest["relevant"]), total=s["relevant"])


def _positions_text(positions, limit: int = 20) -> str:
    text = ", ".join(str(p) for p in positions[:limit]) or "–"
    return text + (", …" if len(positions) > limit else "")


def counts_table(r: Result) -> pd.DataFrame:
    """One row per user: counts, Precision@N, Recall@N, F1 and the hit positions."""
    table = r.table
    return pd.DataFrame({
        t("topn.user"): table["user"],
        "|R_N(u)|": table["recommended"],
        "|T(u)|": table["relevant"],
        t("topn.hits"): table["hits"],
        "Precision@N": table["precision"].map(num),
        "Recall@N": table["recall"].map(num),
        "F1": table["f1"].map(num),
        t("topn.hit_positions"): table["hit_positions"].map(_positions_text),
    })


# --- AP / MAP --------------------------------------------------------------------------------------

def ap_definition_latex() -> str:
    """Formulas (6) and (7): AP@N and MAP@N, the denominator named in words."""
    word = katex_text(t("topn.denominator_word"), 40)
    return aligned([f"\\mathrm{{AP}}@N &= \\frac{{S}}{{\\text{{{word}}}}}",
                    "S &= \\sum_{k=1}^{N} \\mathrm{Precision}@k \\times \\mathrm{rel}(k)",
                    "\\mathrm{MAP}@N &= \\frac{1}{|U|} \\sum_{u \\in U} \\mathrm{AP}@N"])


def ap_working_table(r: Result, who: str) -> pd.DataFrame:
    """The working of AP@N for one user: one row per position of the top N."""
    rec, rel = r.runs[who]
    working = ap_breakdown(rec, rel, n=r.n)
    return pd.DataFrame({
        "k": working["position"].astype(int),
        t("topn.item"): working["item"],
        "rel(k)": working["rel"].astype(int),
        t("topn.hits"): working["hits"].astype(int),
        "Precision@k": working["precision"].map(num),
        "Precision@k × rel(k)": working["term"].map(num),
    })


def ap_latex(r: Result, who: str) -> dict[str, str]:
    """AP denominator key -> AP@N of ``who``: the sum of the terms, then divided by that denominator."""
    rec, rel = r.runs[who]
    working = ap_breakdown(rec, rel, n=r.n)
    positive = [v for v in working["term"] if v > 0]
    total = num(math.fsum(positive))
    terms = sum_lines("S", (num(v) for v in positive), total, per_row=DECIMAL_ROW, total_row=len(positive) > 1)
    n_rel, n_hits = len(set(rel)), int(working["rel"].sum())
    name = f"\\mathrm{{AP}}@{r.n}(\\text{{{katex_text(who, NAME_CHARS)}}})"
    out = {}
    for key, choice in AP_DENOMINATORS.items():
        den = choice.func(r.n, n_rel, n_hits)
        value = float(r.ap[key].loc[r.ap[key]["user"] == who, "ap"].iloc[0])
        out[key] = aligned([*terms, f"{name} &= \\frac{{{total}}}{{{choice.latex}}}",
                            f"&= \\frac{{{total}}}{{{den}}} = {num(value)}"])
    return out


def ap_table(r: Result) -> pd.DataFrame:
    """AP@N of every user under every denominator, and MAP@N as the last row."""
    out = pd.DataFrame({t("topn.user"): r.users})
    names = choice_names("ap_denominator", AP_DENOMINATORS)
    for key in AP_DENOMINATORS:
        out[names[key]] = r.ap[key]["ap"].map(num)
    out.loc[len(out)] = ["MAP@N"] + [num(r.maps[k]) for k in AP_DENOMINATORS]
    return out


# --- HR, ARHR, MRR, leave-one-out NDCG ----------------------------------------------------------------

def hr_latex(r: Result, hr: str) -> str:
    """Formula (8) in the chosen reading, with the counts."""
    s, n = r.summary, r.n
    if hr == "users":
        frac = f"\\frac{{{s['hit_users']}}}{{{s['users']}}}"
    else:
        frac = f"\\frac{{{s['hits']}}}{{{s['relevant']}}}"
    return aligned([f"\\mathrm{{HR}}@{n} &= {HIT_RATES[hr].latex}", f"&= {frac} = {num(s['hr'])}"])


def _reciprocals(positions) -> list[str]:
    return [f"\\tfrac{{1}}{{{j}}}" for j in positions]


def arhr_latex(r: Result, arhr: str) -> str:
    """Formula (9) in the chosen reading: the reciprocal positions of the hits."""
    recips = []
    for positions in r.table["hit_positions"]:
        recips += _reciprocals(positions[:1] if arhr == "first" else positions)
    u = r.summary["users"]
    return aligned([f"\\mathrm{{ARHR}}@{r.n} &= {ARHR_MODES[arhr].latex}",
                    *sum_lines("", recips, num(r.summary["arhr"]), per_row=FRACTION_ROW,
                               open_=f"\\tfrac{{1}}{{{u}}}\\big(", close="\\big)")])


def mrr_latex(r: Result) -> str:
    """MRR@N: the mean reciprocal position of each user's first hit."""
    firsts = [_reciprocals(p[:1])[0] if p else "0" for p in r.table["hit_positions"]]
    u = r.summary["users"]
    return aligned(["\\mathrm{MRR}@" + str(r.n) + " &= \\frac{1}{|U|} \\sum_u \\frac{1}{\\mathrm{rank}_u}",
                    *sum_lines("", firsts, num(r.summary["mrr"]), per_row=FRACTION_ROW,
                               open_=f"\\tfrac{{1}}{{{u}}}\\big(", close="\\big)")])


LOO_DEFINITION = aligned(["\\mathrm{NDCG}@N &= \\frac{\\mathrm{DCG}@N}{\\mathrm{IDCG}@N}",
                          "&= \\frac{1 / \\log_2(j + 1)}{1 / \\log_2(1 + 1)}",
                          "&= \\frac{\\log 2}{\\log(j + 1)}"])


def loo_lines(r: Result, *, limit: int = MAX_LOO_LINES) -> list[str]:
    """Formula (15) for the first ``limit`` users: their first hit j and log 2 / log(j + 1)."""
    out = []
    for _, row in r.table.head(limit).iterrows():
        name = f"\\text{{{katex_text(row['user'], NAME_CHARS)}}}"
        j = row["first_hit"]
        if j == j:  # a hit (NaN otherwise)
            out.append(f"{name}: j = {int(j)}, \\quad \\frac{{\\log 2}}{{\\log({int(j)} + 1)}} = "
                       f"{num(row['loo_ndcg'])}")
        else:
            out.append(f"{name}: \\text{{{katex_text(t('topn.not_in_top'), 60)}}} \\Rightarrow 0")
    return out


def loo_mean_latex(r: Result) -> str:
    """The mean of formula (15) over users."""
    return f"\\overline{{\\mathrm{{NDCG}}}}@{r.n} = {num(r.summary['loo_ndcg_mean'])}"


def ndcg_multi_caption(r: Result) -> str:
    """For users with several test items: the full binary NDCG@N beside formula (15)."""
    return t("topn.ndcg_multi", value=num(r.summary["ndcg_mean"]))
