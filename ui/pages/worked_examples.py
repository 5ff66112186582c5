"""Page logic of Worked examples (``pages/worked_examples.py`` lays it out): its field for :mod:`ui.state`
(which document is open: ``doc``) and the text and tables it shows.  Every document's data, printed number
and verdict comes from :mod:`metrics.lessons.examples`; every number from :mod:`metrics`.
"""
from __future__ import annotations

import pandas as pd

from metrics.lessons.examples import (
    DOCUMENTS,
    FORMULAS,
    VERDICTS,
    explanation_values,
    findings,
    judge_all,
    position_table,
    setup,
)
from ui import state as ui_state
from ui.escape import html
from ui.i18n import registry_text, t
from ui.links import GAIN_CHOICES, playground_query_for
from ui.numbers import exact, show
from ui.shell import HTML_LANG

__all__ = ["PAGE", "FIELDS", "quote_html", "verdict_name", "like", "numbers", "verdict_rows", "position_rows",
           "position_parts", "playground_query", "fit"]

PAGE = "worked_examples"
SECTION = "worked_examples"
FIELDS = (ui_state.Field("we_doc", "doc", default=next(iter(DOCUMENTS)), parse=ui_state.choice(tuple(DOCUMENTS))),)


def verdict_name(kind: str) -> str:
    return registry_text("verdict", VERDICTS[kind], "name")


def num(x) -> str:
    return "—" if x is None else show(x)


def like(printed_text: str, x) -> str:
    """An exact value written like the printed one (percent or not), with two more digits.

    >>> like("81.86%", 0.818354), like("6.86", 6.861126)
    ('81.8354%', '6.8611')
    """
    if x is None:
        return "—"
    if printed_text.strip().endswith("%"):
        return f"{show(x * 100)}%"
    return num(x)


def fit(n_rows: int) -> int:
    """A table height showing every row (no inner scrolling): 35 px per row plus the header."""
    return 35 * (n_rows + 1) + 3


def _reason(v, example) -> str:
    p = v.printed
    if p.quantity in ("relevances", "ideal_vector"):
        return t(f"{SECTION}.reason.list_{v.kind}", computed=v.values.get("computed", ""))
    fmt = {"printed": p.text, "exact": like(p.text, v.exact), "rounded": v.rounded,
           "recomputed": like(p.text, v.recomputed), "named": like(p.text, v.named_value),
           "alt": like(p.text, v.alt_value),
           "alt_items": t(f"{SECTION}.items.{example.alt_idcg_items.key}") if example.alt_idcg_items else ""}
    return " ".join(t(f"{SECTION}.reason.{kind}", **fmt) for kind in v.kinds)


def _quantity_name(p) -> str:
    name = t(f"{SECTION}.quantity.{p.quantity}", position=p.position)
    if p.variant:
        name += f" ({t(f'{SECTION}.variant_{p.variant}')})"
    return name


def numbers(example) -> dict[str, str]:
    """Placeholders for the explanations: ``<printed key>_printed`` (as printed) / ``_exact`` / ``_rounded`` /
    ``_named`` / ``_alt`` / ``_recomputed``, the printed terms (``terms_printed``, ``terms_sum_printed``),
    the findings' values and :func:`metrics.lessons.examples.explanation_values`."""
    out: dict[str, str] = {}
    for v in judge_all(example):
        p = v.printed
        out[f"{p.key}_printed"] = p.text
        if p.quantity in ("relevances", "ideal_vector"):
            continue
        out[f"{p.key}_exact"] = like(p.text, v.exact)
        out[f"{p.key}_rounded"] = v.rounded
        out[f"{p.key}_named"] = like(p.text, v.named_value)
        out[f"{p.key}_alt"] = like(p.text, v.alt_value)
        out[f"{p.key}_recomputed"] = like(p.text, v.recomputed)
    terms = [p.text for p in example.printed if p.quantity == "dcg_term" and not p.variant]
    out["terms_printed"] = ", ".join(terms)
    out["terms_sum_printed"] = "+".join(terms)
    for f in findings(example):
        for key, value in f.values.items():
            out.setdefault(key, num(value) if isinstance(value, float) else
                           (t(f"{SECTION}.items.{value}") if key.startswith("items_") else str(value)))
    for key, value in explanation_values(example).items():
        out[key] = num(value)
    return out


def verdict_rows(example) -> pd.DataFrame:
    """One row per printed number: what it is, as printed, exact, rounded like the document, verdict, why."""
    rows = []
    for v in judge_all(example):
        p = v.printed
        rows.append({
            t(f"{SECTION}.col.number"): _quantity_name(p),
            t(f"{SECTION}.col.printed"): p.text,
            t(f"{SECTION}.col.exact"): like(p.text, v.exact) if v.exact is not None else v.values.get("computed", ""),
            t(f"{SECTION}.col.rounded"): v.rounded or "",
            t(f"{SECTION}.col.verdict"): " · ".join(verdict_name(k) for k in v.kinds),
            t(f"{SECTION}.col.explanation"): _reason(v, example),
        })
    return pd.DataFrame(rows)


