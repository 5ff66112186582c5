"""Run files: evaluate TREC qrels and runs (or CSV/TSV) under every NDCG variant — does the winner change?

Layout and wiring only: files are read by metrics/runfiles/read.py, numbers come from metrics/runfiles/batch.py, playground
links from ui/links.py.  The files come from the shipped samples or from the two uploaders; an upload is
copied into ``st.session_state["rf_files"]`` by the uploaders' callback, so everything after it is driven
by session state (AppTest sets that key directly, since it cannot drive a file uploader).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import urlencode

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from metrics.registry import DISCOUNTS, GAINS, TIES
from metrics.runfiles.batch import IDCG, MISSING, RunVariant, evaluate, make_variants, query_lists
from metrics.runfiles.read import Parsed, Problem, read_qrels, read_run
from ui.i18n import current_language, plain, registry_text, t
from ui.links import PLAYGROUND_PATH, playground_query_for

P = "run_files"
SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
MAX_MB = 100  # per file; the command line has no limit
MAX_PLAYGROUND_ITEMS = 200  # longer lists are cut for the playground link
FILES = "rf_files"  # {"origin": "sample" | "upload", "qrels": (name, bytes) | None, "runs": [(name, bytes), ...]}
CACHE = "rf_cache"
DEFAULT_TIES = ["trec_eval", "average"]
state = st.session_state


def keep(key: str, default) -> None:
    """Initialise a widget's state once and keep it through runs that do not draw the widget.

    Streamlit drops a widget's state when a run does not draw it (here: while waiting for uploads);
    a shadow copy puts the user's last choice (or the default) back before the widget is drawn again.
    """
    shadow = f"_keep_{key}"
    if key in state:
        state[shadow] = state[key]
    else:
        state[key] = state.get(shadow, default)
        state[shadow] = state[key]


def remembered(key: str, default):
    """The value to draw a result widget with: its current value, else the last one, else ``default``.

    For widgets that disappear while files are missing: passed as the widget's own value (never
    written to session state), so the browser shows it when the widget comes back.
    """
    shadow = f"_keep_{key}"
    if key in state:
        state[shadow] = state[key]
    return state.get(shadow, default)


def num(x) -> str:
    return "—" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.4f}"


def variant_name(v: RunVariant) -> str:
    return " · ".join([registry_text("gain", GAINS[v.gain], "name"), registry_text("discount", DISCOUNTS[v.discount], "name"),
                       t(f"{P}.idcg.{v.idcg}"), registry_text("ties", TIES[v.ties], "name")])


def problem_text(p: Problem, *, markdown: bool = False) -> str:
    """The translated problem; ``markdown=True`` escapes the file's own text (ids, tokens, names)."""
    fields = dict(p.params, file=p.file, line=p.line)
    if markdown:
        fields = {k: plain(v, limit=60) if isinstance(v, str) else v for k, v in fields.items()}
    text = t(f"{P}.problem.{p.kind}", **fields)
    return text if not text.startswith(f"{P}.problem.") else (plain(p.message, limit=300) if markdown else p.message)


def sample_files() -> list[str]:
    return sorted(p.name for p in SAMPLES.iterdir() if p.is_file() and p.name not in ("qrels.txt", "README.md"))


def on_upload() -> None:
    qrels = state.get("rf_up_qrels")
    runs = state.get("rf_up_runs") or []
    state[FILES] = {"origin": "upload", "qrels": (qrels.name, qrels.getvalue()) if qrels is not None else None,
                    "runs": [(f.name, f.getvalue()) for f in runs]}


