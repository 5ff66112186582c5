"""Page logic of the Playground (``pages/playground.py`` lays it out).

State is :mod:`ui.state`'s, with the link fields of :mod:`ui.links` (``rels``, ``unretrieved``,
``labels``, ``gain``, ``discount``, ``base``, ``k``, ``idcg``).  The ranking itself is a
:class:`ui.ranking.Ranking` built from those fields on every run; the four ways to change it (typing,
dragging cards, the move buttons, the table) and the example buttons are folded into the fields here,
before any widget is drawn (:func:`absorb`).  Numbers come from :mod:`metrics` once per distinct input
(:func:`compute`, Streamlit's cache): ``all_variants`` runs at most once per rerun.  The four headline
numbers and the cards come first (:func:`headline`, :func:`cards_data`): this module imports neither
pandas nor Altair, which only the tables and charts below them need (imported there, when first used).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from metrics.lessons.examples import EXAMPLES, judge, printed_totals, setup
from metrics.ndcg import all_variants, breakdown, cg, dcg, ndcg, positions_counted
from metrics.ndcg import idcg as ideal_dcg
from ui import state as ui_state
from ui.components import cards
from ui.i18n import join_words, t
from ui.links import FIELDS, MAX_GRADE, PLAYGROUND_PATH
from ui.numbers import exact_list, show
from ui.pages.playground.explain import variants_wide
from ui.ranking import Ranking, RankingProblem
from ui.shell import slow_down
from ui.widgets import K_ALL, k_value

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PAGE", "FIELDS", "CARD_CAP", "TABLE_CAP", "CHART_CAP", "EXPORT_PREVIEW_ROWS", "EXAMPLE_GROUPS",
    "example_values", "matching_examples", "printed_beside", "verdicts_beside", "docs", "button_label", "problem_text",
    "request_example", "request_move", "CARDS_KEY", "last_view", "headline", "cards_data", "defer_rest",
    "end_first_run", "carry_problems",
    "table_key", "ranking_of", "absorb", "compute", "chart_specs", "gain_of", "settings", "full_breakdown",
]

PAGE = PLAYGROUND_PATH
CARD_CAP = 40  # cards drawn per drag area
TABLE_CAP = 200  # rows drawn in the editable table and the per-position table
CHART_CAP = 100  # positions drawn in the charts
EXPORT_PREVIEW_ROWS = 20  # rows of the Markdown / LaTeX preview (downloads hold every row)

#: Widget key of the cards (ui.components.cards); its last consumed drop is kept under _DROP_SEEN.
CARDS_KEY = "pg_cards"
_DROP_SEEN = "pg_drop_seen"
_TABLE_REV, _SHOWN = "pg_table_rev", "pg_shown"
_RAN = "pg_ran"
_PROBLEMS = "pg_link_problems"  # a deferred first run's link problems, shown again with the rest
_REPLACED = "pg_replaced_texts"  # texts of the grade boxes that code replaced (what a lagging browser may send)
_TEXT_KEYS = ("pg_rels", "pg_unret")
_PENDING_EXAMPLE, _PENDING_MOVE = "pg_pending_example", "pg_pending_move"
_VIEW = "pg_view"


def last_view(state) -> tuple[Ranking, int | None] | None:
    """The ranking and cutoff the playground last showed in this session (None before its first visit):
    how other pages (Variants) offer "use the playground's ranking" without touching its fields."""
    return state.get(_VIEW)


def example_values(key: str) -> dict:
    """The playground's field values reproducing worked example ``key`` (:func:`metrics.lessons.examples.setup`)."""
    s = setup(EXAMPLES[key])
    ranking = Ranking.from_fields(s["rels"], s["unretrieved"], s["labels"] or ())
    rels, unret, labels = ranking.fields()
    values = {f.key: f.default for f in FIELDS}  # what the example does not set (gain map, zero-IDCG) is default
    values.update({"pg_rels": rels, "pg_unret": unret, "pg_labels": labels, "pg_gain": s["gain"],
                   "pg_discount": s["discount"], "pg_base": s["base"], "pg_k": K_ALL if s["k"] is None else s["k"],
                   "pg_idcg": s["idcg"]})
    return values


def _groups() -> list[tuple[str, ...]]:
    """One button per setup: the first graded example of each document, documents sharing a setup together."""
    firsts = ["000-graded", "001-main", "002-wiki", "003-blog", "004-recsys1"]
    groups: list[list[str]] = []
    for key in firsts:
        for group in groups:
            if example_values(group[0]) == example_values(key):
                group.append(key)
                break
        else:
            groups.append([key])
    return [tuple(g) for g in groups]


#: The example buttons: each group of worked examples with the same setup (001 and 003 share one).
EXAMPLE_GROUPS = _groups()


