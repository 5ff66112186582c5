"""The Run files page's "Where did this number come from?" section: a reported mean, matched to every library
and setting whose mean of a run rounds to it, and the conformance table (every library side by side).

Numbers come from :func:`metrics.runfiles.match.mean_grid` / :func:`~metrics.runfiles.match.match_grid` and
:func:`metrics.runfiles.conformance.conformance` (one engine); this module words them in the three languages
and lays them out.  The reported value and the measure are page fields (:func:`match_fields`: kept across
page switches and in the link); the run is chosen among the page's usable runs.  The grid of a qrels, run and
measure is computed once (Streamlit's resource cache, keyed by the files' digests) and every value typed
after that is matched against it.

>>> [f.param for f in match_fields()]
['match', 'match_measure']
"""
from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from metrics.lessons.match import read_value, unsigned_percent
from metrics.runfiles.conformance import REFERENCE, Conformance, conformance
from metrics.runfiles.match import (
    MEAN_DIMENSIONS,
    NDCG_FORMS,
    REFUSALS,
    RUN_LIBRARIES,
    GridTooLarge,
    MeanGrid,
    MeanMatch,
    MeasureError,
    match_grid,
    mean_grid,
    ndcg_cutoff,
)
from metrics.safe_csv import to_csv
from ui import escape
from ui import state as ui_state
from ui.i18n import registry_text, t
from ui.numbers import for_table, show
from ui.pages.match import counted, hundred_text, rounding_window

__all__ = ["SECTION", "K_VALUE", "K_MEASURE", "K_RUN", "SHOWN_FAMILIES", "SHOWN_NEAR", "MAX_VALUES", "match_fields",
           "choice_name", "dimension_name", "library_name", "settings_text", "library_sentence", "near_sentence",
           "refusal_sentence", "conformance_frames", "conformance_markdown", "grid_cached", "section",
           "precision_sentence", "family_sentence", "mean_digits"]

SECTION = "run_match"
K_VALUE, K_MEASURE, K_RUN = "rf_match_value", "rf_match_measure", "rf_match_run"
SHOWN_FAMILIES = 6
SHOWN_NEAR = 4
#: The largest grid the app evaluates for one visitor (queries × rankings × variants; 8 bytes each: 64 MB; the
#: cache holds at most CACHE_ENTRIES grids, 256 MB).  Larger files are for the command line, which the message
#: names (a run of 10,000 queries with tied scores and repeated lines needs 13M values; without repeats 2.2M to 4.3M).
MAX_VALUES = 8_000_000
CACHE_ENTRIES = 4
CACHE_TTL = "15m"


def _value(raw) -> str:
    value = ui_state.text(40)(raw).strip()
    if value:
        try:
            read_value(value)
        except ValueError as exc:
            raise ui_state.bad_number(value, exc) from None
    return value


def _measure(raw) -> str:
    value = ui_state.text(40, allow_empty=False)(raw).strip()
    try:
        ndcg_cutoff(value)
    except MeasureError as exc:
        raise ui_state.BadValue(value, f"{exc.kind}_measure", str(exc), accepted=NDCG_FORMS) from None
    return value


def match_fields() -> tuple[ui_state.Field, ...]:
    """The section's page fields (added to the Run files page's :data:`ui.pages.run_files.view.FIELDS`)."""
    return (
        ui_state.Field(K_VALUE, "match", default="", parse=_value, label=f"{SECTION}.value_name"),
        ui_state.Field(K_MEASURE, "match_measure", default="nDCG@10", parse=_measure, label=f"{SECTION}.measure_name"),
    )


# ------------------------------------------------------------------------------------------ words
def dimension_name(d: str) -> str:
    """A setting's translated name ("Tie rule")."""
    return registry_text("mean_dimension", MEAN_DIMENSIONS[d], "name")


def choice_name(d: str, choice: str) -> str:
    """A setting's choice, translated ("every qrels query (a missing one counts 0)", "first 1000 documents")."""
    table = MEAN_DIMENSIONS[d].choices
    if callable(table):  # the depths and levels tried depend on the files: a sentence with the number
        if choice == "none":
            return registry_text(f"mean_{d}", table(choice), "name")
        return t(f"{SECTION}.{d}_n", n=choice)
    kind = {"ties": "ties", "gain": "gain", "zero_idcg": "zero_idcg", "grades": "grades"}.get(d, f"mean_{d}")
    return registry_text(kind, table[choice], "name")