def position_rows(example, variant: str) -> pd.DataFrame:
    table = position_table(example, variant=variant)
    show_cols = {
        "position": t(f"{SECTION}.col.position"),
        "label": t(f"{SECTION}.col.label"),
        "relevance": t(f"{SECTION}.col.relevance"),
        "printed_divisor": t(f"{SECTION}.col.divisor_printed"),
        "divisor": t(f"{SECTION}.col.divisor_exact"),
        "printed_dcg_term": t(f"{SECTION}.col.term_printed"),
        "dcg_term": t(f"{SECTION}.col.term_exact"),
        "dcg_term_verdict": t(f"{SECTION}.col.term_verdict"),
        "ideal_relevance": t(f"{SECTION}.col.ideal_relevance"),
        "printed_idcg_term": t(f"{SECTION}.col.ideal_term_printed"),
        "idcg_term": t(f"{SECTION}.col.ideal_term_exact"),
        "idcg_term_verdict": t(f"{SECTION}.col.ideal_term_verdict"),
    }
    if not any(example.labels or ()):
        show_cols.pop("label")
    out = table[list(show_cols)].copy()
    for col in ("dcg_term_verdict", "idcg_term_verdict"):
        out[col] = [verdict_name(k) if k else "" for k in out[col]]
    for col in ("divisor", "dcg_term", "idcg_term"):
        out[col] = [num(x) if x == x else "" for x in out[col]]
    for col in ("relevance", "ideal_relevance"):
        out[col] = [exact(x) if x == x else "" for x in out[col]]
    return out.rename(columns=show_cols)


def position_parts(example, variant: str) -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    """:func:`position_rows` as two tables, so each fits a projector's column beside the sidebar: the ranking's
    side (position, item, grade, divisor, DCG term, verdict) and the ideal side (position, ideal grade, IDCG
    term, verdict); positions past the ideal list are left out of the second.  Returns both and the number
    columns (every cell as shown).

    >>> from metrics.lessons.examples import EXAMPLES
    >>> ranked, ideal, numeric = position_parts(EXAMPLES["003-blog"], "")
    >>> list(ranked.columns)[:3], len(ranked), len(ideal)
    (['Position', 'Grade', 'Divisor (printed)'], 6, 6)
    """
    rows = position_rows(example, variant).astype(str).replace({"nan": "", "None": ""})
    c = {k: t(f"{SECTION}.col.{k}") for k in ("position", "label", "relevance", "divisor_printed", "divisor_exact",
                                             "term_printed", "term_exact", "term_verdict", "ideal_relevance",
                                             "ideal_term_printed", "ideal_term_exact", "ideal_term_verdict")}
    ranked_cols = [c[k] for k in ("position", "label", "relevance", "divisor_printed", "divisor_exact",
                                  "term_printed", "term_exact", "term_verdict") if c[k] in rows.columns]
    ideal_cols = [c[k] for k in ("position", "ideal_relevance", "ideal_term_printed", "ideal_term_exact",
                                 "ideal_term_verdict")]
    ranked = rows[rows[c["relevance"]] != ""][ranked_cols].reset_index(drop=True)
    ideal = rows[rows[c["ideal_relevance"]] != ""][ideal_cols].reset_index(drop=True)
    numeric = [c[k] for k in ("position", "relevance", "divisor_printed", "divisor_exact", "term_printed",
                              "term_exact", "ideal_relevance", "ideal_term_printed", "ideal_term_exact")]
    return ranked, ideal, numeric


def playground_query(example, variant: str, lang: str) -> dict[str, str]:
    """The playground link reproducing ``example`` under the formula of ``variant`` (or the one it follows)."""
    s = setup(example, variant or None)
    return playground_query_for(s["rels"], labels=s["labels"], unretrieved=s["unretrieved"], k=s["k"],
                                gain=s["gain"] if s["gain"] in GAIN_CHOICES else None, discount=s["discount"],
                                base=s["base"], idcg=s["idcg"], lang=lang)


def formula_name(example, variant: str) -> str:
    return t(f"{SECTION}.formula.{FORMULAS[variant or example.implied].key}")


def quote_html(text: str, lang: str) -> str:
    """A document's words as a block quote marked with their language (``lang="zh-Hans"``, ``"ko"``), so a
    screen reader reads them in that language whatever the page's language.  Fixed markup, the text escaped.

    >>> quote_html("结果为3、2 <b>", "zh")
    '<blockquote lang="zh-Hans"><p>结果为3、2 &lt;b&gt;</p></blockquote>'
    """
    body = "<br>".join(html(line) for line in str(text).splitlines()) or html(text)
    return f'<blockquote lang="{HTML_LANG.get(lang, lang if lang.isalpha() else "und")}"><p>{body}</p></blockquote>'
