"""What the playground shows about the numbers: the variant table, plain sentences, the formula
with the user's numbers substituted.  Every number comes from :mod:`metrics`; this module only
arranges, rounds and words it.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from metrics.registry import DISCOUNTS, GAINS, dcg_latex, resolve_discount, resolve_gain
from ui.i18n import registry_text, t
from ui.numbers import exact, show, show_trimmed

if TYPE_CHECKING:  # pandas only for the variant tables, drawn after the numbers
    import pandas as pd

VARIANT_COLUMNS = ("cg", "dcg", "idcg_list", "ndcg_list", "idcg_judged", "ndcg_judged")


def short(x: float, digits: int = 3) -> str:
    """A number for a formula: fixed decimals without trailing zeros (3.000 -> 3, 1.2619 -> 1.262)."""
    return show_trimmed(x, digits)


def variants_wide(variants: pd.DataFrame) -> pd.DataFrame:
    """One row per gain × discount with both IDCG sources side by side (from :func:`metrics.all_variants`)."""
    import pandas as pd

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


def gain_name(gain: str) -> str:
    """A gain's name in this run's language; ``"map"`` is the playground's gain map."""
    return t("playground.gain_map_name") if gain == "map" else registry_text("gain", GAINS[gain], "name")


def variant_name(gain: str, discount: str, idcg: str | None = None) -> str:
    text = f"{gain_name(gain)} · {registry_text('discount', DISCOUNTS[discount], 'name')}"
    if idcg:
        text += f" · {t('playground.idcg_' + idcg)}"
    return text


def variants_display(wide: pd.DataFrame, gain: str, discount: str, idcg: str) -> tuple[pd.DataFrame, list[str],
                                                                                    pd.DataFrame]:
    """The variant table for the page: the chosen variant first, marked ★ in the variant column and in the
    header of its NDCG column; translated names and headers; numbers at display precision (4 decimals).

    Returns the table, its number columns and its marks (the chosen variant's row, for :func:`ui.tables.table`).
    """
    import pandas as pd

    from ui.numbers import show

    chosen = (wide["gain"] == gain) & (wide["discount"] == discount)
    ordered = pd.concat([wide[chosen], wide[~chosen]], ignore_index=True)
    names = [("★ " if i == 0 else "") + variant_name(g, d) for i, (g, d) in
             enumerate(zip(ordered["gain"], ordered["discount"]))]
    other = "list" if idcg == "judged" else "judged"
    # the chosen IDCG source's NDCG first, the other source last
    columns = [f"ndcg_{idcg}", f"idcg_{idcg}", "dcg", "cg", f"ndcg_{other}", f"idcg_{other}"]
    headers = {c: t(f"playground.col_{c}") for c in columns}
    headers[f"ndcg_{idcg}"] += " ★"
    variant = t("playground.col_variant")
    frame = pd.DataFrame({variant: names, **{headers[c]: [show(x) for x in ordered[c]] for c in columns}})
    marks = pd.DataFrame([["chosen" if i == 0 else ""] * frame.shape[1] for i in range(len(frame))],
                         columns=frame.columns)
    return frame, [headers[c] for c in columns], marks


def position_tables(bd: pd.DataFrame, labels) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """The per-position table as two (your ranking; the ideal order), so each fits a projector's column beside
    the sidebar: translated headers, grades exact, the rest at display precision.  Returns both tables and
    their number columns.

    >>> from metrics.ndcg import breakdown
    >>> ranked, ideal, numeric = position_tables(breakdown([3, 2], pool=[3, 2, 3]), ["A", "B"])
    >>> ranked.values.tolist()
    [['1', 'A', '3', '3.0000', '1.0000', '3.0000', '3.0000'], ['2', 'B', '2', '2.0000', '1.5850', '1.2619', '4.2619']]
    >>> ideal.iloc[:, 0].tolist(), ideal.iloc[:, 1].tolist()   # the ideal order: 3, 3, 2 of the three judged
    (['1', '2', '3'], ['3', '3', '2'])
    """
    import pandas as pd

    from ui.numbers import exact, show
    from ui.pages.playground.export import export_frame

    frame = export_frame(bd, labels)
    header = {c: t(f"playground.bd_{c}") for c in frame.columns}

    def part(columns, present):
        rows = frame[frame[present].notna()]
        out = {}
        for c in columns:
            if c in ("position", "relevance", "ideal_relevance"):
                out[header[c]] = [exact(x) for x in rows[c]]
            elif c == "label":
                out[header[c]] = [str(x) for x in rows[c]]
            else:
                out[header[c]] = [show(x) for x in rows[c]]
        return pd.DataFrame(out)

    ranked = part(("position", "label", "relevance", "gain", "discount", "discounted_gain", "dcg"), "relevance")
    ideal = part(("position", "ideal_relevance", "ideal_gain", "ideal_discounted_gain", "idcg", "ndcg"),
                 "ideal_relevance")
    numeric = [header[c] for c in frame.columns if c != "label"]
    return ranked, ideal, numeric


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
        out.append(t("playground.obs_gain_differs", linear=show(lin.loc[d, f"ndcg_{idcg}"]),
                     exponential=show(exp.loc[d, f"ndcg_{idcg}"])))
    row = wide[(wide["gain"] == gain) & (wide["discount"] == discount)].iloc[0]
    if not len(unretrieved):
        out.append(t("playground.obs_no_unretrieved"))
    elif row["idcg_list"] == row["idcg_judged"]:
        out.append(t("playground.obs_sources_equal"))
    else:
        out.append(t("playground.obs_sources_differ", idcg_list=show(row["idcg_list"]),
                     idcg_judged=show(row["idcg_judged"]), ndcg_list=show(row["ndcg_list"]),
                     ndcg_judged=show(row["ndcg_judged"])))
    # The extremes over all eight variants.
    long = [(float(r[f"ndcg_{s}"]), r["gain"], r["discount"], s) for _, r in wide.iterrows()
            for s in ("list", "judged")]
    lo, hi = min(long), max(long)
    if hi[0] - lo[0] > 1e-12:
        out.append(t("playground.obs_range", low=show(lo[0]), low_name=variant_name(*lo[1:]),
                     high=show(hi[0]), high_name=variant_name(*hi[1:])))
    else:
        out.append(t("playground.obs_all_equal", value=show(hi[0])))
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
    grade_text = exact(grade)
    top = g.latex.replace("rel_{i}", grade_text)
    bottom = _PLUS_ONE.sub(lambda m: f"({int(m.group(1)) + 1})", d.formula(log_base, str(position)))
    return f"\\frac{{{top}}}{{{bottom}}}"