def matching_examples(values: dict) -> list[str]:
    """The worked examples (of :data:`EXAMPLE_GROUPS`) whose setup is exactly these field values."""
    for group in EXAMPLE_GROUPS:
        if example_values(group[0]) == values:
            return list(group)
    return []


def printed_beside(keys) -> dict[str, str]:
    """quantity -> what the documents print for it, e.g. ``{"idcg": "001: 8.38 · 003: 8.37"}``.

    >>> printed_beside(["001-main", "003-blog"])["idcg"]
    '001: 8.38 · 003: 8.37'
    """
    out: dict[str, list[str]] = {}
    for key in keys:
        example = EXAMPLES[key]
        for quantity, printed in printed_totals(example).items():
            out.setdefault(quantity, []).append(f"{example.doc}: {printed.text}")
    return {q: " · ".join(texts) for q, texts in out.items()}


def verdicts_beside(keys) -> dict[str, list]:
    """quantity -> the verdicts on what each document prints (for the help of a metric)."""
    out: dict[str, list] = {}
    for key in keys:
        for quantity, printed in printed_totals(EXAMPLES[key]).items():
            out.setdefault(quantity, []).append((EXAMPLES[key].doc, judge(EXAMPLES[key], printed)))
    return out


def problem_text(exc: RankingProblem) -> str:
    """The translated message of a refused edit (its values escaped for Markdown)."""
    from ui.escape import markdown

    return t(exc.key, **{k: markdown(v, 40) if isinstance(v, str) else v for k, v in exc.fmt.items()})


def docs(keys) -> list[str]:
    """The document numbers of worked examples."""
    return [EXAMPLES[k].doc for k in keys]


def button_label(group) -> str:
    """``"001, 003 · 3, 2, 3, 0, 1, 2"``: the documents (listed the language's way) and their grades."""
    return f"{join_words(EXAMPLES[k].doc for k in group)} · {exact_list(EXAMPLES[group[0]].relevances)}"


# ---- requests from widget callbacks (run before the script; applied by absorb) -------------------
def request_example(state, key: str) -> None:
    state[_PENDING_EXAMPLE] = key


def request_move(state, action: str) -> None:
    label = state.get("pg_move_item")
    if label is not None:
        state[_PENDING_MOVE] = (label, action)


def table_key(state) -> str:
    """Widget key of the editable table: a new one whenever the ranking changed (its edits start afresh)."""
    return f"pg_table_{state.get(_TABLE_REV, 0)}"


def ranking_of(page: ui_state.PageState) -> Ranking:
    """The ranking of the page's current (last valid) field values."""
    return Ranking.from_fields(page.value("pg_rels"), page.value("pg_unret"), page.value("pg_labels"))


def _set_ranking(page: ui_state.PageState, state, ranking: Ranking, *, texts: bool) -> None:
    rels, unret, labels = ranking.fields()
    if texts:  # the change came from elsewhere: the text boxes show it (typed text is left as typed)
        replaced = state.setdefault(_REPLACED, {})
        for key, value in zip(_TEXT_KEYS, (rels, unret)):
            old = state.get(key)
            if isinstance(old, str):
                replaced[key] = ([old] + [x for x in replaced.get(key, []) if x != old])[:8]
            page.set(key, value)
    page.set("pg_labels", labels)


def _ignore_lagging_texts(page: ui_state.PageState, state) -> None:
    """A card moved (a drop, a move button) while the browser still showed the grade boxes' text from
    before an earlier move: the rerun it sent carries that old text, which is not typing.  It would undo
    the earlier move and give the items other grades; the boxes get their current text back instead."""
    replaced = state.get(_REPLACED, {})
    for key in _TEXT_KEYS:
        if state.get(key) in replaced.get(key, ()):
            page.set(key, page.value(key))