def library_name(key: str) -> str:
    return escape.markdown(registry_text("run_library", RUN_LIBRARIES[key], "name"), 0)


def settings_text(settings: dict) -> str:
    """A family's settings that matter, "Dimension: choice or choice · ..." (escaped for Markdown)."""
    parts = [f"{escape.markdown(dimension_name(d), 0)}: "
             + t(f"{SECTION}.or").join(escape.markdown(choice_name(d, c), 0) for c in choices)
             for d, choices in settings.items() if choices is not None]
    return " · ".join(parts) or t(f"{SECTION}.any_setting")


def _call(key: str, k) -> str:
    return RUN_LIBRARIES[key].call_at(k)


def mean_digits(target) -> int:
    """Decimals of the means shown: two more than the typed number's fraction has, at least 4 (at least 6 for
    a number that may be a mean ×100 without its % sign)."""
    if unsigned_percent(target) is not None:
        return max(target.scale + 4, 6)
    return max(target.scale + 2, 4)


def precision_sentence(target) -> str | None:
    """A percent's decimals as written with its fraction ("45.2% has 1 decimal: 0.452 as a fraction"), or the
    reading of a number above 1 and at most 100 without a % sign as a mean NDCG ×100; None for a fraction."""
    value = escape.markdown(target.text, 0)
    if target.percent:
        return counted(f"{SECTION}.precision_percent", target.decimals, value=value, decimals=target.decimals,
                       fraction=rounding_window(target)["fraction"])
    scaled = unsigned_percent(target)
    if scaled is None:
        return None
    return counted(f"{SECTION}.precision_times_100", target.decimals, value=value, decimals=target.decimals,
                   **rounding_window(scaled))


def library_sentence(result: MeanMatch, m, digits: int) -> str:
    """One library that gives the number, with its mean, how many queries it averages and its call; for a
    number typed ×100 without its % sign, the mean ×100 and the decimals it was rounded or cut at."""
    fmt = {"library": library_name(m.key), "mean": show(m.value, digits), "n": m.n_queries,
           "value": escape.markdown(result.target.text, 0), "call": escape.markdown(_call(m.key, result.k), 0)}
    if m.times_100:
        fmt.update(hundred=hundred_text(m.value, digits), p=m.decimals)
        key = "library_times_100_cut" if m.writing == "truncated" else "library_times_100"
        return counted(f"{SECTION}.{key}", m.decimals, **fmt)
    return t(f"{SECTION}.library_cut" if m.writing == "truncated" else f"{SECTION}.library_sentence", **fmt)


def family_sentence(f, digits: int) -> str:
    """A family of settings and its mean (×100 too when the number is that mean without its % sign)."""
    if f.times_100:
        return t(f"{SECTION}.family_times_100", settings=settings_text(f.settings), mean=show(f.value, digits),
                 hundred=hundred_text(f.value, digits))
    return f"{settings_text(f.settings)}: {show(f.value, digits)}"


def _shown(x: float) -> str:
    return t(f"{SECTION}.not_counted") if math.isnan(x) else show(x, 4)


def near_sentence(result: MeanMatch, m, digits: int) -> str:
    """A near miss: the library's mean, the first setting that differs, what the number needs, the queries."""
    value = escape.markdown(result.target.text, 0)
    if m.dimension is None:
        return t(f"{SECTION}.near_none", library=library_name(m.key), mean=show(m.value, digits), value=value)
    text = t(f"{SECTION}.near_sentence", library=library_name(m.key), mean=show(m.value, digits),
             dimension=escape.markdown(dimension_name(m.dimension), 0),
             theirs=escape.markdown(choice_name(m.dimension, m.theirs), 0), value=value,
             needed=t(f"{SECTION}.or").join(escape.markdown(choice_name(m.dimension, c), 0) for c in m.needed),
             changed=show(m.needed_value, digits))
    if m.queries:
        shown = t(f"{SECTION}.list_sep").join(
            t(f"{SECTION}.near_query", qid=escape.markdown(q, 40), theirs=_shown(a), needed=_shown(b))
            for q, a, b in m.queries)
        text += " " + t(f"{SECTION}.near_queries", queries=shown)
    return text