TERMS_SHOWN = 8


def _sum_lines(grades, terms, total: float, name: str, n_total: int, *, gain: str, discount: str,
               log_base: float, k: int | None = None) -> list[str]:
    """``name@n = Σ ...``, the terms with numbers written in, their values, the total.

    At most TERMS_SHOWN terms are written out; ``\\cdots_{(m)}`` stands for the m others.  A cutoff ``k``
    past the end of the ``n_total`` positions is written as it is with the sum stopping at the end:
    ``DCG@6 = Σ_{i=1}^{min(6, 2)}`` (:func:`metrics.ndcg.positions_counted`).
    """
    shown = min(len(grades), TERMS_SHOWN, n_total)
    past = k is not None and k > n_total
    head = dcg_latex(gain, discount, log_base, k=str(k) if past else str(n_total),
                     upper=f"\\min({k},\\,{n_total})" if past else None)
    head = head.replace("\\mathrm{DCG}", f"\\mathrm{{{name}}}", 1)
    symbolic = [term_substituted(grades[i], i + 1, gain=gain, discount=discount, log_base=log_base)
                for i in range(shown)]
    values = [short(terms[i]) for i in range(shown)]
    if n_total > shown:
        symbolic.append("\\cdots")
        values.append(f"\\cdots_{{({n_total - shown})}}")
    per_line = TERMS_PER_LINE.get(discount, 3)
    return [head, *_wrapped(symbolic, per_line), *_wrapped(values, VALUES_PER_LINE), f"= {short(total)}"]


#: Substituted terms per line, by discount: what fits a phone's width (390 px), so no formula runs off it
#: (three ``gain / log(i + 1)`` fractions, two of the wider ``gain / max(1, log i)``; other discounts three).
TERMS_PER_LINE = {"standard": 3, "jarvelin": 2}
#: Values per line of the sum (``= 3 + 1.893 + 1.5 + 0.861``): six ran off a 390 px phone (issue 36).
VALUES_PER_LINE = 4


def _wrapped(terms: list[str], per_line: int) -> list[str]:
    r"""``= a + b + c`` then ``\quad + d + e + f`` ...: one sum over several lines of an aligned block.

    >>> _wrapped(["1", "2", "3", "4"], 3)
    ['= 1 + 2 + 3', '\\quad + 4']
    """
    chunks = [terms[i: i + per_line] for i in range(0, len(terms), per_line)] or [["0"]]
    return ["= " + " + ".join(chunks[0])] + ["\\quad + " + " + ".join(c) for c in chunks[1:]]


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
                           "DCG", n_actual, gain=gain, discount=discount, log_base=log_base, k=k)
    idcg_lines = _sum_lines(ideal["ideal_relevance"].tolist(), ideal["ideal_discounted_gain"].tolist(),
                            values["idcg"], "IDCG", n_ideal, gain=gain, discount=discount, log_base=log_base, k=k)
    at = f"@{k}" if k is not None else ""
    ndcg = (f"\\mathrm{{NDCG}}{at} = \\frac{{\\mathrm{{DCG}}{at}}}{{\\mathrm{{IDCG}}{at}}} = "
            f"\\frac{{{short(values['dcg'])}}}{{{short(values['idcg'])}}} = {short(values['ndcg'])}")
    return {"dcg": _aligned(dcg_lines), "idcg": _aligned(idcg_lines), "ndcg": ndcg}


def _aligned(lines: list[str]) -> str:
    head, *rest = lines
    left, right = head.split(" = ", 1)
    body = [f"{left} &= {right}"] + [f"&{line}" for line in rest]
    return "\\begin{aligned}" + " \\\\ ".join(body) + "\\end{aligned}"
