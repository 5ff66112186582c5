"""Page logic of Variants & libraries (``pages/variants.py`` lays it out): its fields for :mod:`ui.state` and
the tables it shows.  Numbers come from :mod:`metrics.lessons.libraries` and :mod:`metrics.ndcg`.

Every input is in the link (``base``, ``n``; the ranking ``rels``, ``unretrieved``, ``k``, ``scores``,
``docnos``; the tie example ``tie_rels``, ``tie_scores``, ``tie_docnos``; the two rankings compared ``a``,
``b``, ``pool``, ``matter_k``; the flip search ``first``, ``second``, ``flip``).  The playground's ranking
is copied in on request (:func:`ui.pages.playground.last_view`), so a link never depends on another page.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.lessons.examples import EXAMPLES, GROUND_TRUTH_004
from metrics.lessons.libraries import LIBRARIES, VARIANTS
from metrics.ndcg import ndcg
from metrics.registry import DISCOUNTS, GAINS, TIES, dcg_latex
from ui import state as ui_state
from ui.escape import markdown
from ui.i18n import registry_text, t
from ui.links import MAX_GRADE, format_base
from ui.numbers import exact_list, show
from ui.widgets import K_ALL, k_parser

__all__ = ["PAGE", "FLIP_MAX", "FIELDS", "variant_label", "library_table", "library_tables", "library_errors",
           "convention_text", "coincide_text", "tie_table", "matter_table", "wins", "flip_text", "formula_grid",
           "use_playground"]

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
    *(ui_state.Field(f"va_rank_{side}", side, default=EXAMPLES[doc].relevances, parse=_grades(),
                     label=f"variants.ranking_{side}", **_LIST) for side, doc in (("a", "004-recsys1"),
                                                                                   ("b", "004-recsys2"))),
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
                       t(f"variants.idcg.{v.idcg}")])


def use_playground(state, view) -> None:
    """Button callback: copy the playground's ranking and cutoff (``ui.pages.playground.last_view``) into the fields."""
    ranking, k = view
    state["va_grades"] = ui_state.list_encoder(", ")(ranking.grades())
    state["va_unretrieved"] = ui_state.list_encoder(", ")(ranking.unretrieved_grades())
    state["va_k"] = K_ALL if k is None else k
    state["va_docnos"] = _ids_text(ranking.labels())
    state["va_scores"] = ""


def ideal_from(idcg: str, ideal_order: str) -> str:
    """The ``variants.idcg`` entry naming a library's ideal ranking: its IDCG source, or ``given`` for the judged
    items in the order given (Spark's ideal, :data:`metrics.lessons.libraries.IDEAL_ORDERS`).

    >>> ideal_from("judged", "gain"), ideal_from("judged", "given")
    ('judged', 'given')
    """
    return "given" if ideal_order == "given" else idcg


