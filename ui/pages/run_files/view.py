r"""The Run files page's logic: which files to read, reading each once, names, flips, links, downloads.

``pages/run_files.py`` lays out and wires; everything it computes or decides is here, and the charts
are in :mod:`ui.charts.runfiles`.  Numbers come from :mod:`metrics.runfiles`.

Files and memory
    One cap, :data:`UPLOAD_CAP_MB`, for all files of one evaluation together; it is also each
    uploader's limit and ``server.maxUploadSize`` in ``.streamlit/config.toml`` (a test checks they
    agree).  Streamlit's uploader refuses a bigger single file before sending it; the total is checked
    here before anything is parsed.  Uploaded bytes are never copied: ``UploadedFile.getvalue()``
    returns the very ``bytes`` object Streamlit holds (``io.BytesIO`` shares its initial buffer until
    written to) while ``getbuffer()`` would *copy* it to un-share it, so the page keeps the
    ``getvalue()`` object and hands the readers a ``memoryview`` of it (pyarrow reads it in place).
    Each file is parsed once per content (a SHA-256 digest computed once per upload) and kept in
    Streamlit's resource cache (``max_entries``, ``ttl``) — not ``st.cache_data``, which would pickle
    every parsed table (a second copy while storing it, a third on every rerun); the parsed tables are
    never modified.  After a parse, the memory pyarrow and the C allocator no longer use is handed back
    to the system.  ``benchmarks/upload_memory.py`` measures all of this.

Files are never part of a link: a link keeps the page's settings (see :data:`FIELDS`).

>>> [f.param for f in FIELDS][:4]
['data', 'runs', 'k', 'gain']
"""
from __future__ import annotations

import collections
import ctypes
import ctypes.util
import hashlib
import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlencode

import pandas as pd
import streamlit as st
from streamlit.logger import get_logger
from streamlit.runtime.scriptrunner import StopException

from metrics import safe_csv
from metrics.registry import DISCOUNTS, GAINS, TIES
from metrics.runfiles import (
    IDCG,
    MEASURES,
    MISSING,
    Evaluation,
    Parsed,
    Problem,
    Result,
    evaluate,
    make_variants,
    measure_names,
    parse_measures,
    query_lists,
    read_qrels,
    read_run,
)
from metrics.runfiles.read import Limits, shorten
from metrics.variant import Variant
from ui import state as ui_state
from ui.escape import markdown
from ui.i18n import current_language, registry_text, t
from ui.links import PLAYGROUND_PATH, playground_query_for
from ui.pages.run_files.match import match_fields
from ui.pages.run_files.significance import significance_fields
from ui.widgets import option_widget

SECTION = "run_files"
_LOG = get_logger(__name__)

