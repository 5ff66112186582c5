"""What the playground shows about the numbers: the variant table, plain sentences, the formula
with the user's numbers substituted.  Every number comes from :mod:`metrics`; this module only
arranges, rounds and words it.
"""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from metrics.registry import DISCOUNTS, GAINS, dcg_latex, resolve_discount, resolve_gain
from ui.i18n import registry_text, t

VARIANT_COLUMNS = ("cg", "dcg", "idcg_list", "ndcg_list", "idcg_judged", "ndcg_judged")


def short(x: float, digits: int = 3) -> str:
    """A number for a formula: fixed decimals without trailing zeros (3.000 -> 3, 1.2619 -> 1.262)."""
    text = f"{x:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def variants_wide(variants: pd.DataFrame) -> pd.DataFrame:
    """One row per gain × discount with both IDCG sources side by side (from :func:`metrics.all_variants`)."""
    rows = []
    for (gain, discount), group in variants.groupby(["gain", "discount"], sort=False):
        by_source = {r["idcg_source"]: r for _, r in group.iterrows()}
        lst = by_source["list"]
        judged = by_source.get("judged", lst)
        rows.append({
            "gain": gain, "discount": discount, "cg": lst["cg"], "dcg": lst["dcg"],
            "idcg_list": lst["idcg"], "ndcg_list": lst["ndcg"],
            "idcg_judged": judged["idcg"], "ndcg_judged": judged["ndcg"],
        })
    return pd.DataFrame(rows)


def chosen_values(wide: pd.DataFrame, gain: str, discount: str, idcg: str) -> dict[str, float]:
    row = wide[(wide["gain"] == gain) & (wide["discount"] == discount)].iloc[0]
    return {"cg": float(row["cg"]), "dcg": float(row["dcg"]), "idcg": float(row[f"idcg_{idcg}"]),
            "ndcg": float(row[f"ndcg_{idcg}"])}


def variant_name(gain: str, discount: str, idcg: str | None = None) -> str:
    text = f"{registry_text('gain', GAINS[gain], 'name')} · {registry_text('discount', DISCOUNTS[discount], 'name')}"
    if idcg:
        text += f" · {t('playground.idcg_' + idcg)}"
    return text


def variants_display(wide: pd.DataFrame) -> pd.DataFrame:
    """The variant table with translated names and headers (numbers unrounded; the page formats)."""
    return pd.DataFrame({
        t("common.gain"): [registry_text("gain", GAINS[g], "name") for g in wide["gain"]],
        t("common.discount"): [registry_text("discount", DISCOUNTS[d], "name") for d in wide["discount"]],
        **{t(f"playground.col_{c}"): wide[c].astype(float) for c in VARIANT_COLUMNS},
    })


def observations(wide: pd.DataFrame, grades, unretrieved, *, gain: str, discount: str, idcg: str,
                 log_base: float) -> list[str]:
    """Plain sentences: which variants coincide here, and which differ most."""
    out: list[str] = []
    pool = np.asarray(list(grades) + list(unretrieved), dtype=float)
    if np.all(np.isin(pool, (0.0, 1.0))):
        out.append(t("playground.obs_binary"))
    else:
        lin = wide[wide["gain"] == "linear"].set_index("discount")
        exp = wide[wide["gain"] == "exponential"].set_index("discount")
        d = discount
        out.append(t("playground.obs_gain_differs", linear=f"{lin.loc[d, f'ndcg_{idcg}']:.4f}",
                     exponential=f"{exp.loc[d, f'ndcg_{idcg}']:.4f}"))
    row = wide[(wide["gain"] == gain) & (wide["discount"] == discount)].iloc[0]
    if not len(unretrieved):
        out.append(t("playground.obs_no_unretrieved"))
    elif row["idcg_list"] == row["idcg_judged"]:
        out.append(t("playground.obs_sources_equal"))
    else:
        out.append(t("playground.obs_sources_differ", idcg_list=f"{row['idcg_list']:.4f}",
                     idcg_judged=f"{row['idcg_judged']:.4f}", ndcg_list=f"{row['ndcg_list']:.4f}",
                     ndcg_judged=f"{row['ndcg_judged']:.4f}"))
    # The extremes over all eight variants.
    long = [(float(r[f"ndcg_{s}"]), r["gain"], r["discount"], s) for _, r in wide.iterrows()
            for s in ("list", "judged")]
    lo, hi = min(long), max(long)
    if hi[0] - lo[0] > 1e-12:
        out.append(t("playground.obs_range", low=f"{lo[0]:.4f}", low_name=variant_name(*lo[1:]),
                     high=f"{hi[0]:.4f}", high_name=variant_name(*hi[1:])))
    else:
        out.append(t("playground.obs_all_equal", value=f"{hi[0]:.4f}"))
    if discount == "standard" and log_base != 2.0:
        out.append(t("playground.obs_base_cancels"))
    return out


_PLUS_ONE = re.compile(r"\((\d+)\+1\)")