def library_table(table: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """The libraries' values with translated conventions: library (pinned), NDCG, where IDCG comes from and k
    first (what a reader compares), then the formula's parts, the totals and the source the convention was read
    from (file, function, version).  And its column_config."""
    col = {name: t(f"variants.col.{name}") for name in
           ("library", "ndcg", "idcg_source", "k", "gain", "discount", "base", "ties", "dcg", "idcg", "source")}
    frame = pd.DataFrame({
        col["library"]: [LIBRARIES[key].name for key in table["key"]],
        col["ndcg"]: [show(x) for x in table["ndcg"]],
        col["idcg_source"]: [t(f"variants.idcg.{ideal_from(s, o)}") for s, o in zip(table["idcg_source"],
                                                                                   table["ideal_order"])],
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


def library_tables(table: pd.DataFrame) -> list[dict]:
    """The libraries' values as two tables for :func:`ui.tables.table` (its keyword arguments), each whole beside
    the sidebar (one block per library on a phone): the values a reader compares, then the conventions and the
    source each was read from."""
    shown, _ = library_table(table)
    col = {name: t(f"variants.col.{name}") for name in ("library", "ndcg", "idcg_source", "k", "gain", "discount",
                                                         "base", "ties", "dcg", "idcg", "source")}
    values = [col[c] for c in ("library", "ndcg", "idcg_source", "k", "dcg", "idcg")]
    conventions = [col[c] for c in ("library", "gain", "discount", "base", "ties", "source")]
    return [dict(frame=shown[values], numeric=[col[c] for c in ("ndcg", "k", "dcg", "idcg")],
                 label=t("variants.libraries"), test_id="va_libraries"),
            dict(frame=shown[conventions], label=t("variants.conventions"), test_id="va_conventions")]


def library_errors(table: pd.DataFrame) -> list[str]:
    """One line per library that could not compute (its name and the message, escaped)."""
    errors = table.get("error", pd.Series([""] * len(table)))
    return [f"{LIBRARIES[key].name}: {markdown(err, 200)}" for key, err in zip(table["key"], errors)
            if isinstance(err, str) and err]


def convention_text(lib) -> str:
    """A library's conventions as a Markdown list: ties, where IDCG comes from, IDCG = 0, notes."""
    return (
        f"- {t('variants.col.ties')}: {registry_text('library', lib, 'ties_note')}\n"
        f"- {t('variants.col.idcg_source')}: "
        f"{t(f'variants.idcg.{ideal_from(lib.convention.variant.idcg, lib.convention.ideal_order)}')}\n"
        f"- {t('variants.col.idcg_zero')}: {registry_text('library', lib, 'idcg_zero')}\n"
        f"- {t('variants.col.notes')}: {registry_text('library', lib, 'notes')}"
    )


def coincide_text(c: dict, base: str) -> str:
    """Where the discounts coincide (:func:`metrics.lessons.libraries.coincidences`) for log base ``base``."""
    return t("variants.coincide", base=base, same=", ".join(map(str, c["same_weight_positions"])) or "—",
             equal=", ".join(map(str, c["jarvelin_equal_weight_positions"])))


def tie_table(spread: pd.DataFrame) -> pd.DataFrame:
    """The tie rules' NDCG (:func:`metrics.lessons.libraries.tie_spread`) with the rules' names; adds the names
    to ``spread`` as ``name`` (the chart's labels)."""
    spread["name"] = [registry_text("ties", TIES[x], "name") for x in spread["ties"]]
    return pd.DataFrame({t("variants.col.rule"): spread["name"],
                         t("variants.col.ndcg"): [show(x) for x in spread["ndcg"]]})


def matter_table(cmp: pd.DataFrame) -> dict:
    """Two rankings under every variant and library (:func:`metrics.lessons.libraries.compare_rankings`) as a
    wrapping table's keyword arguments: every whole name and its winner readable on a projector and a phone."""
    names = [variant_label(v) if kind == "variant" else LIBRARIES[v].name
             for v, kind in zip(cmp["variant"], cmp["kind"])]
    a, b = t("variants.col.ndcg_a"), t("variants.col.ndcg_b")
    frame = pd.DataFrame({
        t("variants.col.variant"): names,
        t("variants.col.winner"): [t(f"variants.winner.{w}") for w in cmp["winner"]],
        a: [show(x) for x in cmp["ndcg_a"]],
        b: [show(x) for x in cmp["ndcg_b"]],
        t("variants.col.kind"): [t(f"variants.kind.{x}") for x in cmp["kind"]],
    })
    return dict(frame=frame, numeric=[a, b], label=t("variants.matter"), test_id="va_matter")


def wins(cmp: pd.DataFrame) -> dict[str, int]:
    """How many variants and libraries each ranking wins: ``{"a": .., "b": .., "tie": ..}``."""
    counts = cmp["winner"].value_counts()
    return {w: int(counts.get(w, 0)) for w in ("a", "b", "tie")}


def flip_text(first: str, second: str, pair) -> str:
    """The sentence for two rankings ``pair`` whose order variants ``first`` and ``second`` disagree on
    (:func:`metrics.lessons.libraries.find_flip`), with both rankings' NDCG under each."""
    a, b = pair
    values = {}
    for name, key in (("1", first), ("2", second)):
        v = VARIANTS[key]
        for label, ranking in (("a", a), ("b", b)):
            values[label + name] = show(ndcg(ranking, gain=v.gain, discount=v.discount, log_base=v.log_base))
    return t("variants.flip_found", a=exact_list(a), b=exact_list(b), **values)


def formula_grid(base: float) -> None:
    """Every gain × discount DCG formula for log base ``base``: a grid with the discounts as column headers (a
    label in each cell instead when the columns stack on a phone)."""
    with st.container(key="compact_va_formulas"):
        with st.container(key="stackhead_va_formulas"):  # the column headers: hidden when the columns stack
            head = st.columns([1, 2, 2])
        for col, d in zip(head[1:], DISCOUNTS.values()):
            col.markdown(f"**{registry_text('discount', d, 'name')}**")
        for g in GAINS.values():
            row = st.columns([1, 2, 2], vertical_alignment="center")
            row[0].markdown(f"**{registry_text('gain', g, 'name')}**", help=registry_text("gain", g, "help"))
            for col, d in zip(row[1:], DISCOUNTS.values()):
                with col:
                    with st.container(key=f"stacked_va_{g.key}_{d.key}"):  # ... and each cell names its column
                        st.caption(registry_text("discount", d, "name"))
                    st.latex(dcg_latex(g.key, d.key, base))
