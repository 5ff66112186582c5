"""The Run files page's sections, drawn in the page's order (``pages/run_files.py`` only calls :func:`body`).

Each section draws its widgets and results; what they compute or decide is in :mod:`ui.pages.run_files.view`,
the charts in :mod:`ui.charts.runfiles`, the numbers in :mod:`metrics.runfiles` (one engine).  The settings
are the page's :mod:`ui.state` fields (:data:`ui.pages.run_files.view.FIELDS`), kept across page switches and in
the link; the files are not in links.  The uploaders' callbacks keep the files in
``st.session_state["rf_files"]`` (no copy), so they survive a visit to another page.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.registry import DISCOUNTS, GAINS, TIES
from metrics.runfiles import IDCG, MISSING, make_variants
from ui.charts.runfiles import SCATTER_POINTS, flip_chart, scatter_chart
from ui.escape import markdown
from ui.i18n import t
from ui.numbers import for_table
from ui.pages.run_files import match as runfiles_match
from ui.pages.run_files import view as runfiles_view
from ui.pages.run_files.significance import (
    significance_section,
    winner_significance,
    winner_significance_title,
)
from ui.widgets import option_widget

SECTION = runfiles_view.SECTION
state = st.session_state


def choose_files():
    """The source radio and the sample picker or the uploaders; returns (qrels source, run sources)."""
    source = option_widget(st.radio, t(f"{SECTION}.source"), ["sample", "upload"], key="rf_source",
                           horizontal=True, format_func=lambda s: t(f"{SECTION}.source_{s}"))
    if source == "sample":
        options = runfiles_view.sample_files()
        st.pills(t(f"{SECTION}.sample_runs"), options, selection_mode="multi", key="rf_sample_runs", wrap=True,
                 help=t(f"{SECTION}.sample_help"))
        st.caption(t(f"{SECTION}.links_note_sample"))
        return runfiles_view.sample_sources(state["rf_sample_runs"])
    left, right = st.columns(2)
    left.file_uploader(t(f"{SECTION}.upload_qrels"), key="rf_up_qrels", on_change=runfiles_view.remember_qrels,
                       max_upload_size=runfiles_view.UPLOAD_CAP_MB, help=t(f"{SECTION}.formats_help"))
    right.file_uploader(
        t(f"{SECTION}.upload_runs"),
        key="rf_up_runs",
        accept_multiple_files=True,
        on_change=runfiles_view.remember_runs,
        max_upload_size=runfiles_view.UPLOAD_CAP_MB,
        help=t(f"{SECTION}.formats_help"),
    )
    runfiles_view.sync_uploads()  # also when no callback ran (a page moved to another server)
    st.caption(t(f"{SECTION}.upload_caption", mb=runfiles_view.UPLOAD_CAP_MB))
    st.caption(t(f"{SECTION}.links_note_upload"))
    qrels, runs = runfiles_view.uploaded_sources()
    kept = runfiles_view.kept_names(qrels, runs)
    if kept:  # back from another page: the uploaders are empty again, the files are still here
        st.info(t(f"{SECTION}.kept_files", names=", ".join(markdown(n) for n in kept)))
        st.button(t(f"{SECTION}.forget_files"), key="rf_forget", on_click=runfiles_view.forget_uploads)
    return qrels, runs


def choose_variants():
    """The variant options; drawn before anything can stop the page, so they always keep their values."""
    st.subheader(t(f"{SECTION}.options"))
    c1, c2 = st.columns([1, 2])
    # value=None: an empty box is allowed and means the whole list (the state puts the kept value back)
    c1.number_input(t(f"{SECTION}.k"), min_value=1, max_value=10_000, value=None, step=1, key="rf_k",
                    help=t(f"{SECTION}.k_help"), placeholder=t(f"{SECTION}.k_all"))
    option_widget(
        c2.radio,
        t(f"{SECTION}.missing"),
        list(MISSING),
        key="rf_missing",
        format_func=lambda m: t(f"{SECTION}.missing_{m}"),
        help=t(f"{SECTION}.missing_help"),
        horizontal=True,
    )
    c3, c4 = st.columns(2)
    c5, c6 = st.columns(2)
    for column, choice, key, options, help_key in ((c3, "gain", "rf_gains", GAINS, None),
                                                    (c4, "discount", "rf_discounts", DISCOUNTS, None),
                                                    (c5, "idcg", "rf_idcg", IDCG, "idcg_help"),
                                                    (c6, "ties", "rf_ties", TIES, "ties_help")):
        names = {o: runfiles_view.option_name(choice, o, short=True) for o in options}
        option_widget(column.pills, t(f"{SECTION}.{choice}_pills"), list(options), selection_mode="multi", key=key,
                      wrap=True, format_func=names.__getitem__, help=t(f"{SECTION}.{help_key}") if help_key else None)


def read_all(qrels_src, run_srcs):
    """Read every file once (cached), with a progress bar that goes away when done; show the problems.

    Returns (qrels, [(parsed run, source)]) or None when nothing can be evaluated.
    """
    bar = st.empty()
    sources = [qrels_src, *run_srcs]
    parsed = []
    for i, src in enumerate(sources):
        bar.progress(i / len(sources), text=t(f"{SECTION}.reading", name=markdown(src.name), i=i + 1, n=len(sources)))
        parsed.append(runfiles_view.read_cached(src))
    bar.empty()

    has_errors = any(p.errors and not p.fatal for p in parsed)
    for p in parsed:
        if not p.problems:
            continue
        with st.expander(t(f"{SECTION}.problems_in", name=markdown(p.name), n=p.n_problems), expanded=bool(p.errors)):
            rows = [{t(f"{SECTION}.col_line"): ("" if x.line is None else str(x.line)),
                     t(f"{SECTION}.col_severity"): t(f"{SECTION}.severity_{x.severity}"),
                     t(f"{SECTION}.col_message"): runfiles_view.problem_text(x)} for x in p.problems]
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        if p.fatal:  # why, in full (the problems table cuts long messages to its column's width)
            fatal = [x for x in p.problems if x.severity == "fatal"]
            st.error(runfiles_view.problem_text(fatal[0], markdown_text=True) if fatal
                     else t(f"{SECTION}.file_unusable", name=markdown(p.name)))
    accept = True
    if has_errors:
        accept = st.checkbox(t(f"{SECTION}.accept_bad"), key="rf_accept_bad", help=t(f"{SECTION}.accept_bad_help"))
    qrels, runs = parsed[0], list(zip(parsed[1:], run_srcs))
    usable = [(p, s) for p, s in runs if not p.fatal and (accept or not p.errors)]
    with st.expander(t(f"{SECTION}.files_read"), expanded=False):
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        t(f"{SECTION}.col_file"): p.name,
                        t(f"{SECTION}.col_kind"): p.kind,
                        t(f"{SECTION}.col_format"): p.format or "",
                        t(f"{SECTION}.col_encoding"): p.encoding or "",
                        t(f"{SECTION}.col_rows"): p.table.n_rows if p.table else 0,
                    }
                    for p in parsed
                ]
            ),
            hide_index=True,
            width="stretch",
        )
    if qrels.fatal or (qrels.errors and not accept):
        st.warning(t(f"{SECTION}.qrels_unusable"))
        return None
    if not usable:
        st.warning(t(f"{SECTION}.no_usable_runs"))
        return None
    usable_ids = {id(p) for p, _ in usable}
    for p, _ in runs:
        if not p.fatal and id(p) not in usable_ids:
            st.caption(t(f"{SECTION}.run_left_out", name=markdown(p.name)))
    return qrels, usable


def verdict(ev, k):
    """Means under every variant, the winner, and which choice flips it."""
    at = "" if k is None else f"@{k}"
    st.subheader(t(f"{SECTION}.results", at=at))
    orders = ev.orders()
    if len(ev.runs) < 2:
        st.info(t(f"{SECTION}.one_run"))
    else:
        counts = orders["winner"].value_counts()
        detail = t(f"{SECTION}.list_sep").join(
            t(f"{SECTION}.wins_under", run=markdown(r), n=int(n)) for r, n in counts.items()
        )
        if ev.winner_changes():
            st.warning(t(f"{SECTION}.winner_changes", detail=detail))
        else:
            st.success(t(f"{SECTION}.winner_same", run=markdown(counts.index[0]), n=len(ev.variants)))
    significance = None
    if len(ev.runs) >= 2:
        significance = winner_significance({label: ev.paired(label) for label in ev.labels}, key_prefix="rf_sig")
    st.dataframe(for_table(runfiles_view.means_table(ev, significance)), hide_index=True, width="stretch",
                 column_config={run: st.column_config.NumberColumn(run, format="%.4f") for run in ev.runs})
    st.caption(t(f"{SECTION}.means_help"))
    if significance is not None:
        st.caption(
            t(f"{SECTION}.significant_help", title=markdown(winner_significance_title(key_prefix="rf_sig"), 120))
        )
    st.caption(t(f"{SECTION}.n_queries", detail=t(f"{SECTION}.list_sep").join(
        f"{markdown(r)}: {n}" for r, n in ev.n_queries().items())))

    if len(ev.runs) < 2 or len(ev.variants) < 2:
        return
    st.markdown(f"**{t(f'{SECTION}.flip_title')}**")
    flips = runfiles_view.winner_flips(orders)
    summary = runfiles_view.flip_summary(flips)
    if summary.empty:
        st.caption(t(f"{SECTION}.flip_none_to_compare"))
        return
    st.caption(t(f"{SECTION}.flip_help"))
    names = {c: t(f"{SECTION}.choice.{c}") for c in runfiles_view.CHOICES}
    st.altair_chart(
        flip_chart(
            summary,
            names=names,
            flips_title=t(f"{SECTION}.flips"),
            changes_title=t(f"{SECTION}.changes"),
            choice_title=t(f"{SECTION}.col_choice"),
            count_title=t(f"{SECTION}.flip_axis"),
        ),
        width="stretch",
    )
    flipping = [names[c] for c, n in zip(summary["choice"], summary["flips"]) if n]
    if flipping:
        st.markdown(t(f"{SECTION}.flip_sentence", choices=t(f"{SECTION}.list_sep").join(flipping)))
        with st.expander(t(f"{SECTION}.flip_table_title", n=int(flips["flips"].sum()))):
            st.dataframe(for_table(runfiles_view.flips_table(flips)), hide_index=True, width="stretch")
    else:
        st.success(t(f"{SECTION}.flip_never"))


def two_variants(ev, qrels, usable, k):
    """Two variants query by query: scatter, the queries where they disagree most, playground links."""
    st.subheader(t(f"{SECTION}.compare_title"))
    labels = ev.labels
    runfiles_view.pick_variant("rf_x", labels, runfiles_view.X_DEFAULT)
    runfiles_view.pick_variant("rf_y", labels, runfiles_view.y_fallback(labels, state["rf_x"]))
    cx, cy = st.columns(2)
    with cx:
        x_label = runfiles_view.variant_picker("x", labels, t(f"{SECTION}.variant_x"))
    with cy:
        y_label = runfiles_view.variant_picker("y", labels, t(f"{SECTION}.variant_y"))
    st.markdown(t(f"{SECTION}.axes", x=runfiles_view.variant_name(x_label), y=runfiles_view.variant_name(y_label)))
    per = runfiles_view.per_query_table(ev)
    data = pd.DataFrame({"run": per["run"], "qid": per["qid"], "x": per[x_label], "y": per[y_label]})
    st.altair_chart(scatter_chart(data, x_title="x", y_title="y", run_title=t(f"{SECTION}.col_run"),
                                  query_title=t(f"{SECTION}.col_qid")), width="stretch")
    st.caption(t(f"{SECTION}.scatter_help"))
    if len(data) > SCATTER_POINTS:
        st.caption(t(f"{SECTION}.scatter_sample", shown=SCATTER_POINTS, total=len(data)))

    top_n = st.slider(t(f"{SECTION}.top_n"), min_value=1, max_value=50, key="rf_top")
    worst = ev.disagreements(x_label, y_label, n=int(top_n))
    links = runfiles_view.playground_links(ev, worst, qrels, {p.name: p for p, _ in usable}, variant=x_label, k=k)
    st.dataframe(for_table(pd.DataFrame({
        t(f"{SECTION}.col_run"): worst["run"], t(f"{SECTION}.col_qid"): worst["qid"],
        "x": worst[x_label], "y": worst[y_label], t(f"{SECTION}.col_difference"): worst["difference"],
        t(f"{SECTION}.col_open"): links,
    })), hide_index=True, width="stretch", column_config={
        "x": st.column_config.NumberColumn(t(f"{SECTION}.col_x"), format="%.4f"),
        "y": st.column_config.NumberColumn(t(f"{SECTION}.col_y"), format="%.4f"),
        t(f"{SECTION}.col_difference"): st.column_config.NumberColumn(format="%.4f"),
        t(f"{SECTION}.col_open"): st.column_config.LinkColumn(display_text=t("common.open_in_playground")),
    })
    st.caption(t(f"{SECTION}.playground_note", n=runfiles_view.MAX_PLAYGROUND_ITEMS))
    return per


def ndcg_downloads(ev, per):
    """The per-query NDCG table and the two CSV downloads."""
    with st.expander(t(f"{SECTION}.per_query_title")):
        st.dataframe(for_table(per), hide_index=True, width="stretch",
                     column_config={lab: st.column_config.NumberColumn(runfiles_view.variant_name(lab), format="%.4f")
                                    for lab in ev.labels})
    csv_downloads(("download_per_query", runfiles_view.csv_bytes(per), "ndcg_per_query.csv", "rf_dl_per"),
                  ("download_means", runfiles_view.csv_bytes(ev.means().T, index=True), "ndcg_means.csv",
                   "rf_dl_means"))


def csv_downloads(*files) -> None:
    """CSV download buttons side by side: each ``(catalogue key of its label, bytes, file name, widget key)``."""
    for column, (label, data, name, key) in zip(st.columns(len(files)), files):
        column.download_button(t(f"{SECTION}.{label}"), data, file_name=name, mime="text/csv", key=key)


def measures_section(result, request):
    """trec_eval's measures, chosen from a list: the summary per run, per-query values, downloads -- read from the
    page's one evaluation (``result``, :func:`ui.pages.run_files.view.evaluate_cached`; ``request`` is
    :func:`ui.pages.run_files.view.measure_request`'s).

    Returns the per-query table (run, qid, one column per measure), or None when no measure is chosen."""
    st.subheader(t(f"{SECTION}.measures_title"))
    st.caption(t(f"{SECTION}.measures_intro"))
    columns = st.columns([3, 2])
    for column, name, choices in zip(columns, ("measures", "cutoffs"),
                                     (runfiles_view.MEASURE_CHOICES, runfiles_view.CUTOFF_CHOICES)):
        column.pills(t(f"{SECTION}.{name}"), list(choices), selection_mode="multi", key=f"rf_{name}", wrap=True,
                     help=t(f"{SECTION}.{name}_help"))
    st.text_input(t(f"{SECTION}.more"), key="rf_more", max_chars=runfiles_view.MORE_MAX_CHARS,
                  placeholder="nDCG@10; P(rel=2)@5; RR(rel=2)@10; Judged@10", help=t(f"{SECTION}.more_help"))
    specs, more, error = request
    if error is not None:  # the box keeps what was typed; the table keeps the last names that were valid
        st.error(t(f"{SECTION}.more_bad", message=markdown(error, 300)))
    measures = state["rf_measures"]
    if not measures and not more:
        st.info(t(f"{SECTION}.pick_measure"))
        return None
    frame = runfiles_view.measures_frame(result, specs)
    for p in runfiles_view.split_problems(result.problems)[1]:  # trec_eval's reading of the grades
        st.caption("⚠️ " + runfiles_view.problem_text(p, markdown_text=True))
    means, per = runfiles_view.measure_tables(frame, specs)
    numbers = {c: st.column_config.NumberColumn(c, format="%.4f") for c in means.columns if c != "run"}
    st.dataframe(for_table(means.rename(columns={"run": t(f"{SECTION}.col_run")})), hide_index=True, width="stretch",
                 column_config=numbers)
    options = " ".join([*(f"-m {x}" for x in specs), *(["-c"] if state["rf_missing"] == "zero" else [])])
    st.caption(t(f"{SECTION}.measures_specs", options=markdown(options, 300)))
    with st.expander(t(f"{SECTION}.measures_what")):
        st.markdown("\n".join([*(f"* **{name}** — {runfiles_view.measure_help(name)}" for name in measures),
                               *(f"* **{markdown(name, 80)}** — {runfiles_view.more_help(name)}" for name in more)]))
    with st.expander(t(f"{SECTION}.measures_per_query_title")):
        st.dataframe(for_table(per), hide_index=True, width="stretch",
                     column_config={c: st.column_config.NumberColumn(c, format="%.4f") for c in per.columns[2:]})
    csv_downloads(("download_measures_per_query", runfiles_view.csv_bytes(per), "measures_per_query.csv",
                   "rf_dl_measures_per"),
                  ("download_measures_means", runfiles_view.csv_bytes(means), "measures_means.csv",
                   "rf_dl_measures_means"))
    return per


def significance(ev, per_measures, k):
    """Is the difference real?  Every pair of systems under the chosen measure (issue 18's section): one of
    trec_eval's measures above, or NDCG under the variant on the x or the y axis, read from the page's one
    Result (:meth:`~metrics.runfiles.result.Result.paired`: with "missing counts 0", every qrels query)."""
    measure_names = list(per_measures.columns[2:]) if per_measures is not None else []
    at = "" if k is None else f"@{k}"
    names = {**{m: m for m in measure_names},
             **{axis: t(f"{SECTION}.sig_variant_{axis}", at=at) for axis in ("x", "y")}}
    runfiles_view.pick_variant("rf_sig_measure", list(names), runfiles_view.SIG_DEFAULT)
    chosen = option_widget(st.selectbox, t(f"{SECTION}.sig_measure"), list(names), key="rf_sig_measure",
                           format_func=names.__getitem__, help=t(f"{SECTION}.sig_measure_help"))
    if chosen in ("x", "y"):
        label = state[f"rf_{chosen}"]
        wide = ev.paired(label)
        name = f"NDCG{at} · {runfiles_view.variant_name(label)}"
    else:
        wide, name = ev.result.paired(chosen), chosen
    significance_section(wide, measure_name=name, key_prefix="rf_sig")


def body(page=None):
    """The page between its introduction and its teaching section: files, options, results, measures, tests,
    and (given the page's :class:`ui.state.PageState`) where a reported number comes from."""
    # Memory that expired sessions and evicted cache entries freed goes back to the system (< 1 ms usually).
    runfiles_view.release_memory()
    qrels_src, run_srcs = choose_files()
    choose_variants()
    k = state["rf_k"]
    if qrels_src is None or not run_srcs:
        st.info(t(f"{SECTION}.need_files" if state["rf_source"] == "upload" else f"{SECTION}.pick_sample_run"))
        return
    if not (state["rf_gains"] and state["rf_discounts"] and state["rf_idcg"] and state["rf_ties"]):
        st.warning(t(f"{SECTION}.pick_one_each"))
        return
    run_srcs, notes = runfiles_view.distinct_runs(run_srcs)
    for note in notes:
        st.info(t(f"{SECTION}.note.{note.kind}", **{key: markdown(v) for key, v in note.fields.items()}))
    big = runfiles_view.too_large([qrels_src, *run_srcs])
    if big:
        st.error(t(f"{SECTION}.too_large_total", **big))
        return
    read = read_all(qrels_src, run_srcs)
    if read is None:
        return
    qrels, usable = read
    variants = make_variants(gains=state["rf_gains"], discounts=state["rf_discounts"], idcg=state["rf_idcg"],
                             ties=state["rf_ties"])
    request = runfiles_view.measure_request(state)  # the measures too: one pass of the engine for everything
    bar = st.empty()
    bar.progress(0.0, text=t(f"{SECTION}.evaluating"))
    ev, result = runfiles_view.evaluate_cached(qrels, qrels_src, usable, k=k, variants=variants,
                                               missing=state["rf_missing"], measures=request[0])
    bar.empty()
    st.caption(t(f"{SECTION}.evaluated", runs=len(ev.runs), variants=len(ev.variants), queries=len(ev.queries)))
    for p in runfiles_view.split_problems(ev.problems)[0]:  # trec_eval's reading of grades: under its measures
        st.caption("⚠️ " + runfiles_view.problem_text(p, markdown_text=True))
    verdict(ev, k)
    per = two_variants(ev, qrels, usable, k)
    ndcg_downloads(ev, per)
    per_measures = measures_section(result, request)
    significance(ev, per_measures, k)
    if page is not None:
        runfiles_match.section(page, qrels_src, usable)
