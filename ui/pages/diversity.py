r"""Page logic of the Diversity page: alpha-nDCG step by step (numbers from :mod:`metrics.lessons.diversity`).

Link parameters (:data:`FIELDS`): ``ranking`` (each ranked document's subtopics, top first: letters a-z,
``-`` for none, documents separated by commas, e.g. ``ab,a,c,-,b``), ``missed`` (the judged documents the
ranking did not retrieve, same form), ``alpha`` (0 to 1) and ``k`` (1 to 20).
"""
from __future__ import annotations

import re

import pandas as pd

from metrics.lessons.diversity import MAX_DOCS, doc_names
from metrics.runfiles.measures.diversity import DEPTH
from ui import state as ui_state
from ui.formulas import aligned
from ui.i18n import join_words, t
from ui.numbers import show

__all__ = ["PAGE", "FIELDS", "DEFAULT_RANKING", "DEFAULT_MISSED", "K_RANKING", "K_MISSED", "K_ALPHA", "K_K",
           "coverage", "coverage_text", "steps_table", "greedy_display", "formula_latex", "steps_csv_frame"]

PAGE = "diversity"
K_RANKING, K_MISSED, K_ALPHA, K_K = "div_ranking", "div_missed", "div_alpha", "div_k"
# A query with three subtopics: the ranking repeats subtopic a before it reaches b; c is only in a document
# it missed.
DEFAULT_RANKING = (frozenset("a"), frozenset("a"), frozenset("ab"), frozenset(), frozenset("b"))
DEFAULT_MISSED = (frozenset("c"), frozenset("bc"))
_SEPARATORS = re.compile(r"[,，、;；]")
_ITEM = re.compile(r"[a-z]{1,26}|-|")


def coverage(*, max_items: int = MAX_DOCS, allow_empty: bool = False) -> ui_state.Parser:
    """A parser of documents' subtopics: ``ab, a, -, c`` -> ``(frozenset('ab'), frozenset('a'), frozenset(),
    frozenset('c'))``.  Letters a-z (upper case read as lower), ``-`` or nothing for a document without a
    subtopic; documents separated by commas (also ，、;).

    >>> [sorted(d) for d in coverage()("ab, A, -")]
    [['a', 'b'], ['a'], []]
    >>> coverage()("a1")
    Traceback (most recent call last):
    ui.state.BadValue: 'a1' at position 1 is not a list of subtopic letters
    """
    def parse(raw) -> tuple[frozenset, ...]:
        value = str(raw)
        if len(value) > 40 * max_items:
            raise ui_state.BadValue(value, "too_long", "too long", n=len(value), max=40 * max_items)
        if not value.strip():
            if allow_empty:
                return ()
            raise ui_state.BadValue(value, "empty", "the text is empty")
        items = [x.strip().lower() for x in _SEPARATORS.split(value)]
        if len(items) > max_items:
            raise ui_state.BadValue(value, "too_many", f"{len(items)} documents; at most {max_items}",
                                    n=len(items), max=max_items)
        out = []
        for position, item in enumerate(items, start=1):
            if not item.isascii() or not _ITEM.fullmatch(item):
                raise ui_state.BadValue(value, "subtopics", f"{item[:20]!r} at position {position} is not a list "
                                        "of subtopic letters", token=item[:20], position=position)
            out.append(frozenset(item.replace("-", "")))
        return tuple(out)

    parse.allowed = ("subtopics", {"max": max_items})
    return parse


def coverage_text(docs) -> str:
    """The link and box form of documents' subtopics: ``ab,a,-,c``.

    >>> coverage_text((frozenset("ba"), frozenset()))
    'ab,-'
    """
    return ",".join("".join(sorted(d)) or "-" for d in docs)


FIELDS = (
    ui_state.Field(K_RANKING, "ranking", default=DEFAULT_RANKING, parse=coverage(), encode=coverage_text,
                   text=lambda v: coverage_text(v).replace(",", ", "), label="diversity.ranking_name"),
    ui_state.Field(K_MISSED, "missed", default=DEFAULT_MISSED, parse=coverage(allow_empty=True), encode=coverage_text,
                   text=lambda v: coverage_text(v).replace(",", ", "), label="diversity.missed_name"),
    ui_state.Field(K_ALPHA, "alpha", default=0.5, parse=ui_state.number(0.0, 1.0)),
    ui_state.Field(K_K, "k", default=10, parse=ui_state.integer(1, DEPTH)),
)