def term_substituted(grade: float, position: int, *, gain: str, discount: str, log_base: float) -> str:
    r"""One DCG term in LaTeX with the grade and position written in, from the registry's templates.

    >>> term_substituted(2, 2, gain="linear", discount="standard", log_base=2)
    '\\frac{2}{\\log_{2}(3)}'
    >>> term_substituted(3, 1, gain="exponential", discount="jarvelin", log_base=2)
    '\\frac{2^{3} - 1}{\\max(1, \\log_{2} 1)}'
    """
    g, d = resolve_gain(gain), resolve_discount(discount)
    grade_text = f"{grade:g}"
    top = g.latex.replace("rel_{i}", grade_text)
    bottom = _PLUS_ONE.sub(lambda m: f"({int(m.group(1)) + 1})", d.latex(log_base, str(position)))
    return f"\\frac{{{top}}}{{{bottom}}}"


TERMS_SHOWN = 8


def _sum_lines(grades, terms, total: float, name: str, n_total: int, *, gain: str, discount: str,
               log_base: float) -> list[str]:
    """``name@n = Σ ...``, the terms with numbers written in, their values, the total.

    At most TERMS_SHOWN terms are written out; ``\\cdots_{(m)}`` stands for the m others.
    """
    shown = min(len(grades), TERMS_SHOWN, n_total)
    head = dcg_latex(gain, discount, log_base, k=str(n_total)).replace("\\mathrm{DCG}", f"\\mathrm{{{name}}}", 1)
    symbolic = [term_substituted(grades[i], i + 1, gain=gain, discount=discount, log_base=log_base)
                for i in range(shown)]
    values = [short(terms[i]) for i in range(shown)]
    if n_total > shown:
        symbolic.append("\\cdots")
        values.append(f"\\cdots_{{({n_total - shown})}}")
    return [head, "= " + " + ".join(symbolic), "= " + " + ".join(values), f"= {short(total)}"]


def formula_latex(bd: pd.DataFrame, *, values: dict[str, float], n_actual: int, n_ideal: int, gain: str,
                  discount: str, log_base: float, k: int | None) -> dict[str, str]:
    """LaTeX blocks for DCG, IDCG and NDCG with the user's numbers substituted.

    ``bd`` is :func:`metrics.breakdown` (possibly only its first rows: only TERMS_SHOWN terms are
    written out); the totals are ``values``, the chosen variant's exact numbers.  ``n_actual`` and
    ``n_ideal`` are the numbers of terms in DCG and IDCG (after the cutoff).
    """
    actual = bd.dropna(subset=["relevance"])
    ideal = bd.dropna(subset=["ideal_relevance"])
    dcg_lines = _sum_lines(actual["relevance"].tolist(), actual["discounted_gain"].tolist(), values["dcg"],
                           "DCG", n_actual, gain=gain, discount=discount, log_base=log_base)
    idcg_lines = _sum_lines(ideal["ideal_relevance"].tolist(), ideal["ideal_discounted_gain"].tolist(),
                            values["idcg"], "IDCG", n_ideal, gain=gain, discount=discount, log_base=log_base)
    at = f"@{k}" if k is not None else ""
    ndcg = (f"\\mathrm{{NDCG}}{at} = \\frac{{\\mathrm{{DCG}}{at}}}{{\\mathrm{{IDCG}}{at}}} = "
            f"\\frac{{{short(values['dcg'])}}}{{{short(values['idcg'])}}} = {short(values['ndcg'])}")
    return {"dcg": _aligned(dcg_lines), "idcg": _aligned(idcg_lines), "ndcg": ndcg}


def _aligned(lines: list[str]) -> str:
    head, *rest = lines
    left, right = head.split(" = ", 1)
    body = [f"{left} &= {right}"] + [f"&{line}" for line in rest]
    return "\\begin{aligned}" + " \\\\ ".join(body) + "\\end{aligned}"


# ---- cached work for reruns -----------------------------------------------------------------------
# A rerun that changes nothing the numbers depend on (a click elsewhere, a language switch for the
# numbers) reuses these; inputs are plain tuples so hashing is cheap.

import streamlit as st  # noqa: E402

from metrics.ndcg import all_variants, breakdown  # noqa: E402
from ui.charts import discount_curves_chart, discounted_gain_chart, running_chart  # noqa: E402


@st.cache_data(max_entries=32, show_spinner=False)
def compute(grades: tuple, unretrieved: tuple, k, gain: str, discount: str, base: float, idcg: str,
            rows_cap: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(wide variant table, breakdown of the first positions) for the chosen variant."""
    pool = list(grades) + list(unretrieved)
    wide = variants_wide(all_variants(list(grades), k=k, log_base=base, pool=pool))
    n_list = len(grades)
    n_ideal = len(pool) if idcg == "judged" else n_list
    longest = min(k, max(n_list, n_ideal)) if k else max(n_list, n_ideal)
    cut = min(k or rows_cap, rows_cap) if longest > rows_cap else k
    bd = breakdown(list(grades), k=cut, gain=gain, discount=discount, log_base=base,
                   pool=pool if idcg == "judged" else None)
    return wide, bd


@st.cache_data(max_entries=32, show_spinner=False)
def chart_specs(bd: pd.DataFrame, labels: tuple, base: float, lang: str) -> tuple[dict, dict, dict]:
    """Vega-Lite specs of the three charts (built once per ranking and language; not re-validated)."""
    n_curve = max(len(bd), 10)
    return (discounted_gain_chart(bd, list(labels)).to_dict(validate=False),
            running_chart(bd).to_dict(validate=False),
            discount_curves_chart(n_curve, base).to_dict(validate=False))