def unique_names(names: list[str]) -> list[str]:
    out, seen = [], {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


def read_cached(kind: str, name: str, data: bytes, cache: dict, progress) -> Parsed:
    key = (kind, name, len(data), hashlib.sha1(data).hexdigest())
    if key not in state[CACHE]:
        reader = read_qrels if kind == "qrels" else read_run
        state[CACHE][key] = reader(data, name=name, max_bytes=MAX_MB * 1_000_000, on_progress=progress)
    cache[key] = state[CACHE][key]
    return cache[key]


# ----------------------------------------------------------------------------------------- page
st.title(t(f"{P}.title"))
st.markdown(t(f"{P}.intro"))

if CACHE not in state:
    state[CACHE] = {}
keep("rf_source", "sample")

source = st.radio(t(f"{P}.source"), ["sample", "upload"], key="rf_source", horizontal=True,
                  format_func=lambda s: t(f"{P}.source_{s}"))
if source == "sample":
    state.pop(FILES, None)  # uploads are forgotten with their widgets
    options = sample_files()
    chosen = [n for n in remembered("rf_sample_runs", [n for n in options if n.endswith(".run")]) if n in options]
    picked = st.multiselect(t(f"{P}.sample_runs"), options, default=chosen, key="rf_sample_runs",
                            help=t(f"{P}.sample_help"))
    files = {"origin": "sample", "qrels": ("qrels.txt", (SAMPLES / "qrels.txt").read_bytes()),
             "runs": [(n, (SAMPLES / n).read_bytes()) for n in picked]}
else:
    left, right = st.columns(2)
    left.file_uploader(t(f"{P}.upload_qrels"), key="rf_up_qrels", on_change=on_upload, help=t(f"{P}.formats_help"))
    right.file_uploader(t(f"{P}.upload_runs"), key="rf_up_runs", accept_multiple_files=True, on_change=on_upload,
                        help=t(f"{P}.formats_help"))
    st.caption(t(f"{P}.upload_caption", mb=MAX_MB))
    files = state.get(FILES) if (state.get(FILES) or {}).get("origin") == "upload" else None

# The variant options are drawn before anything can stop the script, so they keep their values.
# ---- options
st.subheader(t(f"{P}.options"))
for key, default in (("rf_k", 10), ("rf_gains", list(GAINS)), ("rf_discounts", list(DISCOUNTS)),
                     ("rf_idcg", ["judged", "list"]), ("rf_ties", DEFAULT_TIES), ("rf_missing", "skip")):
    keep(key, default)
c1, c2, c3 = st.columns([1, 2, 2])
k_value = c1.number_input(t(f"{P}.k"), min_value=0, max_value=10_000, step=1, key="rf_k", help=t(f"{P}.k_help"))
gains = c2.multiselect(t(f"{P}.gains"), list(GAINS), key="rf_gains",
                       format_func=lambda g: registry_text("gain", GAINS[g], "name"))
discounts = c3.multiselect(t(f"{P}.discounts"), list(DISCOUNTS), key="rf_discounts",
                           format_func=lambda d: registry_text("discount", DISCOUNTS[d], "name"))
c4, c5, c6 = st.columns([1, 2, 2])
missing = c4.radio(t(f"{P}.missing"), list(MISSING), key="rf_missing", format_func=lambda m: t(f"{P}.missing_{m}"),
                   help=t(f"{P}.missing_help"))
idcg = c5.multiselect(t(f"{P}.idcg_sources"), list(IDCG), key="rf_idcg", format_func=lambda s: t(f"{P}.idcg.{s}"),
                      help=t(f"{P}.idcg_help"))
ties = c6.multiselect(t(f"{P}.ties"), list(TIES), key="rf_ties",
                      format_func=lambda r: registry_text("ties", TIES[r], "name"), help=t(f"{P}.ties_help"))
k = int(k_value) or None

if source == "upload" and (not files or files.get("qrels") is None or not files.get("runs")):
    st.info(t(f"{P}.need_files"))
    st.stop()
if not (gains and discounts and idcg and ties):
    st.warning(t(f"{P}.pick_one_each"))
    st.stop()
variants = make_variants(gains=gains, discounts=discounts, idcg=idcg, ties=ties)

# ---- read every file, with a progress bar
n_files = 1 + len(files["runs"])
bar = st.progress(0.0, text=t(f"{P}.reading", name=plain(files["qrels"][0])))
current: dict = {}
qrels = read_cached("qrels", files["qrels"][0], files["qrels"][1], current,
                    lambda f: bar.progress(min(f, 1.0) / n_files, text=t(f"{P}.reading", name=plain(files["qrels"][0]))))
run_names = unique_names([name for name, _ in files["runs"]])
parsed_runs: list[Parsed] = []
for i, (name, (_, data)) in enumerate(zip(run_names, files["runs"]), start=1):
    bar.progress(i / n_files, text=t(f"{P}.reading", name=plain(name)))
    parsed_runs.append(read_cached("run", name, data, current,
                                   lambda f, i=i, name=name: bar.progress(min((i + f) / n_files, 1.0),
                                                                           text=t(f"{P}.reading", name=plain(name)))))
state[CACHE] = current  # forget files that are no longer chosen
bar.progress(1.0, text=t(f"{P}.read_done", n=n_files))

# ---- problems
all_parsed = [qrels, *parsed_runs]
has_errors = any(p.errors and not p.fatal for p in all_parsed)
for p in all_parsed:
    if not p.problems:
        continue
    label = t(f"{P}.problems_in", name=plain(p.name), n=p.n_problems)
    with st.expander(label, expanded=bool(p.errors)):
        rows = [{t(f"{P}.col_line"): ("" if x.line is None else str(x.line)), t(f"{P}.col_severity"): t(f"{P}.severity_{x.severity}"),
                 t(f"{P}.col_message"): problem_text(x)} for x in p.problems]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if p.fatal:
        st.error(t(f"{P}.file_unusable", name=plain(p.name)))
accept = True
if has_errors:
    accept = st.checkbox(t(f"{P}.accept_bad"), key="rf_accept_bad", help=t(f"{P}.accept_bad_help"))
usable_runs = [p for p in parsed_runs if not p.fatal and (accept or not p.errors)]
if qrels.fatal or (qrels.errors and not accept):
    st.warning(t(f"{P}.qrels_unusable"))
    st.stop()
if not usable_runs:
    st.warning(t(f"{P}.no_usable_runs"))
    st.stop()
for p in parsed_runs:
    if p not in usable_runs and not p.fatal:
        st.caption(t(f"{P}.run_left_out", name=plain(p.name)))

with st.expander(t(f"{P}.files_read"), expanded=False):
    st.dataframe(pd.DataFrame([{t(f"{P}.col_file"): p.name, t(f"{P}.col_kind"): p.kind, t(f"{P}.col_format"): p.format or "",
                                t(f"{P}.col_encoding"): p.encoding or "", t(f"{P}.col_rows"): p.table.n_rows if p.table else 0}
                               for p in all_parsed]), hide_index=True, width="stretch")

# ---- evaluate, with a progress bar
eval_bar = st.progress(0.0, text=t(f"{P}.evaluating", name=""))
ev_key = (tuple(current), accept, tuple(v.label for v in variants), k, missing)
if state.get("rf_ev_key") != ev_key:
    state["rf_ev"] = evaluate(qrels.table, [p.table for p in usable_runs], k=k, variants=variants, missing=missing,
                              on_progress=lambda f, name: eval_bar.progress(min(f, 1.0), text=t(f"{P}.evaluating", name=plain(name))))
    state["rf_ev_key"] = ev_key
ev = state["rf_ev"]
eval_bar.progress(1.0, text=t(f"{P}.evaluated", runs=len(ev.runs), variants=len(ev.variants), queries=len(ev.queries)))
for p in ev.problems:
    st.caption("⚠️ " + problem_text(p, markdown=True))

# ---- the verdict
means = ev.means()
orders = ev.orders().set_index("variant")
at = "" if k is None else f"@{k}"
st.subheader(t(f"{P}.results", at=at))
if len(ev.runs) < 2:
    st.info(t(f"{P}.one_run"))
else:
    counts = orders["winner"].value_counts()
    detail = t(f"{P}.list_sep").join(t(f"{P}.wins_under", run=plain(r), n=int(n)) for r, n in counts.items())
    if ev.winner_changes():
        st.warning(t(f"{P}.winner_changes", detail=detail))
    else:
        st.success(t(f"{P}.winner_same", run=plain(counts.index[0]), n=len(ev.variants)))

table = pd.DataFrame({
    t(f"{P}.col_variant"): [variant_name(v) for v in ev.variants],
    **{run: means.loc[run].to_numpy() for run in ev.runs},
    t(f"{P}.col_winner"): orders["winner"].to_numpy(),
    t(f"{P}.col_order"): orders["order"].to_numpy(),
})
st.dataframe(table, hide_index=True, width="stretch",
             column_config={run: st.column_config.NumberColumn(run, format="%.4f") for run in ev.runs})
st.caption(t(f"{P}.n_queries", detail=t(f"{P}.list_sep").join(f"{plain(r)}: {n}" for r, n in ev.n_queries().items())))

# ---- Kendall tau between variants
if len(ev.runs) >= 2 and len(ev.variants) >= 2:
    st.markdown(f"**{t(f'{P}.tau_title')}**")
    st.caption(t(f"{P}.tau_help"))
    tau = ev.tau()
    long = tau.reset_index(names="a").melt(id_vars="a", var_name="b", value_name="tau")
    order_axis = list(tau.index)
    heat = alt.Chart(long).mark_rect().encode(
        x=alt.X("b:N", sort=order_axis, title=None,
                axis=alt.Axis(labelAngle=-60, labelLimit=260, labelOverlap=False, labelFontSize=10)),
        y=alt.Y("a:N", sort=order_axis, title=None, axis=alt.Axis(labelLimit=260, labelOverlap=False, labelFontSize=10)),
        color=alt.Color("tau:Q", scale=alt.Scale(domain=[-1, 1], scheme="redblue"), title="τ"),
        tooltip=[alt.Tooltip("a:N", title=t(f"{P}.variant_a")), alt.Tooltip("b:N", title=t(f"{P}.variant_b")),
                 alt.Tooltip("tau:Q", title="Kendall τ", format=".3f")],
    ).properties(height=max(200, 20 * len(order_axis)))
    st.altair_chart(heat, width="stretch")

# ---- two variants, query by query
st.subheader(t(f"{P}.compare_title"))
labels = ev.labels
x_default = remembered("rf_x", labels[0])
x_default = x_default if x_default in labels else labels[0]
differs = [lab for lab in labels if RunVariant.parse(lab).gain != RunVariant.parse(x_default).gain]
y_default = remembered("rf_y", differs[0] if differs else labels[min(1, len(labels) - 1)])
y_default = y_default if y_default in labels else (differs[0] if differs else labels[min(1, len(labels) - 1)])
cx, cy = st.columns(2)
x_label = cx.selectbox(t(f"{P}.variant_x"), labels, index=labels.index(x_default), key="rf_x",
                       format_func=lambda lab: variant_name(RunVariant.parse(lab)))
y_label = cy.selectbox(t(f"{P}.variant_y"), labels, index=labels.index(y_default), key="rf_y",
                       format_func=lambda lab: variant_name(RunVariant.parse(lab)))
per = ev.per_query()
scatter_data = pd.DataFrame({"run": per["run"], "qid": per["qid"], "x": per[x_label], "y": per[y_label]})
points = alt.Chart(scatter_data).mark_circle(size=60, opacity=0.75).encode(
    x=alt.X("x:Q", title=f"x: {x_label}", scale=alt.Scale(domain=[0, 1])),
    y=alt.Y("y:Q", title=f"y: {y_label}", scale=alt.Scale(domain=[0, 1])),
    color=alt.Color("run:N", title=t(f"{P}.col_run")),
    tooltip=[alt.Tooltip("run:N", title=t(f"{P}.col_run")), alt.Tooltip("qid:N", title=t(f"{P}.col_qid")),
             alt.Tooltip("x:Q", title="x", format=".4f"), alt.Tooltip("y:Q", title="y", format=".4f")],
)
diagonal = alt.Chart(pd.DataFrame({"x": [0, 1], "y": [0, 1]})).mark_line(strokeDash=[4, 4], color="#888").encode(x="x:Q", y="y:Q")
st.altair_chart((diagonal + points).properties(height=420), width="stretch")
st.caption(t(f"{P}.scatter_help"))

# ---- queries where the two variants disagree most, each openable in the playground
top_n = st.slider(t(f"{P}.top_n"), min_value=1, max_value=50, value=int(remembered("rf_top", 10)), key="rf_top")
worst = ev.disagreements(x_label, y_label, n=int(top_n))
xv = RunVariant.parse(x_label)
tables = {p.name: p.table for p in usable_runs}
links = []
for run, qid in zip(worst["run"], worst["qid"]):
    lists = query_lists(qrels.table, tables[run], qid, ties="trec_eval" if xv.ties == "average" else xv.ties)
    grades = lists["grades"][:MAX_PLAYGROUND_ITEMS].tolist() or [0.0]
    labels_pg = (lists["docnos"][:MAX_PLAYGROUND_ITEMS] or ["—"]) + lists["unretrieved_docnos"]
    query = playground_query_for(grades, labels=labels_pg, unretrieved=lists["unretrieved"].tolist(), k=k,
                                 gain=xv.gain, discount=xv.discount, idcg=xv.idcg, lang=current_language())
    links.append(f"{PLAYGROUND_PATH}?{urlencode(query)}")
worst_table = pd.DataFrame({
    t(f"{P}.col_run"): worst["run"], t(f"{P}.col_qid"): worst["qid"],
    "x": worst[x_label], "y": worst[y_label], t(f"{P}.col_difference"): worst["difference"],
    t(f"{P}.col_open"): links,
})
st.dataframe(worst_table, hide_index=True, width="stretch", column_config={
    "x": st.column_config.NumberColumn(t(f"{P}.col_x"), format="%.4f"),
    "y": st.column_config.NumberColumn(t(f"{P}.col_y"), format="%.4f"),
    t(f"{P}.col_difference"): st.column_config.NumberColumn(format="%.4f"),
    t(f"{P}.col_open"): st.column_config.LinkColumn(display_text=t("common.open_in_playground")),
})
st.caption(t(f"{P}.playground_note", n=MAX_PLAYGROUND_ITEMS))

# ---- all values and downloads
with st.expander(t(f"{P}.per_query_title")):
    st.dataframe(per, hide_index=True, width="stretch",
                 column_config={lab: st.column_config.NumberColumn(lab, format="%.4f") for lab in labels})
d1, d2 = st.columns(2)
d1.download_button(t(f"{P}.download_per_query"), per.to_csv(index=False, float_format="%.17g").encode("utf-8"),
                   file_name="ndcg_per_query.csv", mime="text/csv", key="rf_dl_per")
d2.download_button(t(f"{P}.download_means"), means.T.to_csv(float_format="%.17g").encode("utf-8"),
                   file_name="ndcg_means.csv", mime="text/csv", key="rf_dl_means")

with st.expander(t(f"{P}.about_title")):
    st.markdown(t(f"{P}.about"))
    st.code("python -m metrics.runfiles data/samples/qrels.txt data/samples/*.run --k 10", language="bash")