def _seen(seen: dict) -> str:
    return " ".join(f"{s}×{n}" for s, n in seen.items()) or "–"


def steps_table(table: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """The ranking's steps for display: rank, document, subtopics, times each was seen above, the novelty
    gain as a sum of (1 − α)^seen, the plain gain, the discount and the running α-DCG."""
    def gain_terms(row) -> str:
        terms = [f"{show(1 - alpha)}^{n}" if n else "1" for n in row["seen"].values()]
        return " + ".join(terms) if terms else "0"

    return pd.DataFrame({
        t("diversity.col_rank"): table["rank"],
        t("diversity.col_doc"): table["doc"],
        t("diversity.col_subtopics"): table["subtopics"].map(lambda s: s or "–"),
        t("diversity.col_seen"): table["seen"].map(_seen),
        t("diversity.col_terms"): table.apply(gain_terms, axis=1) if len(table) else [],
        t("diversity.col_gain"): table["gain"].map(show),
        t("diversity.col_plain"): table["plain_gain"],
        "1/log₂(i+1)": table["discount"].map(show),
        t("diversity.col_dcg"): table["alpha_dcg"].map(show),
    })


def steps_numeric() -> list[str]:
    """The number columns of :func:`steps_table` (right-aligned, never wrapped, in :func:`ui.tables.table`)."""
    return [t("diversity.col_rank"), t("diversity.col_gain"), t("diversity.col_plain"), "1/log₂(i+1)",
            t("diversity.col_dcg")]


def greedy_numeric() -> list[str]:
    """The number columns of :func:`greedy_display`."""
    return [t("diversity.col_step"), t("diversity.col_gain")]


def greedy_display(steps: pd.DataFrame) -> pd.DataFrame:
    """ndeval's greedy steps for display: the document chosen, its gain, and every candidate's gain."""
    return pd.DataFrame({
        t("diversity.col_step"): steps["step"],
        t("diversity.col_doc"): steps["doc"],
        t("diversity.col_subtopics"): steps["subtopics"],
        t("diversity.col_gain"): steps["gain"].map(show),
        t("diversity.col_candidates"): steps["candidates"].map(
            lambda c: join_words(f"{d} {show(g)}" for d, g in c.items())),
    })


def formula_latex(table: pd.DataFrame, k: int, *, per_row: int = 3) -> str:
    r"""α-DCG@k with the numbers of the ranking, ``\sum G_i / \log_2(i+1)``, ``per_row`` terms a line (a phone's
    width); at most 9 terms are written, the rest is ``\cdots`` (every term still counts).

    >>> t = pd.DataFrame({"rank": [1, 2], "gain": [1.0, 0.5], "discounted": [1.0, 0.5 / 1.584962500721156]})
    >>> latex = formula_latex(t, 2)
    >>> latex.startswith("\\begin{aligned}\\alpha\\text{-DCG@}2 &= \\frac{1.0000}{\\log_2(2)}"), latex.count("\\\\")
    (True, 1)
    """
    rows = table[table["rank"] <= k]
    terms = [f"\\frac{{{show(g)}}}{{\\log_2({r + 1})}}" for r, g in zip(rows["rank"], rows["gain"]) if g]
    if len(terms) > 9:
        terms = terms[:8] + ["\\cdots"]
    total = show(float(rows["discounted"].sum())) if len(rows) else "0"
    lines = [" + ".join(terms[i:i + per_row]) for i in range(0, len(terms), per_row)] or ["0"]
    head = f"\\alpha\\text{{-DCG@}}{k} &= "
    body = [head + lines[0]] + ["&\\quad + " + line for line in lines[1:]] + [f"&= {total}"]
    return aligned(body)


def steps_csv_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The step table for the CSV download: exact numbers, plain column names."""
    return pd.DataFrame({"rank": table["rank"], "doc": table["doc"], "subtopics": table["subtopics"],
                         "seen_before": table["seen"].map(_seen), "gain": table["gain"],
                         "plain_gain": table["plain_gain"], "discount": table["discount"],
                         "alpha_dcg": table["alpha_dcg"]})


def names(ranking, missed) -> tuple[list[str], list[str]]:
    """The ids of the ranked and of the missed documents."""
    ids = doc_names(len(ranking), len(missed))
    return ids[: len(ranking)], ids[len(ranking):]