def refusal_sentence(key: str, why: str, detail: str) -> str:
    reason = escape.markdown(registry_text("refusal", REFUSALS[why], "help"), 0)
    if detail:
        return t(f"{SECTION}.refused_detail", library=library_name(key), reason=reason,
                 detail=escape.markdown(detail, 40))
    return t(f"{SECTION}.refused", library=library_name(key), reason=reason)


# ------------------------------------------------------------------------------------------ the table
def conformance_frames(conf: Conformance, refused: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The means and per-query tables as the page shows them: translated headers, library and setting names;
    ``refused`` is the grid's library -> (refusal, detail)."""
    m = conf.means
    means = pd.DataFrame({
        t(f"{SECTION}.col_library"): [registry_text("run_library", RUN_LIBRARIES[k], "name") for k in m["library"]],
        t(f"{SECTION}.col_mean"): m["mean"].astype(float),
        t(f"{SECTION}.col_queries"): m["queries"].astype(int),
        t(f"{SECTION}.col_difference"): m["difference"].astype(float),
        t(f"{SECTION}.col_separated"): [dimension_name(d) if d else "" for d in m["separated_by"]],
        t(f"{SECTION}.col_trec"): [choice_name(d, c) if d else "" for d, c in zip(m["separated_by"], m["trec_eval"])],
        t(f"{SECTION}.col_theirs"): [choice_name(d, c) if d else "" for d, c in zip(m["separated_by"], m["theirs"])],
        t(f"{SECTION}.col_refused"): [_refused_text(*refused[k]) if k in refused else "" for k in m["library"]],
    })
    per = conf.per_query.rename(columns={"qid": t(f"{SECTION}.col_qid")})
    return means, per


def _refused_text(why: str, detail: str) -> str:
    text = registry_text("refusal", REFUSALS[why], "help")
    return f"{text} ({detail})" if detail else text


def conformance_markdown(frame: pd.DataFrame, *, digits: int = 4) -> str:
    """A table as Markdown for a file: numbers with ``digits`` decimals, every text cell escaped
    (:func:`ui.escape.markdown`: no markup, link, autolink or column break from a query id).

    >>> print(conformance_markdown(pd.DataFrame({"qid": ["a|b", "www.x.org"], "v": [0.5, float("nan")]})))
    | qid | v |
    | --- | ---: |
    | a\\|b | 0.5000 |
    | www\u2060.x.org |  |
    """
    def cell(v) -> str:
        if isinstance(v, float):
            return "" if math.isnan(v) else show(v, digits)
        return escape.markdown(str(v), 0)

    cols = list(frame.columns)
    lines = ["| " + " | ".join(escape.markdown(str(c), 0) for c in cols) + " |",
             "| " + " | ".join("---:" if pd.api.types.is_float_dtype(frame[c]) else "---" for c in cols) + " |"]
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ the section
@st.cache_resource(max_entries=CACHE_ENTRIES, ttl=CACHE_TTL, show_spinner=False)
def _grid_cached(key: tuple, _qrels, _run, measure: str) -> MeanGrid:
    return mean_grid(_qrels, _run, measure, max_values=MAX_VALUES)


def grid_cached(qrels_src, run_src, measure: str) -> MeanGrid:
    """The grid of a qrels, a run and a measure, once per content (every session of the server).  The files'
    bytes are handed over as they are, so repeated documents are tried every way."""
    key = (qrels_src.digest, run_src.digest, run_src.name)
    return _grid_cached(key, memoryview(qrels_src.data), memoryview(run_src.data), measure)


def section(page, qrels_src, usable) -> None:
    """Draw the section: the run, the measure, the reported mean; then the sentences and the table."""
    st.subheader(t(f"{SECTION}.title"))
    st.caption(t(f"{SECTION}.intro"))
    runs = {src.name: src for _, src in usable}
    names = list(runs)
    if st.session_state.get(K_RUN) not in names:
        st.session_state[K_RUN] = names[0]
    c1, c2, c3 = st.columns([2, 1, 1])
    c1.selectbox(t(f"{SECTION}.run"), names, key=K_RUN)
    c2.text_input(t(f"{SECTION}.measure"), key=K_MEASURE, help=t(f"{SECTION}.measure_help"))
    c3.text_input(t(f"{SECTION}.value"), key=K_VALUE, help=t(f"{SECTION}.value_help"),
                  placeholder=t(f"{SECTION}.value_placeholder"))
    measure = page.typed(K_MEASURE)
    value = page.typed(K_VALUE)
    run_src = runs[st.session_state[K_RUN]]
    try:
        grid = grid_cached(qrels_src, run_src, measure)
    except GridTooLarge as exc:
        st.warning(t(f"{SECTION}.too_large", size=f"{exc.size:,}", mb=f"{exc.size * 8 / 1e6:,.0f}",
                     limit=f"{exc.limit:,}"), icon=":material/memory:")
        st.code(f"python -m metrics.runfiles --match VALUE -m {measure} QRELS {run_src.name}", language="bash")
        return
    except ValueError as exc:
        st.error(escape.markdown(str(exc), 200), icon=":material/error:")
        return
    if not value:
        st.info(t(f"{SECTION}.need_value"), icon=":material/edit:")
    else:
        _sentences(match_grid(value, grid, measure=measure))
    _table(conformance(grid), grid.refused)


def _sentences(result: MeanMatch) -> None:
    digits = mean_digits(result.target)
    value = escape.markdown(result.target.text, 0)
    note = precision_sentence(result.target)
    if note:
        st.caption(note)
    st.markdown(f"**{t(f'{SECTION}.libraries', value=value)}**")
    if result.libraries:
        st.markdown("\n".join("- " + library_sentence(result, m, digits) for m in result.libraries))
    else:
        st.info(t(f"{SECTION}.no_library", value=value), icon=":material/search_off:")
    st.markdown(f"**{t(f'{SECTION}.families')}**")
    if result.families:
        st.caption(counted(f"{SECTION}.families_help", len(result.families), n=len(result.families)))
        st.markdown("\n".join(f"- {family_sentence(f, digits)}" for f in result.families[:SHOWN_FAMILIES]))
        if len(result.families) > SHOWN_FAMILIES:
            hidden = len(result.families) - SHOWN_FAMILIES
            st.caption(counted(f"{SECTION}.more", hidden, n=hidden))
    else:
        st.info(t(f"{SECTION}.no_family", value=value), icon=":material/search_off:")
    if result.near_misses:
        st.markdown(f"**{t(f'{SECTION}.near')}**")
        first, rest = result.near_misses[:SHOWN_NEAR], result.near_misses[SHOWN_NEAR:]
        st.markdown("\n".join("- " + near_sentence(result, m, digits) for m in first))
        if rest:
            with st.expander(counted(f"{SECTION}.more_near", len(rest), n=len(rest))):
                st.markdown("\n".join("- " + near_sentence(result, m, digits) for m in rest))
    for key, (why, detail) in result.refused.items():
        st.caption(refusal_sentence(key, why, detail))


def _table(conf: Conformance, refused: dict) -> None:
    with st.expander(t(f"{SECTION}.table_title")):
        st.caption(t(f"{SECTION}.table_help", reference=registry_text("run_library", RUN_LIBRARIES[REFERENCE],
                                                                     "name")))
        means, per = conformance_frames(conf, refused)
        numbers = {c: st.column_config.NumberColumn(c, format="%.4f") for c in means.columns
                   if pd.api.types.is_float_dtype(means[c])}
        st.dataframe(for_table(means), hide_index=True, width="stretch", column_config=numbers)
        st.dataframe(for_table(per), hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(c, format="%.4f") for c in per.columns[1:]})
        d1, d2, d3 = st.columns(3)
        d1.download_button(t(f"{SECTION}.download_per_query"), to_csv(conf.per_query).encode("utf-8"),
                           file_name="conformance_per_query.csv", mime="text/csv", key="rf_match_dl_per")
        d2.download_button(t(f"{SECTION}.download_means"), to_csv(conf.means).encode("utf-8"),
                           file_name="conformance_means.csv", mime="text/csv", key="rf_match_dl_means")
        d3.download_button(t(f"{SECTION}.download_markdown"), conformance_markdown(means).encode("utf-8"),
                           file_name="conformance.md", mime="text/markdown", key="rf_match_dl_md")
