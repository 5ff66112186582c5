"""Page logic of Variants & libraries (``pages/variants.py`` lays it out): its fields for :mod:`ui.state` and
the tables it shows.  Numbers come from :mod:`metrics.lessons.libraries` and :mod:`metrics.ndcg`.

Every input is in the link (``base``, ``n``; the ranking ``rels``, ``unretrieved``, ``k``, ``scores``,
``docnos``; the tie example ``tie_rels``, ``tie_scores``, ``tie_docnos``; the two rankings compared ``a``,
``b``, ``pool``, ``matter_k``; the flip search ``first``, ``second``, ``flip``).  The playground's ranking
is copied in on request (:func:`ui.playground.last_view`), so a link never depends on another page.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.lessons.examples import EXAMPLES, GROUND_TRUTH_004
from metrics.lessons.libraries import LIBRARIES, VARIANTS
from metrics.registry import DISCOUNTS, GAINS, TIES
from ui import state as ui_state
from ui.i18n import registry_text, t
from ui.links import MAX_GRADE, format_base
from ui.numbers import show
from ui.widgets import K_ALL, k_parser

__all__ = ["PAGE", "FLIP_MAX", "FIELDS", "variant_label", "library_table", "use_playground"]

PAGE = "variants"
FLIP_MAX = 6  # grades permuted by the flip search (6! orders, compared pairwise)
MAX_ITEMS = 1_000
MAX_IDS_CHARS = 50_000


def _grades(max_items: int = MAX_ITEMS, *, allow_empty: bool = False):
    # 2^1025 - 1 overflows: every variant must be computable
    return ui_state.grades(max_items, allow_empty=allow_empty, max_value=MAX_GRADE)


def _ids(raw) -> tuple[str, ...]:
    """Comma-separated document ids (spaces around them dropped)."""
    text = ui_state.text(MAX_IDS_CHARS)(raw)
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _ids_text(ids) -> str:
    return ", ".join(ids)


_LIST = dict(encode=ui_state.list_encoder(","), text=ui_state.list_encoder(", "))

FIELDS = (
    ui_state.Field("va_base", "base", default="2", parse=ui_state.choice(("2", "e", "10"))),
    ui_state.Field("va_curve_n", "n", default=10, parse=ui_state.integer(2, 30)),
    ui_state.Field(
        "va_grades", "rels", default=(3.0, 2.0, 3.0, 0.0, 1.0, 2.0), parse=_grades(), label="variants.grades", **_LIST
    ),
    ui_state.Field(
        "va_unretrieved",
        "unretrieved",
        default=(3.0, 0.0),
        parse=_grades(allow_empty=True),
        label="variants.unretrieved",
        **_LIST,
    ),
    ui_state.Field("va_k", "k", default=6, parse=k_parser(10 * MAX_ITEMS)),
    ui_state.Field(
        "va_scores",
        "scores",
        default=(),
        parse=ui_state.numbers(MAX_ITEMS, allow_empty=True),
        label="variants.scores",
        **_LIST,
    ),
    ui_state.Field(
        "va_docnos", "docnos", default=(), parse=_ids, encode=",".join, text=_ids_text, label="variants.docnos"
    ),
    ui_state.Field(
        "va_tie_grades",
        "tie_rels",
        default=(3.0, 0.0, 2.0, 1.0, 2.0),
        parse=_grades(),
        label="variants.ties_grades",
        **_LIST,
    ),
    ui_state.Field(
        "va_tie_scores",
        "tie_scores",
        default=(0.9, 0.9, 0.5, 0.5, 0.5),
        parse=ui_state.numbers(MAX_ITEMS),
        label="variants.ties_scores",
        **_LIST,
    ),
    ui_state.Field(
        "va_tie_docnos",
        "tie_docnos",
        default=("a", "b", "c", "d", "e"),
        parse=_ids,
        encode=",".join,
        text=_ids_text,
        label="variants.ties_docnos",
    ),
    ui_state.Field(
        "va_rank_a",
        "a",
        default=EXAMPLES["004-recsys1"].relevances,
        parse=_grades(),
        label="variants.ranking_a",
        **_LIST,
    ),
    ui_state.Field(
        "va_rank_b",
        "b",
        default=EXAMPLES["004-recsys2"].relevances,
        parse=_grades(),
        label="variants.ranking_b",
        **_LIST,
    ),
    ui_state.Field("va_pool", "pool", default=GROUND_TRUTH_004, parse=_grades(), label="variants.pool", **_LIST),
    ui_state.Field("va_matter_k", "matter_k", default=5, parse=k_parser(10 * MAX_ITEMS)),
    ui_state.Field("va_flip_first", "first", default="linear/standard/list", parse=ui_state.choice(tuple(VARIANTS))),
    ui_state.Field(
        "va_flip_second", "second", default="exponential/standard/list", parse=ui_state.choice(tuple(VARIANTS))
    ),
    ui_state.Field(
        "va_flip_grades",
        "flip",
        default=(3.0, 2.0, 2.0, 1.0, 0.0),
        parse=_grades(FLIP_MAX),
        label="variants.flip_grades_label",
        **_LIST,
    ),
)


def variant_label(key: str) -> str:
    v = VARIANTS[key]
    return " · ".join([registry_text("gain", GAINS[v.gain], "name"), registry_text("discount", DISCOUNTS[v.discount],
                                                                                   "name"),
                       t(f"variants.idcg_source.{v.idcg}")])


def use_playground(state, view) -> None:
    """Button callback: copy the playground's ranking and cutoff (``ui.playground.last_view``) into the fields."""
    ranking, k = view
    state["va_grades"] = ui_state.list_encoder(", ")(ranking.grades())
    state["va_unretrieved"] = ui_state.list_encoder(", ")(ranking.unretrieved_grades())
    state["va_k"] = K_ALL if k is None else k
    state["va_docnos"] = _ids_text(ranking.labels())
    state["va_scores"] = ""


def library_table(table: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """The libraries' values with translated conventions: library (pinned), NDCG, where IDCG comes from and k
    first (what a reader compares), then the formula's parts, the totals and the source the convention was read
    from (file, function, version).  And its column_config."""
    col = {name: t(f"variants.col.{name}") for name in
           ("library", "ndcg", "idcg_source", "k", "gain", "discount", "base", "ties", "dcg", "idcg", "source")}
    frame = pd.DataFrame({
        col["library"]: [LIBRARIES[key].name for key in table["key"]],
        col["ndcg"]: [show(x) for x in table["ndcg"]],
        col["idcg_source"]: [t(f"variants.idcg_source.{s}") for s in table["idcg_source"]],
        col["k"]: ["—" if kk is None or kk != kk else str(int(kk)) for kk in table["k"]],
        col["gain"]: [registry_text("gain", GAINS[g], "name") for g in table["gain"]],
        col["discount"]: [registry_text("discount", DISCOUNTS[d], "name") for d in table["discount"]],
        col["base"]: [format_base(b) for b in table["log_base"]],
        col["ties"]: [registry_text("ties", TIES[x], "name") for x in table["ties"]],
        col["dcg"]: [show(x) for x in table["dcg"]],
        col["idcg"]: [show(x) for x in table["idcg"]],
        col["source"]: [LIBRARIES[key].source for key in table["key"]],
    })
    config = {col["library"]: st.column_config.TextColumn(pinned=True, width=250),
              col["idcg_source"]: st.column_config.TextColumn(width="medium")}
    return frame, config