#: Megabytes (MiB, as Streamlit counts them) for all files of one evaluation together; each uploader's
#: limit too.  ``.streamlit/config.toml`` sets ``server.maxUploadSize`` to the same number.
UPLOAD_CAP_MB = 100
UPLOAD_CAP_BYTES = UPLOAD_CAP_MB * 1024 * 1024
#: What reading one uploaded file may take, whatever its format.  Rows: as many as the shortest qrels lines
#: ("1 0 1 1" and a newline, 8 bytes) fill in the cap, so no text file the page takes is refused for its rows
#: while a compressed Parquet file holds no more than one.  Memory: at most 100 times the file (a file under
#: 1 MiB counts as 1 MiB: about a million rows) and never more than 3 times the cap, about what reading the
#: largest text file the page takes needs (~2.7 times its size; :class:`metrics.runfiles.read.Limits`,
#: ``benchmarks/upload_memory.py``).  Checked on a Parquet file's footer and its pages' own headers before a row
#: is decoded, then batch by batch (``benchmarks/hostile_uploads.py``).
UPLOAD_LIMITS = Limits(max_rows=UPLOAD_CAP_BYTES // 8, max_ratio=100, max_memory=3 * UPLOAD_CAP_BYTES)
#: Parsed files kept in the server's cache (all sessions together) and for how long after last use.
CACHE_ENTRIES = 16
CACHE_TTL = "15m"
MAX_PLAYGROUND_ITEMS = 200  # longer lists are cut for the playground link
SAMPLES = Path(__file__).resolve().parents[3] / "data" / "samples"
FILES = "rf_files"  # the uploaded files: {"qrels": (name, bytes, digest) | None, "runs": [(name, bytes, digest)]}
CHOICES = ("gain", "discount", "idcg", "ties")  # the four choices a variant is made of
ID_ROLES = ("qid", "docno", "tag")  # columns holding ids (strings or integers), the others numbers


# --------------------------------------------------------------------------------------- state
def sample_files() -> list[str]:
    """The shipped sample runs a visitor can pick (the qrels file is always used)."""
    return sorted(p.name for p in SAMPLES.iterdir() if p.is_file() and p.name not in ("qrels.txt", "README.md"))


def choices(options: Sequence[str], *, allow_empty: bool = False):
    """A :mod:`ui.state` parser for a comma-separated list of ``options`` (a multiselect's link text).

    >>> choices(("linear", "exponential"))("exponential, Linear,linear")
    ['exponential', 'linear']
    >>> choices(("linear", "exponential"))("linear,cubic")
    Traceback (most recent call last):
    ui.state.BadValue: 'cubic' is not one of: linear, exponential
    """
    one = ui_state.choice(options)

    def parse(raw) -> list[str]:
        text = str(raw).strip()
        if len(text) > 40 * max(len(options), 1):
            raise ui_state.BadValue(text, "too_long", f"text of {len(text)} characters is too long",
                             n=len(text), max=40 * len(options))
        items = [x for x in (part.strip() for part in text.split(",")) if x]
        if not items and not allow_empty:
            raise ui_state.BadValue(text, "empty", "no choice given")
        return list(dict.fromkeys(one(x) for x in items))

    parse.allowed = ("choice", {"options": ", ".join(options)})
    return parse


def cutoffs(options: Sequence[int]):
    """A :mod:`ui.state` parser for a comma-separated list of cutoffs, each one of ``options``.

    >>> cutoffs((5, 10, 20))("20, 5,5")
    [20, 5]
    >>> cutoffs((5, 10))("7")
    Traceback (most recent call last):
    ui.state.BadValue: '7' is not one of: 5, 10
    """
    words = choices([str(c) for c in options], allow_empty=True)

    def parse(raw) -> list[int]:
        for part in str(raw).split(","):
            if part.strip():
                ui_state.integer(1, max(options))(part)  # ASCII digits only, bounded (its message names what is wrong)
        return [int(x) for x in words(raw)]

    parse.allowed = ("choice", {"options": ", ".join(str(c) for c in options)})
    return parse


def all_variant_labels() -> list[str]:
    """Every variant the page can evaluate (the x and y axes of the comparison may name any of them)."""
    return [v.label for v in make_variants(gains=list(GAINS), discounts=list(DISCOUNTS), idcg=list(IDCG),
                                           ties=list(TIES))]


DEFAULT_TIES = ["trec_eval", "average"]
#: trec_eval's measures a visitor can pick (numeric ones: not runid or relstring), in trec_eval's order.
MEASURE_CHOICES = tuple(name for name, m in MEASURES.items()
                        if m.summary not in ("runid", "none") and m.origin != "variant")
DEFAULT_MEASURES = ["ndcg_cut", "map", "P", "recall", "recip_rank"]
#: Cutoffs offered for the measures taking them (P, recall, ndcg_cut, map_cut, success, judged, err, ...).
CUTOFF_CHOICES = (1, 3, 5, 10, 15, 20, 30, 50, 100, 200, 500, 1000)
DEFAULT_CUTOFFS = [10]
SIG_DEFAULT = "ndcg_cut_10"
X_DEFAULT = "linear/standard/judged/trec_eval"
Y_DEFAULT = "exponential/standard/judged/trec_eval"
SAMPLE_RUNS = [n for n in sample_files() if n.endswith(".run")]

def comparable_names() -> list[str]:
    """Everything the significance section may compare: each per-query measure under every cutoff offered
    (and trec_eval's defaults), and NDCG under the variant on the x or the y axis (``"x"``, ``"y"``)."""
    names: list[str] = []
    every_cut = ",".join(str(c) for c in sorted({*CUTOFF_CHOICES, *itertools.chain.from_iterable(
        m.defaults for m in MEASURES.values() if m.params == "cutoffs")}))
    for name in MEASURE_CHOICES:
        m = MEASURES[name]
        if m.per_query:
            names += measure_names([name] + ([f"{name}.{every_cut}"] if m.params == "cutoffs" else []))
    return list(dict.fromkeys(names)) + ["x", "y"]


#: More measures by name (ir_measures' names, trec_eval's, NDCG variants), ';' between them: at most so many.
MORE_MAX_NAMES = 20
MORE_MAX_CHARS = 600


def more_names(text: str) -> list[str]:
    """The names typed in the "more measures" box: split at ';' and line breaks, blanks dropped.

    >>> more_names("nDCG@10; P(rel=2)@5;\\n")
    ['nDCG@10', 'P(rel=2)@5']
    """
    return [part.strip() for part in str(text).replace("\n", ";").split(";") if part.strip()]


def check_more(text: str) -> list[str]:
    """The names of the "more measures" box, each checked by the engine's ``-m`` grammar.

    Raises ValueError naming the first bad name: unknown, malformed, too many, or a diversity measure
    (those read diversity qrels, which this page does not read).

    >>> check_more("nDCG@10; Judged@10")
    ['nDCG@10', 'Judged@10']
    >>> check_more("P@x")
    Traceback (most recent call last):
    ...
    ValueError: measure 'P@x': expected a number at character 3 ('x')
    """
    names = more_names(text)
    if len(str(text)) > MORE_MAX_CHARS or len(names) > MORE_MAX_NAMES:
        raise ValueError(f"at most {MORE_MAX_NAMES} names and {MORE_MAX_CHARS} characters, got {len(names)} "
                         f"names and {len(str(text))} characters")
    for name in names:
        for r in parse_measures([name]):
            if r.info.origin == "ir_measures" and r.params.provider == "pyndeval":
                raise ValueError(f"measure {name[:40]!r}: diversity measures read diversity qrels (qid subtopic "
                                 "docno rel); evaluate them with the command line")
    return names


def _more_field(raw) -> str:
    value = str(raw)
    try:
        check_more(value)
    except ValueError as exc:
        raise ui_state.BadValue(value[:80], "invalid", str(exc), message=str(exc)) from None
    return value


_more_field.allowed = ("text", {"max": MORE_MAX_CHARS})


#: Every setting of the page, its link parameter and default.  Files are never in links.
FIELDS = (
    ui_state.Field("rf_source", "data", default="sample", parse=ui_state.choice(("sample", "upload"))),
    ui_state.Field("rf_sample_runs", "runs", default=SAMPLE_RUNS, parse=choices(sample_files(), allow_empty=True)),
    ui_state.Field("rf_k", "k", default=10, parse=ui_state.optional(ui_state.integer(1, 10_000))),
    ui_state.Field("rf_gains", "gain", default=list(GAINS), parse=choices(list(GAINS))),
    ui_state.Field("rf_discounts", "discount", default=list(DISCOUNTS), parse=choices(list(DISCOUNTS))),
    ui_state.Field("rf_idcg", "idcg", default=["judged", "list"], parse=choices(list(IDCG))),
    ui_state.Field("rf_ties", "ties", default=list(DEFAULT_TIES), parse=choices(list(TIES))),
    ui_state.Field("rf_missing", "missing", default="skip", parse=ui_state.choice(list(MISSING))),
    ui_state.Field("rf_accept_bad", "accept", default=False, parse=ui_state.boolean()),
    # The variants compared query by query: four selects each (see variant_picker), the label kept here.
    ui_state.Field("rf_x", "x", default=X_DEFAULT, parse=ui_state.choice(all_variant_labels()), widget=False),
    ui_state.Field("rf_y", "y", default=Y_DEFAULT, parse=ui_state.choice(all_variant_labels()), widget=False),
    ui_state.Field("rf_top", "top", default=10, parse=ui_state.integer(1, 50)),
    ui_state.Field("rf_measures", "measures", default=list(DEFAULT_MEASURES),
            parse=choices(MEASURE_CHOICES, allow_empty=True)),
    ui_state.Field("rf_cutoffs", "cutoffs", default=list(DEFAULT_CUTOFFS), parse=cutoffs(CUTOFF_CHOICES)),
    ui_state.Field("rf_more", "more", default="", parse=_more_field),
    ui_state.Field("rf_sig_measure", "sig_measure", default=SIG_DEFAULT, parse=ui_state.choice(comparable_names())),
    *significance_fields("rf_sig"),
    *match_fields(),  # "Where did this number come from?" (ui/pages/run_files/match.py)
)


def pick_variant(key: str, labels: list[str], fallback: str) -> None:
    """Make the selectbox ``key`` hold one of ``labels`` (call before drawing it): a variant (or measure)
    from a link or an earlier choice that is no longer evaluated gives way to ``fallback``."""
    if st.session_state.get(key) not in labels:
        st.session_state[key] = fallback if fallback in labels else labels[0]


def _compose(axis: str) -> None:
    """A picker's callback: the four selects of ``axis`` make its variant label."""
    st.session_state[f"rf_{axis}"] = "/".join(str(st.session_state[f"rf_{axis}_{c}"]) for c in CHOICES)


def variant_picker(axis: str, labels: list[str], label: str) -> str:
    """The variant on one axis as four selects (gain, discount, IDCG source, tie rule), each offering the
    options evaluated, so every name shows whole on a projector and a phone.  The variant's label lives
    in ``st.session_state["rf_<axis>"]`` (a page field); returns it."""
    current = Variant.parse(st.session_state[f"rf_{axis}"])
    st.markdown(f"**{label}**")
    for choice in CHOICES:
        options = list(dict.fromkeys(getattr(Variant.parse(lab), choice) for lab in labels))
        key = f"rf_{axis}_{choice}"
        st.session_state[key] = getattr(current, choice)
        names = {o: option_name(choice, o) for o in options}
        # option_widget: a label of the language before, sent back after a quick switch, is the same choice
        option_widget(st.selectbox, t(f"{SECTION}.choice.{choice}"), options, key=key, format_func=names.__getitem__,
                      on_change=_compose, args=(axis,))
    return st.session_state[f"rf_{axis}"]


def y_fallback(labels: list[str], x_label: str) -> str:
    """A second variant worth comparing with ``x_label``: the default y, else one with another gain.

    >>> y_fallback(["linear/standard/judged/trec_eval", "binary/standard/judged/trec_eval"],
    ...            "linear/standard/judged/trec_eval")
    'binary/standard/judged/trec_eval'
    """
    if Y_DEFAULT in labels and Y_DEFAULT != x_label:
        return Y_DEFAULT
    x = Variant.parse(x_label)
    other = [lab for lab in labels if Variant.parse(lab).gain != x.gain]
    rest = [lab for lab in labels if lab != x_label]
    return (other or rest or labels)[0]


# --------------------------------------------------------------------------------------- names
def variant_name(label: str | Variant, *, lines: bool = False) -> str | list[str]:
    """A variant in words, in the page's language: ``Linear gain · Standard discount · IDCG from all
    judged documents · trec_eval (docno descending)``; ``lines=True`` gives two lines (for axis titles)."""
    v = label if isinstance(label, Variant) else Variant.parse(label)
    first = f"{option_name('gain', v.gain)} · {option_name('discount', v.discount)}"
    second = f"{option_name('idcg', v.idcg)} · {option_name('ties', v.ties)}"
    return [first, second] if lines else f"{first} · {second}"


def option_name(choice: str, key: str, *, short: bool = False) -> str:
    """One option of one choice in words (``"gain", "exponential"`` -> ``Exponential gain``); ``short``
    names an IDCG source without "IDCG from" (for a column that says it)."""
    if choice == "gain":
        return registry_text("gain", GAINS[key], "name")
    if choice == "discount":
        return registry_text("discount", DISCOUNTS[key], "name")
    if choice == "ties":
        return registry_text("ties", TIES[key], "name")
    return t(f"{SECTION}.idcg.{key}") if short else t(f"{SECTION}.idcg_short.{key}")


def problem_text(p: Problem, *, markdown_text: bool = False) -> str:
    """The translated problem; ``markdown_text=True`` escapes the file's own text (ids, tokens, names)."""
    fields = p.fields()  # a file's own text shortened (an id of a million characters shows as a few dozen)
    if p.kind == "column_type":  # the accepted types in the page's language
        fields["accepted"] = t(f"{SECTION}.accepted.{'ids' if fields.get('role') in ID_ROLES else 'values'}")
    if p.kind == "huge_grade" and fields.get("gain") in GAINS:
        fields["gain"] = option_name("gain", fields["gain"])
    if markdown_text:
        fields = {k: markdown(v, 400) if isinstance(v, str) else v for k, v in fields.items()}  # shortened above
    text = t(f"{SECTION}.problem.{p.kind}", **fields)
    if text.startswith(f"{SECTION}.problem."):
        return markdown(p.message, 300) if markdown_text else p.message
    return text


# --------------------------------------------------------------------------------------- files
@dataclass(frozen=True)
class Source:
    """One file to read: its kind, the name shown, size and content digest, and the bytes (not compared)."""

    kind: str
    name: str
    size: int
    digest: str
    data: bytes | memoryview = field(compare=False, repr=False)


def digest_of(data) -> str:
    """SHA-256 of a file's bytes (read in place, never copied).

    >>> digest_of(b"abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(memoryview(data)).hexdigest()


def _entry(kind: str, item) -> Source:
    name, data, *rest = item
    return Source(kind, str(name), len(data), rest[0] if rest else digest_of(data), data)


def _remember(entries_key: str, files) -> None:
    old = st.session_state.get(FILES) or {}
    known = {id(e[1]): e[2] for e in [old.get("qrels"), *old.get("runs", [])] if e is not None and len(e) > 2}

    def entry(f):
        data = f.getvalue()  # the UploadedFile's own bytes object: no copy (getbuffer() would copy)
        return (f.name, data, known.get(id(data)) or digest_of(data))

    value = [entry(f) for f in files or []] if entries_key == "runs" else (entry(files) if files else None)
    st.session_state[FILES] = {**{"qrels": None, "runs": []}, **old, entries_key: value}


def remember_qrels() -> None:
    """The qrels uploader's callback: keep the uploaded file (the very bytes Streamlit holds, no copy) and
    its digest, computed once per upload.  Kept until the visitor replaces or removes it, so it survives
    a visit to another page (Streamlit empties the uploader then; the page says the file is still used)."""
    _remember("qrels", st.session_state.get("rf_up_qrels"))


def remember_runs() -> None:
    """The runs uploader's callback: as :func:`remember_qrels`, for the list of runs."""
    _remember("runs", st.session_state.get("rf_up_runs"))


def sync_uploads() -> None:
    """Keep what the uploaders hold when their callbacks did not run (call after drawing them).

    A page that moved to another app server (its own died) starts a new session there; the first run of
    that session gets the uploaders' values before it has drawn them, and Streamlit then calls no
    ``on_change`` — the files were shown as chips but never kept ("Upload a qrels file…" until a reload:
    red team F8).  An uploader holding files other than the kept ones is kept here; an empty uploader
    changes nothing (after a visit to another page it is empty while its files are still used)."""
    old = st.session_state.get(FILES) or {}
    for entries_key, widget in (("qrels", "rf_up_qrels"), ("runs", "rf_up_runs")):
        value = st.session_state.get(widget)
        files = (value if isinstance(value, list) else [value]) if value else []
        if not files:
            continue
        kept = old.get(entries_key)
        kept = [] if kept is None else kept if entries_key == "runs" else [kept]
        if [(f.name, id(f.getvalue())) for f in files] != [(e[0], id(e[1])) for e in kept]:
            _remember(entries_key, value)
            old = st.session_state.get(FILES) or {}


def kept_names(qrels: Source | None, runs: Sequence[Source]) -> list[str]:
    """Names of kept files whose uploader is empty (after a visit to another page), to say they are used."""
    out = []
    if qrels is not None and st.session_state.get("rf_up_qrels") is None:
        out.append(qrels.name)
    if runs and not st.session_state.get("rf_up_runs"):
        out.extend(s.name for s in runs)
    return list(dict.fromkeys(out))


def forget_uploads() -> None:
    """The "forget these files" button: drop the kept files (Streamlit frees them with the session)."""
    st.session_state.pop(FILES, None)


def uploaded_sources() -> tuple[Source | None, list[Source]]:
    """The kept uploads as sources (tests put ``(name, bytes)`` pairs into ``st.session_state[FILES]``)."""
    files = st.session_state.get(FILES) or {}
    qrels = files.get("qrels")
    return (_entry("qrels", qrels) if qrels else None), [_entry("run", r) for r in files.get("runs") or []]


def sample_sources(names: Sequence[str]) -> tuple[Source, list[Source]]:
    """The shipped qrels and the chosen sample runs."""
    qrels = ("qrels.txt", (SAMPLES / "qrels.txt").read_bytes())
    return _entry("qrels", qrels), [_entry("run", (n, (SAMPLES / n).read_bytes())) for n in names]


@dataclass(frozen=True)
class Note:
    """Something the page says about the chosen files before reading them (a catalogue key + fields)."""

    kind: str  # "added_again" | "same_content" | "same_name"
    fields: dict


def distinct_runs(runs: Sequence[Source]) -> tuple[list[Source], list[Note]]:
    """Runs to evaluate: a file added again (same content) is read once; two different files with the
    same name get ``name (2)``.  Each case is a :class:`Note` the page shows.

    >>> a, b = Source("run", "bm25.run", 3, "d1", b"abc"), Source("run", "bm25.run", 3, "d2", b"abd")
    >>> c = Source("run", "copy.run", 3, "d1", b"abc")
    >>> kept, notes = distinct_runs([a, a, b, c])
    >>> [s.name for s in kept], [n.kind for n in notes]
    (['bm25.run', 'bm25.run (2)'], ['added_again', 'same_name', 'same_content'])
    """
    kept: list[Source] = []
    notes: list[Note] = []
    by_digest: dict[str, str] = {}
    used: set[str] = set()
    for src in runs:
        if src.digest in by_digest:
            first = by_digest[src.digest]
            notes.append(Note("added_again", {"name": src.name}) if first == src.name
                         else Note("same_content", {"name": src.name, "first": first}))
            continue
        name, j = src.name, 2
        while name in used:
            name, j = f"{src.name} ({j})", j + 1
        if name != src.name:
            notes.append(Note("same_name", {"name": src.name, "shown": name}))
        used.add(name)
        by_digest[src.digest] = name
        kept.append(Source(src.kind, name, src.size, src.digest, src.data))
    return kept, notes


def too_large(sources: Sequence[Source]) -> dict | None:
    """Fields for the "too large" message when the files together exceed :data:`UPLOAD_CAP_MB`, else None.

    >>> too_large([Source("run", "a", 60 * 2**20, "x", b""), Source("run", "b", 50 * 2**20, "y", b"")])
    {'total_mb': '110.0', 'cap_mb': 100, 'n': 2}
    >>> too_large([Source("run", "a", 10, "x", b"")]) is None
    True
    """
    total = sum(s.size for s in sources)
    if total <= UPLOAD_CAP_BYTES:
        return None
    return {"total_mb": f"{total / 2**20:.1f}", "cap_mb": UPLOAD_CAP_MB, "n": len(sources)}


_libc = None


def release_memory() -> bool:
    """Hand memory freed by a parse back to the system: pyarrow's pool keeps freed blocks for reuse and
    glibc's ``malloc`` keeps freed heap pages, so the process would otherwise stay at its peak.  Returns
    whether glibc's ``malloc_trim`` was there to call (False on other C libraries)."""
    global _libc
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    if _libc is None:
        name = ctypes.util.find_library("c")
        try:
            _libc = ctypes.CDLL(name) if name else False
        except OSError:
            _libc = False
    if _libc and hasattr(_libc, "malloc_trim"):
        _libc.malloc_trim(0)
        return True
    return False


class VisitorLeft(StopException):
    """Raised between two blocks of a file being read when the session that asked for it has ended: Streamlit's
    own "stop this script run" (no traceback in the server's log; nothing is cached)."""


def stop_when_visitor_leaves(name: str):
    """An ``on_progress`` callback for a reader: it raises :class:`VisitorLeft` once the session running
    this script is no longer active (the tab was closed or the connection lost), so the rest of the file is
    not read for nobody.  Streamlit asks a disconnected session's script to stop, but a script only stops at
    its next Streamlit call; the readers call this between blocks of lines and Parquet batches.  Outside a
    server (AppTest, a benchmark) it never raises."""
    from streamlit import runtime
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not runtime.exists():
        return lambda _fraction: None
    session_id, rt = ctx.session_id, runtime.get_instance()

    def check(_fraction: float) -> None:
        if not rt.is_active_session(session_id):
            _LOG.info("stopped reading %s: its visitor left", shorten(name))
            raise VisitorLeft(name)

    return check


def read_source(kind: str, name: str, digest: str, data, on_progress=None) -> Parsed:
    """Parse one file from its bytes, in place (uncached; the page calls :func:`read_cached`), within
    :data:`UPLOAD_LIMITS`; ``on_progress`` may stop it (:func:`stop_when_visitor_leaves`)."""
    reader = read_qrels if kind == "qrels" else read_run
    try:
        parsed = reader(memoryview(data), name=name, max_bytes=UPLOAD_CAP_BYTES, limits=UPLOAD_LIMITS,
                        on_progress=on_progress)
    finally:
        release_memory()
    return parsed


#: Bytes the parsed files kept in the server's cache may take together (all sessions; their tables' arrays, see
#: :func:`parsed_bytes`): beyond it, the files used longest ago are dropped (and read again if asked for).  The
#: entries alone do not bound it: 16 files may hold gigabytes.
CACHE_BYTES = 4 * UPLOAD_CAP_BYTES


def parsed_bytes(parsed: Parsed) -> int:
    """What a parsed file's table holds in memory (its arrays' buffers), 0 without a table.

    >>> from metrics.runfiles import read_run
    >>> parsed_bytes(read_run(b"q1 Q0 d1 1 1.0 t\\n")) > 0
    True
    """
    table = parsed.table
    if table is None:
        return 0
    arrays = (table.qid, table.docno)
    return int(sum(a.nbytes for a in arrays) + table.value.nbytes + (table.line.nbytes if table.line is not None
                                                                      else 0))


class _Held:
    """A parsed file in the server's cache; :func:`_hold` empties it when the cache's bytes are over
    :data:`CACHE_BYTES` (Streamlit's cache then reads the file again: its ``validate`` says the entry is gone)."""

    __slots__ = ("parsed", "size", "__weakref__")

    def __init__(self, parsed: Parsed):
        self.parsed, self.size = parsed, parsed_bytes(parsed)


_HELD: collections.OrderedDict[int, _Held] = collections.OrderedDict()  # by last use, oldest first
_HELD_LOCK = threading.Lock()


def _hold(held: _Held) -> None:
    """Count ``held`` as just used; empty the entries used longest ago while the total is over the budget."""
    with _HELD_LOCK:
        _HELD.pop(id(held), None)
        _HELD[id(held)] = held
        total = sum(h.size for h in _HELD.values())
        for key in list(_HELD):
            if total <= CACHE_BYTES or key == id(held):
                break
            dropped = _HELD.pop(key)
            total -= dropped.size
            dropped.parsed = None


def _release(held: _Held) -> None:
    """Streamlit dropped the entry (its ``ttl`` or ``max_entries``): forget it."""
    with _HELD_LOCK:
        _HELD.pop(id(held), None)
    held.parsed = None


@st.cache_resource(max_entries=CACHE_ENTRIES, ttl=CACHE_TTL, show_spinner=False,
                   validate=lambda held: held.parsed is not None, on_release=_release)
def _read_cached(kind: str, name: str, digest: str, _data) -> _Held:
    return _Held(read_source(kind, name, digest, _data, on_progress=stop_when_visitor_leaves(name)))


def read_cached(src: Source) -> Parsed:
    """The parsed file, read once per (kind, name, content) for every session of the server while the cache's
    bytes allow (:data:`CACHE_BYTES`)."""
    while True:
        held = _read_cached(src.kind, src.name, src.digest, src.data)
        parsed = held.parsed  # this run's own reference: emptying the entry now frees nothing it uses
        if parsed is not None:
            _hold(held)
            return parsed


@st.cache_resource(max_entries=CACHE_ENTRIES, ttl=CACHE_TTL, show_spinner=False)
def _result_cached(key: tuple, _qrels: Parsed, _runs: tuple[Parsed, ...], specs: tuple[str, ...],
                   complete: bool) -> Result:
    result = evaluate(_qrels.table, [p.table for p in _runs], list(specs), complete=complete)
    release_memory()
    return result


def evaluate_cached(qrels: Parsed, qrels_src: Source, runs: Sequence[tuple[Parsed, Source]], *, k,
                    variants: Sequence[Variant], missing: str,
                    measures: Sequence[str] = ()) -> tuple[Evaluation, Result]:
    """Every run under every variant and every chosen measure: one pass of the engine (each run ranked
    once: :func:`metrics.runfiles.evaluate`), computed once per files and settings.  Returns the variants
    table (:meth:`metrics.runfiles.Evaluation.of`) and the :class:`~metrics.runfiles.Result` the measures,
    the paired tests and the downloads are read from."""
    key = (qrels_src.digest, tuple((s.name, s.digest) for _, s in runs))
    specs = tuple(dict.fromkeys([*(v.with_(k=k).format() for v in variants), *measures]))
    result = _result_cached(key, qrels, tuple(p for p, _ in runs), specs, missing == "zero")
    return Evaluation.of(result, k=k), result


# --------------------------------------------------------------------------------------- the verdict
def means_table(ev: Evaluation, significance: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per variant: the winner first, the four choices in words, (given
    :func:`ui.pages.run_files.significance.winner_significance`'s table) whether the winner wins significantly, every
    run's mean, the order of runs."""
    means = ev.means()
    orders = ev.orders().set_index("variant")
    table = {t(f"{SECTION}.col_winner"): orders["winner"].to_numpy()}
    for choice in CHOICES:
        table[t(f"{SECTION}.choice.{choice}")] = [
            option_name(choice, getattr(v, choice), short=True) for v in ev.variants
        ]
    if significance is not None:
        table[t(f"{SECTION}.col_significant")] = significance.set_index("variant").loc[ev.labels, "text"].to_numpy()
    table.update({run: means.loc[run].to_numpy() for run in ev.runs})
    table[t(f"{SECTION}.col_order")] = orders["order"].to_numpy()
    return pd.DataFrame(table)


def winner_flips(orders: pd.DataFrame) -> pd.DataFrame:
    """Every pair of evaluated variants that differ in exactly one choice, and whether the winner differs.

    ``orders`` is :meth:`metrics.runfiles.Evaluation.orders` (columns gain, discount, idcg, ties, winner,
    margin).  One row per pair: ``choice`` (which one differs), ``a`` / ``b`` (the two options),
    ``same`` (the other three choices, as a variant label with ``*`` for the differing one),
    ``variant_a`` / ``variant_b``, ``winner_a`` / ``winner_b`` and ``flips``.

    >>> o = pd.DataFrame({"gain": ["linear", "exponential", "linear"], "discount": ["standard"] * 3,
    ...                   "idcg": ["judged"] * 3, "ties": ["trec_eval", "trec_eval", "average"],
    ...                   "winner": ["A", "B", "A"]})
    >>> winner_flips(o)[["choice", "a", "b", "flips"]].to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'choice': 'gain', 'a': 'linear', 'b': 'exponential', 'flips': True},
     {'choice': 'ties', 'a': 'trec_eval', 'b': 'average', 'flips': False}]
    """
    rows = []
    records = orders.to_dict("records")
    for choice in CHOICES:
        others = [c for c in CHOICES if c != choice]
        groups: dict[tuple, list[dict]] = {}
        for r in records:
            groups.setdefault(tuple(r[c] for c in others), []).append(r)
        for group in groups.values():
            for ra, rb in itertools.combinations(group, 2):
                same = "/".join("*" if c == choice else ra[c] for c in CHOICES)
                rows.append({"choice": choice, "a": ra[choice], "b": rb[choice], "same": same,
                             "variant_a": "/".join(ra[c] for c in CHOICES),
                             "variant_b": "/".join(rb[c] for c in CHOICES),
                             "winner_a": ra["winner"], "winner_b": rb["winner"],
                             "flips": ra["winner"] != rb["winner"]})
    columns = ["choice", "a", "b", "same", "variant_a", "variant_b", "winner_a", "winner_b", "flips"]
    return pd.DataFrame(rows, columns=columns)


def flip_summary(flips: pd.DataFrame) -> pd.DataFrame:
    """Per choice: how many one-choice changes there are and how many of them change the winner.

    >>> f = pd.DataFrame({"choice": ["gain", "gain", "ties"], "flips": [True, False, False]})
    >>> flip_summary(f).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'choice': 'gain', 'changes': 2, 'flips': 1}, {'choice': 'ties', 'changes': 1, 'flips': 0}]
    """
    rows = []
    for choice in CHOICES:
        part = flips[flips["choice"] == choice]
        if len(part):
            rows.append({"choice": choice, "changes": int(len(part)), "flips": int(part["flips"].sum())})
    return pd.DataFrame(rows, columns=["choice", "changes", "flips"])


def flips_table(flips: pd.DataFrame) -> pd.DataFrame:
    """The changes that flip the winner, in words, for the page's table."""
    part = flips[flips["flips"]]
    return pd.DataFrame({
        t(f"{SECTION}.col_choice"): [t(f"{SECTION}.choice.{c}") for c in part["choice"]],
        t(f"{SECTION}.col_from"): [option_name(c, a) for c, a in zip(part["choice"], part["a"])],
        t(f"{SECTION}.col_to"): [option_name(c, b) for c, b in zip(part["choice"], part["b"])],
        t(f"{SECTION}.col_winner_from"): part["winner_a"].to_numpy(),
        t(f"{SECTION}.col_winner_to"): part["winner_b"].to_numpy(),
        t(f"{SECTION}.col_with"): [_others_in_words(s) for s in part["same"]],
    })


def _others_in_words(same: str) -> str:
    return " · ".join(option_name(c, v) for c, v in zip(CHOICES, same.split("/")) if v != "*")


# --------------------------------------------------------------------------------------- trec_eval's measures
def measure_specs(measures: Sequence[str], cuts: Sequence[int]) -> list[str]:
    """trec_eval ``-m`` specs for the chosen measures: the chosen cutoffs go to measures that take cutoffs,
    the others use trec_eval's defaults.

    >>> measure_specs(["map", "P", "ndcg_cut"], [5, 10])
    ['map', 'P.5,10', 'ndcg_cut.5,10']
    """
    cut_text = ",".join(str(c) for c in sorted(set(cuts)))
    return [f"{m}.{cut_text}" if MEASURES[m].params == "cutoffs" and cut_text else m for m in measures]


def more_help(name: str) -> str:
    """One line about a name of the "more measures" box: its help and, for ir_measures' names, the provider
    whose values it gives."""
    from metrics.runfiles.measures.irm import ALIASES, IR_MEASURES

    r = parse_measures([name])[0]
    if r.info.origin == "ir_measures":
        base = ALIASES.get(r.info.name, (r.info.name, {}))[0]
        return t("run_files.more_irm", provider=r.params.provider, help=IR_MEASURES[base].help)
    if r.info.origin == "variant":
        return t("run_files.more_variant")
    return measure_help(r.info.name)


def measure_help(name: str) -> str:
    """A measure's help in the page's language (English from :data:`metrics.runfiles.MEASURES`)."""
    m = MEASURES[name]
    return registry_text("measure", SimpleNamespace(key=name, help=m.help), "help")


#: Problems only trec_eval's measures raise (the variants' evaluation, shown above them, says the others once).
MEASURES_ONLY_PROBLEMS = frozenset({"whole_grades"})


def measure_request(session) -> tuple[list[str], list[str], str | None]:
    """The measures the page's settings ask for, before anything is evaluated: (the ``-m`` specs, the names of
    the "more measures" box, the box's error or None).  A box that does not check keeps its last valid names
    (``rf_more_valid``); the error is shown by the measures section."""
    error = None
    try:
        more = check_more(session["rf_more"])
        session["rf_more_valid"] = more
    except ValueError as exc:
        more, error = session.get("rf_more_valid", []), str(exc)
    return measure_specs(session["rf_measures"], session["rf_cutoffs"] or []) + more, more, error


def measures_frame(result: Result, specs: Sequence[str]) -> pd.DataFrame:
    """trec_eval's long table (``run, measure, qid, value``; ``qid == "all"``: the summary) of the chosen
    measures, read from the page's one :class:`~metrics.runfiles.Result` (which also holds the variants)."""
    frame = result.frame()
    return frame[frame["measure"].isin(set(measure_names(list(specs))))].reset_index(drop=True)


def split_problems(problems: Sequence[Problem]) -> tuple[list[Problem], list[Problem]]:
    """The one evaluation's problems as the page shows them: (those said above the variants, those said under
    trec_eval's measures: :data:`MEASURES_ONLY_PROBLEMS`, grades that are not whole numbers read as trec_eval
    reads them).

    >>> above, below = split_problems([Problem("q", 3, "whole_grades", {}), Problem("r", None, "no_queries", {})])
    >>> [p.kind for p in above], [p.kind for p in below]
    (['no_queries'], ['whole_grades'])
    """
    return ([p for p in problems if p.kind not in MEASURES_ONLY_PROBLEMS],
            [p for p in problems if p.kind in MEASURES_ONLY_PROBLEMS])


def measure_tables(frame: pd.DataFrame, specs: Sequence[str] = ()) -> tuple[pd.DataFrame, pd.DataFrame]:
    """trec_eval's long output as two tables: the summary (one row per run, one column per printed measure,
    in the order trec_eval prints ``specs``) and the per-query values (``run``, ``qid``, one column per
    measure printed per query).

    >>> f = pd.DataFrame({"run": ["r"] * 3, "measure": ["map", "map", "map"], "qid": ["1", "2", "all"],
    ...                   "value": [0.5, 1.0, 0.75]})
    >>> means, per = measure_tables(f)
    >>> means.to_dict("records"), per.to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    ([{'run': 'r', 'map': 0.75}],
     [{'run': 'r', 'qid': '1', 'map': 0.5}, {'run': 'r', 'qid': '2', 'map': 1.0}])
    """
    order = list(dict.fromkeys([*measure_names(list(specs)), *frame["measure"]]))
    runs = list(dict.fromkeys(frame["run"]))
    summary = frame[frame["qid"] == "all"]
    means = summary.pivot(index="run", columns="measure", values="value").reindex(index=runs)
    means = means[[m for m in order if m in means.columns]].reset_index()
    means.columns.name = None
    rows = frame[frame["qid"] != "all"]
    per = rows.pivot_table(index=["run", "qid"], columns="measure", values="value", aggfunc="first", sort=False)
    if not len(per):
        return means, pd.DataFrame(columns=["run", "qid"])
    per = per[[m for m in order if m in per.columns]].reset_index()
    per.columns.name = None
    return means, per


# --------------------------------------------------------------------------------------- queries
def per_query_table(ev: Evaluation) -> pd.DataFrame:
    """Per-query values (run, query, one column per variant label): the table and its download."""
    return ev.per_query()


def playground_links(ev: Evaluation, worst: pd.DataFrame, qrels: Parsed, runs: dict[str, Parsed], *,
                     variant: str, k) -> list[str]:
    """For each (run, query) row of ``worst``: a playground link with that run's ranked list for the query
    (tied scores ordered as trec_eval does, the first :data:`MAX_PLAYGROUND_ITEMS`) and the judged
    documents it missed, under ``variant``."""
    v = Variant.parse(variant)
    links = []
    for run, qid in zip(worst["run"], worst["qid"]):
        lists = query_lists(qrels.table, runs[run].table, qid, ties="trec_eval" if v.ties == "average" else v.ties)
        grades = lists["grades"][:MAX_PLAYGROUND_ITEMS].tolist() or [0.0]
        labels = (lists["docnos"][:MAX_PLAYGROUND_ITEMS] or ["—"]) + lists["unretrieved_docnos"]
        query = playground_query_for(grades, labels=labels, unretrieved=lists["unretrieved"].tolist(), k=k,
                                     gain=v.gain, discount=v.discount, idcg=v.idcg, lang=current_language())
        links.append(f"{PLAYGROUND_PATH}?{urlencode(query)}")
    return links


def csv_bytes(frame: pd.DataFrame, *, index: bool = False) -> bytes:
    """A download: text cells neutralised (:func:`metrics.safe_csv.to_csv`), every float digit kept."""
    return safe_csv.to_csv(frame, index=index).encode("utf-8")