def absorb(page: ui_state.PageState, state) -> tuple[Ranking, dict[str, Exception]]:
    """Fold what the user did since the last run into the fields; return the ranking and refused edits.

    Call it after the :class:`~ui.state.PageState` is made and before any of the page's widgets is drawn.
    """
    errors: dict[str, Exception] = {}
    example = state.pop(_PENDING_EXAMPLE, None)
    if example in EXAMPLES:
        for key, value in example_values(example).items():
            page.set(key, value)
    drop = cards.read_drop(state.get(CARDS_KEY), state.get(_DROP_SEEN, 0))
    if drop is not None:
        state[_DROP_SEEN] = drop[2]  # seen, applied or not: the cards then take the server's order
    if example is None and ((drop is not None and drop[0] is not None) or _PENDING_MOVE in state):
        _ignore_lagging_texts(page, state)
    before = ranking_of(page)  # the last run's ranking (or the example's)
    ranking = before.regrade(page.parse_typed("pg_rels"), page.parse_typed("pg_unret"))
    typed = ranking != before
    if not typed and example is None:
        if drop is not None:
            try:
                ranking = ranking.drag(drop[0], drop[1], CARD_CAP)
            except RankingProblem as exc:
                errors["cards"] = exc
        try:
            ranking = ranking.edit_table(state.get(table_key(state)), TABLE_CAP, max_grade=MAX_GRADE)
        except RankingProblem as exc:
            errors["table"] = exc
            state[_TABLE_REV] = state.get(_TABLE_REV, 0) + 1
        move = state.pop(_PENDING_MOVE, None)
        if move is not None:
            try:
                ranking = ranking.move(*move)
            except RankingProblem as exc:
                errors["cards"] = exc
    if ranking != before or typed:
        _set_ranking(page, state, ranking, texts=not typed)
    state[_VIEW] = (ranking, k_value(page.value("pg_k")))
    shown = state.get(_SHOWN)
    if ranking != shown:
        state[_TABLE_REV] = state.get(_TABLE_REV, 0) + 1
        state[_SHOWN] = ranking
    return ranking, errors


def settings(page: ui_state.PageState) -> tuple:
    """``(k, gain, gain_map, discount, base, idcg, zero_idcg)``: the current valid settings, read before their
    widgets are drawn (the numbers come first on the page); bad typed text keeps the last valid value."""
    return (k_value(page.value("pg_k")), page.value("pg_gain"), page.parse_typed("pg_gain_map"),
            page.value("pg_discount"), page.parse_typed("pg_base"), page.value("pg_idcg"), page.value("pg_zero"))


def gain_of(gain: str, gain_map) -> str | dict:
    """What :mod:`metrics` takes as the gain: a registry key, or the map's dict for ``"map"``."""
    return dict(gain_map) if gain == "map" else gain


@st.cache_data(max_entries=32, show_spinner=False)
def compute(grades: tuple, unretrieved: tuple, k, gain: str, gain_map: tuple, discount: str, base: float,
            idcg: str, zero: str, rows_cap: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(wide variant table, breakdown of the first positions) for the chosen variant: the only call of
    ``all_variants`` per distinct input.  With a gain map the table has a third gain, ``"map"``."""
    pool = list(grades) + list(unretrieved)
    gains = ["linear", "exponential"] + ([dict(gain_map)] if gain == "map" else [])
    wide = variants_wide(all_variants(list(grades), k=k, log_base=base, pool=pool, gains=gains, zero_idcg=zero))
    n_list = len(grades)
    n_ideal = len(pool) if idcg == "judged" else n_list
    longest = positions_counted(max(n_list, n_ideal), k=k)
    cut = min(k or rows_cap, rows_cap) if longest > rows_cap else k
    bd = breakdown(list(grades), k=cut, gain=gain_of(gain, gain_map), discount=discount, log_base=base,
                   pool=pool if idcg == "judged" else None)
    return wide, bd


def full_breakdown(grades, unretrieved, *, k, gain, discount, base, idcg) -> pd.DataFrame:
    """Every position of the chosen variant (the downloads hold them all; the page shows the first ones)."""
    pool = list(grades) + list(unretrieved) if idcg == "judged" else None
    return breakdown(list(grades), k=k, gain=gain, discount=discount, log_base=base, pool=pool)


@st.cache_data(max_entries=32, show_spinner=False)
def chart_specs(bd: pd.DataFrame, labels: tuple, base: float, lang: str) -> tuple[dict, dict, dict]:
    """Vega-Lite specs of the three charts (built once per ranking and language; not re-validated)."""
    from ui.charts.ndcg import discount_curves_chart, discounted_gain_chart, running_chart  # Altair: only here

    n_curve = max(len(bd), 10)
    return (discounted_gain_chart(bd, list(labels)).to_dict(validate=False),
            running_chart(bd).to_dict(validate=False),
            discount_curves_chart(n_curve, base).to_dict(validate=False))


def headline(grades: tuple, unretrieved: tuple, k, gain: str, gain_map: tuple, discount: str, base: float,
             idcg: str, zero: str) -> dict[str, float]:
    """CG, DCG, IDCG and NDCG of the chosen variant (:mod:`metrics.ndcg`; the same numbers as the
    variant's row of :func:`compute`'s table, without building it).

    >>> v = headline((3.0, 2.0, 3.0, 0.0, 1.0, 2.0), (3.0, 0.0), 6, "linear", (), "standard", 2.0, "judged", "zero")
    >>> {name: round(x, 4) for name, x in v.items()}
    {'cg': 11.0, 'dcg': 6.8611, 'idcg': 8.3841, 'ndcg': 0.8184}
    """
    rel = list(grades)
    pool = rel + list(unretrieved) if idcg == "judged" else None
    opts = {"k": k, "gain": gain_of(gain, gain_map)}
    shape = {"discount": discount, "log_base": base}
    return {"cg": cg(rel, **opts), "dcg": dcg(rel, **opts, **shape), "idcg": ideal_dcg(rel, **opts, **shape, pool=pool),
            "ndcg": ndcg(rel, **opts, **shape, pool=pool, zero_idcg=zero)}


#: The component's words (``playground.*`` keys): its own key -> catalogue key.
_CARD_TEXTS = {
    "region": "cards_region", "numbers": "numbers_region", "help": "cards_help",
    "ranked_title": "ranked_header", "unretrieved_title": "unretrieved_header", "empty": "empty_list",
    "discount": "card_discount", "beyond_k": "card_beyond_k", "not_retrieved": "card_not_retrieved",
    "card_ranked": "card_ranked", "card_beyond": "card_beyond", "card_unretrieved": "card_unretrieved",
    "where_ranked": "where_ranked", "where_beyond": "where_beyond", "where_unretrieved": "where_unretrieved",
    "lifted": "drag_lifted", "preview": "drag_preview", "dropped": "drag_dropped", "cancelled": "drag_cancelled",
}


def cards_data(state, ranking: Ranking, values: dict[str, float], printed: dict[str, str], *, k, gain: str,
               gain_map: tuple, discount: str, base: float, idcg: str, zero: str,
               rest_pending: bool = False) -> dict:
    """The cards component's data (:func:`ui.components.cards.payload`): the ranking, the variant, the
    four numbers as shown (:func:`ui.numbers.show`) with what documents print beside them, the words;
    ``rest_pending``: the page stopped after them (:func:`defer_rest`), the component asks for the rest."""
    numbers = {name: {"label": t(f"playground.metric_{name}"), "text": show(values[name]),
                      "printed": t("playground.printed", text=printed[name]) if name in printed else None}
               for name in ("cg", "dcg", "idcg", "ndcg")}
    texts = {key: t(f"playground.{catalogue_key}") for key, catalogue_key in _CARD_TEXTS.items()}
    data = cards.payload(ranking, cap=CARD_CAP, k=k, gain=gain_of(gain, gain_map), discount=discount, base=base,
                     idcg=idcg, zero=zero, numbers=numbers, texts=texts, seq=state.get(_DROP_SEEN, 0))
    data["rest_pending"] = bool(rest_pending)
    return data


#: Seconds a browser's deferred first run waits before it ends (a slow server, for tests; unset: none).
SLOW_ENV = "NDCG_LAB_PLAYGROUND_SLOW"


def defer_rest(state) -> bool:
    """True on the session's first run of the playground in a browser: the page then stops after its
    numbers, cards and settings, and the cards component asks for the rest (tables, formulas, charts)
    once the browser has painted the numbers.  A first visit's numbers so appear before the browser starts
    on the heavy elements (measured: benchmarks/drag_latency.py).  Every later run draws the whole page;
    a session without a browser (AppTest; no request headers) gets the whole page at once, since nothing
    would ask for the rest."""
    first = not state.get(_RAN)
    state[_RAN] = True
    if not first:
        return False
    try:
        return bool(st.context.headers.get("User-Agent"))
    except Exception:  # no request behind this session
        return False


def end_first_run(page: ui_state.PageState, state) -> None:
    """End a first run after the numbers and cards (:func:`defer_rest`): write the address bar, and leave
    the widget fields out of the session so the next run draws their widgets from what the page state
    keeps (a value set by code for a widget not drawn in that run would outlive the widget's own: seen
    as the typed grades coming back after a visit to another page).  The page then returns.

    Never ``st.stop()`` here: the component's request for the rest can reach the server while this run is
    still going (it is sent once the cards are painted, and a fragment's rerun waits for the run to end),
    and ``st.stop()`` replaces a waiting rerun request with a stop, so the rest never came (seen on a busy
    machine; tests/browser/test_playground_first_visit.py slows this run down with :data:`SLOW_ENV` so the
    request always arrives during it)."""
    slow_down(SLOW_ENV)
    page.finish()
    state[_PROBLEMS] = list(page.problems)
    for f in FIELDS:
        if f.widget:
            state.pop(f.key, None)


def carry_problems(page: ui_state.PageState, state) -> None:
    """After a deferred first run (:func:`end_first_run`) the page state still has that run's link problems,
    so their warnings stay on screen when the rest is drawn (call it right after making the page state)."""
    carried = state.pop(_PROBLEMS, None)
    if carried and not page.problems:
        page.problems = carried
